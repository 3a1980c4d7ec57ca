"""The kernel's saved machine code (solvers/opt/_kernel_cache.py): loaded in a fresh process without numba, with the
values of the Python search; a file that is missing, malformed or made elsewhere is refused (never loaded); the
outside names the code calls are read from its object files and are only those allowed; where no cache folder is
writable, numba loads the kernel itself; where neither the install's folder nor the home is, the file goes to a private
temporary folder. When a search waits for the build (issue 37, part 3): the rule as a table, and the wait with a
stand-in build that lands when the test says so (a named pipe: the tests wait for events, not for time)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.opt import _kernel_cache as cache
from solvers.opt import kernel as kernel_module

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [
    pytest.mark.skipif(not kernel_module.available(), reason="numba is not installed"),
    pytest.mark.skipif(not cache.usable(), reason="machine code is kept on Linux with a writable cache folder only"),
]


@pytest.fixture(scope="module")
def built() -> Path:
    """The machine-code file of this tree (built if missing: 15-25 s)."""
    assert cache.start_build(wait=True), cache.failed()
    return cache.path()


def run(code: str, **env) -> str:
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_a_fresh_process_loads_the_machine_code_without_numba(built):
    out = run("import json, sys\n"
              "from solvers.opt import Solver, kernel\n"
              "from solvers.classes.families import make\n"
              "vals = []\n"
              "for fam, kw in [('intervals', {'N': 40}), ('halfspaces', {'n': 3}), ('parities', {'n': 5})]:\n"
              "    C = make(fam, **kw)\n"
              "    vals.append([Solver(C, symmetry=False, kernel=k).value() for k in ('numba', 'python')])\n"
              "print(json.dumps([kernel.how(), 'numba' in sys.modules, vals]))\n", LITTLESTONE_KERNEL="")
    how, imported, vals = json.loads(out)
    assert how in ("shared object", "machine code") and not imported  # (linked for this CPU once loaded)
    assert all(a == b for a, b in vals) and vals[2] == [5, 5]  # (Opt of parities n=5 is n)


def test_the_outside_names_are_read_from_the_objects_and_allowed(built):
    header, blobs = cache.read(built)
    assert set(header["entries"]) == set(kernel_module.SIGNATURES)
    for name, e in header["entries"].items():
        obj = blobs[e["offset"]:e["offset"] + e["size"]]
        names = cache.undefined_symbols(obj)
        assert names == e["undefined"]
        assert all(cache._allowed(n) for n in names), names
        assert not any(n.startswith(("NRT_MemInfo_alloc", "NRT_Allocate")) for n in names)  # nothing allocates
    assert cache.undefined_symbols(b"not an object file at all" * 4) is None


@pytest.mark.parametrize("damage", ["magic", "truncated", "header", "environment", "symbol"])
def test_a_damaged_or_foreign_file_is_refused(built, tmp_path, damage):
    data = built.read_bytes()
    n, = struct.unpack_from("<Q", data, len(cache.MAGIC))
    start = len(cache.MAGIC) + 8
    header = json.loads(data[start:start + n])
    body = data[start + n:]
    if damage == "magic":
        data = b"x" + data[1:]
    elif damage == "truncated":
        data = data[:len(cache.MAGIC) + 4]
    elif damage == "header":
        data = data[:start] + b"{" * n + body
    else:
        if damage == "environment":
            header["environment"]["cpu"] = "some other cpu"
        else:
            header["entries"]["search"]["symbol"] = "no_such_symbol"
        head = json.dumps(header).encode()
        data = cache.MAGIC + struct.pack("<Q", len(head)) + head + body
    target = tmp_path / built.name
    target.write_bytes(data)
    assert cache.load(target) is None
    if damage == "environment":
        assert not target.exists()  # made for another CPU: removed, to be built again here


def test_without_a_writable_cache_folder_numba_loads_the_kernel(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # (root writes anywhere)
        target = "/proc/version/cache"  # under a file: no folder can be made there
    else:
        target = str(locked / "cache")
    out = run("from solvers.opt import kernel, _kernel_cache as c\n"
              "print(c.usable(), kernel._load() is not None, kernel.how())\n", LITTLESTONE_CACHE_DIR=target)
    assert out.split() == ["False", "True", "numba"]


def test_where_numba_cannot_load_the_kernel_the_search_goes_on_in_python():
    """No machine code kept here, and numba fails as it loads the kernel (as where its cache has no folder either:
    'cannot cache function ...: no locator available'): the search that would hand over goes on in Python, with
    its value (it stopped with that error)."""
    out = run("import importlib.abc, json, sys\n"
              "class Refuse(importlib.abc.MetaPathFinder):\n"
              "    def find_spec(self, name, path, target=None):\n"
              "        if name == 'solvers.opt._kernel_jit':\n"
              "            raise RuntimeError('cannot cache function: no locator available (a stand-in)')\n"
              "sys.meta_path.insert(0, Refuse())\n"
              "from solvers.opt import Solver, kernel\n"
              "from solvers.opt.control import Tuning\n"
              "from solvers.classes.families import make\n"
              "C = make('halfspaces', n=3)\n"
              "S = Solver(C, symmetry=False, tuning=Tuning(kernel_after_seconds=0.0, kernel_compile_after_seconds=0.0,"
              " kernel_numba_after_seconds=0.0))\n"
              "print(json.dumps([S.value(), Solver(C, symmetry=False, kernel='python').value(), S.kernel_nodes,"
              " kernel.how(), kernel.available()]))\n",
              LITTLESTONE_CACHE_DIR="/proc/version/cache", LITTLESTONE_KERNEL="")
    value, python_value, kernel_nodes, how, available = json.loads(out)
    assert value == python_value and kernel_nodes == 0 and how is None and available is False


def _lock_of(tmp_path, pid: int) -> tuple[Path, Path]:
    target = tmp_path / "kernel-test.bin"
    lock = target.with_name(target.name + ".lock")
    lock.write_text(f"{pid} {os.uname().nodename}")
    return target, lock


def test_a_lock_whose_build_has_ended_is_not_waited_on(tmp_path):
    """A build killed before it removed its lock (a run stopped by its time limit, a machine out of memory) left
    it behind: the next process neither waits for it (it used to, ten minutes) nor keeps it, whether the build's
    process is gone or a zombie not yet reaped."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    target, lock = _lock_of(tmp_path, p.pid)
    assert not cache.building(target) and not lock.exists()
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        target, lock = _lock_of(tmp_path, p.pid)
        assert cache.building(target) and lock.exists()  # running: its lock holds
        p.kill()
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # ended, not reaped: a zombie
        assert not cache.building(target) and not lock.exists()
    finally:
        p.kill()
        p.wait()


