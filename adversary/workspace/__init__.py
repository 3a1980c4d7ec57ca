"""The library layer: what the command line does, for a Python user too (issue: one contract for every engine).

A :class:`Workspace` is opened on a results store (or none) and computes with it: it looks a result up, serves it
when its seal proves it, warm-starts the computation from the bounds it proves otherwise, records what it computed,
and resumes a spread search from the parts an earlier run stored; on this machine or on a Dask cluster. The
commands of ``littlestone`` parse their arguments, call a workspace, and print.

    from adversary.workspace import Workspace
    from solvers.classes.families import make

    with Workspace("results.db") as ws:
        r = ws.opt(make("intervals", N=100))     # computed, recorded; served from the store next time

Modules: :mod:`~adversary.workspace.storage` (the store as the workspace uses it: look-up, sealed writes),
:mod:`~adversary.workspace.cells` (where cells run: here, loky workers, a Dask cluster); the methods, one module
each: :mod:`~adversary.workspace.opt`, :mod:`~adversary.workspace.table`, :mod:`~adversary.workspace.attack`,
:mod:`~adversary.workspace.grid`, :mod:`~adversary.workspace.params`.
"""

from __future__ import annotations

from ._messages import WorkspaceError, note, speaking_to

__all__ = ["Workspace", "WorkspaceError", "note", "speaking_to"]


class Workspace:
    """A results store (or none) and the defaults of where work runs.

    Parameters
    ----------
    store : str, path, Store or None
        The results store (:class:`adversary.store.Store`, SQLite) or its path; None: no store, nothing read or
        written. A path that cannot be written is used read-only (or not at all), with a note.
    trust : bool
        Serve rows written without a seal (by an older littlestone) as they state, unchecked.
    verify : bool
        Re-check the certificates of every row served, from scratch (default: a sealed row is served by its digest).
    jobs : int
        Worker processes on this machine (lowered to the usable CPUs, with a note).
    backend : {"loky", "dask"} or None
        Where a grid's cells and a spread search run (None: dask when ``scheduler`` is given, else loky).
    scheduler : str, optional
        A Dask scheduler's address (``tcp://HOST:8786``; default ``$LITTLESTONE_SCHEDULER`` with backend dask).
    scheduler_timeout : float
        Seconds for the scheduler to answer and for a worker to be there.
    note : callable, optional
        ``note(text)``: where notes go (default: standard error, ``littlestone: note: ...``).
    readonly : bool
        Open the store only to read it.
    """

    def __init__(self, store=None, *, trust: bool = False, verify: bool = False, jobs: int = 1,
                 backend: str | None = None, scheduler: str | None = None, scheduler_timeout: float = 10.0,
                 note=None, readonly: bool = False):
        from adversary.store import Store

        from .storage import store_at

        if trust and verify:
            raise WorkspaceError("trust (serve unsealed rows unchecked) and verify (re-check every row) exclude "
                                 "each other; give one")
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise WorkspaceError(f"jobs={jobs!r}: give a whole number of worker processes >= 1")
        self.trust, self.verify, self.jobs = trust, verify, jobs
        self.backend, self.scheduler, self.scheduler_timeout = backend, scheduler, scheduler_timeout
        self.note = note
        with speaking_to(note):
            self.store = store if isinstance(store, Store) or store is None else store_at(str(store),
                                                                                            readonly=readonly)

    def close(self) -> None:
        """Commit the store's last writes and close it."""
        if self.store is not None:
            self.store.close()

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False

    def __repr__(self) -> str:
        where = "no store" if self.store is None else f"store {str(self.store.path)!r}"
        return f"Workspace({where}, jobs={self.jobs})"


def _methods() -> None:
    """The workspace's methods, one module each (:data:`METHODS` of :mod:`.opt`, :mod:`.table`, ...): each module
    keeps its heavy imports inside its functions, so that ``import adversary.workspace`` stays light."""
    import importlib

    for name in _METHOD_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        for method in getattr(module, "METHODS", ()):
            setattr(Workspace, method, getattr(module, method))


#: The modules whose ``METHODS`` are the workspace's methods.
_METHOD_MODULES = ("opt", "table", "attack", "grid", "params")
_methods()
