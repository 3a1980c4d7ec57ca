"""``opt(C)``: Opt(C), the Littlestone dimension, exactly or as proven bounds, with its certificate.

[Rivest94] defines Opt(C), the best worst-case number of mistakes of any learner on C. :func:`opt` checks its
arguments, describes the class (:class:`~solvers.opt.plan.ClassFacts`), asks :func:`~solvers.opt.plan.plan` for the
steps (the cheap settlers, then the engines of :mod:`solvers.opt.engines`, each with its share of the time, then the
anytime pass under a time limit) and runs them; the first that settles Opt(C) ends the run. A time limit, a cancel
signal or Ctrl-C returns the bounds proven so far (lower <= Opt(C) <= upper) and a mistake tree of depth ``lower``.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> r = opt(make("thresholds", N=7))
>>> r.value, r.lower, r.upper
(3, 3, 3)
>>> r.tree.depth
3
>>> from solvers.learners import SOA
>>> SOA(r.tree.C, solver=r.solver).mistake_bound().value   # the SOA reuses the solver's memo
3
>>> opt(make("all-functions", n=12)).stats["engine"]   # a shattered set of floor(log2 |C|) points settles it
'shattered set'
"""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import Callable

from ..game_rules import Game
from . import anytime as cheap  # (named so: opt() has a parameter "anytime")
from .control import Control, Tuning
from .engines import games as games_engine
from .engines import packed as packed_engine
from .engines import search as search_engine
from .engines import states as states_engine
from .engines import run as _run_controlled
from .plan import ENGINE_CHOICES, SETTLERS, ClassFacts, Plan, first_plan, plan
from .result import OptResult, Stats
from .search import Solver

__all__ = ["opt", "OptResult", "ENGINES", "LEARNERS"]

#: ``opt(bounds=LEARNERS)``, the default: the learners' proven bounds, as the top package wires them in.
LEARNERS = "learners"


def _wired_bounds() -> Callable | None:
    """The learners' bounds the top package ``solvers`` wires in (``solvers._learner_bounds``), or None when
    only this package was loaded (it imports nothing of the learners built on it)."""
    top = sys.modules.get(__name__.partition(".")[0])
    return getattr(top, "_learner_bounds", None)

#: The engines :func:`opt` takes by name (``"auto"``: the plan's choice; ``"states"``: thresholds, intervals,
#: rectangles, monotone disjunctions, :mod:`solvers.opt.compact`)
ENGINES = ("auto", "search", "table", "packed")