def test_a_wait_for_a_build_is_bounded(tmp_path, monkeypatch):
    """A build that runs on (or a lock that names a process of another machine) is waited for WAIT_SECONDS at
    most; the caller then goes on without the machine code."""
    monkeypatch.setattr(cache, "WAIT_SECONDS", 0.5)
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        target, lock = _lock_of(tmp_path, p.pid)
        assert cache.start_build(target) is True  # being made (by that process)
        assert cache.start_build(target, wait=True) is False
        assert lock.exists()
        lock.write_text(f"{p.pid} another-machine")  # not ours to look at: only its age makes it stale
        assert cache.start_build(target, wait=True) is False and lock.exists()
        monkeypatch.setattr(cache, "STALE_SECONDS", -1.0)
        assert not cache.building(target) and not lock.exists()
    finally:
        p.kill()
        p.wait()


# ---------------------------------------------------------------------- the build belongs to its process (issue 36)
_STARTS = ("import sys\n"
           "from solvers.opt import _kernel_cache as c\n"
           "assert c.start_build()\n"
           "print('started', flush=True)\n")


def _child(code: str, cache_dir: Path) -> subprocess.Popen:
    """A process of its own group (as a command run from a shell), with its cache folder: ``cache_dir``."""
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "LITTLESTONE_CACHE_DIR": str(cache_dir),
                                 "LITTLESTONE_KERNEL": ""})


