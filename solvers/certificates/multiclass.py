"""Checkers of the multiclass certificates (:mod:`solvers.multiclass`), written without its search.

Both read only the class's label matrix, with version spaces as Python sets of concept indices (never
the solver's bitsets or memos):

* :func:`check_tree` replays a mistake tree. Full information: every node's two edges carry two
  different labels, every root-to-leaf path is realised by a concept, and the shortest path has at
  least the claimed depth, so the adversary that follows the tree (answering the label the learner did
  not predict) forces that many mistakes. Bandit feedback (a DAG: ``root`` and each entry's ``next``
  index ``nodes``): every node lists the k predictions, each answer "right" or "wrong" is realised by a
  concept consistent with the path ("wrong" to a label no such concept gives is a mistake that leaves
  them all), no path comes back to a node with the same concepts left (a loop), and every path from the
  root to a leaf has at least the claimed number of "wrong" answers. A node reached again with the same
  concepts left is replayed once.
* :func:`check_upper` replays a deterministic learner against every adversary: all points, and every
  answer a consistent concept allows, over all version spaces reached, and checks the worst case is at
  most the claimed value (so Opt is). It is exhaustive, so only for small classes: above ``budget``
  version spaces it returns ``None`` and says that the upper bound then rests on the exhaustive search.

Both return ``(ok, message)``, the message one line.

References
----------
.. [DSBS] Daniely, Sabato, Ben-David and Shalev-Shwartz, "Multiclass learnability and the ERM principle",
   COLT 2011; JMLR 16 (2015).
.. [DH13] Daniely and Helbertal, "The price of bandit information in multiclass online classification",
   COLT 2013.

Examples
--------
>>> from solvers.multiclass import MulticlassClass, OptimalLearner, opt_bandit
>>> C = MulticlassClass([[0], [1], [2]])
>>> check_tree(C, opt_bandit(C).tree)
(True, 'bandit tree OK: every branch is realised; it forces 2 mistakes (claimed 2)')
>>> check_upper(C, "bandit", OptimalLearner(C, "bandit").predict, 2)
(True, 'upper bound OK: the learner makes at most 2 mistakes against every adversary (5 version spaces replayed)')
"""

from __future__ import annotations

import math
import sys
import time

from .. import interrupts

__all__ = ["EXHAUSTIVE", "check_tree", "check_upper"]

#: The most version spaces :func:`check_upper` replays before it gives up.
EXHAUSTIVE = 200_000


class _Bad(Exception):
    """The tree is malformed or claims a branch no concept realises (the message says where)."""


def _index(value, bound: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < bound:
        raise _Bad(f"{what} {value!r} is not an integer in 0..{bound - 1}")
    return value


def check_tree(C, tree, claimed: int | None = None) -> tuple:
    """Replay a multiclass mistake tree (full or bandit) against ``C``.

    Parameters
    ----------
    C : MulticlassClass
        Read through ``C.matrix`` and ``C.k`` only.
    tree : dict
        The JSON of :func:`solvers.multiclass.opt_full` or :func:`~solvers.multiclass.opt_bandit`'s tree.
    claimed : int, optional
        The lower bound the tree must certify (default: the tree's own ``depth`` or ``mistakes``).

    Returns
    -------
    (bool, str)
    """
    M = C.matrix.tolist()
    k = C.k
    rows, cols = C.n_concepts, C.n_points
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 8 * rows + 200))
    try:
        if not isinstance(tree, dict):
            raise _Bad("the tree must be a JSON object with \"game\" and \"root\"")
        game = tree.get("game")
        if game not in ("full", "bandit"):
            raise _Bad(f"\"game\" is {game!r}; it must be \"full\" or \"bandit\"")
        for key, want in (("k", k), ("concepts", rows), ("points", cols)):
            if key in tree and tree[key] != want:
                raise _Bad(f"the tree is for a class with {key}={tree[key]!r}, this one has {key}={want}")
        key = "depth" if game == "full" else "mistakes"
        if claimed is None:
            claimed = tree.get(key)
        if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0:
            raise _Bad(f"the tree's claimed {key} {claimed!r} is not a whole number >= 0")
        if "root" not in tree:
            raise _Bad("the tree has no \"root\"")
        alive = frozenset(range(rows))
        if game == "full":
            got = _walk_full(tree["root"], alive, M, k, cols, "root", [0])
        else:
            nodes = tree.get("nodes")
            if not isinstance(nodes, list):
                raise _Bad("a bandit tree needs \"nodes\": the list its \"root\" and \"next\" indices point into")
            got = _walk_bandit(tree["root"], alive, M, k, cols, "root", nodes, {}, set())
    except _Bad as e:
        return False, f"{tree.get('game', 'the') if isinstance(tree, dict) else 'the'} tree rejected: {e}"
    except RecursionError:
        return False, "tree rejected: nested too deeply to replay"
    finally:
        sys.setrecursionlimit(old)
    if got < claimed:
        return False, f"{game} tree rejected: a path forces only {got} mistakes, fewer than the {claimed} claimed"
    what = f"depth {got}" if game == "full" else f"it forces {_mistakes(got)}"
    return True, f"{game} tree OK: every branch is realised; {what} (claimed {claimed})"


