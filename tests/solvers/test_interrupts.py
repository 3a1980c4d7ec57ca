"""solvers.interrupts: a Ctrl-C recorded while the command line runs stops every search at its next look
at the clock, even when the KeyboardInterrupt itself was swallowed (numpy drops exceptions raised in the
Python code it calls from C, e.g. when a void dtype is made)."""

import os
import signal
import time

import pytest

from solvers import interrupts
from solvers.classes.families import make

posix = pytest.mark.skipif(os.name != "posix", reason="sends signals")


def swallowed_ctrl_c():
    """A Ctrl-C whose KeyboardInterrupt a library took (as numpy's npy_ctypes_check does)."""
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        pass


def hard():
    return make("disjunctions", n=12, k=3)  # Opt's search runs for minutes


def run_opt():
    from solvers.opt import opt

    r = opt(hard(), time_limit=60)
    return r.stats["stopped"], r.lower <= r.upper


def run_vc():
    from solvers.vc import vc_search

    v = vc_search(make("parities", n=12), time_limit=60)
    return v.stats["stopped"], v.lower <= v.upper


def run_experts():
    from solvers.opt.experts import experts

    r = experts(2000, 1, randomized=True, time_limit=60)
    return r.stats["stopped"], r.lower <= r.upper


@posix
@pytest.mark.parametrize("search", [run_opt, run_vc, run_experts], ids=["opt", "vc", "experts"])
def test_a_swallowed_ctrl_c_stops_the_next_search(search):
    """It stops once the grace of half a second for reporting is over, not a minute later."""
    with interrupts.catching():
        swallowed_ctrl_c()
        assert interrupts.requested()
        stopped, sound = search()
    assert stopped == "interrupted" and sound  # not "time limit" a minute later
    assert not interrupts.requested()  # cleared on leaving the block


@posix
def test_a_swallowed_ctrl_c_stops_the_subcube_table(monkeypatch):
    from solvers.opt.search import Solver

    T = Solver(make("all-functions", n=4)).subcube_table()
    monkeypatch.setattr(interrupts, "GRACE", 0.0)  # the table fills in about the grace's half second
    with interrupts.catching():
        swallowed_ctrl_c()
        with pytest.raises(KeyboardInterrupt):
            T.fill()  # raised at its first look at the clock (opt() takes it as "interrupted")
    assert not T.complete


def test_check_is_silent_outside_the_command_line():
    interrupts.check()
    assert not interrupts.requested()


@posix
def test_catching_restores_the_handlers_and_leaves_an_ignored_sigint_alone():
    before_int, before_term = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with interrupts.catching():
        assert signal.getsignal(signal.SIGTERM) is not before_term
    assert signal.getsignal(signal.SIGINT) is before_int and signal.getsignal(signal.SIGTERM) is before_term
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a job started with & in a script
    try:
        with interrupts.catching():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)


@posix
def test_sigterm_is_recorded_as_terminated(monkeypatch):
    monkeypatch.setattr(interrupts, "GRACE", 0.0)
    with interrupts.catching():
        with pytest.raises(interrupts.Terminated):
            signal.raise_signal(signal.SIGTERM)
        with pytest.raises(interrupts.Terminated):
            interrupts.check()  # the record says SIGTERM: the exit code will be 143


@posix
def test_the_grace_lets_a_short_search_finish_after_a_ctrl_c():
    """What reports the proven bounds after a Ctrl-C (a tree, a certificate, a witness replayed) may still
    search, for half a second."""
    from solvers.opt import opt

    with interrupts.catching():
        swallowed_ctrl_c()
        r = opt(make("thresholds", N=50))
    assert r.value == 5 and r.stats["stopped"] is None


@posix
def test_paused_holds_the_recorded_interrupt_for_bounded_work(monkeypatch):
    """After the grace, check() raises; inside paused() it does not (an interrupted attack replays the one
    witness it prints there), and it raises again after the block."""
    monkeypatch.setattr(interrupts, "GRACE", 0.0)
    with interrupts.catching():
        swallowed_ctrl_c()
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()
        with interrupts.paused():
            interrupts.check()
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()