def opt(
    C,
    *,
    time_limit: float | None = None,
    jobs: int = 1,
    memo_bytes: int | None = None,
    progress: Callable[[dict], None] | None = None,
    solver=None,
    engine: str = "auto",
    game: str = "deterministic",
    errors: int = 0,
    horizon: int | None = None,
    anytime: bool = True,
    symmetry: bool = True,
    isomorphism: bool = True,
    cluster=None,
    parts: dict | None = None,
    tree: bool = True,
    control: Control | None = None,
    tuning: Tuning | None = None,
    bounds: Callable | str | None = "learners",
) -> OptResult:
    """Compute Opt(C), the Littlestone dimension of ``C``, with a mistake-tree certificate; or the value
    of another game (:mod:`solvers.game_rules`): the randomized optimum RL(C), k label errors, a horizon.

    Parameters
    ----------
    C : ConceptClass
    time_limit : float, optional
        Seconds after which the search stops and the proven bounds are returned.
    jobs : int
        Worker processes on this machine for one search (1 = this process only): the root queries are spread
        over them by :mod:`solvers.opt.distributed` (with ``Tuning(spread_local=False)``, the root's splits are
        dealt to joblib's workers instead, :mod:`solvers.opt.parallel`).
    memo_bytes : int, optional
        Memory the memo may use, in bytes (default :func:`~solvers.opt.search.default_memo_bytes`:
        half of the machine's memory); past it the older half is dropped. With ``jobs > 1`` each
        worker's memo gets ``memo_bytes / jobs``.
    progress : callable, optional
        Called about once a second with ``{"lower", "upper", "nodes", "memo"}``.
    solver : Solver, optional
        Reuse an existing solver (and its memo) for ``C``.
    engine : {"auto", "search", "table", "packed", "states"}
        ``search``: the decision search over version spaces. ``table``: the bottom-up table over all
        3^N subcubes (:mod:`solvers.opt.subcube`), for classes whose points fall into N <= 17 classes
        of equal-or-complementary columns. ``states``: the search over compact states of thresholds,
        intervals and rectangles (:mod:`solvers.opt.states`), the only engine for an
        :class:`~solvers.classes.evaluated.EvaluatedClass` (a class too large for a matrix), and on
        ``monotone-disjunctions`` the search of :mod:`solvers.opt.disjunctions`. ``auto``
        (default) tries the search first and moves to the table when the search has spent a fraction
        of the table's estimated cost; for an EvaluatedClass it is ``states``, for
        ``monotone-disjunctions`` :mod:`solvers.opt.disjunctions`. (Opt(C) only.) ``packed``: the search over the
        concepts' 64-bit truth tables (:mod:`solvers.opt.packed` and :mod:`solvers.opt.packed_exact`), for a class
        over at most 64 points; ``auto`` takes it for halfspaces on {0,1}^6 and for listed classes over at most 64
        points with more than ``tuning.packed_from`` concepts (when one process runs the search).
    game : {"deterministic", "randomized"}
        The learner's kind: ``randomized`` gives the optimal *expected* number of mistakes (RL(C) of
        Filmus, Hanneke, Mehalel and Moran, COLT 2023), an exact Fraction.
    errors : int
        k >= 0: the adversary may give k labels that disagree with the best concept (D_k(C), R_k(C)).
    horizon : int, optional
        T: the game stops after T rounds (deterministic: min(T, ...); randomized: RL_T by its recurrence).
    anytime : bool
        The plan's settlers and anytime pass (:mod:`solvers.opt.plan`): on ``auto`` a shattered set as large as
        floor(log2 |C|) settles Opt(C) before any engine (``stats["engine"] == "shattered set"``), and the learners'
        bounds (``bounds``) one that meets it. With a time limit, for Opt(C) on a listed class of
        ``tuning.anytime_min_concepts`` concepts or more, or a family whose smaller instances embed in it, the
        exact search gets all but ``tuning.anytime_share`` of the time, and when it stops there the rest goes to
        the cheap lower bounds of :mod:`solvers.opt.anytime` (a shattered set, a smaller instance, a
        restriction); a better one replaces the search's lower bound and tree (``stats["anytime"]``: each bound
        kept, with its reason), and the upper bound is the least of the search's and the learners' bounds
        (``stats["upper_reason"]`` says which). False: the engine alone.
    symmetry : bool
        Key the search's memo by orbits under the class's symmetry group (default True): the group its
        family declares, or else the one graph automorphism finds
        (:mod:`solvers.classes.automorphisms`), once the search has expanded a few thousand nodes.
        ``stats["symmetry"]`` says which group was used (:attr:`Solver.symmetry_info
        <solvers.opt.search.Solver.symmetry_info>`). The search for Opt(C) and the horizon game; the
        searches of the randomized and k-error games key theirs by the orbits of the class's renamings
        (:class:`~solvers.opt.games.StateKeys`, :attr:`GameSolver.symmetry_info
        <solvers.opt.games.GameSolver.symmetry_info>`).
    isomorphism : bool
        Key the search's large version spaces by the canonical form of their reduced matrix
        (:mod:`solvers.opt.isomorphism`; default True), so that isomorphic ones share a memo entry;
        ``stats["isomorphism"]`` says how often that merged (:attr:`Solver.isomorphism_info
        <solvers.opt.search.Solver.isomorphism_info>`). The search for Opt(C) and the horizon game.

    cluster : distributed.Client, optional
        Spread the search over the workers of this Dask client (:mod:`solvers.opt.distributed`); ``jobs`` is then
        not used. A scheduler that goes away stops the search with ``stats["stopped"] = "lost: ..."`` and the
        bounds proven so far.
    parts : dict, optional
        For a spread search: ``{"on_part": f}`` (``f(path, d, result)`` for each part answered, as it arrives),
        ``{"known": [(path, d, result), ...]}`` (parts answered before: a resumed run), ``"depth"`` (the
        examples the driver unfolds), ``"trial"`` (seconds in this process first, default 0.5), ``"proof"``
        (False: no upper-bound certificate from the workers).
    tree : bool
        For the randomized and k-error games: build the lower-bound tree (default True; False leaves it out, as
        no one will read it). It is built within the time limit, or a second past the search when the search
        used it all; one it cannot build in time, or of more than
        :attr:`~solvers.opt.control.Tuning.games_tree_nodes` nodes, is left out and ``stats["tree_note"]`` says why.
    control : Control, optional
        The deadline, cancel signal, progress, memory and workers in one object
        (:class:`~solvers.opt.control.Control`; the keywords ``time_limit``, ``jobs``, ``memo_bytes``, ``progress``
        and ``cluster`` build one, and when both are given the keywords that differ from their defaults win).
        A set ``cancel`` stops the run with the bounds proven so far, ``stats["stopped"] == "cancelled"``.
    tuning : Tuning, optional
        The thresholds of the plan and the engines (:class:`~solvers.opt.control.Tuning`; default
        :meth:`Tuning.from_env() <solvers.opt.control.Tuning.from_env>` for a search spread over workers, whose pace
        its variables set, else :meth:`Tuning.default() <solvers.opt.control.Tuning.default>`).
    bounds : callable, "learners" or None
        ``bounds(C)``: proven upper bounds on Opt(C) as ``[(value, reason), ...]``, smallest first. They settle
        Opt(C) when one meets a shattered set, and lower the upper bound of a search stopped by its time limit.
        ``"learners"`` (the default): the bounds of the learners that apply,
        :func:`solvers.learners.bounds.learner_bounds`, which the top package ``solvers`` wires in (this
        package does not import the learners built on it). None: no such bounds.

    Returns
    -------
    OptResult
        ``value`` (None unless solved), ``lower``, ``upper``, ``tree`` (depth ``lower``), ``stats``.
        A time limit or Ctrl-C returns the bounds proven so far. For the other games the numbers are
        Fractions (randomized) or ints, ``tree`` is the game's lower-bound certificate (a
        :class:`~solvers.certificates.RandomizedTree` for the randomized game) and ``stats["game"]``
        names the game; ``stats["plan"]`` the steps of the plan (:func:`solvers.opt.plan.plan`) and
        ``stats["engine"]`` the step whose answer this is.

    Raises
    ------
    ValueError
        If the time limit, the number of jobs, the memory limit, the engine or the game is invalid.
    """

    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time limit {time_limit!r} is not positive; give a number of seconds > 0")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs={jobs!r}: give a whole number of worker processes >= 1")
    if engine not in ENGINE_CHOICES:
        raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(ENGINE_CHOICES)}")
    if isinstance(bounds, str) and bounds == LEARNERS:
        bounds = _wired_bounds()
    elif bounds is not None and not callable(bounds):
        raise ValueError(f"bounds={bounds!r}: give \"learners\", None, or a function of the class returning "
                         "[(value, reason), ...]")
    G = Game.of(game, errors, horizon)
    control = _control(control, time_limit, jobs, memo_bytes, progress, cluster)
    if tuning is None:  # (the environment's variables pace the spread search alone: a one-process run reads none)
        tuning = Tuning.from_env() if control.jobs > 1 or control.cluster is not None else Tuning.default()
    if not (symmetry and isomorphism):
        tuning = tuning.replace(symmetry=tuning.symmetry and symmetry, isomorphism=tuning.isomorphism and isomorphism)
    kind = _solver_kind(solver)
    facts = ClassFacts.of(C, count=False)
    left = control.remaining()
    options = dict(jobs=control.jobs, time_limit=left, engine=engine, tuning=tuning, solver=kind,
                   bounds=bounds is not None, anytime=anytime, cluster=control.cluster is not None)
    replan = None
    count, steps = first_plan(facts, G, **options)
    if count:
        if steps is not None:  # (settlers first: counted once they have not settled it)
            def replan():
                return plan(facts.counted(C), G, **options)
        else:
            steps = plan(facts.counted(C), G, **options)
    return _run(C, G, steps, control, tuning, engine=engine, solver=solver, parts=parts, bounds=bounds,
                want_tree=tree, time_limit=left, replan=replan)




