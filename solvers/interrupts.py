"""Ctrl-C (and SIGTERM) that always stops a search, even when a library swallows the KeyboardInterrupt.

Python runs its SIGINT handler between two bytecodes of whatever Python code runs when the signal
arrives, and the handler raises KeyboardInterrupt there. When that code was called from C that clears
every error, the KeyboardInterrupt is lost: numpy does so for ``npy_ctypes_check``, a Python function it
calls whenever a dtype such as ``np.dtype((np.void, k))`` is made, and before this module about one
Ctrl-C in twenty sent to ``littlestone table`` during a wide search was lost that way (issue 18: the
search ran on until SIGKILL).

While :func:`catching` is active (the command line runs inside it), the handlers of SIGINT and SIGTERM
also *record* the signal before raising. Every search looks at :func:`check` where it looks at its clock
(:meth:`solvers.opt.memo.MemoSearch._tick`, the VC search, the subcube table, the walk that writes an
upper-bound certificate), and from :data:`GRACE` seconds after a recorded signal ``check`` raises the
interrupt again there: a Ctrl-C that was lost stops the search at its next look at the clock, and what a
command does after a Ctrl-C (the tree and the certificate of the bounds proven, a witness replayed) may
search for half a second, no longer. Outside :func:`catching` (the library used on its own) nothing is
recorded and ``check`` costs one test.

Worker processes (loky's, the local pool's, a forked child) are started with :func:`worker_init` and
:func:`worker_args` as their initializer: they leave Ctrl-C to the driver, and they end when the driver
does, however it ends (SIGKILL included: :func:`die_with`).

Examples
--------
>>> check()                      # nothing recorded: returns at once
>>> requested()
False
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

__all__ = ["Terminated", "MemoryStop", "catching", "check", "requested", "received", "GRACE", "spawning", "worker_init",
           "worker_args", "die_with", "WATCH", "MEMORY", "memory_guard", "memory_stop", "resident_bytes"]

#: seconds after a Ctrl-C during which the work that reports what was proven may still search
GRACE = 0.5


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so that a run stopped by ``kill`` prints and writes what it
    finished, exactly as Ctrl-C does."""


class MemoryStop(KeyboardInterrupt):
    """The process passed the memory given to :func:`memory_guard` (``--memory``): the run stops as after a
    Ctrl-C, printing and writing what it finished, and says why."""


#: what :func:`memory_guard` records in :data:`received` when the process passes its limit
MEMORY = "memory"

#: the signals recorded while :func:`catching` is active (SIGINT, SIGTERM, or :data:`MEMORY`), in the order they came
received: list = []
_since = [0.0]  # the time.monotonic() of the first of them


def _interrupt():
    if MEMORY in received:
        return MemoryStop()
    return Terminated() if signal.SIGTERM in received else KeyboardInterrupt()


def _handler(signum, frame):
    if not received:
        _since[0] = time.monotonic()
    received.append(signum)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def requested() -> bool:
    """Whether a Ctrl-C or SIGTERM came since :func:`catching` started (the run is being stopped)."""
    return bool(received)


_paused = [0]  # > 0 inside paused(): check() raises nothing (a new signal still raises from the handler)


def check() -> None:
    """Raise the interrupt (:class:`Terminated` after SIGTERM, else KeyboardInterrupt) from :data:`GRACE`
    seconds after a recorded signal; a search calls it where it looks at its clock."""
    if received and not _paused[0] and time.monotonic() >= _since[0] + GRACE:
        raise _interrupt()


@contextlib.contextmanager
def paused():
    """Inside the block :func:`check` raises nothing: for bounded work that reports what was found after the
    grace (replaying the one witness an interrupted attack prints). A further Ctrl-C still interrupts it."""
    _paused[0] += 1
    try:
        yield
    finally:
        _paused[0] -= 1


