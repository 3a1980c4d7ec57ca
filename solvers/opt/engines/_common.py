"""What the engine modules share: reading a class's kind, and running an implementation under a
:class:`~solvers.opt.control.Control` (its cancel signal, and ``stopped == "cancelled"`` when that stopped it)."""

from __future__ import annotations

from ...game_rules import Game
from ..memo import cancelling, cancelled_event
from ..result import OptResult, Stats


def listed(C) -> bool:
    """Whether ``C`` has a 0/1 matrix."""
    return bool(getattr(C, "finite", False)) and getattr(C, "matrix", None) is not None


def evaluated(C) -> bool:
    """Whether ``C`` is an EvaluatedClass (no matrix)."""
    from ...classes.evaluated import EvaluatedClass

    return isinstance(C, EvaluatedClass)


def game_of(game) -> Game:
    """``game`` as a :class:`~solvers.game_rules.Game` (None: Opt(C) itself)."""
    return Game() if game is None else game


def run(control, work) -> OptResult:
    """``work()`` (an OptResult) with ``control``'s cancel signal in force; a run the signal stopped says
    ``stopped == "cancelled"``."""
    if control.cancel is None and cancelled_event() is None:
        r = work()  # (no signal to set, none to clear)
    else:
        with cancelling(control.cancel):
            r = work()
    if control.cancelled() and r.stats.get("stopped") in ("time limit", "cancelled"):
        r.stats["stopped"] = "cancelled"
    if not isinstance(r.stats, Stats):
        object.__setattr__(r, "stats", Stats(r.stats))
    return r