def _control(control: Control | None, time_limit, jobs, memo_bytes, progress, cluster) -> Control:
    """The run's control: ``control`` (or a new one) with the keywords that differ from their defaults."""
    if control is None:
        if jobs == 1 and memo_bytes is None and progress is None and cluster is None:
            return Control.within(time_limit)
        return Control.within(time_limit, jobs=jobs, memo_bytes=memo_bytes, progress=progress, cluster=cluster)
    if isinstance(control.jobs, bool) or not isinstance(control.jobs, int) or control.jobs < 1:
        raise ValueError(f"jobs={control.jobs!r}: give a whole number of worker processes >= 1")
    kw = {k: v for k, v in (("jobs", jobs if jobs != 1 else None), ("memo_bytes", memo_bytes),
                            ("progress", progress), ("cluster", cluster)) if v is not None}
    if kw:
        control = dataclasses.replace(control, **kw)
    return control if time_limit is None else control.until(time.monotonic() + time_limit)


def _solver_kind(solver) -> str | None:
    """The engine of a warm solver given to :func:`opt` (None: none given)."""
    if solver is None:
        return None
    from .games import GameSolver

    if isinstance(solver, GameSolver):
        return "games"
    return "search" if isinstance(solver, Solver) else "states"


def _run(C, G: Game, steps: Plan, control: Control, tuning: Tuning, *, engine: str, solver, parts, bounds,
         want_tree: bool, time_limit: float | None, replan: Callable[[], Plan] | None = None) -> OptResult:
    """Run the plan's steps in order; the first that settles (or the last engine's answer, after the anytime pass
    and the horizon's cap) is the result, with ``stats["plan"]``. ``replan()``: the plan of the class with its
    distinct points counted, which replaces ``steps`` once the settlers at its head have not settled it (the
    settlers are the same in both)."""
    t0 = time.monotonic()
    names = steps.names
    shattered = None  # (d, tree): the shattered set's lower bound, when it did not settle
    learners = None  # the learners' bounds, smallest first, once asked
    r = None
    i = 0
    while i < len(steps.steps):
        step = steps.steps[i]
        if replan is not None and step.name not in SETTLERS:
            counted = replan()
            replan = None
            if counted.steps[:i] != steps.steps[:i]:
                raise RuntimeError(f"internal error: the settlers of {counted.names} and {names} differ")
            steps, names = counted, counted.names
            step = steps.steps[i]
        i += 1
        name = step.name
        if name == "shattered set":
            until = control.deadline if control.deadline is not None else float("inf")
            if step.cap is not None:
                until = min(until, t0 + step.cap)
            if time_limit is not None and step.until is not None:
                until = min(until, t0 + step.until * time_limit)
            try:
                settled, shattered = cheap.settle_by_shattering(C, until, control.memo_bytes, tuning.symmetry, t0)
            except KeyboardInterrupt:  # nothing proven yet: the class's cheap bounds, as a search stopped at once
                r = opt(C, time_limit=1e-3, memo_bytes=control.memo_bytes, engine=engine, anytime=False,
                        symmetry=tuning.symmetry, isomorphism=tuning.isomorphism)
                r.stats["stopped"] = "interrupted"
                return _stamped(r, names)
            if settled is not None:
                return _stamped(_game_of(settled, G), names)
        elif name == "learners":
            try:
                learners = list(bounds(C))
            except KeyboardInterrupt:
                learners = None
                continue
            if (learners and shattered is not None and shattered[0] == learners[0][0]
                    and cheap.checked(shattered[1], shattered[0], C)):
                return _stamped(_game_of(_settled_by_learners(C, shattered, learners[0], control, tuning, t0), G),
                                names)
        elif name == "anytime":
            r = _anytime(C, r, control, tuning, bounds, learners, t0, time_limit)
        elif name == "cap":
            r = search_engine.capped(r, G)
        else:
            r = _engine(C, G, steps, i - 1, control, tuning, solver=solver, parts=parts, want_tree=want_tree, t0=t0,
                        time_limit=time_limit)
            if name == "search" and names[i:i + 1] == ("table",) and step.cap is not None:
                i += 1  # (the table ran with the search, on its solver, once the search passed its cap)
    if r is None:
        raise RuntimeError(f"internal error: the plan {names} has no engine")
    return _stamped(r, names)


