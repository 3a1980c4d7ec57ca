"""Where a command's cells run: in this process, in joblib's loky worker processes on this machine, or on a
Dask cluster (``dask.distributed``). Either way the results come back to this process as the cells finish,
and only this process writes them (the workers never touch an output file or a store).

    runs = run_cells(cell, cells)                                  # here, one cell after another
    runs = run_cells(cell, cells, jobs=4)                          # 4 loky processes
    runs = run_cells(cell, cells, backend="dask", scheduler="tcp://HOST:8786")
    for result in runs:                                            # in the order the cells finish
        ...

On a cluster the scheduler and every worker import littlestone (installed there, or on their
PYTHONPATH): a cell is sent as a reference to ``cell``'s function with its arguments, never as code. The
cells' progress reports come back as Dask events (the live bounds of the cells in flight), and a cell
whose client has gone (Ctrl-C) stops at its next report, as on Ctrl-C, so the workers are free again.
Everything that can go wrong before a cell runs (the extra not installed, an address that is not one or
does not answer, a cluster without workers, a scheduler or workers without littlestone) is a
:class:`~adversary.workspace.WorkspaceError` from :func:`run_cells` itself, at once, before any result: one line saying what to change.
"""

from __future__ import annotations

import os
import sys
import time
from functools import partial

from ._messages import WorkspaceError, note

__all__ = ["BACKENDS", "SCHEDULER_ENV", "CONNECT_SECONDS", "run_cells", "close_all", "connect", "answers", "Drained",
           "drain", "usable_cpus", "cap_jobs", "scheduler_of", "where", "Clock", "cell_seconds", "NOT_STARTED",
           "check_time_limit"]

BACKENDS = ("loky", "dask")
SCHEDULER_ENV = "LITTLESTONE_SCHEDULER"  # the scheduler's address when --scheduler is not given
CONNECT_SECONDS = 10.0  # the default of --scheduler-timeout
INSTALL = "pip install 'littlestone[dask]'"


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap_jobs(jobs: int, *, tasks: int | None = None) -> int:
    """``jobs`` lowered to the usable CPUs (and to the number of tasks), with a note when lowered."""
    cpus = usable_cpus()
    cap = cpus if tasks is None else max(1, min(cpus, tasks))
    if jobs <= cap:
        return jobs
    why = f"this machine has {cpus} usable CPU{'s' if cpus != 1 else ''}"
    if tasks is not None and tasks < cpus:
        why = f"there {'is' if tasks == 1 else 'are'} only {tasks} cell{'s' if tasks != 1 else ''} to compute"
    note(f"--jobs {jobs} lowered to {cap}: {why}")
    return cap


def scheduler_of(backend: str | None, scheduler: str | None, *, timeout: float = CONNECT_SECONDS,
                 check_form=None) -> tuple[str, str | None]:
    """The backend and the Dask scheduler's address for ``backend`` (None: dask when a scheduler is given, else
    loky) and ``scheduler`` (None: ``$LITTLESTONE_SCHEDULER``). A scheduler named must answer within ``timeout``
    seconds, now: before a store serves the result or an engine that runs here only takes it, so that an address
    given is never ignored. ``check_form(address)``: raises ValueError for an address not written as one."""
    backend = backend or ("dask" if scheduler else "loky")
    if backend not in BACKENDS:
        raise WorkspaceError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if backend == "loky":
        if scheduler:
            raise WorkspaceError(f"--scheduler {scheduler} is for --backend dask; drop --backend loky or --scheduler")
        return backend, None
    address = scheduler or os.environ.get(SCHEDULER_ENV, "").strip() or None
    if address is None:
        raise WorkspaceError(f"--backend dask needs a scheduler: give --scheduler tcp://HOST:8786 (or set "
                             f"{SCHEDULER_ENV}), or start one with 'dask scheduler' and its workers with "
                             "'dask worker tcp://HOST:8786'")
    if not scheduler and check_form is not None:  # (a scheduler given was checked by its caller)
        try:
            check_form(address)
        except ValueError as e:
            raise WorkspaceError(f"${SCHEDULER_ENV}: {e}") from None
    answers(address, timeout=timeout)
    return backend, address