def test_a_ctrl_c_of_the_command_stops_its_build_and_nothing_outlives_it(tmp_path):
    """A command whose search starts the build (halfspaces n=4 runs past 0.05 s in Python) says so on stderr, with the
    builder's process; a Ctrl-C at the terminal (a SIGINT to the command's process group) stops the command and its
    build, leaving no builder, lock or failure record (it used to run on for 20 s after the command, out of
    Ctrl-C's reach)."""
    import re
    import signal

    p = subprocess.Popen([sys.executable, "-m", "adversary", "opt", "halfspaces", "n=4", "--no-symmetry", "--no-store",
                          "--quiet"], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "LITTLESTONE_CACHE_DIR": str(tmp_path),
                              "LITTLESTONE_KERNEL": ""})
    try:
        note = p.stderr.readline()
        assert "compiling the kernel once" in note and "littlestone kernel build" in note, note
        builder = int(re.search(r"process (\d+)", note).group(1))
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode in (130, 0) and "Opt(C)" in out, err  # (0: the search was over, the build waited for)
    assert not cache._alive(builder)
    assert not list(tmp_path.glob("*.lock")) and not list(tmp_path.glob("*.failed"))


@pytest.mark.slow
def test_a_process_that_started_a_build_waits_for_it_before_it_ends(tmp_path):
    """A process that ends while its build runs waits for it (saying so), so that the machine code is there when it
    has ended and no builder runs on (15-25 s: a real build)."""
    p = _child(_STARTS, tmp_path)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0 and out.strip() == "started", err
    target = next(tmp_path.glob("kernel-*.bin"), None)
    assert target is not None and cache.read(target) is not None, err
    assert "finishing the kernel's build before exiting" in err or "compiling the kernel once" in err
    assert not list(tmp_path.glob("*.lock"))
    builder = int(err.split("process ", 1)[1].split(")", 1)[0])
    assert not cache._alive(builder)


def test_the_python_mode_never_touches_the_build(tmp_path):
    """LITTLESTONE_KERNEL=python: a search that would start the build (in "auto" mode, past its first 0.05 s:
    halfspaces n=4 runs 10 s in Python) starts none and says nothing of it."""
    p = subprocess.run([sys.executable, "-m", "adversary", "opt", "halfspaces", "n=4", "--no-symmetry", "--no-store",
                        "--quiet", "--time-limit", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "LITTLESTONE_CACHE_DIR": str(tmp_path),
                            "LITTLESTONE_KERNEL": "python"})
    assert p.returncode in (0, 3), p.stderr
    assert "kernel" not in p.stderr and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- where the file goes (issue 37, part 3)