def _mistakes(n: int) -> str:
    return f"{n} mistake" + ("" if n == 1 else "s")


def _walk_full(node, alive, M, k, cols, where, seen) -> int:
    """The shortest root-to-leaf path below ``node`` (every path realised by a concept of ``alive``)."""
    _tick(seen)
    if node is None:
        return 0
    if not isinstance(node, dict) or "point" not in node or "children" not in node:
        raise _Bad(f"the node at {where} must be null or {{\"point\": j, \"children\": [...]}}")
    x = _index(node["point"], cols, f"at {where}, the point")
    children = node["children"]
    if not isinstance(children, list) or len(children) != 2 or not all(isinstance(c, dict) for c in children):
        raise _Bad(f"the node at {where} must have two children {{\"label\": y, \"tree\": node}}")
    labels = [_index(c.get("label"), k, f"at {where}, the label") for c in children]
    if labels[0] == labels[1]:
        raise _Bad(f"the two children at {where} carry the same label {labels[0]}; they must differ")
    out = math.inf
    for y, child in zip(labels, children):
        below = frozenset(c for c in alive if M[c][x] == y)
        path = f"{where}/x{x}={y}"
        if not below:
            raise _Bad(f"no concept realises the branch {path}")
        out = min(out, 1 + _walk_full(child.get("tree"), below, M, k, cols, path, seen))
    return out


def _walk_bandit(ref, alive, M, k, cols, where, nodes, done, open_) -> int:
    """The fewest "wrong" answers on a path from node ``ref`` (an index into ``nodes``, or None: a leaf) to a
    leaf, with the concepts ``alive`` left; ``done`` memoises (ref, alive) and ``open_`` holds those on the
    current path (a loop)."""
    if ref is None:
        return 0
    if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref < len(nodes):
        raise _Bad(f"at {where}, the node {ref!r} is not an index of \"nodes\" (0..{len(nodes) - 1}) or null")
    key = (ref, alive)
    if key in done:
        return done[key]
    if key in open_:
        raise _Bad(f"the path {where} comes back to node {ref} with the same concepts left: a loop")
    if len(done) & 1023 == 1023:
        interrupts.check()
    open_.add(key)
    node = nodes[ref]
    if not isinstance(node, dict) or "point" not in node or "predictions" not in node:
        raise _Bad(f"node {ref} must be {{\"point\": j, \"predictions\": [...]}}")
    x = _index(node["point"], cols, f"at {where}, the point")
    entries = node["predictions"]
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _Bad(f"the predictions at {where} must be a list of objects")
    said = [_index(e.get("prediction"), k, f"at {where}, the prediction") for e in entries]
    if sorted(said) != list(range(k)):
        raise _Bad(f"the node at {where} must answer every prediction 0..{k - 1} once, it answers {sorted(said)}")
    out = math.inf
    for yhat, e in zip(said, entries):
        right = frozenset(c for c in alive if M[c][x] == yhat)
        wrong = alive - right
        answer = e.get("answer")
        path = f"{where}/x{x}:{yhat}"
        if answer not in ("right", "wrong"):
            raise _Bad(f"the answer at {path} is {answer!r}; it must be \"right\" or \"wrong\"")
        if "next" not in e:
            raise _Bad(f"the entry at {path} needs \"next\": a node index, or null for a leaf")
        if answer == "right":
            if not right:
                raise _Bad(f"no concept realises the answer right at {path}")
            out = min(out, _walk_bandit(e["next"], right, M, k, cols, path + "=right", nodes, done, open_))
        else:
            if not wrong:
                raise _Bad(f"no concept realises the answer wrong at {path}")
            out = min(out, 1 + _walk_bandit(e["next"], wrong, M, k, cols, path + "=wrong", nodes, done, open_))
    open_.discard(key)
    done[key] = out
    return out