def where(ws, jobs: int | None = None) -> tuple[str, str | None, int | None]:
    """``(backend, scheduler, jobs)`` for the cells of a workspace ``ws``: dask when it names a scheduler (whose
    answer :func:`run_cells` checks), else :func:`scheduler_of`; ``jobs`` None is the workspace's own on loky, the
    workers' threads on dask."""
    if ws.backend in (None, "dask") and ws.scheduler:
        return "dask", ws.scheduler, jobs
    backend, scheduler = scheduler_of(ws.backend, ws.scheduler, timeout=ws.scheduler_timeout)
    return backend, scheduler, ws.jobs if jobs is None and backend == "loky" else jobs


def run_cells(func, cells, *, jobs: int | None = None, backend: str = "loky", scheduler: str | None = None,
              timeout: float = CONNECT_SECONDS, progress=None, prepare=None, on_jobs=None):
    """``func(cell)`` for every cell of ``cells``; an iterator of the results in the order the cells finish.

    Parameters
    ----------
    func : callable
        A module-level function (or a ``functools.partial`` of one), so that workers can import it.
        In this process it is called as ``func(cell, progress=report)``.
    cells : iterable
    jobs : int, optional
        loky: worker processes, lowered to the usable CPUs and to the cells (with a note); 1 (the
        default) or a single cell runs here, in order. dask: the cells in flight on the cluster (default:
        its worker threads), lowered to the cells.
    backend : ``"loky"`` or ``"dask"``
    scheduler : str, optional
        The Dask scheduler's address (dask only).
    timeout : float
        Seconds for the scheduler to answer and for a worker to be there (dask only).
    progress : callable, optional
        ``progress(cell, info)``: what ``func``'s progress reports while a cell runs, here (passed to
        ``func`` as ``progress``) or on a Dask cluster (sent back as events and called from the client's
        thread). loky's worker processes report nothing.
    prepare : callable, optional
        ``prepare(cell, here) -> dict``: keyword arguments for ``func``, computed in this process just
        before the cell starts (``here``: the cell runs in this process, not in a worker), e.g. what a
        results store already proves of it. Called lazily, as a worker is free (loky dispatches no cell
        ahead of its workers, so that a cell's share of a run's seconds is reckoned when it begins).
    on_jobs : callable, optional
        ``on_jobs(n)``: the cells that will run at once, once known (on a cluster, after connecting: its
        worker threads or ``jobs``), before the first cell is prepared.

    Raises
    ------
    WorkspaceError
        At once, before any cell runs: dask not installed, an address that is not one or does not
        answer, no worker, a scheduler or workers that cannot import ``func``. While the cells run: the
        workers died running a cell.
    """
    cells = list(cells)
    if prepare is None:
        def prepare(cell, here):
            return {}
    if backend == "dask":
        client, jobs = connect(scheduler, timeout=timeout, jobs=jobs, cells=len(cells), func=func)
        if on_jobs is not None:
            on_jobs(jobs)
        return _on_dask(func, cells, client, jobs, progress, prepare)
    if backend != "loky":
        raise WorkspaceError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    jobs = cap_jobs(jobs or 1, tasks=len(cells))
    if on_jobs is not None:
        on_jobs(jobs)
    if jobs > 1 and len(cells) > 1:
        from joblib import Parallel, delayed
        from joblib._parallel_backends import LokyBackend

        from solvers.interrupts import spawning, worker_args, worker_init

        # The workers start here, ignore Ctrl-C (the drain below stops them) and end with this process.
        loky = LokyBackend(initializer=worker_init, initargs=worker_args())
        with spawning():
            return Parallel(n_jobs=jobs, return_as="generator_unordered", backend=loky, pre_dispatch="n_jobs")(
                delayed(func)(c, **prepare(c, False)) for c in cells)
    return (func(c, progress=None if progress is None else partial(progress, c), **prepare(c, True)) for c in cells)


# ---------------------------------------------------------------------------------------- the run's seconds
NOT_STARTED = "_not_started"  # the key of a cell's row when the run's time limit had passed before it began


def check_time_limit(value, name: str) -> None:
    """``value`` is None or a positive number of seconds (else a :class:`WorkspaceError` naming ``name``)."""
    import math

    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0
                              or math.isnan(value)):
        raise WorkspaceError(f"{name}={value!r} is not positive; give a number of seconds > 0, or None")


