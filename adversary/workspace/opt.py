"""The workspace's ``opt``: Opt(C), or the value of another game (:mod:`solvers.game_rules`), of one class, with the
store: a result the store proves is served, one it bounds is warm-started from its bounds, a new one is written
sealed, and a search spread over workers resumes from the parts an earlier run of it stored.

Its methods are named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING, Callable

from ._messages import WorkspaceError, note, speaking_to

if TYPE_CHECKING:
    from solvers.classes.protocol import ConceptClassProtocol
    from solvers.opt import OptResult

    from . import Workspace

__all__ = ["METHODS", "ENGINES", "opt", "uses_states", "served_result", "spread_parts", "forget_parts"]

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ("opt",)

#: The engines ``opt`` takes (:func:`solvers.opt.opt`).
ENGINES = ("auto", "search", "table", "states", "packed")


def opt(ws: Workspace, C: ConceptClassProtocol, *, game: str = "deterministic", errors: int = 0,
        horizon: int | None = None, time_limit: float | None = None, engine: str = "auto",
        memo_bytes: int | None = None, progress: Callable[[dict], None] | None = None, symmetry: bool = True,
        isomorphism: bool = True, tree: bool = True, proof: bool = False, proof_limit: int = 100_000,
        family: str | None = None, params: dict | None = None, matrix_name: str | None = None,
        label: str | None = None, seal: bool = True) -> OptResult:
    """Opt(C), the Littlestone dimension of ``C`` (or the value of another game), with the workspace's store.

    The store is looked up first: a result whose certificates (by its seal) prove the value is served as stored
    (``stats["stored"]``); one that proves bounds only warm-starts the search. A result computed here is written
    to the store with its mistake tree and upper-bound certificate, sealed. With ``ws.jobs > 1`` or a Dask
    cluster (``ws.backend``, ``ws.scheduler``) the search is spread over workers, and each answered part is
    stored as it arrives: a run stopped mid-way (Ctrl-C, SIGKILL, a lost cluster) resumes from them the next
    time. The states engine (thresholds, intervals, rectangles, and classes too large for a matrix) starts
    afresh and writes its result, unsealed.

    Parameters
    ----------
    C : ConceptClass
        The class (a family's, ``solvers.classes.families.make``, or any other).
    game : {"deterministic", "randomized"}
        The learner's kind; with ``errors`` and ``horizon``, the game (:meth:`solvers.game_rules.Game.of`).
    errors : int
        Label errors the adversary may give (k >= 0).
    horizon : int, optional
        T: the game stops after T rounds.
    time_limit : float, optional
        Seconds after which the search stops with the bounds proven (``value`` None).
    engine : {"auto", "search", "table", "states", "packed"}
        The engine (:func:`solvers.opt.opt`); ``states`` (and any class too large for a matrix) runs in this
        process only, and computes Opt(C) only.
    memo_bytes : int, optional
        Memory the search's memo may use (default: half the machine's).
    progress : callable, optional
        ``progress(info)`` about once a second while the search runs (``info``: ``lower``, ``upper``, ``nodes``,
        and ``memo``, ``parts``, ``in_flight``, ``leaves`` as the engine has them).
    symmetry, isomorphism : bool
        Key the search's memo by the class's symmetries, and its large version spaces by canonical form.
    tree : bool
        For the randomized and k-error games: build the lower-bound tree (always, with a store).
    proof : bool
        The upper-bound certificate is wanted (``certificate``): a stored result without one is computed again,
        and a computed one is always certified (otherwise only when the run took a while, or was not solved).
    proof_limit : int
        The most entries that certificate may have (default 100,000): past it none is written, and the row
        says so.
    family, params : optional
        The family and parameters the store lists the row under (default ``C.family``, ``C.params``).
    matrix_name : str, optional
        The name of the matrix file ``C`` was read from (the store lists the row by it).
    label : str, optional
        How messages name the class (default its family and parameters).
    seal : bool
        Check the new row's certificates and seal it before it is written (default). False: the row is written
        unsealed, and :meth:`OptRun.seal() <adversary.workspace.opt.OptRun.seal>` seals it later (the command
        line shows the result first).

    Returns
    -------
    OptRun
        An :class:`~solvers.opt.OptResult` (``value``, ``lower``, ``upper``, ``tree``, ``stats``; a served one
        has ``stats["stored"]``: the store's ``path``, the ``seconds`` it took then, ``how`` it was checked,
        ``checked``), with ``certificate`` (the upper-bound certificate as stored or just written, or None) and
        ``store_error`` (a write to the store that failed, in one line: the result is not stored; else None).

    Raises
    ------
    WorkspaceError
        Bad input (a time limit, an engine, a game, a memory size), a cluster that cannot be used, or stored parts
        of a spread search that do not check (they are removed: run it again).

    Examples
    --------
    >>> from adversary.workspace import Workspace
    >>> from solvers.classes.families import make
    >>> with Workspace() as ws:           # no store: computed each time
    ...     ws.opt(make("thresholds", N=30)).value
    4
    >>> with Workspace("results.db") as ws:                   # doctest: +SKIP
    ...     r = ws.opt(make("intervals", N=30))               # computed, stored sealed
    ...     ws.opt(make("intervals", N=30)).stats["stored"]   # served: {'path': 'results.db', ...}
    """
    with speaking_to(ws.note):
        G = _checked(C, game, errors, horizon, time_limit, engine, memo_bytes)
        keywords = dict(time_limit=time_limit, engine=engine, memo_bytes=memo_bytes, progress=progress,
                        proof=proof, proof_limit=proof_limit, family=family, params=params)
        if uses_states(C, engine):
            return _by_states(ws, C, G, label=label, **keywords)
        return _by_search(ws, C, G, symmetry=symmetry, isomorphism=isomorphism, tree=tree, matrix_name=matrix_name,
                          seal=seal, **keywords)


def uses_states(C, engine: str = "auto") -> bool:
    """Whether :func:`opt` takes ``C`` to the states engine (``engine="states"``, or a class too large for a
    matrix: an :class:`~solvers.classes.evaluated.EvaluatedClass`), which runs in this process only."""
    if engine == "states":
        return True
    from solvers.classes.evaluated import EvaluatedClass

    return isinstance(C, EvaluatedClass)


def _checked(C, game, errors, horizon, time_limit, engine, memo_bytes):
    """The game, after the input is checked (a WorkspaceError, one line, before the store is read)."""
    from solvers.game_rules import Game

    from .cells import check_time_limit

    if not hasattr(C, "n_concepts"):
        raise WorkspaceError(f"C={type(C).__name__}: give a concept class (e.g. solvers.classes.families.make("
                             "'intervals', N=30))")
    if engine not in ENGINES:
        raise WorkspaceError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    check_time_limit(time_limit, "time_limit")
    if memo_bytes is not None and (isinstance(memo_bytes, bool) or not isinstance(memo_bytes, int) or memo_bytes < 1):
        raise WorkspaceError(f"memo_bytes={memo_bytes!r}: give a whole number of bytes >= 1, or None")
    try:
        return Game.of(game, errors, horizon)
    except ValueError as e:
        raise WorkspaceError(str(e)) from None


@functools.cache
def _run_type():
    """:class:`OptRun`, made when first needed (it extends :class:`solvers.opt.OptResult`, whose import is heavy:
    ``import adversary.workspace`` stays light)."""
    from dataclasses import dataclass, field
    from typing import Optional

    from solvers.opt import OptResult

    @dataclass(frozen=True, repr=False)
    class OptRun(OptResult):
        """What :func:`~adversary.workspace.opt.opt` returns: an :class:`~solvers.opt.OptResult`, and what the
        workspace did with it.

        Attributes
        ----------
        certificate : dict or None
            The certificate of ``upper`` (``verify_upper``), as the store holds it or as just written for it;
            None when none was written (not asked for and the run was quick, too large, or out of time).
        store_error : str or None
            A write to the store that failed (the result is not stored; computed again next time), else None.
        no_certificate : str or None
            Why a solved result has no ``certificate`` when one was built for it (e.g. "its certificate needs more
            than 100,000 entries"), else None.
        """

        certificate: Optional[dict] = field(default=None, repr=False, compare=False)
        store_error: Optional[str] = field(default=None, compare=False)
        no_certificate: Optional[str] = field(default=None, compare=False)
        unsealed: Optional[tuple] = field(default=None, repr=False, compare=False)

        def seal(self) -> None:
            """Check the certificates of the row written unsealed (``seal=False``) once, and seal it: served by its
            digest from now on. Nothing when there is none (served, sealed already, not stored)."""
            from .storage import seal_stored

            if self.unsealed is not None:
                store, record, C = self.unsealed
                object.__setattr__(self, "unsealed", None)
                seal_stored(store, record, C)

    OptRun.__module__ = __name__
    return OptRun


def __getattr__(name):  # OptRun, made when first asked for (see _run_type)
    if name == "OptRun":
        return _run_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run_of(r, **extra):
    """``r`` (an OptResult) as an OptRun, with ``extra``."""
    from dataclasses import fields

    from solvers.opt import OptResult

    run = _run_type()(**{f.name: getattr(r, f.name) for f in fields(OptResult) if f.name != "solver"}, solver=None,
                      **extra)
    # (the solver as it is: made on first use where the engine left a recipe, see OptResult)
    run.__dict__.update(_solver=r.__dict__.get("_solver"), _solver_recipe=r.__dict__.get("_solver_recipe"))
    return run


def _by_search(ws, C, G, *, time_limit, engine, memo_bytes, progress, symmetry, isomorphism, tree, proof, proof_limit,
               family, params, matrix_name, seal):
    """Opt(C) by the search (and the table, the packed engine, the games' searches): looked up, served or
    warm-started, computed here, on worker processes or on a cluster, recorded."""
    from adversary.store import opt_task, record_of_opt
    from solvers.opt import opt as solve
    from solvers.opt.distributed import Contradicted, dask_part

    from .cells import cap_jobs, connect, scheduler_of
    from .storage import lookup, proof_seconds, put, warm_solver

    jobs = cap_jobs(ws.jobs)
    if not G.standard and jobs > 1 and (G.randomized or G.errors):
        note(f"--jobs {jobs}: {G.symbol}(C) is computed in one process (only Opt(C)'s search is spread over workers)")
        jobs = 1
    store = ws.store
    t0 = time.monotonic()
    backend, scheduler = scheduler_of(ws.backend, ws.scheduler, timeout=ws.scheduler_timeout)
    if backend == "dask" and (not G.standard or engine == "table"):
        raise WorkspaceError("--backend dask spreads the search for Opt(C) only; drop --randomized, --errors, "
                             "--horizon and --engine table, or --backend")
    found = lookup(store, "opt", C, opt_task(G), trust=ws.trust, verify=ws.verify, what=f"{G.symbol}(C)")
    rec = found.record
    record = parts = None
    if found.solved and (not proof or rec.upper_cert is not None) and (
            found.lower == 0 or rec.lower_cert is not None):
        r = served_result(found, C, G, store, ws.trust, t0)
        certificate = rec.upper_cert
    else:
        solver = (warm_solver(C, found, memo_bytes, symmetry, isomorphism)
                  if G.standard and engine != "table" else None)
        client = None
        try:
            if backend == "dask":
                client, _ = connect(scheduler, timeout=ws.scheduler_timeout, func=dask_part)
            parts = (spread_parts(store, C, family, params) if G.standard and (jobs > 1 or client is not None)
                     else None)
            r = solve(C, time_limit=time_limit, jobs=jobs, progress=progress, engine=engine, memo_bytes=memo_bytes,
                      game=G.kind, errors=G.errors, horizon=G.horizon, solver=solver, symmetry=symmetry,
                      isomorphism=isomorphism, cluster=client, parts=parts,
                      tree=tree or store is not None)  # (a game's tree may be huge: only if asked, or stored)
        except Contradicted as e:
            if parts is None or not parts.get("known"):
                raise
            forget_parts(store, C)
            raise WorkspaceError(f"the parts of this search stored in {store.path} are contradicted by the search "
                                 f"({e}); they were removed from the store: run the command again") from None
        finally:
            if client is not None:
                client.close()
        if parts is not None and parts.get("known"):
            _check_resumed(r, C, store)
        certificate = None
        if store is not None or proof:
            # (a certificate asked for with no time limit is written however long it takes)
            limit_s = None if proof and time_limit is None and r.value is not None else proof_seconds(r, time_limit)
            record = record_of_opt(C, r, family=family, params=params, proof_seconds=limit_s, proof_limit=proof_limit,
                                   certify=True if proof else None)  # (asked for: always)
            if matrix_name is not None:  # listed by the file's name (and the class's fingerprint)
                record.extra["matrix"] = str(matrix_name)
            certificate = record.upper_cert
        _contradicted(rec, r, store, G)
    failed = put(store, record, C if seal else None)  # (stored before the caller shows it: nothing shown is lost)
    if failed is None and record is not None and record.solved and parts:
        forget_parts(store, C)  # the row serves the value now; the parts were only to resume
    later = (store, record, C) if not seal and failed is None and record is not None and store is not None else None
    return _run_of(r, certificate=certificate, store_error=None if failed is None else str(failed), unsealed=later,
                   no_certificate=None if record is None else record.extra.get("no_upper_cert"))


def _by_states(ws, C, G, *, time_limit, engine, memo_bytes, progress, proof, proof_limit, family, params, label):
    """Opt(C) by the states engine (:mod:`solvers.opt.compact`: thresholds, intervals, rectangles, with or without
    a matrix; or, for halfspaces on {0,1}^6, the packed engine). Its result is written to the store (not read from
    it: the engine starts afresh), unsealed: checked when first served."""
    from adversary.store.records import no_certificate_reason, record_of_opt
    from solvers.certificates import ProofTooLarge
    from solvers.opt import opt as solve

    from .storage import proof_seconds, put

    if not G.standard:
        raise WorkspaceError("--engine states computes Opt(C) only; drop --randomized, --errors and --horizon")
    if ws.backend == "dask" or ws.scheduler:  # (a cluster takes the search engine's parts only)
        if label is None:
            label = " ".join([family or C.family] + [f"{k}={v}" for k, v in (params or C.params).items()])
        what = "--engine states runs" if engine == "states" else f"{label} is solved by an engine of its own"
        raise WorkspaceError(f"--backend dask spreads the search engine's Opt(C) only, and {what} in this process: "
                             "drop --scheduler and --backend dask")
    if ws.jobs > 1:
        note(f"--jobs {ws.jobs}: the states engine runs in one process")
    r = solve(C, engine="states", time_limit=time_limit, progress=progress, memo_bytes=memo_bytes)
    certificate = no_certificate = None
    want = proof or ws.store is not None  # (a stored row keeps its certificates, as the search engine's do)
    if want and r.proof is not None:  # (the packed engine's: Halving's, without entries)
        certificate = r.upper_certificate()
    elif want:
        # An unsolved run's certificate gets a short time (it may need a search of its own).
        limit_s = proof_seconds(r, time_limit)
        try:
            certificate, stopped = r.solver.run(lambda: r.upper_certificate(limit=proof_limit),
                                                deadline=None if limit_s is None else time.monotonic() + limit_s)
            if stopped is not None and r.value is not None:
                no_certificate = no_certificate_reason(stopped, seconds=limit_s)
        except ProofTooLarge:
            certificate, no_certificate = None, no_certificate_reason("too large", limit=proof_limit)
    failed = None
    if ws.store is not None:  # its bounds, the tree, and the certificate when one was written
        record = record_of_opt(C, r, family=family, params=params, written=True, upper_cert=certificate)
        if no_certificate is not None:  # (why, kept as the search engine's rows keep it: 'store show' says it)
            record.extra["no_upper_cert"] = no_certificate
        failed = put(ws.store, record)
    return _run_of(r, certificate=certificate, store_error=None if failed is None else str(failed),
                   no_certificate=no_certificate)


def served_result(found, C, G, store, trust: bool, t0: float):
    """The :class:`~solvers.opt.OptResult` of a result served from ``store`` (``found``, a
    :class:`~adversary.workspace.storage.Lookup`; its certificates as stored, checked by the look-up), with
    ``stats["stored"]``: where, when and by which version it was computed, and how it was checked."""
    from solvers.certificates import MistakeTree, RandomizedTree
    from solvers.opt import OptResult

    rec = found.record
    t = rec.lower_cert
    tree = None
    if t is not None:
        tree = (RandomizedTree(found.lower, t["root"], C, G) if t.get("kind") == "randomized-tree"
                else MistakeTree.from_json(t, C, None if G.standard else G))
    stats = {"engine": rec.engine, "nodes": 0, "memo": 0, "seconds": round(time.monotonic() - t0, 4), "stopped": None,
             "stored": {"path": str(store.path), "seconds": rec.seconds or 0.0, "time": rec.time, "version": rec.version,
                        "checked": not trust, "how": getattr(found, "how", ""), "key": rec.key}}
    return OptResult(found.value, found.lower, found.upper, tree, stats, None, G)


def spread_parts(store, C, family=None, params=None) -> dict:
    """For a search spread over workers (:mod:`solvers.opt.distributed`): the parts an earlier run on ``C`` wrote to
    ``store`` (``"known"``, so that this run resumes from them) and the writer of the parts this one answers
    (``"on_part"``: each goes to the store as it arrives, kind ``opt-part``, the path as its task)."""
    if store is None:
        return {}
    from adversary.store import Record, class_key

    key = class_key(C)
    known = []
    for rec in store.rows_of("opt-part", key):
        path = rec.task.get("path")
        if rec.lower is not None and isinstance(rec.lower_cert, dict) and "tree" in rec.lower_cert:
            known.append((path, int(rec.lower), {"answer": True, "tree": rec.lower_cert["tree"]}))
        if rec.upper is not None:
            known.append((path, int(rec.upper) + 1, {"answer": False}))
    if known:
        note(f"resuming from {len(known)} parts of this search stored in {store.path}")
    if store.readonly:
        return {"known": known}

    def on_part(path, d, result):
        yes = result["answer"] is True
        store.put(Record(kind="opt-part", class_key=key, task={"path": path}, family=family or C.family,
                         params=dict(params if params is not None else C.params), concepts=C.n_concepts,
                         points=C.n_points, lower=str(d) if yes else None, upper=None if yes else str(d - 1),
                         lower_cert={"tree": result["tree"]} if yes else None, engine="spread"))

    return {"known": known, "on_part": on_part}


def forget_parts(store, C) -> None:
    """Remove the parts of ``C``'s spread search from ``store``."""
    from adversary.store import class_key

    store.flush()
    store.delete([rec.key for rec in store.rows_of("opt-part", class_key(C))])


def _check_resumed(r, C, store) -> None:
    """A search that resumed from stored parts: its certificates are checked before it is returned (a part written
    by another hand could be wrong); when one fails, the parts are removed and the run must be made again."""
    from solvers.certificates import TreeError, verify_upper
    from solvers.certificates.opt import verify_tree

    try:
        if r.tree is not None:
            verify_tree(r.tree.to_json(), C)
        if r.proof is not None:
            verify_upper(r.upper_certificate(limit=10**7), C)
    except TreeError as e:
        forget_parts(store, C)
        raise WorkspaceError(f"the certificates built from the parts stored in {store.path} do not check ({e}); the "
                             "parts were removed from the store: run the command again") from None


def _contradicted(rec, r, store, G) -> None:
    """A row kept without certificates (re-proven by computing it again, as was just done) whose value is not
    the one just computed: say so (the write replaces it)."""
    from adversary.store import number, recomputed

    if rec is None or not recomputed(rec) or r.value is None:
        return
    try:
        same = number(rec.value) == r.value
    except (ValueError, TypeError, ZeroDivisionError):
        same = False
    if not same:
        note(f"the stored {G.symbol}(C) in {store.path} said {rec.value}, and computed again it is {r.value}: "
             "the row is replaced")
