"""``opt(C)``: Opt(C), the Littlestone dimension, exactly or as proven bounds, with its certificate.

[Rivest94] defines Opt(C), the best worst-case number of mistakes of any learner on C. :func:`opt`
runs the search of :mod:`solvers.opt.search` at the root (in this process, or spread over worker
processes by :mod:`solvers.opt.parallel`) and, for classes of at most
:data:`~solvers.opt.subcube.MAX_TABLE_POINTS` distinct points that the search does not settle quickly,
the bottom-up table of :mod:`solvers.opt.subcube`; for the class of ``monotone-disjunctions n k`` (listed or
implicit) the search of :mod:`solvers.opt.disjunctions`, which uses the family's symmetry. A time limit
or Ctrl-C returns the bounds proven so far (lower <= Opt(C) <= upper) and a mistake tree of depth
``lower``.

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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..certificates import MistakeTree, RandomizedTree, bind
from ..certificates.opt import cut_tree
from ..classes.finite import ConceptClass
from ..game_rules import Game
from . import disjunctions
from .games import GameSolver
from . import distributed
from .parallel import solve_root_parallel
from .search import SearchStop, Solver
from . import packed, packed_exact
from .compact import solve_states
from .subcube import MAX_TABLE_POINTS, TableStop

__all__ = ["opt", "OptResult", "ENGINES"]

ENGINES = ("auto", "search", "table", "packed")  # the engines for any class ("packed": over at most 64 points); "states":
#                                        thresholds, intervals, rectangles, monotone disjunctions (solvers.opt.compact)
#: ``auto`` takes a listed class over at most 64 points with more concepts than this to the packed engine (decision
#: lists n=6, 260,134 concepts: Opt = 16 in 79 s, where the search had not settled it in 300 s)
PACKED_FROM = 100_000
#: monotone disjunctions over fewer points (n < 8) are solved by the generic search, faster there
_DISJUNCTIONS_FROM = 256
#: Whether ``jobs > 1`` spreads the search as on a cluster (:mod:`solvers.opt.distributed`) rather than deal the
#: root's splits to joblib's workers (:mod:`solvers.opt.parallel`)
SPREAD_LOCAL = True
#: Seconds a spread search runs in this process first (what it settles needs no worker)
SPREAD_TRIAL = 0.5


@dataclass(frozen=True)
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
    stats : dict
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
    stats: dict = field(default_factory=dict)
    solver: Optional[Solver] = field(default=None, repr=False, compare=False)
    game: Game = field(default=Game(), compare=False)
    #: ``proof(limit)`` writes the upper-bound certificate where the solver's memo does not hold it (a search
    #: spread over workers, :mod:`solvers.opt.distributed`)
    proof: Optional[Callable[[int], dict]] = field(default=None, repr=False, compare=False)

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
                cert = {"kind": "upper-bound", "game": G.to_json(), "bound": G.horizon, "entries": []}
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
        return f"OptResult(value={self.value}, lower={self.lower}, upper={self.upper}, stats={self.stats})"


def _table_seconds(N: int) -> float:
    """A rough cost model of the table engine on this kind of machine (measured: N=16 takes ~4 s)."""
    return 3.0**N * N * 6e-9


def opt(
    C: ConceptClass,
    *,
    time_limit: float | None = None,
    jobs: int = 1,
    memo_bytes: int | None = None,
    progress: Callable[[dict], None] | None = None,
    solver: Solver | None = None,
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
        over them by :mod:`solvers.opt.distributed` (with :data:`SPREAD_LOCAL` False, the root's splits are
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
        points with more than :data:`PACKED_FROM` concepts (when one process runs the search).
    game : {"deterministic", "randomized"}
        The learner's kind: ``randomized`` gives the optimal *expected* number of mistakes (RL(C) of
        Filmus, Hanneke, Mehalel and Moran, COLT 2023), an exact Fraction.
    errors : int
        k >= 0: the adversary may give k labels that disagree with the best concept (D_k(C), R_k(C)).
    horizon : int, optional
        T: the game stops after T rounds (deterministic: min(T, ...); randomized: RL_T by its recurrence).
    anytime : bool
        With a time limit, for Opt(C) on a class :func:`solvers.opt.anytime.applies` to (a listed class of
        :data:`~solvers.opt.anytime.MIN_CONCEPTS` concepts or more, or a family whose smaller instances
        embed in it): the exact search gets all but :data:`~solvers.opt.anytime.SHARE` of the time, and when
        it stops there the rest goes to the cheap lower bounds of :mod:`solvers.opt.anytime` (a shattered
        set, a smaller instance, a restriction); a better one replaces the search's lower bound and tree
        (``stats["anytime"]``: each bound kept, with its reason), and the upper bound is the least of the
        search's and the proven bounds of the learners that apply (:func:`~solvers.opt.anytime.learner_bounds`;
        ``stats["upper_reason"]`` says which). False: the exact search alone.
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
        used it all; one it cannot build in time, or of more than :data:`~solvers.opt.games.MAX_TREE_NODES`
        nodes, is left out and ``stats["tree_note"]`` says why.

    Returns
    -------
    OptResult
        ``value`` (None unless solved), ``lower``, ``upper``, ``tree`` (depth ``lower``), ``stats``.
        A time limit or Ctrl-C returns the bounds proven so far. For the other games the numbers are
        Fractions (randomized) or ints, ``tree`` is the game's lower-bound certificate (a
        :class:`~solvers.certificates.RandomizedTree` for the randomized game) and ``stats["game"]``
        names the game.

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
    if engine not in ENGINES and engine != "states":
        raise ValueError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}, states")
    G = Game.of(game, errors, horizon)
    tables = _evaluated(C) and packed.handles(C)  # halfspaces on {0,1}^6: 15 million truth tables
    if tables and (not G.standard or engine not in ("auto", "states", "packed")):
        raise ValueError(f"{C}: only Opt(C) is computed for this class, by its own engine (packed truth tables); "
                         "drop the game options and the engine")
    if engine == "packed" and (not G.standard or getattr(C, "n_points", 65) > 64 or not (tables or C.finite)):
        raise ValueError("the packed engine computes Opt(C) of a listed class over at most 64 points; drop the game "
                         "options, or use engine 'auto'")
    listed_big = (engine == "auto" and G.standard and getattr(C, "finite", False) and C.n_points <= 64
                  and C.n_concepts > PACKED_FROM and jobs == 1 and cluster is None)
    if tables or engine == "packed" or listed_big:
        lo, hi, tree, stats, proof = packed_exact.solve(C, time_limit=time_limit, progress=progress,
                                                        memo_bytes=memo_bytes)
        return OptResult(lo if lo == hi else None, lo, hi, tree, stats, None, proof=proof)
    if (anytime and time_limit is not None and G.standard and (solver is None or type(solver) is Solver)
            and engine in ("auto", "search", "states")):
        from . import anytime as cheap

        if cheap.applies(C):
            return _with_anytime(C, time_limit, jobs, memo_bytes, progress, engine, symmetry, isomorphism,
                                 solver=solver, cluster=cluster, parts=parts)
    by_family = (G.standard and engine == "auto" and not isinstance(solver, Solver) and disjunctions.handles(C)
                 and (not C.finite or C.n_points >= _DISJUNCTIONS_FROM))  # by the symmetry of the family
    if by_family or engine == "states" or _evaluated(C):
        if not G.standard:
            raise ValueError("the states engine computes Opt(C) only; the other games need the class's matrix "
                             "(a smaller N, engine 'auto')")
        if engine == "table":
            raise ValueError("the table engine needs the class's matrix; use engine 'states' or 'auto'")
        lo, hi, tree, stats, S = solve_states(C, time_limit=time_limit, memo_bytes=memo_bytes, progress=progress,
                                              solver=solver)
        return OptResult(lo if lo == hi else None, lo, hi, tree, stats, S)
    if not G.standard:
        if engine == "table":
            raise ValueError("the table engine computes Opt(C) only; use engine 'auto' for the other games")
        if G.randomized or G.errors:
            return _opt_game(C, G, time_limit, memo_bytes, progress, solver, symmetry, want_tree=tree)
        r = opt(C, time_limit=time_limit, jobs=jobs, memo_bytes=memo_bytes, progress=progress, solver=solver,
                engine=engine, anytime=anytime, symmetry=symmetry, isomorphism=isomorphism)
        return _capped(r, G)
    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit is not None else None
    S = solver if solver is not None else Solver(C, memo_bytes=memo_bytes, symmetry=symmetry, isomorphism=isomorphism)
    N = len(S.root_masks)
    if engine == "table" and N > MAX_TABLE_POINTS:
        raise ValueError(
            f"the table engine handles at most {MAX_TABLE_POINTS} distinct points and this class has {N}; "
            "use engine 'search' or 'auto'"
        )
    queries: list = []
    spreads: list = []  # the driver of a search spread over workers, once it has started
    stopped = None
    nodes0 = S.nodes
    used = "table" if engine == "table" else "search"
    lo, hi = S.reset_root_bounds()
    try:
        if engine != "table":
            budget = deadline
            if engine == "auto" and N <= MAX_TABLE_POINTS:
                cut = t0 + max(0.02, 0.25 * _table_seconds(N))
                budget = cut if deadline is None else min(deadline, cut)
            try:
                with S.limits(deadline=budget, progress=progress):
                    if cluster is not None or (jobs > 1 and SPREAD_LOCAL):
                        try:
                            lo, hi = _search_root_spread(S, jobs, cluster, queries, t0, budget, progress, parts,
                                                         spreads, memo_bytes)
                        finally:
                            S.stop_detection()
                    elif jobs == 1:
                        lo, hi = S.solve_root(queries)
                    else:
                        try:
                            lo, hi = _search_root_with_workers(S, jobs, queries, t0, budget, progress)
                        finally:
                            S.stop_detection()  # (the workers' search never looks at a detection under way here)
            except SearchStop:
                lo, hi = S.root_bounds
                if budget == deadline:
                    stopped = "time limit"
        if lo < hi and stopped is None and N <= MAX_TABLE_POINTS:
            used = "table"
            T = S.subcube_table()
            up = hi
            report = None
            if progress is not None:
                def report(info):
                    progress({"lower": max(lo, info["lower"]), "upper": up, "nodes": S.nodes,
                              "memo": S.memo_entries, "sweeps": info["sweeps"]})
            T.fill(deadline, report)
            lo = hi = T.value()
    except (SearchStop, TableStop):
        stopped = "time limit"
        lo, hi = S.root_bounds
        if S.table is not None and S.table.value() > lo:
            lo = S.table.value()  # every value in a partly filled table is a proven lower bound
            used = "table"
    except KeyboardInterrupt:
        stopped = "interrupted"
        lo, hi = S.root_bounds
    except distributed.Lost as e:
        stopped = f"lost: {e}"
        lo, hi = S.root_bounds
    tree = None
    spread = spreads[0] if spreads else None
    proof = None
    if spread is not None and spread.upper is not None and spread.upper == hi:
        if spread.certified:
            def proof(limit, spread=spread, hi=hi):
                return spread.upper_proof(hi, limit=limit)
        else:
            if spread.resumed:  # a bound resting on stored parts that no certificate checked: not reported
                hi = max(lo, spread.hi0)
                stopped = stopped or spread.stopped or "time limit"

            def proof(limit):  # (not the driver's memo: it holds none of the workers' refutations)
                raise ValueError("the workers' upper-bound certificate was not written (the search was stopped)")
    if lo >= 0:
        try:
            if used == "table" and S.table is not None and S.table.value() >= lo:
                root = S.table.mistake_tree(d=lo)
            elif spread is not None and lo >= 1 and spread.lower >= lo:
                root = spread.tree(lo)  # from the parts' trees
            else:
                # The tree of depth `lo` is rebuilt from the memo's recorded moves (a memo hit per node).
                root = S.mistake_tree(S.full, lo)
            tree = MistakeTree(lo, root, C)
        except KeyboardInterrupt:
            # Ctrl-C while the tree is rebuilt, or a memo that dropped part of it after one (the search
            # it would need stops after the grace of solvers.interrupts): the bounds without their tree.
            stopped = "interrupted"
    stats = {
        "engine": used,
        "nodes": S.nodes - nodes0,
        "memo": S.memo_entries,
        "evictions": S.evictions,
        "memo_bytes": S.memo_bytes,  # the budget
        "memo_used_bytes": S.memo_used_bytes,
        "seconds": round(time.monotonic() - t0, 4),
        "queries": queries,
        "stopped": stopped,
        "root_splits": N,
        "symmetry": S.symmetry_info,
        "isomorphism": S.isomorphism_info,
    }
    if S.table is not None:
        stats["table_sweeps"] = S.table.sweeps
    if spread is not None:
        stats["spread"] = {"workers": spread.pool.size, "parts": spread.parts, "resumed": spread.resumed,
                           "cancelled": spread.cancelled, "preempted": spread.preempted, "depth": spread.depth}
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, S, G, proof)


def _with_anytime(C, time_limit: float, jobs: int, memo_bytes, progress, engine: str, symmetry: bool,
                  isomorphism: bool = True, *, solver: Solver | None = None, cluster=None,
                  parts: dict | None = None) -> OptResult:
    """:func:`opt` of Opt(C) with its anytime pass (see its ``anytime`` parameter); the search itself with
    :func:`opt`'s ``solver`` (a warm start from the store), ``cluster`` and ``parts``."""
    from . import anytime

    t0 = time.monotonic()
    # First the shattered set, in at most a second: when it is as large as the Halving bound floor(log2 |C|)
    # (all-functions), that settles Opt(C) before any search.
    try:
        settled = _settled_by_shattering(C, t0 + min(1.0, 0.05 * time_limit), memo_bytes, symmetry, t0)
    except KeyboardInterrupt:  # nothing proven yet: the class's cheap bounds, as a search stopped at once has them
        r = opt(C, time_limit=1e-3, memo_bytes=memo_bytes, engine=engine, anytime=False, symmetry=symmetry,
                isomorphism=isomorphism)
        r.stats["stopped"] = "interrupted"
        return r
    if settled is not None:
        return settled
    r = opt(C, time_limit=time_limit * (1 - anytime.SHARE), jobs=jobs, memo_bytes=memo_bytes, progress=progress,
            engine=engine, anytime=False, symmetry=symmetry, isomorphism=isomorphism, solver=solver, cluster=cluster,
            parts=parts)
    if r.value is not None or r.stats.get("stopped") != "time limit":
        return r
    upper, reason = r.upper, anytime.upper_reason(C, r.upper)
    try:
        for value, why in anytime.learner_bounds(C)[:1]:  # a learner's proven bound below the search's
            if upper is None or value < upper:
                upper, reason = value, why
    except KeyboardInterrupt:  # a Ctrl-C while the learners are built: the search's bounds, as they are
        return OptResult(None, r.lower, r.upper, r.tree, {**r.stats, "stopped": "interrupted", "upper_reason": reason},
                         r.solver, r.game, proof=r.proof)
    r = OptResult(r.lower if r.lower == upper else None, r.lower, upper, r.tree, {**r.stats, "upper_reason": reason},
                  r.solver, r.game, proof=r.proof if upper == r.upper else None)
    try:
        found = anytime.improve(C, r, max(0.0, t0 + time_limit - time.monotonic()),
                                lambda D, t: opt(D, time_limit=max(t, 1e-3), memo_bytes=memo_bytes, anytime=False,
                                                 symmetry=symmetry, isomorphism=isomorphism))
    except anytime.Interrupted as e:  # a Ctrl-C during the pass: what it found still counts
        found = e.found
        r.stats["stopped"] = "interrupted"
    if not found:
        return r
    value, tree, _ = found[-1]
    stats = {**r.stats, "anytime": [{"lower": v, "reason": why} for v, _, why in found],
             "seconds": round(time.monotonic() - t0, 4)}
    return OptResult(value if value == r.upper else None, value, r.upper, tree, stats, r.solver, r.game, proof=r.proof)