class Clock:
    """The seconds of a grid's run: ``time_limit`` for the whole run (None: no limit) and ``cell_time_limit`` for
    each cell (None: no limit of its own).

    :meth:`limits` is called for each cell just before it is handed out (in the order they are handed out) and
    gives the keywords that bound it: ``seconds``, the cell's own limit, and ``deadline_at``, the run's end as a
    wall-clock time (:func:`time.time`, which a worker process or a Dask worker reads alike). Without a cell limit
    of its own a cell gets its share of the run's seconds left: ``left * min(jobs, cells) / cells`` for the
    ``cells`` not handed out yet, so that every cell of a run with a time limit gets a try and what a quick cell
    leaves goes to the next ones; with one, it gets that, cut at the run's end. A cell that begins after the
    run's end computes nothing (:func:`cell_seconds`) and is listed as missing."""

    def __init__(self, time_limit=None, cell_time_limit=None, *, cells: int = 1, jobs: int | None = 1):
        check_time_limit(time_limit, "time_limit")
        check_time_limit(cell_time_limit, "cell_time_limit")
        self.time_limit, self.cell_time_limit = time_limit, cell_time_limit
        self.deadline_at = None if time_limit is None else time.time() + time_limit
        self.cells_left = max(int(cells), 1)
        self.jobs = max(int(jobs or 1), 1)

    def running(self, jobs: int) -> None:
        """The cells that run at once, once known (:func:`run_cells`'s ``on_jobs``: loky's processes, or the
        cluster's threads)."""
        self.jobs = max(int(jobs), 1)

    def over(self) -> bool:
        """Whether the run's time limit has passed."""
        return self.deadline_at is not None and time.time() >= self.deadline_at

    def limits(self) -> dict:
        """``{"seconds", "deadline_at"}`` for the next cell handed out."""
        cells, self.cells_left = self.cells_left, max(self.cells_left - 1, 1)
        if self.deadline_at is None:
            return {"seconds": self.cell_time_limit, "deadline_at": None}
        left = max(self.deadline_at - time.time(), 0.0)
        share = left if self.cell_time_limit is not None else left * min(self.jobs, cells) / cells
        seconds = share if self.cell_time_limit is None else min(self.cell_time_limit, share)
        return {"seconds": seconds, "deadline_at": self.deadline_at}


def cell_seconds(seconds, deadline_at):
    """The seconds a cell may take, as it begins: ``seconds`` (None: no limit) cut at the run's end
    ``deadline_at`` (a :func:`time.time`, or None). None when neither limits it; 0 when the run's end has passed
    (the cell then computes nothing: its row is ``{..., NOT_STARTED: True}``)."""
    if deadline_at is None:
        return seconds
    left = max(deadline_at - time.time(), 0.0)
    return left if seconds is None else min(seconds, left)


# ---------------------------------------------------------------------------------------- the results, as they come
class Drained:
    """What :func:`drain` saw: the finished rows (``done``, in the order they came), the skipped cells, whether a
    Ctrl-C (or a cell stopped by one) ended it, the store's error if a write failed, and the rows served from the
    store and the records written to it."""

    def __init__(self, store=None):
        # (the store's count of rows written when the run began: ``wrote`` counts every row written meanwhile)
        self._written = None if store is None else store.written
        self.done: list = []
        self.skipped: list = []
        self.missing: list = []  # the cells the run's time limit left out (they had not begun): each cell's parameters
        self.interrupted = False
        self.store_error = None
        self.served = 0
        self.wrote = 0
        self.uncertified: list = []  # why each row written without its upper-bound certificate lacks it

    def store_note(self, store, cells: int, checked: str) -> str | None:
        """After the run: what the store served and took (None when it did neither), ``checked`` saying how a
        served row was checked ("certificates re-checked", "witnesses replayed")."""
        if store is None or not (self.served or self.wrote):
            return None
        why = sorted(set(self.uncertified))
        return (f"store {store.path}: {self.served} of {cells} cells served from it"
                f"{f' ({checked})' if self.served and checked else ''}, "
                f"{0 if store.unwritable else self.wrote} results written"
                + (f"; {len(self.uncertified)} of them without the certificate of their upper bound ({'; '.join(why)}): "
                   "'littlestone store verify' computes those again" if self.uncertified and not store.unwritable
                   else ""))