def test_without_a_writable_site_or_home_the_file_goes_to_a_private_temporary_folder(tmp_path, monkeypatch):
    """Neither the install's folder nor ``~/.cache`` writable (a read-only site-packages, a service's account): the
    file goes to ``$TMPDIR/littlestone-<uid>``, made for this user alone (without it, numba compiled the kernel in
    each process, and stopped the search with an error where its own cache had no folder either)."""
    import tempfile

    monkeypatch.setattr(cache, "_writable", lambda folder: False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    cache._cache_dir.cache_clear()
    try:
        folder = cache._cache_dir("")
    finally:
        cache._cache_dir.cache_clear()
    assert folder == tmp_path / f"littlestone-{os.getuid()}" and folder.is_dir()
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_temporary_folder_another_could_write_or_a_link_is_refused(tmp_path):
    mine = cache._private_dir(tmp_path)
    assert mine is not None and mine.stat().st_mode & 0o077 == 0
    mine.chmod(0o777)  # (opened to others since: refused, whatever it holds)
    assert cache._private_dir(tmp_path) is None
    mine.rmdir()
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    mine.symlink_to(tmp_path / "elsewhere")  # (a link planted in its place: not followed)
    assert cache._private_dir(tmp_path) is None
    mine.unlink()
    mine.write_text("a file")
    assert cache._private_dir(tmp_path) is None


# ---------------------------------------------------------------------- waiting for the build (issue 37, part 3)
@pytest.mark.parametrize("cpus, searched, left, time_left, wait", [
    # one CPU for the search and the build: on in Python for WAIT_AFTER_SECONDS (2 s: a small search keeps its quick
    # answer), then wait for the build ...
    (1, 0.0, 8.0, None, False),
    (1, 1.9, 8.0, None, False),
    (1, 2.0, 8.0, None, True),
    (1, 30.0, 1.0, None, True),
    (1, 1.0, 1.0, None, True),      # (a build nearly done: once the search has run as long)
    (1.5, 2.0, 8.0, None, True),    # (a quota of 1.5 CPUs: the two still share)
    (1, 2.0, 8.0, 5.0, False),      # ... unless the time limit comes before the build lands
    (1, 2.0, 8.0, 8.0, True),
    # a CPU each: never (the search hands over when the build lands)
    (2, 2.0, 20.0, None, False),
    (2, 60.0, 1.0, None, False),
    (16, 600.0, 20.0, None, False),
])
def test_when_a_search_waits_for_the_build(cpus, searched, left, time_left, wait):
    assert cache.should_wait(cpus=cpus, searched=searched, left=left, time_left=time_left) is wait


@pytest.mark.parametrize("cpu_max, quota_us, period_us, cpus", [
    ("max 100000\n", None, None, None),
    ("100000 100000\n", None, None, 1.0),
    ("250000 100000", None, None, 2.5),
    ("garbage", None, None, None),
    (None, "-1\n", "100000\n", None),
    (None, "50000", "100000", 0.5),
    (None, "50000", "0", None),
    (None, None, None, None),
])
def test_a_cgroup_quota_is_read_as_cpus(cpu_max, quota_us, period_us, cpus):
    assert cache.quota_of(cpu_max, quota_us, period_us) == cpus


def test_the_cpus_available_are_at_most_the_affinity():
    assert 0 < cache.cpus_available() <= len(os.sched_getaffinity(0))


def test_a_build_s_processor_time_is_read_from_proc():
    assert cache.cpu_seconds_of("7 (a (b) c) R 1 1 1 0 -1 4 0 0 0 0 125 75 0 0 20 0 1 0", 100) == 2.0
    assert cache.cpu_seconds_of("7 (truncated", 100) is None
    own = cache.cpu_seconds_of(Path("/proc/self/stat").read_text(), os.sysconf("SC_CLK_TCK"))
    assert own is not None and own >= 0


#: A stand-in for the builder: blocks on a named pipe until the test writes to it, then copies FAKE_SOURCE (or
#: writes a few bytes) to the target and removes its lock, as the builder does.
_FAKE_BUILDER = """import os, shutil, sys
target, lock = sys.argv[1], sys.argv[2]
with open(os.environ["FAKE_FIFO"]) as f:
    f.read()
source = os.environ.get("FAKE_SOURCE")
if source:
    shutil.copyfile(source, target + ".part")
else:
    open(target + ".part", "wb").write(b"made by the stand-in")
os.replace(target + ".part", target)
os.unlink(lock)
"""


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """A build that lands when the test says so: ``(target, release)``; ``release()`` lets it finish."""
    script = tmp_path / "builder.py"
    script.write_text(_FAKE_BUILDER)
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    monkeypatch.setenv("FAKE_FIFO", str(fifo))
    monkeypatch.delenv("FAKE_SOURCE", raising=False)
    monkeypatch.setattr(cache, "_command", lambda target, lock: [sys.executable, str(script), str(target), str(lock)])
    monkeypatch.setattr(cache, "_since", {})
    monkeypatch.setattr(cache, "_waited", set())
    target = tmp_path / "cache" / "kernel-test.bin"
    target.parent.mkdir()

    def release():
        fd = os.open(fifo, os.O_WRONLY)  # (blocks until the builder reads: an event, not a delay)
        os.write(fd, b"go")
        os.close(fd)

    yield target, release
    cache.end_build(wait=False)


def test_with_a_cpu_each_the_search_never_waits(fake_build, monkeypatch, capsys):
    target, release = fake_build
    monkeypatch.setattr(cache, "cpus_available", lambda: 2.0)
    assert cache.start_build(target)
    assert cache.await_build(target=target) is False
    assert "waiting" not in capsys.readouterr().err
    release()
    cache.end_build()  # (waits for it, saying so)
    assert target.exists()


def test_on_one_cpu_a_long_search_waits_for_the_build_then_goes_on(fake_build, monkeypatch, capsys):
    """One CPU for the search and the build, the search past WAIT_AFTER_SECONDS in Python: the note says so and how
    long, the search's clock runs while it waits (its time limit, Ctrl-C, its progress), and the call returns True
    once the machine code is there; it waits once."""
    target, release = fake_build
    monkeypatch.setattr(cache, "cpus_available", lambda: 1.0)
    assert cache.start_build(target)
    assert "compiling the kernel once" in capsys.readouterr().err
    monkeypatch.setattr(cache, "build_left", lambda target=None: 8.0)
    assert cache.await_build(target=target) is False  # (just begun: on in Python)
    cache._since[str(target)] -= 2.0  # (as if the search had run 2 s in Python beside the build)
    assert cache.await_build(time_left=5.0, target=target) is False  # (its time limit comes first)
    ticks = []

    def tick():
        if not ticks:
            release()
        ticks.append(1)

    assert cache.await_build(target=target, tick=tick) is True
    err = capsys.readouterr().err
    assert "this search waits for the kernel's build, about 8 s more" in err and "one CPU" in err and ticks
    assert target.read_bytes() == b"made by the stand-in" and not cache.building(target)
    assert cache.await_build(target=target) is False  # (there already: nothing to wait for)


def test_a_ctrl_c_while_waiting_stops_the_wait_and_the_build(fake_build, monkeypatch):
    target, release = fake_build
    monkeypatch.setattr(cache, "cpus_available", lambda: 1.0)
    monkeypatch.setattr(cache, "build_left", lambda target=None: 1.0)
    assert cache.start_build(target, say=False)
    builder = cache._builds[-1][0]
    cache._since[str(target)] -= 2.0  # (as if the search had run 2 s in Python beside the build)

    def tick():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cache.await_build(target=target, tick=tick)
    cache.end_build(wait=False)  # (as the command line does after a Ctrl-C)
    assert builder.poll() is not None and not target.exists() and not cache.building(target)
    assert cache.await_build(target=target) is False  # (waited once already; no build under way)


def test_a_search_on_one_cpu_waits_for_the_build_and_ends_in_the_kernel(built, tmp_path):
    """The search's side (Solver._built_yet): on one CPU a search past WAIT_AFTER_SECONDS (here 0) says it waits,
    waits for the build (a stand-in that lands when the test says so, with this tree's machine code), then hands over
    to the kernel, with the value of the Python search."""
    script = tmp_path / "builder.py"
    script.write_text(_FAKE_BUILDER)
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    code = ("import json, sys\n"
            "from solvers.opt import Solver, kernel, _kernel_cache as c, _kernel_so\n"
            "from solvers.opt.control import Tuning\n"
            "from solvers.classes.families import make\n"
            f"c._command = lambda t, lock: [sys.executable, {str(script)!r}, str(t), str(lock)]\n"
            "c.cpus_available = lambda: 1.0\n"
            "c.WAIT_AFTER_SECONDS = 0.0\n"  # (at the first look: whatever the machine's speed)
            "_kernel_so.start_link = lambda *a: False\n"  # (no detached link into the test's folder)
            "C = make('halfspaces', n=4)\n"
            "S = Solver(C, symmetry=False, tuning=Tuning(kernel_build_poll=0.0))\n"
            "value = S.value()\n"
            "print(json.dumps([value, kernel.how(), S.kernel_nodes > 0,"
            " Solver(C, symmetry=False, kernel='python').value()]))\n")
    p = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "LITTLESTONE_CACHE_DIR": str(tmp_path / "cache"),
                              "LITTLESTONE_KERNEL": "", "FAKE_FIFO": str(fifo), "FAKE_SOURCE": str(built)})
    try:
        notes = [p.stderr.readline(), p.stderr.readline()]
        assert "compiling the kernel once" in notes[0], notes
        assert "this search waits for the kernel's build" in notes[1], notes
        fd = os.open(fifo, os.O_WRONLY)
        os.write(fd, b"go")
        os.close(fd)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        try:  # (a stand-in still blocked on the pipe, its process killed: let it end)
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            pass
        else:
            os.close(fd)
    assert p.returncode == 0, err
    value, how, in_kernel, python_value = json.loads(out)
    assert how == "machine code" and in_kernel and value == python_value