def _engine(C, G: Game, steps: Plan, k: int, control: Control, tuning: Tuning, *, solver, parts, want_tree: bool,
            t0: float, time_limit: float | None) -> OptResult:
    """The engine of step ``k`` under its share of the time. When the plan ends with the anytime pass, the engine
    steps run within ``1 - tuning.anytime_share`` of the time limit (what the pass wraps; the pass then solves
    restrictions as ``opt(..., anytime=False)``): under the run's control with its deadline brought forward to the
    step's end, the search's cap counted from the step's start."""
    step = steps.steps[k]
    name = step.name
    if step.until is not None and time_limit is not None and "anytime" in steps.names:
        now = time.monotonic()
        control = control.until(max(now + 1e-9, t0 + time_limit * step.until))
        t0 = now
    if name == "packed":
        return packed_engine.solve(C, Game(), control, tuning)
    if name in ("states", "disjunctions"):
        return _run_controlled(control, lambda: states_engine.states(C, control, solver=solver))
    if name == "games":
        return _run_controlled(control, lambda: games_engine.game_value(C, G, control, tuning, solver=solver,
                                                                         want_tree=want_tree))
    table = name == "search" and steps.names[k + 1:k + 2] == ("table",) and step.cap is not None
    return _run_controlled(control, lambda: search_engine.search(
        C, control, tuning, table=table, table_only=name == "table", cap=step.cap, solver=solver, parts=parts,
        t0=t0))