def _settled_by_shattering(C, deadline: float, memo_bytes, symmetry: bool, t0: float):
    """Opt(C) when a shattered set found greedily by ``deadline`` (:func:`solvers.opt.anytime.shattered_points`)
    reaches the Halving bound floor(log2 |C|): the complete tree over it proves the lower bound, and the
    upper-bound certificate has no entries (fewer than 2^(d+1) concepts). Else None."""
    from . import anytime

    if not anytime.listed(C):
        return None
    points = anytime.shattered_points(C, deadline, all_or_nothing=True)
    d = len(points)
    tree = MistakeTree.shattered(points, C)
    if d == 0 or d != C.log2_size() or not anytime.checked(tree, d, C):
        return None
    S = Solver(C, memo_bytes=memo_bytes, symmetry=symmetry)
    stats = {"engine": "shattered set", "nodes": 0, "memo": 0, "evictions": 0, "memo_bytes": S.memo_bytes,
             "memo_used_bytes": S.memo_used_bytes, "seconds": round(time.monotonic() - t0, 4), "queries": [],
             "stopped": None, "anytime": [{"lower": d, "reason": anytime.shattered_reason(d)}],
             "symmetry": {"order": None, "source": "skipped: settled without a search", "seconds": None}}
    return OptResult(d, d, d, tree, stats, S, Game.of("deterministic", 0, None))