def drain(runs, out: Drained, *, store, emit, skip, status, bar) -> Drained:
    """Take the cells' results from ``runs`` (:func:`run_cells`) as they finish, the one loop of ``table`` and
    ``attack --grid``: each row's ``"_records"`` go to ``store`` (only this process writes it), a skipped cell
    (``"skipped"`` in its row) goes to ``skip(row)`` (which says so), every other row to ``emit(row)``; one
    stopped by Ctrl-C (``"stopped": "interrupted"``), or a Ctrl-C taken between cells, ends the loop. ``bar`` counts
    the cells (``status(row)``: the text of a finished one); a cell that began after the run's time limit (its row
    ``NOT_STARTED``) goes to ``out.missing``, neither emitted nor stored. ``bar`` is closed and the store's last batch flushed at
    the end, whatever ends the loop. Fills ``out`` (given, so the caller keeps what was seen if this raises)."""
    from adversary.store import StoreError

    from solvers.interrupts import requested as stopping

    from .storage import say_unwritable

    if store is not None and out._written is None:
        out._written = store.written
    try:
        for row in runs:
            recs = row.pop("_records", [])
            out.served += bool(row.get("served"))
            if store is not None and not store.readonly:
                try:
                    for rec in recs:
                        store.put(rec)
                        if rec.extra.get("no_upper_cert"):
                            out.uncertified.append(rec.extra["no_upper_cert"])
                except StoreError as e:
                    if e.unwritable is None:
                        out.store_error = e
                        if "skipped" not in row:
                            emit(row)  # printed, though not stored
                        break
                    say_unwritable(store, e)  # a full disk: one note, the cells go on unstored
            if row.pop(NOT_STARTED, False):
                out.missing.append(row.get("params", row.get("grid")))
                bar.count(len(out.done) + len(out.skipped) + len(out.missing))
                continue
            if "skipped" in row:
                out.skipped.append(row)
                bar.clear()
                skip(row)
                bar.count(len(out.done) + len(out.skipped) + len(out.missing))
                continue
            if row.get("stopped") == "interrupted" or row.pop("_interrupted", False):
                out.interrupted = True
                emit(row)  # its bounds are proven; it is not counted as done
                break
            out.done.append(row)
            emit(row)
            if stopping():  # a Ctrl-C that a cell took as finished: no next cell
                out.interrupted = True
                break
            bar.count(len(out.done) + len(out.skipped) + len(out.missing), status=status(row))
    except KeyboardInterrupt:
        out.interrupted = True
    except BaseException:  # e.g. a cluster's workers died: what was written says it is not complete
        out.interrupted = True
        raise
    finally:
        bar.close()
        if store is not None and out.store_error is None:
            try:
                store.flush()  # the last rows' batch, before the output is closed
            except StoreError as e:
                if e.unwritable is None:
                    out.store_error = e
                else:
                    say_unwritable(store, e)
        if store is not None:  # the cells' rows, and any other the run wrote (a served attack's Opt(C))
            out.wrote = store.written - out._written
    return out


def close_all(handle, store) -> None:
    """The end of a grid's run: its ``-o`` file closed (the command line's streamed output is renamed into
    place; stdout is left open), then the store, even when the rename fails."""
    try:
        if handle is not None and handle is not sys.stdout:
            handle.close()
    finally:
        if store is not None:
            store.close()