@posix
def test_an_interrupted_attack_keeps_its_best_witness_past_the_grace(monkeypatch):
    """A Ctrl-C recorded with the grace over before the witnesses are verified (SOA's replays look at the clock):
    the attack still returns its best sequence, verified, as 'interrupted' (it raised and lost it)."""
    from adversary import attack as attack_module

    real = attack_module._best_verified
    calls = []

    def late(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:  # the Ctrl-C lands as the witnesses are verified; its grace is then over
            swallowed_ctrl_c()
            monkeypatch.setattr(interrupts, "GRACE", 0.0)
            interrupts.check()
        return real(*args, **kwargs)

    monkeypatch.setattr(attack_module, "_best_verified", late)
    with interrupts.catching():
        r = attack_module.attack("soa", make("intervals", N=8), strategy="exact", time_limit=60)
    assert r.stats["stopped"] == "interrupted" and r.mistakes >= 1 and r.witness is not None


def _sigint_disposition(cell, progress=None):
    return os.getpid(), signal.getsignal(signal.SIGINT)


@posix
def test_loky_workers_ignore_ctrl_c():
    """A Ctrl-C at the terminal reaches the workers too; they leave it to the driver, which stops them. (CI once
    saw a worker take it in loky's own loop between two tasks and print a traceback under the one-line note.)"""
    from adversary.workspace.cells import run_cells

    got = list(run_cells(_sigint_disposition, range(6), jobs=2))
    workers = {h for pid, h in got if pid != os.getpid()}
    if not workers:
        pytest.skip("one usable CPU: the cells ran in this process")
    assert workers == {signal.SIG_IGN}


@posix
def test_a_process_started_while_spawning_holds_ctrl_c_from_its_first_instruction():
    """Workers start with SIGINT blocked (a process keeps its parent's mask), so a Ctrl-C during their start-up,
    before their initializer ignores it, is not taken either; outside the block this process's mask is as it was."""
    import subprocess
    import sys

    probe = "import signal; print(int(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])))"
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    with interrupts.spawning():
        inside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    outside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert inside.stdout.strip() == "1"
    assert outside.stdout.strip() == ("1" if signal.SIGINT in before else "0")
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before


@posix
def test_a_ctrl_c_while_spawning_is_raised_as_the_block_ends():
    with pytest.raises(KeyboardInterrupt):
        with interrupts.spawning():
            signal.raise_signal(signal.SIGINT)
            reached = True  # held: the handler runs only when the mask is restored
    assert reached


@posix
def test_the_first_loky_workers_start_holding_ctrl_c():
    """loky starts its resource tracker with the first worker, and that start unblocks SIGINT in the calling
    thread (Python 3.11): spawning() starts the tracker before it blocks, so even a process's first workers
    hold a Ctrl-C until their initializer ignores it. (In a fresh process: the tracker must not be running yet.)"""
    import subprocess
    import sys

    code = ("import signal\n"
            "from joblib import Parallel, delayed\n"
            "from joblib._parallel_backends import LokyBackend\n"
            "from solvers.interrupts import spawning, worker_init\n"
            "from tests.solvers.test_interrupts import _held_then_ignore, _held\n"
            "with spawning():\n"
            "    out = Parallel(n_jobs=2, backend=LokyBackend(initializer=_held_then_ignore))(\n"
            "        delayed(_held)() for _ in range(4))\n"
            "print(sorted(set(out)))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[True]"


_HELD = []


def _held_then_ignore():
    _HELD.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
    interrupts.worker_init()


def _held():
    return _HELD[0]


# ------------------------------------------------------------------------------------------ workers die with the driver
linux = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="Linux: prctl, /proc")

# A driver (this script) that starts a worker calling die_with(driver's pid, signalled), prints the worker's pid and
# waits; the test then SIGKILLs the driver alone.
DRIVER = """
import os, sys, time
pid = os.fork()
if pid == 0:
    from solvers.interrupts import die_with
    die_with(os.getppid(), {signalled})
    print(os.getpid(), flush=True)
    while True:
        sum(range(10_000))  # a busy worker
else:
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _kill_the_driver_then_its_child(driver: str, what: str, *, alive_first: bool = False) -> None:
    """Run ``driver`` (a script printing its child's pid), SIGKILL it (it runs no handler, closes nothing), and
    wait for the child to end: the test fails if it outlives its driver by 30 s (``alive_first``: and unless the
    child is alive when the driver is killed)."""
    import subprocess
    import sys
    import time

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.PIPE, text=True, cwd=root)
    child = int(p.stdout.readline())
    if alive_first:
        assert _alive(child)
    p.kill()
    p.wait()
    end = time.monotonic() + 30
    while _alive(child) and time.monotonic() < end:
        time.sleep(0.05)
    if _alive(child):
        os.kill(child, signal.SIGKILL)
        pytest.fail(f"{what} outlived its driver by 30 s")


@posix
@linux
@pytest.mark.parametrize("signalled", [True, False], ids=["parent-death signal", "watching thread"])
def test_a_worker_ends_when_its_driver_is_killed(signalled):
    _kill_the_driver_then_its_child(DRIVER.format(signalled=signalled), "the worker", alive_first=True)


@posix
def test_a_worker_whose_driver_is_gone_already_ends_at_once():
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = "from solvers.interrupts import die_with; die_with(1 << 22); print('still here')"  # not its parent
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60)
    assert r.returncode == -signal.SIGKILL and "still here" not in r.stdout


def test_worker_args_name_this_process_and_the_signal_from_the_main_thread_only():
    import threading

    got = []
    t = threading.Thread(target=lambda: got.append(interrupts.worker_args()))
    t.start()
    t.join()
    assert interrupts.worker_args() == (os.getpid(), True)
    assert got == [(os.getpid(), False)]  # Linux would signal the worker when that thread ends


def _parent_death_signal(cell, progress=None):
    import ctypes

    got = ctypes.c_int(-1)
    ctypes.CDLL(None).prctl(2, ctypes.byref(got), 0, 0, 0)  # PR_GET_PDEATHSIG
    return os.getpid(), got.value


@posix
@linux
def test_loky_workers_are_killed_with_the_driver():
    from adversary.workspace.cells import run_cells

    got = list(run_cells(_parent_death_signal, range(6), jobs=2))
    workers = {sig for pid, sig in got if pid != os.getpid()}
    if not workers:
        pytest.skip("one usable CPU: the cells ran in this process")
    assert workers == {signal.SIGKILL}


SYMMETRY_DRIVER = """
import time
from solvers.classes import automorphisms as A
from tests.solvers.test_interrupts import _spin
A._spawn(_spin)  # the child of a symmetry detection alongside the search
print(A._last_child[0], flush=True)
time.sleep(600)
"""


def _spin():
    while True:
        sum(range(10_000))


@posix
@linux
def test_a_symmetry_detection_child_ends_when_its_driver_is_killed():
    _kill_the_driver_then_its_child(SYMMETRY_DRIVER, "the detection's child")


# ------------------------------------------------------------------------------------------------ --memory
class _Rising:
    """A stand-in for resident_bytes: 0 until ``rise()``, then 2^50 bytes (a run that passes its --memory when the
    test says so, whatever the machine's speed)."""

    def __init__(self):
        self.high = False

    def rise(self):
        self.high = True

    def __call__(self):
        return 2**50 if self.high else 0


def test_memory_guard_stops_the_run_as_a_ctrl_c_and_says_why(monkeypatch):
    """(issue 39) past its limit the watcher records MEMORY and raises MemoryStop in the main thread, a blocked
    wait included; a search that swallowed it stops at its next look at the clock, as after a Ctrl-C."""
    import threading

    rising = _Rising()
    monkeypatch.setattr(interrupts, "resident_bytes", rising)
    assert interrupts.memory_stop() is None
    with interrupts.catching():
        with pytest.raises(interrupts.MemoryStop):
            with interrupts.memory_guard(2**30):
                rising.rise()
                threading.Event().wait(60)  # blocked in a wait: the signal wakes it
        assert interrupts.requested() and interrupts.MEMORY in interrupts.received
        assert interrupts.memory_stop() == (2**50, 2**30, True)
        with pytest.raises(interrupts.MemoryStop):  # a swallowed stop is raised again where a search checks
            interrupts.GRACE, grace = 0.0, interrupts.GRACE
            try:
                interrupts.check()
            finally:
                interrupts.GRACE = grace
    assert interrupts.memory_stop() is None and not interrupts.requested()


def test_memory_guard_over_before_the_run_stops_it_there(monkeypatch):
    monkeypatch.setattr(interrupts, "resident_bytes", lambda: 2**50)
    with interrupts.catching():
        with pytest.raises(interrupts.MemoryStop):
            with interrupts.memory_guard(2**30):
                pytest.fail("the block ran")
        assert interrupts.memory_stop() == (2**50, 2**30, False)


def test_memory_guard_sends_nothing_after_a_ctrl_c_or_after_its_block(monkeypatch):
    """A Ctrl-C's report may take memory: no second stop cuts it; and a run that ended is not stopped after."""
    rising = _Rising()
    monkeypatch.setattr(interrupts, "resident_bytes", rising)
    with interrupts.catching():
        with pytest.raises(KeyboardInterrupt):
            with interrupts.memory_guard(2**30):
                try:
                    signal.raise_signal(signal.SIGINT)
                except KeyboardInterrupt:
                    pass
                rising.rise()
                time.sleep(10 * interrupts.MEMORY_EVERY)  # the watcher looked: it sent nothing
                raise KeyboardInterrupt
        assert interrupts.memory_stop() is None
    rising = _Rising()
    monkeypatch.setattr(interrupts, "resident_bytes", rising)
    with interrupts.catching():
        with interrupts.memory_guard(2**30):
            pass
        rising.rise()
        interrupts._memory_handler(signal.SIGUSR1, None)  # a stop arriving after the block: dropped
        assert not interrupts.requested()


def test_memory_guard_under_its_limit_changes_nothing():
    with interrupts.catching():
        with interrupts.memory_guard(2**60):
            time.sleep(3 * interrupts.MEMORY_EVERY)
        assert not interrupts.requested()
    with interrupts.memory_guard(None):
        pass


def test_an_interrupt_raised_inside_bliss_comes_back_as_itself():
    """A SIGTERM whose handler raises while igraph's bliss runs comes back as a SystemError caused by it (CI saw
    scripts/disjunctions_table.py end with exit 1 and that traceback instead of 143): bliss() raises the
    interrupt itself, and any other SystemError as it was."""
    import pytest

    from solvers.classes.automorphisms import bliss
    from solvers.interrupts import Terminated

    def wrapped(cause):
        def call():
            try:
                raise cause
            except BaseException as e:
                raise SystemError("<method 'canonical_permutation'> returned a result with an exception set") from e
        return call

    with pytest.raises(Terminated):
        bliss(wrapped(Terminated()))
    with pytest.raises(SystemError):
        bliss(wrapped(ValueError()))
    assert bliss(lambda color: sorted(color), color=[2, 1]) == [1, 2]
