"""The one result of every engine of :func:`solvers.opt.opt`: :class:`OptResult`, with its statistics :class:`Stats`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..certificates import MistakeTree, bind
from ..certificates.rules import stamp
from ..game_rules import Game
from .search import Solver

__all__ = ["OptResult", "Stats"]


class Stats(dict):
    """The statistics of a run: a dict (``stats["engine"]``, ``.get``, ``in``, ``dict(stats)``, JSON as it is) whose
    common fields are declared and read as attributes too.

    Fields every engine writes
    --------------------------
    engine : str
        The engine (or settler) whose answer this is: ``"search"``, ``"table"``, ``"states"``, ``"disjunctions"``,
        ``"packed"``, ``"shattered set"``, ``"learners"``.
    nodes : int
        Expanded search nodes.
    memo : int
        Memo entries at the end.
    seconds : float
        Wall-clock seconds of the whole call.
    stopped : str or None
        None (finished), ``"time limit"``, ``"cancelled"``, ``"interrupted"`` (Ctrl-C), ``"lost: ..."`` (a cluster
        that went away), or what stopped the packed engine (``"memory"``).

    Fields some engines write: ``queries`` (the decision queries at the root and their answers), ``evictions``,
    ``memo_bytes``, ``memo_used_bytes``, ``root_splits``, ``symmetry``, ``isomorphism``, ``table_sweeps``, ``spread``,
    ``anytime`` (the lower bounds of the anytime pass, each with its reason), ``upper_reason``, ``game``, ``symbol``,
    ``tree_note``, ``plan`` (the names of the steps :func:`solvers.opt.plan.plan` chose).
    """

    FIELDS = ("engine", "nodes", "memo", "seconds", "stopped")

    engine = property(lambda self: self.get("engine"))
    nodes = property(lambda self: self.get("nodes", 0))
    memo = property(lambda self: self.get("memo", 0))
    seconds = property(lambda self: self.get("seconds"))
    stopped = property(lambda self: self.get("stopped"))

    def __repr__(self) -> str:
        return dict.__repr__(self)


@dataclass(frozen=True, init=False)
class OptResult:
    """The outcome of :func:`opt`.

    Attributes
    ----------
    value : int or None
        Opt(C) when proven (``lower == upper``), else None.
    lower, upper : int
        Proven bounds: ``lower <= Opt(C) <= upper``.
    tree : MistakeTree or None
        A mistake tree of depth ``lower`` (the lower-bound certificate); None if the class is empty, or
        when a Ctrl-C came while the tree was rebuilt (``stats["stopped"] == "interrupted"``).
    stats : Stats
        ``engine``, ``nodes`` (expanded search nodes), ``memo`` (entries at the end), ``seconds``,
        ``queries`` (the decision queries asked at the root and their answers), ``stopped`` (None,
        "time limit" or "interrupted").
    solver : Solver or GameSolver
        The solver that ran, with its memo (or table): pass it to ``SOA(C, solver=result.solver)``
        (for ``monotone-disjunctions`` a :class:`~solvers.opt.disjunctions.DisjunctionSolver`, which SOA
        does not take).
    game : Game
        The game whose value this is (``Game()``: Opt(C) itself).
    """

    value: Optional[int]
    lower: int
    upper: int
    tree: Optional[MistakeTree]
    stats: Stats = field(default_factory=Stats)
    solver: Optional[Solver] = field(default=None, repr=False, compare=False)
    game: Game = field(default=Game(), compare=False)
    #: ``proof(limit)`` writes the upper-bound certificate where the solver's memo does not hold it (a search
    #: spread over workers, :mod:`solvers.opt.distributed`)
    proof: Optional[Callable[[int], dict]] = field(default=None, repr=False, compare=False)

    def __init__(self, value, lower, upper, tree, stats=None, solver=None, game=None, proof=None, *,
                 solver_recipe: Optional[Callable[[], Solver]] = None):
        # (the fields set at once: a frozen dataclass's own __init__ sets them one by one, ~2 us a result)
        # ``solver_recipe``: a callable (picklable: a functools.partial) making the solver on first use of
        # ``solver``, for an engine that settled Opt(C) without one (a shattered set: making the Solver, the class's
        # distinct splits, took most of such a call)
        self.__dict__.update(value=value, lower=lower, upper=upper, tree=tree,
                             stats=stats if isinstance(stats, Stats) else Stats(() if stats is None else stats),
                             _solver=solver, _solver_recipe=solver_recipe if solver is None else None,
                             game=Game.of() if game is None else game, proof=proof)

    @property
    def stopped(self) -> str | None:
        """What stopped the run (None: it finished): ``stats["stopped"]``."""
        return self.stats.get("stopped")

    @property
    def solved(self) -> bool:
        return self.lower == self.upper

    def upper_certificate(self, *, limit: int = 100_000) -> dict:
        """The certificate of ``upper`` (checked by :func:`solvers.certificates.verify_upper` for Opt(C),
        :func:`solvers.certificates.games.verify_game_upper` for the other games), with the ``"made_for"``
        of its class (:func:`solvers.certificates.bind`).

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries.
        ValueError
            For a game other than Opt(C)'s that was not solved (its search keeps no refutation to
            show).
        """
        G = self.game
        if G.standard and self.proof is not None:
            cert = self.proof(limit)
        elif G.standard:
            cert = self.solver.upper_proof(self.upper, limit=limit)
        elif isinstance(self.solver, Solver):  # Opt(C) capped by a horizon T
            if self.upper >= G.horizon:
                cert = stamp({"kind": "upper-bound", "game": G.to_json(), "bound": G.horizon, "entries": []},
                             "game-paths")  # the rounds alone bound it
            else:
                cert = {**self.solver.upper_proof(self.upper, limit=limit), "game": G.to_json()}
        elif not self.solved:
            raise ValueError(f"{G.symbol}(C) was not solved, and an upper-bound certificate is written only for a "
                             "solved game; raise the time limit")
        else:
            cert = self.solver.upper_proof(self.upper, limit=limit)
        C = getattr(self.solver, "C", None)
        if C is None and self.tree is not None:
            C = self.tree.C
        return cert if C is None else bind(cert, C)  # bound to its class (solvers.certificates.made_for)

    def __repr__(self) -> str:
        """One line: the value and bounds, the engine, the seconds and what stopped the run (``stats`` holds the rest)."""
        st = self.stats
        extra = "".join(f", {k}={st.get(k)!r}" for k in ("engine", "seconds", "stopped") if st.get(k) is not None)
        return f"OptResult(value={self.value}, lower={self.lower}, upper={self.upper}{extra})"

    def _repr_html_(self, max_depth: int = 3) -> str:
        """The result for a notebook: the value (or the bounds), how it was proven (the engine, and why a
        search stopped), the seconds, and the top levels of the mistake tree as SVG."""
        from html import escape

        sym = self.game.symbol if hasattr(self.game, "symbol") else "Opt"
        if self.value is not None:
            head = f"{sym}(C) = <b>{self.value}</b>"
        else:
            head = f"<b>{self.lower}</b> &le; {sym}(C) &le; <b>{self.upper}</b> (not solved)"
        st = self.stats
        how = [f"engine {escape(str(st.get('engine')))}"] if st.get("engine") else []
        if st.get("stopped"):
            how.append(f"stopped: {escape(str(st['stopped']))}")
        if st.get("seconds") is not None:
            how.append(f"{st['seconds']:.3g} s")
        proofs = "lower bound: a mistake tree of depth " + str(self.tree.depth) if self.tree is not None else \
            "no mistake tree kept"
        proofs += "; upper bound: the certificate of upper_certificate()"
        svg = self.tree._repr_svg_(max_depth) if self.tree is not None and hasattr(self.tree, "_repr_svg_") else ""
        return (f"<div>{head}<br><small>{'; '.join(how)}; {escape(proofs)}</small><br>{svg}</div>")


class _MadeOnUse:
    """:attr:`OptResult.solver`: the solver given, or made once from the result's recipe on first use."""

    def __get__(self, obj, objtype=None):
        if obj is None:
            return None  # (the field's default)
        d = obj.__dict__
        S = d.get("_solver")
        if S is None and d.get("_solver_recipe") is not None:
            S = d["_solver"] = d["_solver_recipe"]()
            d["_solver_recipe"] = None
        return S

    def __set__(self, obj, value):  # (a frozen dataclass's own __init__: a subclass's; users meet FrozenInstanceError)
        obj.__dict__.update(_solver=value, _solver_recipe=None)


OptResult.solver = _MadeOnUse()