# ---------------------------------------------------------------------------------------- dask
def connect(address: str, *, timeout: float = CONNECT_SECONDS, jobs: int | None = None, cells: int | None = None,
            func=None):
    """A ``distributed.Client`` of the scheduler at ``address``, checked within ``timeout`` seconds in all:
    it answers as a Dask scheduler, has a worker, and (given ``func``) the workers import ``func``'s module.
    Returns ``(client, jobs)``, ``jobs`` the cells to keep in flight (default: the workers' threads)."""
    import distributed

    left = answers(address, timeout=timeout)
    try:
        client = distributed.Client(address, timeout=left(), set_as_default=False)
    except (OSError, ValueError, TimeoutError) as e:
        raise WorkspaceError(f"could not connect to the dask scheduler at {address} ({e}); check --scheduler "
                       "or give --scheduler-timeout more seconds") from None
    try:
        try:
            client.wait_for_workers(1, timeout=left())
        except (TimeoutError, OSError):
            raise WorkspaceError(f"the dask scheduler at {address} has no worker after {timeout:g} s; start workers with "
                           f"'dask worker {address}'") from None
        if func is not None:
            _check_imports(client, func, address)
        threads = sum(client.nthreads().values())
        if jobs is None:
            jobs = threads
        if cells is not None and jobs > cells:
            if jobs != threads:  # given by --jobs
                note(f"--jobs {jobs} lowered to {max(cells, 1)}: there {'is' if cells == 1 else 'are'} only {cells} "
                     f"cell{'s' if cells != 1 else ''} to compute")
            jobs = max(cells, 1)
    except BaseException:
        client.close()
        raise
    return client, jobs


