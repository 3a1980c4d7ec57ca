"""The kernel's saved machine code (solvers/opt/_kernel_cache.py): loaded in a fresh process without numba, with the
values of the Python search; a file that is missing, malformed or made elsewhere is refused (never loaded); the
outside names the code calls are read from its object files and are only those allowed; where no cache folder is
writable, numba loads the kernel itself."""

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
