"""The exact values of the two multiclass mistake-bound games, with mistake trees, by search over version spaces.

Each round the adversary shows a point x, the learner predicts a label yhat in 0..k-1, and the adversary
answers consistently with some concept of the class (realizability). With *full information* the
learner is then told the true label; with *bandit feedback* only whether yhat was right. Opt is the
number of mistakes the best deterministic learner makes against the worst adversary.

Full information ([DSBS]): Opt equals the multiclass Littlestone dimension, the depth of the deepest
complete binary mistake tree whose two edges below each node carry two different labels::

    Ldim(S) = -1 if S is empty; 0 if no point splits S; else
              max over x and labels y != y' both realised in S at x of 1 + min(Ldim(S_{x=y}), Ldim(S_{x=y'}))

(the inner max over pairs is 1 + the second-largest Ldim(S_{x=y}); the optimal learner predicts the
label whose cell has the largest Ldim).

Bandit feedback ([AL99], [DH13]): the learner that predicts yhat at x learns either S_{x=yhat} ("right")
or S_{x!=yhat} ("wrong", a mistake), a version space that is in general no union of single-label cells::

    B(S) = 0 if no point splits S; else
           max over x splitting S of min over yhat of max(B(S_{x=yhat}) if nonempty, 1 + B(S_{x!=yhat}) if nonempty)

A prediction no concept of S makes at x is a mistake that leaves S as it is, so it never helps the
learner, and the min runs over the labels realised at x (in a tree, the adversary answers it "wrong" and
goes on with a tree of one mistake fewer on S). Saying "right" never gains the adversary more
than saying "wrong" elsewhere (B is monotone under inclusion), so B is also Daniely and Helbertal's
bandit Littlestone dimension, the depth of the deepest |Y|-ary tree every path of which ("x_i, and
not y_i") some concept realises; ``tests/solvers/test_multiclass.py`` checks both readings on random
classes.

:class:`MulticlassSolver` keeps one memo per game keyed by the version-space bitset; :func:`opt_full` and
:func:`opt_bandit` return a :class:`GameResult` with the value (or, stopped by a time limit or Ctrl-C,
the proven bounds) and a mistake tree. :class:`OptimalLearner` is the learner that meets the value
(the SOA of each game); :func:`solvers.certificates.multiclass.check_upper` replays it against every
adversary on small classes. The price of bandit feedback: opt_bandit <= (1 + o(1)) |Y| ln |Y| opt_full,
and Long ([Long20]) shows this is best possible up to the leading constant; the o(1) is as |Y| grows, so
small classes may lie above |Y| ln |Y| opt_full. ``scripts/multiclass_table.py`` tabulates the ratio.

Tree JSON (checked by :func:`solvers.certificates.multiclass.check_tree`, which never runs this search):

* full: ``{"kind": "multiclass-mistake-tree", "game": "full", "k", "concepts", "points", "depth", "root"}``,
  a node ``null`` (a leaf) or ``{"point": j, "children": [{"label": y, "tree": node}, {"label": y2, "tree": node}]}``;
* bandit: ``{"kind": "multiclass-bandit-tree", "game": "bandit", "k", "concepts", "points", "mistakes",
  "root", "nodes"}``. The tree is stored as a DAG, since the same version space is reached by many
  histories: ``root`` and every ``next`` are an index into ``nodes``, or ``null`` (a leaf). A node is
  ``{"point": j, "predictions": [entry for yhat = 0..k-1]}``, an entry ``{"prediction": yhat, "answer":
  "right"|"wrong", "next": index or null}``. A bandit tree can be exponentially large (one point with r
  labels needs all 2^r sets of labels left); past :data:`MAX_TREE_ENTRIES` prediction entries none is
  built, ``tree`` is None and the lower bound rests on the search.

References
----------
.. [DSBS] Daniely, Sabato, Ben-David and Shalev-Shwartz, "Multiclass learnability and the ERM principle",
   COLT 2011; JMLR 16 (2015).
.. [AL99] Auer and Long, "Structural results about on-line learning models with and without queries",
   Machine Learning 36 (1999).
.. [DH13] Daniely and Helbertal, "The price of bandit information in multiclass online classification",
   COLT 2013.
.. [Long20] Long, "New bounds on the price of bandit feedback for mistake-bounded online multiclass
   learning", ALT 2017; Theoretical Computer Science 808 (2020).

Examples
--------
>>> from solvers.multiclass import make
>>> C = make("multiclass-singletons", N=3, k=4)
>>> opt_full(C).value, opt_bandit(C).value
(1, 3)
>>> t = opt_bandit(C).tree
>>> t["nodes"][t["root"]]["point"], len(t["nodes"])
(0, 22)
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass, field

from .. import interrupts

__all__ = [
    "GAMES",
    "MAX_TREE_ENTRIES",
    "GameResult",
    "OptimalLearner",
    "MulticlassSolver",
    "BanditTreeTooLarge",
    "bandit_from_full",
    "bandit_upper_bound",
    "opt_bandit",
    "opt_full",
    "solve",
]

GAMES = ("full", "bandit")

#: The most prediction entries (nodes x k) a bandit tree (a DAG) may have; a larger one is not built.
MAX_TREE_ENTRIES = 1_000_000


class BanditTreeTooLarge(Exception):
    """A bandit tree would have more than :data:`MAX_TREE_ENTRIES` prediction entries."""


class _Stop(Exception):
    """The time limit passed: the search unwinds to the root, which keeps what it proved."""


@dataclass(frozen=True)
class GameResult:
    """The value of one game on a class.

    Attributes
    ----------
    game : "full" or "bandit"
    value : int or None
        The exact value, None when the search stopped first.
    lower, upper : int
        Proven bounds (equal to ``value`` when solved): ``lower`` is certified by ``tree`` and is never below
        the trivial bound (1 for a class of two concepts or more, 0 for one concept), ``upper`` by
        the finished search, or when stopped by the counting bound (floor(log2 |C|) for full information,
        :func:`bandit_upper_bound` for bandit feedback).
    tree : dict or None
        The mistake tree of ``lower`` (JSON-able; see the module docstring); None for a bandit tree of more
        than :data:`MAX_TREE_ENTRIES` prediction entries (``tree_note`` says so).
    nodes, memo : int
        Version spaces expanded, and entries in the memo.
    seconds : float
    stopped : str or None
        ``"time limit"`` or ``"interrupted"`` when the search stopped before the end.
    tree_note : str or None
        Why there is no tree.
    lower_basis, upper_basis : str
        What each bound rests on, in a few words: for a stopped search the tree of the best root move
        found so far, opt_full's tree read as a bandit tree, or the trivial bound (two distinct concepts
        differ at some point, where the adversary forces one mistake in either game); and the finished
        search, or the counting bound.
    """

    game: str
    value: int | None
    lower: int
    upper: int
    tree: dict | None = field(repr=False)
    nodes: int = 0
    memo: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    tree_note: str | None = None
    lower_basis: str = "the mistake tree of the finished search"
    upper_basis: str = "the finished search"

    def to_json(self) -> dict:
        return {"value": self.value, "lower": self.lower, "upper": self.upper, "nodes": self.nodes,
                "memo": self.memo, "seconds": round(self.seconds, 6), "stopped": self.stopped,
                "lower_basis": self.lower_basis, "upper_basis": self.upper_basis}


def bandit_upper_bound(n: int, labels: int) -> int:
    """The most mistakes under bandit feedback on a version space of ``n`` concepts whose points carry at
    most ``labels`` labels: min(n - 1, the largest m with n (labels - 1)^m >= labels^m). The learner
    that predicts the label of the largest cell loses at least a 1/labels share of the concepts with
    each mistake, and at least one concept each round.

    >>> bandit_upper_bound(17, 5), bandit_upper_bound(8, 2)
    (12, 3)
    """
    if n <= 1:
        return 0
    r = max(labels, 2)
    m = 0
    while n * (r - 1) ** (m + 1) >= r ** (m + 1):
        m += 1
    return min(n - 1, m)


class MulticlassSolver:
    """The exact values of both games on the version spaces of a :class:`~solvers.multiclass.MulticlassClass`.

    The memos (version-space bitset -> (value, move)) live as long as the solver: a learner built on
    it, and later calls, reuse what earlier ones found.

    Parameters
    ----------
    C : MulticlassClass

    Examples
    --------
    >>> from solvers.multiclass import MulticlassClass
    >>> S = MulticlassSolver(MulticlassClass([[0], [1], [2]]))    # one point, three labels
    >>> S.full(S.C.full), S.bandit(S.C.full)
    (1, 2)
    """

    def __init__(self, C):
        self.C = C
        self.columns = C.label_columns
        self.labels = max(2, len(set(C.matrix.ravel().tolist())))
        self._ub = [bandit_upper_bound(n, self.labels) for n in range(C.n_concepts + 1)]
        self.full_memo: dict = {}
        self.bandit_memo: dict = {}
        self.nodes = 0
        self.deadline: float | None = None
        self._root: int | None = None
        self._partial = (0, None)  # the root's best move so far: (value, move)
        self._full_best = (0, None)  # the last full-information solve's (lower, root node of its tree)

    # ------------------------------------------------------------------ shared
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0:
            interrupts.check()
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Stop

    # The searches below are the hot loops: bitset arithmetic on Python ints, written for speed.
    def splits(self, V: int) -> list:
        """``[(j, [(y, V_{j=y}), ...]), ...]``: the points that split V, with their nonempty cells (largest first)."""
        out = []
        for j, col in enumerate(self.columns):
            cells = [(y, W) for y, cell in enumerate(col) if (W := V & cell)]
            if len(cells) > 1:
                cells.sort(key=lambda c: -c[1].bit_count())
                out.append((j, cells))
        return out

    # ------------------------------------------------------------------ full information
    def full(self, V: int) -> int:
        """Ldim(V) for a nonempty version space V (-1 for the empty one)."""
        if not V:
            return -1
        hit = self.full_memo.get(V)
        if hit is not None:
            return hit[0]
        self._tick()
        ub = V.bit_count().bit_length() - 1  # floor(log2 |V|): a mistake tree of depth d needs 2^d concepts
        best, move = 0, None
        if ub > 0:
            splits = self.splits(V)
            splits.sort(key=lambda s: -s[1][1][1].bit_count())  # the largest second cell first
            for j, cells in splits:
                if cells[1][1].bit_count().bit_length() <= best:
                    continue  # 1 + floor(log2 |second cell|) cannot beat best
                vals = []  # (Ldim, y) of the cells, until the two largest are known
                for y, W in cells:
                    if len(vals) >= 2 and W.bit_count().bit_length() - 1 <= vals[1][0]:
                        break  # this cell and the smaller ones cannot be among the two largest
                    vals.append((self.full(W), y))
                    vals.sort(key=lambda v: -v[0])
                v = 1 + vals[1][0]
                if v > best:
                    best, move = v, (j, vals[0][1], vals[1][1])
                    if V == self._root:
                        self._partial = (best, move)
                    if best == ub:
                        break
        self.full_memo[V] = (best, move)
        return best

    def full_tree(self, V: int, depth: int):
        """A mistake tree of depth ``depth`` (at most Ldim(V), which must be in the memo) for V."""
        if depth == 0:
            return None
        j, y1, y2 = self._move(self.full_memo, V)
        cells = self.columns[j]
        return {"point": j, "children": [{"label": y, "tree": self.full_tree(V & cells[y], depth - 1)} for y in (y1, y2)]}

    # ------------------------------------------------------------------ bandit feedback
    def bandit(self, V: int) -> int:
        """B(V), the bandit value of a nonempty version space V."""
        hit = self.bandit_memo.get(V)
        if hit is not None:
            return hit[0]
        self._tick()
        n = V.bit_count()
        ub = self._ub[n]
        best, move = 0, None
        splits = self.splits(V) if ub > 0 else []
        for j, cells in splits:
            if len(cells) == n:
                # x gives every concept of V its own label: guessing them one by one, n - 1 wrong guesses
                # are forced (and no learner makes more than n - 1 mistakes on n concepts)
                best, move = n - 1, (j, tuple((y, "wrong") for y, _ in sorted(cells)))
                splits = []
                break
        if splits:
            ubs = self._ub
            for j, cells in splits:
                # the counting bound of this point first: min over yhat of max(ub(V_y), 1 + ub(V - V_y))
                if min(max(ubs[W.bit_count()], 1 + ubs[(V ^ W).bit_count()]) for _, W in cells) <= best:
                    continue
                worst, answers = None, []
                for y, W in cells:  # the largest cell first: the learner's likeliest best guess, cut soonest
                    wrong = 1 + self.bandit(V ^ W)
                    right = self.bandit(W) if ubs[W.bit_count()] > wrong else -1  # else right <= wrong
                    answers.append((y, "wrong" if wrong >= right else "right"))
                    v = max(wrong, right)
                    worst = v if worst is None else min(worst, v)
                    if worst <= best:
                        break  # the learner's yhat holds this point to best: it cannot beat best
                else:
                    best, move = worst, (j, tuple(sorted(answers)))
                    if V == self._root:
                        self._partial = (best, move)
                    if best == ub:
                        break
        self.bandit_memo[V] = (best, move)
        return best

    def bandit_tree(self, V: int, mistakes: int, *, max_entries: int = MAX_TREE_ENTRIES) -> tuple:
        """A bandit mistake tree forcing ``mistakes`` (at most B(V), which the memo holds) on V, as a DAG:
        ``(root, nodes)`` (see the module docstring); its nodes are keyed by (version space, mistakes left).

        Raises
        ------
        BanditTreeTooLarge
            Past ``max_entries`` prediction entries.
        """
        nodes: list = []
        ids: dict = {}
        columns, k = self.columns, self.C.k

        def build(V: int, d: int):
            if d == 0:
                return None
            key = (V, d)
            if key in ids:
                return ids[key]
            if V not in self.bandit_memo and V != self._root:
                self.bandit(V)  # below a shortcut (one label per concept at a point): solved at once
            j, answers = self._move(self.bandit_memo, V)
            if (len(nodes) + 1) * k > max_entries:
                raise BanditTreeTooLarge
            ids[key] = i = len(nodes)
            nodes.append(None)
            said = dict(answers)
            entries = []
            for yhat in range(k):
                W = V & columns[j][yhat]
                if not W:  # no concept left says yhat: a mistake, then a tree of one fewer on V itself
                    entries.append({"prediction": yhat, "answer": "wrong", "next": build(V, d - 1)})
                elif said[yhat] == "right":
                    entries.append({"prediction": yhat, "answer": "right", "next": build(W, d)})
                else:
                    entries.append({"prediction": yhat, "answer": "wrong", "next": build(V ^ W, d - 1)})
            nodes[i] = {"point": j, "predictions": entries}
            return i

        return build(V, mistakes), nodes

    def _move(self, memo: dict, V: int):
        """The best move found for V: its memo entry's, or for the root of a stopped search the best so far."""
        hit = memo.get(V)
        return hit[1] if hit is not None else self._partial[1]

    # ------------------------------------------------------------------ the root
    def solve(self, game: str, *, time_limit: float | None = None) -> GameResult:
        """The value of ``game`` ("full" or "bandit") on the whole class, with its tree; stopped by
        ``time_limit`` seconds or Ctrl-C it returns the proven bounds instead."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; choose full or bandit")
        C = self.C
        t0, nodes0 = time.monotonic(), self.nodes
        self.deadline = None if time_limit is None else t0 + time_limit
        self._root, self._partial = C.full, (0, None)
        stopped = None
        value_of = self.full if game == "full" else self.bandit
        try:
            with _recursion(4 * C.n_concepts + 200):
                value = value_of(C.full)
        except _Stop:
            stopped = "time limit"
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            self.deadline = None
        memo = self.full_memo if game == "full" else self.bandit_memo
        bases = {}
        if stopped is None:
            lower = upper = value
        else:
            value = None
            lower = self._partial[0]
            n = C.n_concepts
            upper = n.bit_length() - 1 if game == "full" else self._ub[n]
            bases["upper_basis"] = ("the counting bound floor(log2 |C|) (a mistake tree of depth d needs 2^d "
                                    "concepts)" if game == "full" else
                                    "the counting bound (predicting the largest cell, each mistake removes at "
                                    "least a 1/|labels| share of the concepts, each round at least one)")
            if lower > 0:
                bases["lower_basis"] = "the mistake tree of the best root point searched before the stop"
            elif n > 1:
                # the trivial bound of every class of two concepts or more: at a point where two differ, the
                # adversary answers whichever label the learner did not predict (a tree of depth 1)
                self._partial = (1, self._trivial_move(game))
                lower = 1
                bases["lower_basis"] = (f"the trivial bound: two concepts differ at point {self._partial[1][0]}, "
                                        "where one mistake is forced (a tree of depth 1)")
            else:
                bases["lower_basis"] = "the trivial bound: a single concept forces no mistake"
        head = {"kind": "multiclass-mistake-tree" if game == "full" else "multiclass-bandit-tree", "game": game,
                "k": C.k, "concepts": C.n_concepts, "points": C.n_points}
        note = None
        with _recursion(4 * C.n_concepts + 200):
            if game == "full":
                root = self.full_tree(C.full, lower)
                self._full_best = (lower, root)
                tree = {**head, "depth": lower, "root": root}
            else:
                done = self.full_memo.get(C.full)
                full_lower, full_root = ((done[0], None) if done is not None and done[0] >= self._full_best[0]
                                         else self._full_best)
                try:
                    if stopped is not None and full_lower > lower:
                        # opt_bandit >= opt_full: a full-information tree is a bandit tree (every prediction
                        # is answered "wrong", followed by a cell the prediction missed)
                        lower = full_lower
                        if full_root is None:
                            full_root = self.full_tree(C.full, lower)
                        root, nodes = bandit_from_full(C, full_root)
                        bases["lower_basis"] = (f"the full-information mistake tree of depth {lower}, read as a "
                                                "bandit tree (opt_bandit >= opt_full)")
                    else:
                        root, nodes = self.bandit_tree(C.full, lower)
                    tree = {**head, "mistakes": lower, "root": root, "nodes": nodes}
                except BanditTreeTooLarge:
                    tree = None
                    note = (f"the bandit tree has more than {MAX_TREE_ENTRIES} prediction entries and was not built; "
                            "the lower bound rests on the search")
                    bases["lower_basis"] = (("the finished search" if stopped is None else
                                             bases.get("lower_basis", "the search before the stop"))
                                            + "; its tree is too large to build")
        self._root = None
        return GameResult(game, value, lower, upper, tree, self.nodes - nodes0, len(memo), time.monotonic() - t0,
                          stopped, note, **bases)

    def _trivial_move(self, game: str):
        """A root move forcing one mistake: a point where two concepts of the class differ (there is one when
        the class has two concepts or more, its rows being distinct)."""
        V = self.C.full
        j, cells = next((j, cells) for j, cells in self.splits(V))
        if game == "full":
            return (j, cells[0][0], cells[1][0])
        return (j, tuple(sorted((y, "wrong") for y, _ in cells)))  # every realised guess is answered "wrong"


def bandit_from_full(C, node, *, max_entries: int = MAX_TREE_ENTRIES) -> tuple:
    """The bandit tree ``(root, nodes)`` that a full-information mistake tree ``node`` for C gives, so that
    opt_bandit >= opt_full: at a node on x with labels y1, y2, every prediction yhat is answered "wrong",
    and the game goes on in V_{x != yhat} with the subtree of y1, or of y2 when yhat = y1 (a subtree
    realised on a cell is realised on any version space holding it). It forces as many mistakes as the
    tree is deep.

    Raises
    ------
    BanditTreeTooLarge
        Past ``max_entries`` prediction entries (nodes are keyed by the subtree and the version space).

    Examples
    --------
    >>> from solvers.multiclass import MulticlassClass
    >>> from solvers.certificates.multiclass import check_tree
    >>> C = MulticlassClass([[0, 0], [0, 1], [1, 0], [1, 1], [2, 2]])
    >>> root, nodes = bandit_from_full(C, opt_full(C).tree["root"])
    >>> check_tree(C, {"game": "bandit", "mistakes": 2, "root": root, "nodes": nodes})[0]
    True
    """
    nodes: list = []
    ids: dict = {}
    columns = C.label_columns

    def build(node, V: int):
        if node is None:
            return None
        key = (id(node), V)
        if key in ids:
            return ids[key]
        if (len(nodes) + 1) * C.k > max_entries:
            raise BanditTreeTooLarge
        ids[key] = i = len(nodes)
        nodes.append(None)
        j = node["point"]
        (y1, t1), (_, t2) = ((c["label"], c["tree"]) for c in node["children"])
        entries = []
        for yhat in range(C.k):
            t = t2 if yhat == y1 else t1  # realised on the cell of y2 (or y1), which V_{x != yhat} holds
            entries.append({"prediction": yhat, "answer": "wrong", "next": build(t, V & ~columns[j][yhat])})
        nodes[i] = {"point": j, "predictions": entries}
        return i

    return build(node, C.full), nodes


@contextlib.contextmanager
def _recursion(limit: int):
    """Python's recursion limit raised to ``limit`` inside the block (the search recurses once per round)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def solve(C, game: str, *, time_limit: float | None = None,
          solver: MulticlassSolver | None = None) -> GameResult:
    """:meth:`MulticlassSolver.solve` on a new solver (or on ``solver``, whose memo is then reused)."""
    return (solver or MulticlassSolver(C)).solve(game, time_limit=time_limit)


