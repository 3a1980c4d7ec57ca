"""What every certificate checker reads the same way: whole numbers (depths, claimed bounds), a tree and its
nodes, the entries of a certificate and the labelled paths they name, the generators of a group of symmetries,
and how a path or a bad value is shown in a message. The checkers of :mod:`solvers.certificates` import these
from here: a module that imports none of them, so that none of them imports another to read.

Reading a tree: :func:`read_tree` (the object, its depth), :func:`depth_at_most` (no tree deeper than
floor(log2 |C|)), :func:`inner` (each node), :func:`point_of` (a node's point). Walking the entries:
:func:`entry_list` (the list), :func:`path_entries` (each entry over a labelled path, its claim read and its
steps checked: the rules ``paths``, ``orbit``, ``packed``, ``game-paths``, ``game-orbit``, ``experts``), with
:func:`point_step` for paths over the class's points; :func:`generators` reads the group an ``orbit`` or
``game-orbit`` certificate names, each generator checked to map the class onto itself."""

from __future__ import annotations

import numpy as np

from .._errors import TreeError
from ..game_rules import Game

__all__ = ["whole", "inner", "read_game", "read_tree", "depth_at_most", "point_of", "entry_list", "path_entries",
           "point_step", "whole_claim", "generators", "rows_of"]


#: A node of a mistake tree over points, and what the checkers say it must be.
_POINT_KEYS = frozenset({"point", "0", "1"})
_POINT_NODE = '{"point": j, "0": ..., "1": ...}'


def whole(value, what: str) -> int:
    """``value`` when it is a whole number >= 0 (a depth, a claimed bound), else :class:`TreeError`
    "<what> <value> is not a whole number >= 0"; every checker reads its numbers through it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TreeError(f"{what} {_show(value)} is not a whole number >= 0")
    return value


def inner(node, level: int, depth: int, keys: set, form: str, where: str) -> bool:
    """Whether ``node``, at ``level`` of a tree of the stated ``depth``, is an inner node: False for a leaf
    (null) at that depth, True for an object with exactly the ``keys`` above it; :class:`TreeError` for a
    leaf elsewhere, a node at or past the depth, or any other value (``form`` says what a node is, ``where``
    where this one is). Every checker of a tree walks its nodes through it."""
    if node is None:
        if level != depth:
            raise TreeError(f"the leaf {where} is at depth {level}, not {depth}")
        return False
    if not isinstance(node, dict) or set(node) != keys:
        raise TreeError(f"the node {where} is not null or {form}")
    if level >= depth:
        raise TreeError(f"the tree is deeper than its stated depth {depth} ({where})")
    return True


def _fmt(path, most: int = 12) -> str:
    """``x3=0 x1=1`` for a path of labelled points (long paths shortened to their ends)."""
    if not path:
        return "the root"
    steps = [f"x{j}={b}" for j, b in (path if len(path) <= most else (*path[:most - 3], *path[-3:]))]
    if len(path) > most:
        steps[most - 3:most - 3] = [f"... ({len(path)} labels in all) ..."]
    return " ".join(steps)


def _show(value, most: int = 60) -> str:
    """``repr(value)`` cut to ``most`` characters (a value read from a file may be huge or deeply nested)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # too deep, or an int with more digits than Python prints
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= most else text[:most - 3] + "..."


def read_game(data) -> Game:
    """The certificate's ``"game"`` (``{"game": "randomized", "errors": k, "horizon": T}``) as a Game."""
    spec = data.get("game") if isinstance(data, dict) else None
    if spec is None:
        return Game()
    if not isinstance(spec, dict):
        raise TreeError('"game" must be {"game": "deterministic" or "randomized", "errors": k, "horizon": T or null}')
    extra = sorted(set(spec) - {"game", "errors", "horizon"})
    if extra:
        raise TreeError(f'"game" has the unknown keys {", ".join(map(repr, extra))}; it takes game, errors, horizon')
    try:
        return Game.of(spec.get("game", "deterministic"), spec.get("errors", 0), spec.get("horizon"))
    except ValueError as e:
        raise TreeError(f'"game": {e}') from None


# ---------------------------------------------------------------------------------------- a tree
#: What a tree over points is, for the messages.
_TREE = '{"depth": d, "root": node}'


def read_tree(tree, form: str = _TREE) -> int:
    """The stated depth of a tree by nodes, ``{"depth": d, "root": node}`` (``form`` says what it is):
    :class:`TreeError` for anything else, or a depth that is no whole number >= 0."""
    if not isinstance(tree, dict) or "depth" not in tree or "root" not in tree:
        raise TreeError(f"a tree is a JSON object {form}")
    return whole(tree["depth"], "depth")