def _evaluated(C) -> bool:
    """Whether C is an EvaluatedClass (no matrix: only the states engine reads it)."""
    from ..classes.evaluated import EvaluatedClass

    return isinstance(C, EvaluatedClass)


def _search_root_with_workers(S: Solver, jobs: int, queries: list, t0: float, budget: float | None,
                              progress) -> tuple[int, int]:
    """The search at the root with ``jobs > 1``, under ``S.limits(deadline=budget)``: half a second in
    this process first (worker processes cost about a second to start), then the workers."""
    done = _trial(S, queries, t0, budget, progress, 0.5)
    return done if done is not None else solve_root_parallel(S, jobs, queries)


def _trial(S: Solver, queries: list, t0: float, budget: float | None, progress, seconds: float):
    """The search in this process for ``seconds`` from ``t0`` before workers take over: its (lower, upper) if that
    settles it, else None; the caller's own ``budget`` ending first raises SearchStop."""
    if seconds <= 0:
        return None
    trial = t0 + seconds if budget is None else min(budget, t0 + seconds)
    try:
        with S.limits(deadline=trial, progress=progress):
            return S.solve_root(queries)
    except SearchStop:
        if trial == budget:
            raise
    return None


def _trial_seconds() -> float:
    """Seconds the search runs in this process before it is spread (:data:`SPREAD_TRIAL`, or
    ``$LITTLESTONE_SPREAD_TRIAL``: 0 spreads at once, as the tests do on classes that a trial would settle)."""
    import os

    try:
        return max(0.0, float(os.environ.get("LITTLESTONE_SPREAD_TRIAL", SPREAD_TRIAL)))
    except ValueError:
        return SPREAD_TRIAL