def opt_full(C, *, time_limit: float | None = None, solver: MulticlassSolver | None = None) -> GameResult:
    """Opt under full information: the multiclass Littlestone dimension of ``C`` ([DSBS]), with a mistake tree.

    Parameters
    ----------
    C : MulticlassClass
    time_limit : float, optional
        Seconds; when they pass, the result has ``value=None`` and the proven ``lower`` and ``upper``.
    solver : MulticlassSolver, optional
        Reuse its memo.

    Returns
    -------
    GameResult

    References
    ----------
    Daniely, Sabato, Ben-David and Shalev-Shwartz, "Multiclass learnability and the ERM principle",
    COLT 2011; JMLR 16 (2015).

    Examples
    --------
    >>> from solvers.multiclass import make
    >>> r = opt_full(make("k-label-thresholds", N=3, k=2))   # the 4 thresholds on 3 points: floor(log2 4)
    >>> r.value, r.tree["depth"], r.stopped
    (2, 2, None)
    """
    return solve(C, "full", time_limit=time_limit, solver=solver)


def opt_bandit(C, *, time_limit: float | None = None, solver: MulticlassSolver | None = None) -> GameResult:
    """Opt under bandit feedback: the bandit Littlestone dimension of ``C`` ([AL99], [DH13]), with a tree.

    Parameters
    ----------
    C : MulticlassClass
    time_limit : float, optional
        Seconds; when they pass, the result has ``value=None`` and the proven ``lower`` and ``upper``.
    solver : MulticlassSolver, optional
        Reuse its memo.

    Returns
    -------
    GameResult

    References
    ----------
    Auer and Long, "Structural results about on-line learning models with and without queries", Machine
    Learning 36 (1999). Daniely and Helbertal, "The price of bandit information in multiclass online
    classification", COLT 2013.

    Examples
    --------
    >>> from solvers.multiclass import make
    >>> opt_bandit(make("multiclass-singletons", N=2, k=5)).value     # k - 1
    4
    """
    return solve(C, "bandit", time_limit=time_limit, solver=solver)