def _stamped(r: OptResult, names: tuple) -> OptResult:
    """``r`` with ``stats["plan"]``."""
    r.stats["plan"] = list(names)
    return r


def _game_of(r: OptResult, G: Game) -> OptResult:
    """A settled Opt(C) as the value of ``G`` (a horizon caps it)."""
    return r if G.standard else search_engine.capped(r, G)


def _settled_by_learners(C, shattered: tuple, best: tuple, control: Control, tuning: Tuning, t0: float) -> OptResult:
    """Opt(C) = d when a learner's proven bound is the size d of a shattered set (the complete tree over it)."""
    d, tree = shattered
    value, why = best
    S = Solver(C, memo_bytes=control.memo_bytes, symmetry=tuning.symmetry, tuning=tuning)
    stats = Stats({"engine": "learners", "nodes": 0, "memo": 0, "evictions": 0, "memo_bytes": S.memo_bytes,
                   "memo_used_bytes": S.memo_used_bytes, "seconds": round(time.monotonic() - t0, 4), "queries": [],
                   "stopped": None, "upper_reason": why,
                   "symmetry": {"order": None, "source": "skipped: settled without a search", "seconds": None}})
    return OptResult(d, d, value, tree, stats, S, Game())


def _anytime(C, r: OptResult, control: Control, tuning: Tuning, bounds, learners, t0: float,
             time_limit: float) -> OptResult:
    """The anytime pass after an engine stopped by its time limit: the learners' bounds for the upper bound, then
    the cheap lower bounds of :mod:`solvers.opt.anytime` in the time left (see :func:`opt`'s ``anytime``)."""
    if r.value is not None or r.stats.get("stopped") != "time limit":
        return r
    upper, reason = r.upper, cheap.upper_reason(C, r.upper)
    try:
        if learners is None:
            learners = list(bounds(C)) if bounds is not None else []
        for value, why in learners[:1]:  # a learner's proven bound below the search's
            if upper is None or value < upper:
                upper, reason = value, why
    except KeyboardInterrupt:  # a Ctrl-C while the learners are built: the search's bounds, as they are
        return OptResult(None, r.lower, r.upper, r.tree, {**r.stats, "stopped": "interrupted", "upper_reason": reason},
                         r.solver, r.game, proof=r.proof)
    r = OptResult(r.lower if r.lower == upper else None, r.lower, upper, r.tree, {**r.stats, "upper_reason": reason},
                  r.solver, r.game, proof=r.proof if upper == r.upper else None)
    memo_bytes = control.memo_bytes
    try:
        found = cheap.improve(C, r, max(0.0, t0 + time_limit - time.monotonic()),
                                lambda D, t: opt(D, time_limit=max(t, 1e-3), memo_bytes=memo_bytes, anytime=False,
                                                 symmetry=tuning.symmetry, isomorphism=tuning.isomorphism,
                                                 tuning=tuning),
                                tuning=tuning)
    except cheap.Interrupted as e:  # a Ctrl-C during the pass: what it found still counts
        found = e.found
        r.stats["stopped"] = "interrupted"
    if not found:
        return r
    value, tree, _ = found[-1]
    stats = {**r.stats, "anytime": [{"lower": v, "reason": why} for v, _, why in found],
             "seconds": round(time.monotonic() - t0, 4)}
    return OptResult(value if value == r.upper else None, value, r.upper, tree, stats, r.solver, r.game, proof=r.proof)