def _search_root_spread(S: Solver, jobs: int, cluster, queries: list, t0: float, budget: float | None, progress,
                        parts, spreads: list, memo_bytes=None) -> tuple[int, int]:
    """The search at the root spread over workers (:mod:`solvers.opt.distributed`), under
    ``S.limits(deadline=budget)``: half a second in this process first (what it settles needs no worker), then the
    root queries by :class:`~solvers.opt.distributed.Spread` over ``jobs`` local processes or the workers of the
    Dask client ``cluster``; the driver is appended to ``spreads`` (its parts make the certificates)."""
    parts = parts or {}
    done = _trial(S, queries, t0, budget, progress, parts.get("trial", _trial_seconds()))
    if done is not None:
        return done
    # On a cluster each worker takes half of its own memory limit (solvers.opt.distributed._dask_part), unless
    # the memory was given; here the machine's budget is shared by the processes.
    share = None if cluster is not None and memo_bytes is None else max(1, S.memo_bytes // max(1, jobs))
    opts = {"memo_bytes": share, "symmetry": S.symmetric_search,
            "isomorphism": S.isomorphism, "kernel": S.kernel_mode}
    pool = (distributed.DaskPool(cluster, S.C, opts) if cluster is not None
            else distributed.LocalPool(S.C, opts, jobs))
    try:
        spread = distributed.Spread(S, pool, on_part=parts.get("on_part"), known=parts.get("known", ()),
                                    progress=progress, depth=parts.get("depth"))
        spreads.append(spread)
        try:
            lo, hi = S.descend(queries, lambda d: spread.decide(d, budget))
        finally:
            spread.close()
        if spread.upper is not None and parts.get("proof", True):
            spread.certify(spread.upper, budget)  # while the workers' memos hold the refutations
        return lo, hi
    finally:
        pool.close()


def _capped(r: OptResult, G: Game) -> OptResult:
    """Opt(C) with a horizon T: min(T, Opt(C)), the tree cut at depth min(T, lower) (a deterministic
    adversary that makes the learner err every round forces min(T, Opt) mistakes in T rounds)."""
    T = G.horizon
    lo, hi = min(T, r.lower), min(T, r.upper)
    tree = None
    if r.tree is not None and r.tree.levels is not None:  # a complete tree by levels: its first lo levels
        tree = MistakeTree(lo, None, r.tree.C, G, levels=r.tree.levels[:lo])
    elif r.tree is not None:
        tree = MistakeTree(lo, cut_tree(r.tree.root, lo), r.tree.C, G)
    stats = {**r.stats, "game": G.to_json(), "symbol": G.symbol}
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, r.solver, G)


