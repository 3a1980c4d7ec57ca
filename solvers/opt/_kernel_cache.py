"""The compiled kernel's machine code, saved once and loaded in later processes without numba.

numba compiles the entry points of :mod:`solvers.opt._kernel_jit` (C callbacks over raw pointers) in 15-25 s, and
in a later process loads them from its cache in 0.5-0.7 s, most of it importing numba and setting up its
compiler (measured here: importing numba 0.25 s, the module 0.15 s, loading the code 0.3 s). This module saves
the machine code numba made (an object file per entry point) in one file, and loads it with llvmlite alone (the
code generator numba itself is built on): about 0.05 s, so that a search can hand over to the kernel after a
twentieth of a second instead of staying in Python for the first second.

* :func:`start_build` runs :func:`compile_to` in a child process of the one that needs it, says so on standard error
  (compiling once, about :data:`BUILD_SECONDS`), and :func:`end_build` (at the process's exit) waits for it,
  saying how long is left, or stops it (the command line calls it at once after a Ctrl-C): the build never
  outlives the process that started it. ``littlestone kernel build`` builds it up front.
* :func:`compile_to` (run in a process of its own: ``python -m solvers.opt._kernel_cache FILE``) compiles the entry
  points afresh (numba's own cache pointed at an empty folder, so that the object code is at hand), checks that
  their machine code calls nothing but the Python C API and numba's error path (which the kernel never takes:
  nothing in it allocates or raises), and writes FILE atomically.
* :func:`load` reads FILE, checks that it was made from this source, by these versions of numba and llvmlite and
  for this CPU, resolves the few outside names, and returns each entry point's address.

The file: :data:`MAGIC`, the length of a JSON header (8 bytes, little-endian), the header (the environment it was
made in, and per entry point its symbol, its outside names and where its object file lies), the object files.
Nothing is unpickled. Object files are read as ELF (Linux); elsewhere :func:`usable` says no and the kernel is
loaded through numba itself (:mod:`solvers.opt.kernel`).

The file lives in ``$LITTLESTONE_CACHE_DIR`` when set, else beside this module in ``__pycache__`` when that is
writable (as numba's cache), else in ``$XDG_CACHE_HOME/littlestone`` (``~/.cache/littlestone``), else in a folder of
this user's own in the temporary folder (``/tmp/littlestone-<uid>``, made private: an account whose home cannot be
written, a service's or a container's, still keeps the kernel; without it numba compiled the kernel in every process
that ran 10 s, and where numba's own cache had no folder either the search stopped with an error).

Waiting for the build. A search that starts the build goes on in Python meanwhile and hands over when it lands;
with a CPU of its own the build costs that search nothing (measured on two CPUs, rectangles N=28 as a raw matrix:
24 s from a fresh install to the end, against 39 s building first). Where the build and the search share one CPU
(:func:`cpus_available`: the process's affinity and its cgroup's quota), each slows the other, and the process waits
for the build at its end anyway: there :func:`await_build`, which the search calls at each look for the build, stops
a search that has run :data:`WAIT_AFTER_SECONDS` in Python and waits for the build (a note says so and how long:
:func:`build_left`), then the search goes on compiled; a search that ends sooner keeps its quick answer
(:func:`should_wait`: the rule, as a pure function).
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import hashlib
import json
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

from ..files import write_atomic

__all__ = ["compile_to", "load", "path", "usable", "start_build", "end_build", "building", "failed", "cache_status", "BuildError",
           "BUILD_SECONDS", "BUILD_CPU_SECONDS", "await_build", "should_wait", "build_left", "cpus_available",
           "quota_of", "cpu_seconds_of", "WAIT_AFTER_SECONDS"]

MAGIC = b"littlestone kernel 1\n"
FORMAT = 1
#: Outside names the machine code may call: the Python C API, memset and the like, and numba's error path (the C
#: callback's wrapper reports an exception of the function it wraps through them; the kernel raises none, so
#: they are never reached, and at load time they are bound to ``abort``). Nothing that allocates: an entry
#: point whose code would call numba's allocator is refused at build time.
_ALLOWED = ("numba_gil_ensure", "numba_gil_release", "numba_do_raise", "numba_runtime_build_excinfo_struct",
            "numba_unpickle", "NRT_Free", "NRT_MemInfo_call_dtor", "memset", "memcpy", "memmove")
#: A build that has held its lock this long is taken for dead (a build takes 15-25 s here), whatever its process
#: (one on another machine sharing the folder, or a lock that names no process).
STALE_SECONDS = 600.0
#: The longest :func:`start_build` waits for a build (its own or another process's): past it the caller goes on
#: without the machine code (numba then loads the kernel in that process); its own build goes on until
#: :func:`end_build` (at the process's exit) waits for it as long again, then stops it.
WAIT_SECONDS = 120.0

#: About how long a build takes (15-25 s measured here, one core), for the notes that say it.
BUILD_SECONDS = 20
#: On one CPU, how long a search runs in Python beside the build before it waits for it (:func:`should_wait`): one
#: that ends sooner keeps its quick answer. (From a fresh install on one CPU, waiting at once had delayed the answer
#: of intervals N=160 as a raw matrix from 3.5 s to 21.6 s, for the same end of the command.)
WAIT_AFTER_SECONDS = 2.0
#: The processor time a build takes (user and system: 14.8-15.0 s measured here, 3 builds on a busy machine that
#: took 25-29 s of wall clock): what is left of a running build is this less what it has used (:func:`build_left`).
BUILD_CPU_SECONDS = 15.0

_engines: list = []  # the llvmlite engines holding the loaded code (alive as long as the process)
#: The builds this process started, while they may run: (process, target, lock, time.monotonic() at start, pid).
_builds: list = []
#: Per machine-code file (its path), when this process first found its build under way, or started it
#: (time.monotonic()): how long a search here has run in Python beside the build (:func:`await_build`).
_since: dict = {}
#: The files whose build this process has waited for once (:func:`await_build` waits once, then goes on in Python).
_waited: set = set()


def _say(text: str) -> None:
    """A note on standard error, as the command line prints its notes (the build's: this module is below it)."""
    try:
        print(f"littlestone: note: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # (standard error closed)
        pass


class BuildError(Exception):
    """The kernel's machine code could not be made or saved (the message says why)."""


@functools.lru_cache(maxsize=None)
def _source() -> bytes:
    """The source the machine code is made from: the compiled functions and the signatures they are called by."""
    here = Path(__file__)
    return here.with_name("_kernel_jit.py").read_bytes() + here.with_name("_kernel_abi.py").read_bytes()


@functools.lru_cache(maxsize=None)
def _version(dist: str) -> str | None:
    # The package's dist-info beside it, by its name: a millisecond, where importing importlib.metadata and
    # scanning the path takes ten (most of what a search of 0.05 s spent deciding whether to load the kernel).
    try:
        import importlib.util

        spec = importlib.util.find_spec(dist)  # (finds it without importing it)
        if spec is not None and spec.origin:
            found = list(Path(spec.origin).parent.parent.glob(f"{dist}-*.dist-info"))
            if len(found) == 1:
                return found[0].name[len(dist) + 1:-len(".dist-info")]
    except (ImportError, ValueError, OSError):
        pass
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001 - not installed, or metadata unreadable
        return None


@functools.lru_cache(maxsize=None)
def _key() -> str:
    """What names this source for these versions (the file name; the CPU is checked from the header)."""
    h = hashlib.sha256(_source())
    h.update(f"{FORMAT} {_version('numba')} {_version('llvmlite')} {sys.version_info[:2]} {sys.platform}".encode())
    return h.hexdigest()[:20]


def _environment() -> dict:
    """The environment the machine code is valid in (llvmlite imported)."""
    import llvmlite.binding as llvm

    return {"format": FORMAT, "source": hashlib.sha256(_source()).hexdigest(), "numba": _version("numba"),
            "llvmlite": _version("llvmlite"), "python": list(sys.version_info[:2]), "platform": sys.platform,
            "triple": llvm.get_process_triple(), "cpu": llvm.get_host_cpu_name(),
            "features": llvm.get_host_cpu_features().flatten()}


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def cache_dir() -> Path | None:
    """The folder of the machine-code file (see the module docstring), or None when none is writable (looked at
    once per value of ``$LITTLESTONE_CACHE_DIR``)."""
    return _cache_dir(os.environ.get("LITTLESTONE_CACHE_DIR", "").strip())


@functools.lru_cache(maxsize=8)
def _cache_dir(given: str) -> Path | None:
    if given:
        return Path(given) if _writable(Path(given)) else None
    here = Path(__file__).resolve().parent / "__pycache__"
    if _writable(here):
        return here
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "littlestone"
    return folder if _writable(folder) else _private_dir(Path(tempfile.gettempdir()))


def _private_dir(parent: Path) -> Path | None:
    """``parent/littlestone-<uid>``, made if missing, when it is a folder of this user's that no one else may enter
    (the temporary folder is everyone's: machine code found in a folder another user could write would be run by
    this one); else None."""
    try:
        uid = os.getuid()
    except AttributeError:  # (not POSIX: machine code is not kept there anyway)
        return None
    folder = parent / f"littlestone-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()  # (not followed: a link planted there is refused)
    except OSError:
        return None
    import stat

    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder


def usable() -> bool:
    """Whether machine code can be saved and loaded this way here: ELF object files (Linux, 64-bit), a writable
    cache folder, llvmlite and numba installed."""
    if not sys.platform.startswith("linux") or struct.calcsize("P") != 8 or sys.byteorder != "little":
        return False
    if _version("numba") is None or _version("llvmlite") is None:
        return False
    return cache_dir() is not None


def path() -> Path | None:
    """The machine-code file of this source and these versions, or None when :func:`usable` says no."""
    return _path(os.environ.get("LITTLESTONE_CACHE_DIR", "").strip())


@functools.lru_cache(maxsize=8)
def _path(given: str) -> Path | None:
    if not usable():
        return None
    return cache_dir() / f"kernel-{_key()}.bin"


# ---------------------------------------------------------------------- reading object files
def undefined_symbols(obj: bytes) -> list[str] | None:
    """The names an ELF-64 little-endian object file uses without defining them, or None when it is no such
    file."""
    if len(obj) < 64 or obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    out = []
    for sec in sections:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        off, size, link, entsize = sec[4], sec[5], sec[6], sec[9] or 24
        strtab = sections[link]
        s0 = strtab[4]
        for k in range(size // entsize):
            st_name, _, _, st_shndx = struct.unpack_from("<IBBH", obj, off + k * entsize)
            if st_shndx == 0 and st_name:
                end = obj.index(b"\0", s0 + st_name)
                out.append(obj[s0 + st_name:end].decode())
    return out


def _allowed(name: str) -> bool:
    return name in _ALLOWED or name.startswith(("Py", "_Py"))


# ---------------------------------------------------------------------- building
def compile_to(target: Path) -> None:
    """Compile the entry points (numba, a fresh compilation) and write their machine code to ``target``
    atomically. Raises :class:`BuildError` when an entry point's code calls a name outside :data:`_ALLOWED`
    (something in the kernel would allocate or raise) or is not an ELF object."""
    with tempfile.TemporaryDirectory(prefix="littlestone-numba-") as fresh:
        os.environ["NUMBA_CACHE_DIR"] = fresh  # numba's own cache empty: the object code stays at hand
        from . import _kernel_jit as jit

        env = _environment()
        header: dict = {"environment": env, "entries": {}}
        blobs = []
        offset = 0
        for name, cf in jit.ENTRIES.items():
            obj = cf._library.serialize_using_object_code()[2][0]
            names = undefined_symbols(obj)
            if names is None:
                raise BuildError(f"the kernel's entry point {name} is not an ELF object file")
            bad = [n for n in names if not _allowed(n)]
            if bad:
                raise BuildError(f"the kernel's entry point {name} calls {', '.join(sorted(bad))}: it must not "
                                 "allocate or raise (see solvers/opt/_kernel_jit.py)")
            header["entries"][name] = {"symbol": cf.native_name, "undefined": names, "offset": offset, "size": len(obj)}
            blobs.append(obj)
            offset += len(obj)
    head = json.dumps(header, sort_keys=True).encode()
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, lambda tmp: tmp.write_bytes(MAGIC + struct.pack("<Q", len(head)) + head + b"".join(blobs)))
    if target.parent.resolve() == (Path(__file__).resolve().parent / "__pycache__"):
        # This install's own folder: the machine code of its earlier sources is of no more use.
        for old in target.parent.glob("kernel-*.bin*"):
            if old.name.split(".")[0] != target.name.split(".")[0]:
                try:
                    old.unlink()
                except OSError:
                    pass


def _lock(target: Path) -> Path:
    return target.with_name(target.name + ".lock")


def _host() -> str:
    return os.uname().nodename


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` of this machine runs (a zombie, ended but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's: it exists)
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in (b"Z", b"X")


def _holder(lock: Path) -> int | None:
    """The pid a lock names when it names a process of this machine, else None."""
    try:
        pid, host = lock.read_text().split(" ", 1)
        return int(pid) if host == _host() else None
    except (OSError, ValueError):
        return None


def _claim(lock: Path, pid: int) -> None:
    """Make ``lock`` name the process ``pid`` of this machine (replaced whole: a reader never sees half a pid)."""
    write_atomic(lock, lambda tmp: tmp.write_text(f"{pid} {_host()}"))


def building(target: Path | None = None) -> bool:
    """Whether a build of ``target`` (default :func:`path`) holds its lock. A stale lock is removed: one whose
    process has ended (a build killed before it could remove it: a run stopped by its time limit, a machine
    out of memory), or older than :data:`STALE_SECONDS`."""
    target = path() if target is None else target
    if target is None:
        return False
    lock = _lock(target)
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    pid = _holder(lock)
    if age > STALE_SECONDS or (pid is not None and not _alive(pid)):
        try:
            lock.unlink()
        except OSError:
            pass
        return False
    return True


def start_build(target: Path | None = None, *, wait: bool = False, say: bool = True) -> bool:
    """Build ``target`` (default :func:`path`) in a child process, unless it exists or a build is under way;
    with ``wait``, until it is done, or for :data:`WAIT_SECONDS` at most. True when the file exists (or, without
    ``wait``, is being made).

    The child ends with this process: :func:`end_build`, registered to run at its exit, waits for it (saying so)
    or stops it (a Ctrl-C while it waits; the command line calls it at once after a Ctrl-C of the command).
    Starting it is said in one note on standard error (unless ``say`` is false: a caller that shows its own
    progress)."""
    import subprocess

    target = path() if target is None else target
    if target is None:
        return False
    if target.exists():
        return True
    if failed(target) is not None:
        return False
    _since.setdefault(str(target), time.monotonic())
    lock = _lock(target)
    if not building(target):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            pass
        except OSError:
            return False
        else:
            os.write(fd, f"{os.getpid()} {_host()}".encode())  # (this process, until the builder is started)
            os.close(fd)
            root = str(Path(__file__).resolve().parents[2])
            env = dict(os.environ)
            env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            env.pop("NUMBA_DISABLE_JIT", None)
            try:
                # A session of its own: its own share of the CPU where the scheduler groups processes by session
                # (autogroup; in this process's session a busy machine slowed the search tenfold). It is still
                # this process's: it ends with it (end_build, at its exit; at once after a Ctrl-C of the command).
                proc = subprocess.Popen(_command(target, lock), env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True)
            except OSError:
                lock.unlink(missing_ok=True)
                return False
            if not _builds:
                atexit.register(end_build)
            _builds.append((proc, target, lock, time.monotonic(), os.getpid()))
            try:
                _claim(lock, proc.pid)  # the builder's: a waiter sees at once when it has ended without a word
            except OSError:
                pass
            if proc.poll() is not None:  # (done already: the lock named it after it removed its own)
                lock.unlink(missing_ok=True)
            if say:
                _say(f"compiling the kernel once (about {BUILD_SECONDS} s, process {proc.pid}); "
                     + ("this search waits for it" if wait else "the search goes on in Python meanwhile and this "
                        "process waits for the build before it ends")
                     + "; Ctrl-C stops it, and 'littlestone kernel build' builds it up front")
            if wait:
                try:
                    proc.wait(timeout=WAIT_SECONDS)
                except subprocess.TimeoutExpired:
                    pass  # (it goes on, until this process ends: end_build)
                return target.exists()
            return True
    if wait:
        end = time.monotonic() + WAIT_SECONDS
        while building(target) and not target.exists() and time.monotonic() < end:
            time.sleep(0.05)
        return target.exists()
    return True


def _command(target: Path, lock: Path) -> list[str]:
    """The builder's command line: :func:`main` in a process of its own (a test puts a stand-in here)."""
    return [sys.executable, "-m", "solvers.opt._kernel_cache", str(target), str(lock)]


# ---------------------------------------------------------------------- waiting for the build
def quota_of(cpu_max: str | None = None, cfs_quota: str | None = None, cfs_period: str | None = None) -> float | None:
    """The CPUs a cgroup's quota allows (a container's ``--cpus``), from the text of its ``cpu.max`` (cgroup v2:
    ``"150000 100000"``, or ``"max 100000"`` for none) or of its ``cpu.cfs_quota_us`` and ``cpu.cfs_period_us``
    (v1: ``-1`` for none); None for no quota or text that says none.

    >>> quota_of("150000 100000"), quota_of("max 100000")
    (1.5, None)
    >>> quota_of(None, "50000", "100000"), quota_of(None, "-1", "100000")
    (0.5, None)
    """
    try:
        if cpu_max is not None:
            quota, period = cpu_max.split()[:2]
            return None if quota == "max" else int(quota) / int(period)
        if cfs_quota is not None and cfs_period is not None:
            quota_us, period_us = int(cfs_quota), int(cfs_period)
            return quota_us / period_us if quota_us > 0 and period_us > 0 else None
    except (ValueError, ZeroDivisionError):
        pass
    return None


def _read(p: Path) -> str | None:
    try:
        return p.read_text()
    except OSError:
        return None


@functools.lru_cache(maxsize=1)
def cpus_available() -> float:
    """The CPUs this process may run on: those of its affinity (``os.sched_getaffinity``), at most its cgroup's
    quota (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``, of the process's own group or the root's); read once."""
    try:
        n: float = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    groups = {}
    for line in (_read(Path("/proc/self/cgroup")) or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") or [""]:
                groups[controller] = parts[2].strip()
    root = Path("/sys/fs/cgroup")
    quotas = []
    if "" in groups:  # v2
        for folder in {root / groups[""].lstrip("/"), root}:
            quotas.append(quota_of(_read(folder / "cpu.max")))
    if "cpu" in groups:  # v1
        for folder in {root / "cpu" / groups["cpu"].lstrip("/"), root / "cpu"}:
            quotas.append(quota_of(None, _read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us")))
    for q in quotas:
        if q is not None:
            n = min(n, q)
    return max(n, 0.01)


def should_wait(*, cpus: float, searched: float, left: float, time_left: float | None = None,
                after: float | None = None) -> bool:
    """Whether a search running in Python beside the kernel's build should stop and wait for it.

    Only where the two would share one CPU (``cpus`` < 2): each then slows the other, and the process waits for the
    build at its end anyway, so a search that waits loses nothing and runs the rest compiled. With a CPU each the
    search goes on beside the build and hands over when it lands, losing nothing either. Not when the time limit, if
    any (``time_left`` seconds), comes before the build would land (``left`` seconds); and not before the search has
    run ``searched`` seconds in Python, ``after`` (default :data:`WAIT_AFTER_SECONDS`) or as long as the build still
    needs if that is less: a search that ends sooner keeps its quick answer.

    >>> should_wait(cpus=1, searched=0.5, left=8.0), should_wait(cpus=1, searched=2.0, left=8.0)
    (False, True)
    >>> should_wait(cpus=2, searched=60.0, left=1.0), should_wait(cpus=1, searched=9.0, left=8.0, time_left=5.0)
    (False, False)
    """
    if cpus >= 2:
        return False
    if time_left is not None and time_left < left:
        return False
    return searched >= min(left, WAIT_AFTER_SECONDS if after is None else after)


def cpu_seconds_of(stat: str, ticks: int) -> float | None:
    """The processor time (user and system) a process has used, from the text of its ``/proc/PID/stat``.

    >>> cpu_seconds_of("42 (python3 -m x) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20", 100)
    3.0
    """
    try:
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15 of proc(5))
    except (IndexError, ValueError, ZeroDivisionError):
        return None


def build_left(target: Path | None = None) -> float:
    """About how many seconds the build of ``target`` (default :func:`path`) under way still needs with a CPU of
    its own: :data:`BUILD_CPU_SECONDS` less the processor time its process has used (a build of this machine),
    else :data:`BUILD_SECONDS` less the time since its lock was taken; at least a second."""
    target = path() if target is None else target
    if target is None:
        return 1.0
    lock = _lock(target)
    pid = _holder(lock)
    used = None
    if pid is not None:
        try:
            used = cpu_seconds_of(Path(f"/proc/{pid}/stat").read_text(), os.sysconf("SC_CLK_TCK"))
        except (OSError, ValueError):
            used = None
    if used is not None:
        return max(1.0, BUILD_CPU_SECONDS - used)
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return float(BUILD_SECONDS)
    return max(1.0, BUILD_SECONDS - age)


def await_build(time_left: float | None = None, tick=None, target: Path | None = None) -> bool:
    """Called by a search running in Python while the kernel's build (of ``target``, default :func:`path`) is under
    way, at each look for it: when :func:`should_wait` says so (one CPU for the two, the search has run
    :data:`WAIT_AFTER_SECONDS` in Python, and ``time_left``, the seconds to the search's time limit, lets the build
    land), say so on standard error and wait for the build, calling ``tick()`` (the search's clock: its time limit,
    Ctrl-C, its progress) every 0.1 s; at most :data:`WAIT_SECONDS`, and once per file. True when it waited and the
    machine code landed (the search goes on compiled), else False (on in Python; a file there already is the
    caller's to find)."""
    target = path() if target is None else target
    if target is None or target.exists():
        return False
    key = str(target)
    now = time.monotonic()
    if key in _waited or not building(target):
        return False
    since = _since.setdefault(key, now)
    cpus = cpus_available()
    left = build_left(target) if cpus < 2 else 0.0  # (its process's clock read only where it decides)
    if not should_wait(cpus=cpus, searched=now - since, left=left, time_left=time_left):
        return False
    _waited.add(key)
    _say(f"this search waits for the kernel's build, about {max(1, round(left))} s more (one CPU for both: it "
         f"ran {now - since:.1f} s in Python), then goes on compiled")
    own = next((b[0] for b in _builds if b[1] == target and b[4] == os.getpid()), None)
    end = now + WAIT_SECONDS
    while not target.exists() and building(target) and time.monotonic() < end:
        if tick is not None:
            tick()
        if own is not None:
            import subprocess

            try:
                own.wait(timeout=0.1)  # (returns as soon as the build ends)
            except subprocess.TimeoutExpired:
                pass
        else:
            time.sleep(0.1)
    return target.exists()


def end_build(wait: bool = True) -> None:
    """End the builds this process started (run at its exit): with ``wait``, wait for each (for
    :data:`WAIT_SECONDS` at most), saying so and about how long is left; a Ctrl-C meanwhile, or no ``wait``, stops
    it (its lock removed: a later process starts afresh). Nothing outlives the process."""
    import subprocess

    while _builds:
        proc, target, lock, started, owner = _builds[-1]
        if owner != os.getpid():  # (a forked copy of the process that started it: not its build to end)
            _builds.pop()
            continue
        try:
            if proc.poll() is None and wait:
                if not target.exists():  # (there already: its process is only exiting)
                    left = max(1, round(build_left(target)))
                    _say(f"finishing the kernel's build before exiting (once, about {left} s more); Ctrl-C stops it, "
                         "and 'littlestone kernel build' builds it later")
                try:
                    proc.wait(timeout=WAIT_SECONDS)
                except (subprocess.TimeoutExpired, KeyboardInterrupt):
                    pass
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except (subprocess.TimeoutExpired, KeyboardInterrupt):
                    proc.kill()
                    proc.wait()
                if not target.exists():
                    _say("the kernel's build was stopped: the search runs in Python until it is built "
                         "('littlestone kernel build')")
        finally:
            _builds.pop()
        if _holder(lock) in (proc.pid, os.getpid()):  # (stopped before it removed its lock, or before it was its)
            lock.unlink(missing_ok=True)


def cache_status(target: Path | None = None) -> dict:
    """Where the kernel's machine code is and whether it is current, without loading it or removing anything:
    ``{"path", "usable", "exists", "current", "building", "failed", "why", "linked", "cpus", "build_seconds",
    "wait_after"}`` (``why``: when not current, in words; ``linked``: its shared object for this CPU is there
    (:mod:`solvers.opt._kernel_so`); ``cpus``: :func:`cpus_available`, which decides whether a search waits for a
    build; ``build_seconds``: :data:`BUILD_SECONDS`; ``wait_after``: :data:`WAIT_AFTER_SECONDS`)."""
    target = path() if target is None else target
    out = {"path": None if target is None else str(target), "usable": target is not None, "exists": False,
           "current": False, "building": False, "failed": None, "why": None, "linked": False,
           "cpus": cpus_available(), "build_seconds": BUILD_SECONDS, "wait_after": WAIT_AFTER_SECONDS}
    if target is None:
        out["why"] = ("machine code is not kept here (it needs Linux on 64 bits, numba and llvmlite installed, and "
                      "a writable cache folder: set LITTLESTONE_CACHE_DIR); numba compiles the kernel in each process")
        return out
    out["exists"] = target.exists()
    out["building"] = building(target)
    out["failed"] = failed(target)
    got = read(target) if out["exists"] else None
    if got is not None:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        out["current"] = got[0].get("environment") == _environment()
        if out["current"]:
            from . import _kernel_so

            so = _kernel_so.so_path(target)
            out["linked"] = so is not None and so.exists()
        else:
            out["why"] = "made from another source, other versions of numba or llvmlite, or for another CPU"
    elif out["exists"]:
        out["why"] = "the file is damaged"
    elif out["failed"] is not None:
        out["why"] = f"its last build failed: {out['failed']}"
    elif out["building"]:
        out["why"] = "being built (by another process)"
    else:
        out["why"] = "not built yet"
    return out


# ---------------------------------------------------------------------- loading
def _address(name: str) -> int:
    """Where the process holds ``name`` (a Python C API symbol), else the address of ``abort``: the code that
    would call it is never reached (see :data:`_ALLOWED`), and if it were, the process stops at once instead of
    jumping to nothing."""
    for lib in (ctypes.pythonapi, ctypes.CDLL(None)):
        try:
            return ctypes.addressof(ctypes.c_char.in_dll(lib, name))
        except (ValueError, AttributeError):
            continue
    return ctypes.cast(ctypes.CDLL(None).abort, ctypes.c_void_p).value


def read(target: Path) -> tuple[dict, bytes] | None:
    """(header, the object files) of a machine-code file, or None when it is missing or malformed."""
    try:
        data = Path(target).read_bytes()
    except OSError:
        return None
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 8:
        return None
    n, = struct.unpack_from("<Q", data, len(MAGIC))
    start = len(MAGIC) + 8
    try:
        header = json.loads(data[start:start + n].decode())
    except (ValueError, UnicodeDecodeError):
        return None
    return header, data[start + n:]


def load(target: Path | None = None) -> dict | None:
    """The address of each entry point, from the machine-code file ``target`` (default :func:`path`); None when
    it is missing, malformed, or made for another source, versions or CPU (then it is removed, to be built
    again)."""
    target = path() if target is None else target
    if target is None:
        return None
    got = read(target)
    if got is None:
        return None
    header, blobs = got
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    if header.get("environment") != _environment():
        try:
            target.unlink()
        except OSError:
            pass
        return None
    tm = llvm.Target.from_default_triple().create_target_machine(jit=True)
    out = {}
    try:
        for name, e in header["entries"].items():
            for sym in e["undefined"]:
                if not _allowed(sym):
                    return None
                if not llvm.address_of_symbol(sym):
                    llvm.add_symbol(sym, _address(sym))
            engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), tm)
            engine.add_object_file(llvm.ObjectFileRef.from_data(blobs[e["offset"]:e["offset"] + e["size"]]))
            engine.finalize_object()
            addr = engine.get_function_address(e["symbol"])
            if not addr:
                return None
            _engines.append(engine)
            out[name] = addr
    except (KeyError, TypeError, RuntimeError):
        return None
    return out


def failed(target: Path | None = None) -> str | None:
    """Why the last build of ``target`` (default :func:`path`) failed, or None (then it is not tried again until
    the source or the versions change)."""
    target = path() if target is None else target
    if target is None:
        return None
    try:
        return _failure(target).read_text().strip() or "unknown"
    except OSError:
        return None


def _failure(target: Path) -> Path:
    return target.with_name(target.name + ".failed")


def main(argv: list[str]) -> int:
    """``python -m solvers.opt._kernel_cache FILE [LOCK]``: build FILE (and remove LOCK when done); a failure is
    written beside it (``FILE.failed``), so that it is not tried again."""
    target = Path(argv[0])
    lock = Path(argv[1]) if len(argv) > 1 else None
    try:
        compile_to(target)
    except Exception as e:  # noqa: BLE001 - any failure is recorded, and the Python search serves
        why = f"{type(e).__name__}: {e}" if not isinstance(e, BuildError) else str(e)
        try:
            _failure(target).write_text(why + "\n")
        except OSError:
            pass
        print(f"littlestone: the compiled kernel was not built: {why}", file=sys.stderr)
        return 1
    finally:
        if lock is not None:
            try:
                lock.unlink()
            except OSError:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