def depth_at_most(depth: int, m: int) -> None:
    """:class:`TreeError` when a class of ``m`` concepts can have no mistake tree of ``depth``: its 2^d paths are
    realised by distinct concepts, so d <= floor(log2 m)."""
    if depth > m.bit_length() - 1:
        raise TreeError(f"the tree claims depth {depth}, but a class of {m} concepts has no mistake tree deeper "
                        f"than floor(log2 {m}) = {m.bit_length() - 1}")


def point_of(node: dict, n_points: int, path) -> int:
    """The point a tree's node asks (``node["point"]``, reached by ``path``): a column index 0..n_points - 1."""
    j = node.get("point")
    if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n_points:
        raise TreeError(f"node after {_fmt(path)} names point {_show(j)}, not a column index 0..{n_points - 1}")
    return j


# ---------------------------------------------------------------------------------------- the entries
def entry_list(cert: dict, form: str) -> list:
    """``cert["entries"]``, a list of entries of the shape ``form`` (for the message), or :class:`TreeError`."""
    entries = cert.get("entries")
    if not isinstance(entries, list):
        raise TreeError(f'"entries" must be a list of {form}')
    return entries


def whole_claim(value, i: int) -> int:
    """Entry ``i``'s claim when it is a whole number >= 0 (a bound of Opt)."""
    return whole(value, f"entry {i} claims bound")


def point_step(n_points: int):
    """The reader of a step ``[j, b]`` of a path over the class's points (j a column index, b the label 0 or 1,
    not a boolean), for :func:`path_entries`: ``(j, b)``."""
    def step(s, i: int) -> tuple:
        if (type(s) is not list or len(s) != 2 or type(s[0]) is not int or not 0 <= s[0] < n_points
                or type(s[1]) is not int or s[1] not in (0, 1)):
            raise TreeError(f"entry {i} has the path step {_show(s)}; give [point index, 0 or 1]")
        return s[0], s[1]

    return step


def path_entries(entries: list, step, claim=whole_claim, form: str = '{"path": [[j, b], ...], "bound": h}'):
    """Each entry over a labelled path, in turn: ``(i, entry, its claim, its path)``. Entry i must be an object
    (of the shape ``form``) with a ``"path"`` list; its ``"bound"`` is read by ``claim(value, i)`` and each step of
    its path by ``step(s, i)`` (:func:`point_step`), which raise :class:`TreeError` on what they refuse; the path
    is the tuple of the steps read. Every rule whose entries name version spaces or states by the labels that lead
    there walks them through this (what a step leads to is the rule's)."""
    for i, e in enumerate(entries):
        if type(e) is not dict or type(e.get("path")) is not list:
            raise TreeError(f"entry {i} is not {form}")
        h = claim(e.get("bound"), i)
        yield i, e, h, tuple(step(s, i) for s in e["path"])


# ---------------------------------------------------------------------------------------- a group
def rows_of(M: np.ndarray) -> list:
    """The rows of a 0/1 matrix as sorted bytes: two matrices with the same rows in any order compare equal."""
    packed = np.packbits(M, axis=1)
    return sorted(packed.view(np.dtype((np.void, packed.shape[1]))).ravel().tolist())


def generators(sym, M: np.ndarray, *, complement: bool) -> list:
    """The generators of ``"symmetry": {"points": n, "generators": [{"permutation": [...], "complement": f}, ...]}``
    as ``(permutation, flip)`` pairs, each checked to map the class (its matrix ``M``) onto itself: the concept c
    goes to c' with c'(perm[x]) = c(x) XOR flip. ``complement`` False: only renamings of the points (every flip
    false) are taken."""
    n = M.shape[1]
    if not isinstance(sym, dict) or not isinstance(sym.get("generators"), list):
        raise TreeError('"symmetry" must be {"points": m, "generators": [{"permutation": [...], '
                        '"complement": false}, ...]}')
    rows = rows_of(M)
    out = []
    for i, g in enumerate(sym["generators"]):
        perm = g.get("permutation") if isinstance(g, dict) else None
        flip = g.get("complement") if isinstance(g, dict) else None
        if (not isinstance(perm, list) or len(perm) != n or not isinstance(flip, bool)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in perm)
                or sorted(perm) != list(range(n))):
            raise TreeError(f"symmetry generator {i} is not a permutation of the {n} points with a true/false "
                            "complement")
        if flip and not complement:
            raise TreeError(f"symmetry generator {i} must be a renaming (\"complement\": false): the games' "
                            "certificates merge states up to renamings of the points only")
        image = np.take(M, np.argsort(np.asarray(perm)), axis=1) ^ flip  # column y is column perm^-1(y)
        if rows_of(image) != rows:
            raise TreeError(f"symmetry generator {i} does not map the class onto itself")
        out.append((list(perm), flip))
    return out