#: Seconds the lower-bound tree of a game may take past a search that used all of its time limit.
TREE_GRACE = 1.0


def _opt_game(C, G: Game, time_limit, memo_bytes, progress, solver, symmetry: bool = True,
              want_tree: bool = True) -> OptResult:
    """The value of a game other than Opt(C)'s by :class:`~solvers.opt.games.GameSolver`; its lower-bound tree
    (``want_tree``) within the deadline, or :data:`TREE_GRACE` past it (left out, with ``stats["tree_note"]``,
    when it cannot be built in that time or is too large)."""
    from .games import TreeTooLarge

    t0 = time.monotonic()
    deadline = t0 + time_limit if time_limit is not None else None
    if solver is not None and not (isinstance(solver, GameSolver) and solver.game == G):
        raise ValueError(f"the solver given was built for another game; give a GameSolver for {G.describe()}")
    S = solver if solver is not None else GameSolver(
        C, G, memo_bytes=memo_bytes, opt_seconds=0.5 if time_limit is None else min(0.5, time_limit / 4),
        symmetry=symmetry)
    nodes0 = S.nodes
    queries: list = []
    done, stopped = S.run(lambda: S.solve_root(queries), deadline=deadline, progress=progress)
    lo, hi = done if done is not None else S.root_bounds
    tree = tree_note = None
    wanted = want_tree and (lo == hi and stopped is None if G.randomized else lo >= 0)
    until = None if deadline is None else max(deadline, time.monotonic() + TREE_GRACE)
    try:
        if wanted:
            with S.limits(deadline=until):
                tree = (RandomizedTree(lo, S.lower_tree(), C, G) if G.randomized
                        else MistakeTree(lo, S.lower_tree(lo), C, G))
    except SearchStop:
        tree_note = f"the {'shattered' if G.randomized else 'mistake'} tree could not be built in the time given"
    except TreeTooLarge as e:
        tree_note = str(e)
    except KeyboardInterrupt:  # as in opt(): the bounds without their tree
        stopped = "interrupted"
    stats = {
        "engine": "search", "game": G.to_json(), "symbol": G.symbol, "nodes": S.nodes - nodes0,
        "memo": len(S.memo), "evictions": S.evictions, "memo_bytes": S.memo_bytes, "memo_used_bytes": S.memo_used_bytes,
        "seconds": round(time.monotonic() - t0, 4), "queries": queries, "stopped": stopped,
        "root_splits": len(S.root_masks), "symmetry": S.symmetry_info,
    }
    if tree_note is not None:
        stats["tree_note"] = tree_note
    return OptResult(lo if lo == hi else None, lo, hi, tree, stats, S, G)
