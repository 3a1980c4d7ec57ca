"""What every certificate checker reads the same way: whole numbers (depths, claimed bounds), the nodes of a
tree, and how a path or a bad value is shown in a message. The checkers of :mod:`solvers.certificates`
import these from here: a module that imports none of them, so that none of them imports another to read."""

from __future__ import annotations

from .._errors import TreeError
from ..game_rules import Game

__all__ = ["whole", "inner", "read_game"]


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