class OptimalLearner:
    """The optimal deterministic learner of one game (the SOA): it meets :meth:`MulticlassSolver.solve`'s value.

    Full information: predict the label whose cell V_{x=y} has the largest Ldim (a mistake then leaves
    a cell of smaller Ldim than V's). Bandit feedback: predict the yhat that minimises
    max(B(V_{x=yhat}), 1 + B(V_{x!=yhat})). Ties go to the smallest label; at a point that does not split
    V it predicts the one label V gives it.

    Parameters
    ----------
    C : MulticlassClass
    game : "full" or "bandit"
    solver : MulticlassSolver, optional
        Whose memo to read and extend (a new one by default).

    Examples
    --------
    >>> from solvers.multiclass import MulticlassClass
    >>> C = MulticlassClass([[0, 0], [1, 0], [2, 0], [0, 1]])
    >>> L = OptimalLearner(C, "bandit")
    >>> L.predict(C.full, 0), L.predict(C.full, 1)
    (0, 0)
    """

    def __init__(self, C, game: str, solver: MulticlassSolver | None = None):
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; choose full or bandit")
        self.C, self.game = C, game
        self.solver = solver or MulticlassSolver(C)

    def predict(self, V: int, j: int) -> int:
        """The label predicted at point ``j`` when the version space is ``V`` (nonempty)."""
        S = self.solver
        cells = [(y, V & cell) for y, cell in enumerate(S.columns[j]) if V & cell]
        if len(cells) == 1:
            return cells[0][0]
        with _recursion(4 * self.C.n_concepts + 200):
            if self.game == "full":
                return min(cells, key=lambda c: (-S.full(c[1]), c[0]))[0]
            return min(cells, key=lambda c: (max(S.bandit(c[1]), 1 + S.bandit(V ^ c[1])), c[0]))[0]