def answers(address: str, *, timeout: float = CONNECT_SECONDS):
    """Check that a Dask scheduler answers at ``address`` within ``timeout`` seconds (else a :class:`WorkspaceError`, one
    line); returns ``left``, which gives the seconds left of them (at least 0.1)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise WorkspaceError(f"--backend dask needs dask.distributed, which is not installed: {INSTALL}") from None
    deadline = time.monotonic() + timeout

    def left() -> float:
        return max(deadline - time.monotonic(), 0.1)

    _check_answers(address, timeout, left)
    return left


def _check_answers(address: str, timeout: float, left) -> None:
    """A TCP scheduler address must answer, as a Dask scheduler, within ``timeout`` seconds (``left()`` is
    what is left of them); a closed port or an unknown host fails at once. (``distributed.Client`` alone
    waits out its timeout on a closed port, and on a port that accepts but never answers it waits for ever.)"""
    import asyncio
    import socket

    from distributed.comm import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r}")
        if scheme != "tcp":
            return  # tls:// and others need their own security settings: distributed.Client checks them
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as e:
        raise WorkspaceError(f"--scheduler {address!r} is not a scheduler address ({e}); write it as tcp://HOST:PORT, "
                       "as 'dask scheduler' prints it ('Scheduler at: tcp://...'; the port is 8786 by default)") from None
    fix = f"check the address (--scheduler, or ${SCHEDULER_ENV}), or drop --scheduler and --backend dask to run here"
    try:
        socket.create_connection((host, port), timeout=left()).close()
    except ConnectionRefusedError:
        raise WorkspaceError(f"could not connect to the dask scheduler at {address} (connection refused): start it there "
                       f"with 'dask scheduler', {fix}") from None
    except socket.gaierror:
        raise WorkspaceError(f"could not connect to the dask scheduler at {address} (unknown host {host!r}): {fix}") from None
    except (TimeoutError, socket.timeout):
        raise WorkspaceError(f"could not connect to the dask scheduler at {address} (no answer within {timeout:g} s): {fix}, "
                       "or give --scheduler-timeout more seconds") from None
    except OSError as e:
        raise WorkspaceError(f"could not connect to the dask scheduler at {address} ({e.strerror or e}): {fix}") from None

    async def identity():
        from distributed.core import rpc

        async with rpc(address, timeout=left()) as scheduler:
            return await scheduler.identity()

    try:
        info = asyncio.run(asyncio.wait_for(identity(), left()))
    except (TimeoutError, asyncio.TimeoutError):
        info = None
    except Exception:  # noqa: BLE001 - whatever answers there does not speak Dask's protocol
        info = {}
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        why = (f"did not answer within {timeout:g} s" if info is None else "did not answer as a Dask scheduler")
        raise WorkspaceError(f"something listens at {address} but {why}; give the scheduler's address (port 8786 by "
                       "default, not the dashboard's 8787)" + (", or give --scheduler-timeout more seconds"
                                                                if info is None else ""))


def _check_imports(client, func, address: str) -> None:
    """The scheduler (it reads the tasks) and every worker (it runs them) import the modules of ``func`` and
    of this one: a cell is sent as a reference to functions of littlestone, never as code."""
    import pkgutil

    for module in dict.fromkeys([getattr(func, "func", func).__module__, __name__]):
        for where, call in (("scheduler", client.run_on_scheduler), ("workers", client.run)):
            try:
                call(pkgutil.resolve_name, f"{module}:__name__")
            except ImportError as e:
                raise WorkspaceError(f"the dask {where} of {address} cannot import {module} ({e}); install this "
                               f"littlestone on the scheduler and every worker ({INSTALL}), or start them with its "
                               "directory on PYTHONPATH") from None


class Cancelled(KeyboardInterrupt):
    """Raised by a cell's progress report on a dask worker once its task is cancelled (the client went
    away): the solver stops as on Ctrl-C and the worker's thread is free again (a running thread cannot be
    stopped from outside)."""


def _plain(info: dict) -> dict:
    """A progress report as an event can carry it (msgpack): a Fraction as its text "p/q"."""
    return {k: v if v is None or isinstance(v, (bool, int, float, str)) else str(v) for k, v in info.items()}


def _bounds(info: dict) -> dict:
    """A report from an event, its bounds numbers again."""
    from fractions import Fraction

    return {k: Fraction(v) if k in ("lower", "upper") and isinstance(v, str) else v for k, v in info.items()}


def _on_worker(func, index: int, cell, topic: str):
    """``(index, func(cell))`` on a dask worker. The cell's progress reports go to the client as events on
    ``topic``; once the task is cancelled the next report stops the cell (:class:`Cancelled`)."""
    from distributed import get_worker
    from distributed.worker import thread_state

    worker, key = get_worker(), thread_state.key

    def progress(info: dict) -> None:
        task = worker.state.tasks.get(key)
        if task is None or task.state in ("cancelled", "released", "forgotten"):
            raise Cancelled
        worker.log_event(topic, {"cell": index, "info": _plain(info)})

    try:
        return index, func(cell, progress=progress)
    except Cancelled:
        return index, None  # nobody is waiting for it


def _on_dask(func, cells, client, jobs: int, progress=None, prepare=None):
    """The cells on the cluster, ``jobs`` in flight (a new one is sent as one finishes), their progress
    reports passed to ``progress(cell, info)`` (from the client's thread) until each is done. At the end, on
    Ctrl-C, or when the caller stops early, the cells still in flight are cancelled and the client closed.

    The tasks are the client's own futures rather than joblib's Dask backend: that backend waits for ever
    on a task that fails outside the function it wraps (a worker killed, say for its memory, or a scheduler
    that cannot read the task), where a future says so at once."""
    import uuid

    from distributed import KilledWorker, as_completed

    run = uuid.uuid4().hex
    topic = f"littlestone-progress-{run}"
    todo = iter(enumerate(cells))
    sent: dict = {}  # the futures in flight -> the index of their cell (a finished one is let go: its result too)
    finished: set = set()

    def on_event(event) -> None:
        _, message = event
        index = message.get("cell")
        if progress is not None and index not in finished:  # a late report of a finished cell is old news
            try:
                progress(cells[index], _bounds(message.get("info", {})))
            except Exception:  # noqa: BLE001 - a report that cannot be shown is dropped, never the run
                pass

    def send() -> list:  # the next cell, if any
        for index, cell in todo:
            task = func if prepare is None else partial(func, **prepare(cell, False))
            future = client.submit(_on_worker, task, index, cell, topic, key=f"littlestone-{run}-{index}", pure=False)
            sent[future] = index
            return [future]
        return []

    try:
        client.subscribe_topic(topic, on_event)
        queue = as_completed([f for _ in range(jobs) for f in send()], loop=client.loop)
        for future in queue:
            try:
                index, result = future.result()
            except KilledWorker as e:
                cell = cells[sent.pop(future)]
                raise WorkspaceError(f"the dask workers died running the cell {_text(cell)} ({e}); a worker past its memory "
                               "limit is restarted by its nanny (the workers' logs say why): give the cell less "
                               "memory or the workers more, and run the rest again") from None
            finished.add(index)
            del sent[future], future
            queue.update(send())
            yield result
    finally:
        client.cancel(list(sent))
        client.close()


def _text(cell) -> str:
    return " ".join(f"{k}={v}" for k, v in cell.items()) if isinstance(cell, dict) else repr(cell)