@contextlib.contextmanager
def catching():
    """Record SIGINT and SIGTERM (and raise them as above) inside the ``with`` block; on exit the previous
    handlers come back and the record is cleared (a search run later in this process is not stopped).

    SIGINT is taken over only from Python's own handler: a SIGINT that the shell ignores (a job started
    with ``&``) stays ignored, and a caller's own handler stays in place. Outside the main thread (where
    no handler may be set) the block runs as it is."""
    received.clear()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, _handler)
        try:
            previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, _handler)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
        received.clear()


# ------------------------------------------------------------------------------------------------ memory
#: seconds between two looks of :func:`memory_guard` at the process's memory
MEMORY_EVERY = 0.05
_over = [None]  # (resident bytes seen, the limit, whether the run had started) when memory_guard stopped the run
_armed = [False]  # inside memory_guard's block: a stop may still come (its handler does nothing once it ends)
_arming = threading.Lock()  # the watcher signals only while the block runs


def resident_bytes() -> int | None:
    """The memory this process holds now (its resident set), in bytes; None where the system does not say
    (only Linux's /proc is read)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def memory_stop():
    """``(bytes seen, limit, started)`` when :func:`memory_guard` stopped this run (``started``: after the run
    began, not at the look before it), else None."""
    return _over[0] if MEMORY in received else None


def _memory_handler(signum, frame):
    if not _armed[0]:  # the block has ended (the run is over): a stop sent just before is dropped
        return
    if not received:
        _since[0] = time.monotonic()
    received.append(MEMORY)
    raise MemoryStop()


@contextlib.contextmanager
def memory_guard(limit: int | None):
    """Stop the run, as a Ctrl-C does, when this process holds more than ``limit`` bytes (``--memory`` of the
    commands whose searches keep no memo of a set size). Used inside :func:`catching`, which clears the record.

    A daemon thread looks every :data:`MEMORY_EVERY` seconds; past the limit it records :data:`MEMORY` in
    :data:`received` and sends SIGUSR1 to the main thread, whose handler raises :class:`MemoryStop` (a
    blocked system call is woken too), so that every search stops at its next look at its clock
    (:func:`check`) and the command prints and writes what it proved (exit 3; :func:`memory_stop` says what
    was seen). A process over the limit before the block starts stops there. No stop is sent once a Ctrl-C or
    SIGTERM is stopping the run (its report may take memory), nor after the block ends. Worker processes are
    not counted. ``limit`` None, a system that does not say its memory (:func:`resident_bytes`), or a block
    outside the main thread: the block runs as it is. An allocation larger than what is left may still raise
    MemoryError before the next look."""
    if not limit or resident_bytes() is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    seen = resident_bytes()
    if seen > limit:  # over before the run starts: it stops here
        _over[0] = (seen, limit, False)
        _armed[0] = True
        try:
            _memory_handler(None, None)
        finally:
            _armed[0] = False
    previous = signal.signal(signal.SIGUSR1, _memory_handler)
    done = threading.Event()
    main = threading.main_thread().ident

    def watch():
        while not done.wait(MEMORY_EVERY):
            seen = resident_bytes()
            if seen is None or seen <= limit:
                continue
            with _arming:
                if _armed[0] and not received:
                    _over[0] = (seen, limit, True)
                    signal.pthread_kill(main, signal.SIGUSR1)
            return

    _armed[0] = True
    thread = threading.Thread(target=watch, name="littlestone-memory-guard", daemon=True)
    thread.start()
    try:
        yield
    finally:
        with _arming:
            _armed[0] = False
        done.set()
        thread.join()
        signal.signal(signal.SIGUSR1, previous)


# ------------------------------------------------------------------------------------------------ worker processes
def worker_init(parent: int | None = None, signalled: bool = True) -> None:
    """The initializer of this package's worker processes (loky's, the local pool's): Ctrl-C is ignored there,
    and, given ``parent`` (:func:`worker_args`, as ``initargs``), the worker ends when the driver does.

    A Ctrl-C at the terminal goes to the whole process group, the workers too. The driver's handler stops
    the run and the workers with it; a worker that took the KeyboardInterrupt itself would print a traceback
    from wherever it was, e.g. from loky's own loop between two tasks (issue 18: CI saw it once). SIGTERM
    gets its default action back (a fork would keep the driver's handler). A driver killed by SIGKILL stops
    nothing itself: :func:`die_with` ends the worker then (issue 39: loky's workers searched on, orphans)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # (blocked by spawning(); now ignored)
    if parent is not None:
        die_with(parent, signalled)


def worker_args() -> tuple:
    """The ``initargs`` of :func:`worker_init` (and of :func:`die_with`) for workers started from this thread:
    this process's pid, and whether the parent-death signal may be used. Linux sends that signal when the
    *thread* that started the worker ends, so it is used for workers started from the main thread only
    (this package's pools start theirs there, or from loky's manager thread, which outlives them); a worker
    started from another thread watches its parent instead."""
    return os.getpid(), threading.current_thread() is threading.main_thread()


#: seconds between a worker's looks at its parent, where the system has no parent-death signal
WATCH = 1.0
_PR_SET_PDEATHSIG = 1  # (linux/prctl.h)


def die_with(parent: int, signalled: bool = True) -> None:
    """End this process (SIGKILL) when the process ``parent``, the one that started it, ends, however it ends.

    On Linux (with ``signalled``) the kernel sends the SIGKILL: ``prctl(PR_SET_PDEATHSIG)``, asked through
    ctypes; it reaches a worker busy in compiled code too. Elsewhere a daemon thread looks every :data:`WATCH`
    seconds whether the process's parent is still ``parent`` (an orphan is adopted by init or a subreaper),
    which needs the GIL: a worker holding it in compiled code ends when it lets it go. A parent that ended
    before this was asked for ends this process at once. Children of this process are not covered (the
    setting is not inherited by a fork): each worker of a worker asks for its own."""
    if not (signalled and _parent_death_signal()):
        threading.Thread(target=_watch, args=(parent,), name="littlestone-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # gone already (before the signal was asked for)
        os.kill(os.getpid(), signal.SIGKILL)


def _parent_death_signal() -> bool:
    """Ask Linux for a SIGKILL when this process's parent ends; whether it was granted."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        args = (ctypes.c_ulong(signal.SIGKILL), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
        return libc.prctl(_PR_SET_PDEATHSIG, *args) == 0
    except (OSError, AttributeError, TypeError):  # no libc with prctl (a static or unusual build)
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH)
    os.kill(os.getpid(), signal.SIGKILL)


def _start_trackers() -> None:
    """Start the resource trackers (multiprocessing's, and loky's when joblib is in use) before SIGINT is
    blocked: a pool starts them with its first worker, and starting one ends by *unblocking* SIGINT in this
    thread (Python 3.11's ``ensure_running`` does so), which would lift :func:`spawning`'s block before the
    workers start. Each is started once per process."""
    import sys
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    if "joblib" not in sys.modules:
        return
    try:
        from joblib.externals.loky.backend.resource_tracker import _resource_tracker
    except ImportError:  # (another joblib: the block may then be lifted early, which only costs a traceback)
        return
    _resource_tracker.ensure_running()


@contextlib.contextmanager
def spawning():
    """SIGINT blocked in this thread inside the block, where worker processes are started.

    A process (and a thread) starts with its parent's signal mask, so the workers started here hold a
    Ctrl-C from the moment they exist until :func:`worker_init` ignores it: none is taken during their
    start-up either. loky's manager thread, started here too, keeps the mask, so the workers it starts
    again later do the same. A Ctrl-C that this thread takes during the block waits, and is raised here as
    the block ends (one that another thread of this process takes is raised at once, as ever). Without
    ``pthread_sigmask`` (Windows) the block runs as it is."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    _start_trackers()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