def _tick(seen: list) -> None:
    seen[0] += 1
    if seen[0] & 1023 == 0:
        interrupts.check()


def check_upper(C, game: str, predict, claimed: int, *, budget: int = EXHAUSTIVE,
                time_limit: float | None = None) -> tuple:
    """Replay the deterministic learner ``predict(V, j) -> label`` against every adversary of ``game``.

    The adversary may show any point, and answer as any concept consistent so far allows; the learner's
    worst case over all of them is computed exactly (a memo over the version spaces reached, which the
    learner is told as bitsets). A learner that errs at a point whose label every consistent concept
    agrees on, or (bandit) predicts a label no consistent concept gives, can be made to err forever.

    Parameters
    ----------
    C : MulticlassClass
    game : "full" or "bandit"
    predict : callable
        ``predict(V, j)``: the learner's label at point ``j`` when the consistent concepts are the bitset ``V``.
    claimed : int
        The upper bound to check.
    budget : int
        The most version spaces to replay; past it the check is not made.
    time_limit : float, optional
        Seconds; when they pass the check is not made either.

    Returns
    -------
    (bool or None, str)
        None when the class is too large for the replay.
    """
    if game not in ("full", "bandit"):
        return False, f"unknown game {game!r}; choose full or bandit"
    M = C.matrix.tolist()
    k, cols = C.k, C.n_points
    memo: dict = {}
    deadline = None if time_limit is None else time.monotonic() + time_limit

    class _Budget(Exception):
        pass

    def bits(V) -> int:
        return sum(1 << c for c in V)

    def worst(V: frozenset) -> float:
        hit = memo.get(V)
        if hit is not None:
            return hit
        if len(memo) >= budget:
            raise _Budget
        memo[V] = math.inf  # a version space reached again below itself would be a cycle (none is: V shrinks)
        if len(memo) & 255 == 0:
            interrupts.check()
            if deadline is not None and time.monotonic() > deadline:
                raise _Budget
        best = 0.0
        for x in range(cols):
            yhat = predict(bits(V), x)
            if isinstance(yhat, bool) or not isinstance(yhat, int) or not 0 <= yhat < k:
                raise ValueError(f"the learner predicted {yhat!r} at point {x}, not a label 0..{k - 1}")
            right = frozenset(c for c in V if M[c][x] == yhat)
            wrong = V - right
            if game == "full":
                for y in {M[c][x] for c in V}:
                    below = frozenset(c for c in V if M[c][x] == y)
                    if below == V:  # every consistent concept agrees at x
                        best = max(best, math.inf if y != yhat else 0)
                    else:
                        best = max(best, (y != yhat) + worst(below))
            else:
                if wrong == V:  # a sure mistake that changes nothing: the adversary repeats it
                    best = math.inf
                else:
                    if right and right != V:
                        best = max(best, worst(right))
                    if wrong:
                        best = max(best, 1 + worst(wrong))
            if best == math.inf:
                break
        memo[V] = best
        return best

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 8 * C.n_concepts + 200))
    try:
        got = worst(frozenset(range(C.n_concepts)))
    except _Budget:
        why = f"more than {budget} version spaces" if len(memo) >= budget else f"longer than {time_limit:g} s"
        return None, f"upper bound not replayed ({why}); it rests on the exhaustive search"
    except ValueError as e:
        return False, f"upper bound rejected: {e}"
    finally:
        sys.setrecursionlimit(old)
    if got == math.inf:
        return False, "upper bound rejected: an adversary makes the learner err without end"
    if got > claimed:
        return False, f"upper bound rejected: an adversary forces {int(got)} mistakes, more than the {claimed} claimed"
    return True, (f"upper bound OK: the learner makes at most {_mistakes(int(got))} against every adversary "
                  f"({len(memo)} version spaces replayed)")
