"""The engines of :func:`solvers.opt.opt`, each a module behind one contract.

Every engine module declares

``NAME: str``
    its name (what ``stats["engine"]`` says and what a :class:`~solvers.opt.plan.Plan` step names);
``takes(C, game) -> str | None``
    None when it computes ``game``'s value on the class ``C``, else a one-line reason it does not;
``solve(C, game, control, tuning=None) -> OptResult``
    the value or the proven bounds (:class:`~solvers.opt.result.OptResult`: ``value``, ``lower``, ``upper``, a
    ``tree`` of depth ``lower``, typed ``stats`` with ``stopped``, the ``solver`` or ``proof`` whose certificate
    proves ``upper``), stopping at ``control.deadline`` or once ``control.cancel`` is set with the bounds proven so
    far (``stopped`` ``"time limit"`` or ``"cancelled"``). Raises ValueError for a class or game it does not take.

============  ====================================================================================================
engine        computes (wrapping)
============  ====================================================================================================
search        Opt(C) (and its horizon game) by the decision search over version spaces, in Python or the compiled
              kernel, here or spread over workers (:mod:`solvers.opt.search`, :mod:`solvers.opt.distributed`)
table         Opt(C) of a class of at most 17 distinct points, bottom-up over the subcubes (:mod:`solvers.opt.subcube`)
states        Opt(C) of thresholds, intervals, rectangles over compact states (:mod:`solvers.opt.compact`)
disjunctions  Opt(C) of monotone disjunctions up to renaming the variables (:mod:`solvers.opt.disjunctions`)
packed        Opt(C) over the concepts' 64-bit truth tables, at most 64 points (:mod:`solvers.opt.packed_exact`)
games         the randomized game RL(C), k label errors, a horizon (:mod:`solvers.opt.games`)
experts       D_k and R_k of the universal class of n experts, listed or described by n, in count space
              (:mod:`solvers.opt.experts`)
============  ====================================================================================================

:data:`REGISTRY` maps each name to its module; :func:`run` runs an implementation under a
:class:`~solvers.opt.control.Control` as every engine's ``solve`` does (its cancel signal in force, and
``stopped == "cancelled"`` when that stopped it).
"""

from __future__ import annotations

from . import disjunctions, experts, games, packed, search, states, table
from ._common import run

__all__ = ["REGISTRY", "engine", "run"]

#: name -> engine module
REGISTRY: dict = {m.NAME: m for m in (search, table, states, disjunctions, packed, games, experts)}


def engine(name: str):
    """The engine module called ``name`` (ValueError naming the engines when there is none)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; use one of {', '.join(REGISTRY)}") from None
