"""The compiled kernel's machine code as a shared object, loaded with :mod:`ctypes` in a third of a millisecond.

:mod:`solvers.opt._kernel_cache` keeps the machine code numba made as ELF object files and loads them with
llvmlite: importing llvmlite, checking the CPU through it and linking the objects in memory takes some 0.02-0.03 s
in every process, most of the time of a search of 0.05-0.1 s (issue "Past the compiled limit"). Once those
objects have loaded and passed that check in a process, this module links them into one shared object with the
system's C compiler driver (``cc``; a few tenths of a second, in a process of its own, once per install), and
later processes on the same CPU load it with ``dlopen``: no llvmlite, no numba.

* :func:`open_shared` returns each entry point's address from the shared object made for this machine-code file and
  this CPU, or None (then the kernel loads as before).
* :func:`start_link` starts the link in the background (a detached process that writes the file atomically and
  removes its scratch folder); :func:`link` runs it and waits (tests, ``littlestone kernel build``).

The shared object is ``kernel-<key>-<cpu>.so`` beside the machine-code file ``kernel-<key>.bin``: ``<key>`` names
the source and the versions of numba, llvmlite and Python (as the machine-code file's name does), ``<cpu>`` is a
hash of the processor's model and flags as ``/proc/cpuinfo`` gives them, so that a cache folder shared between
machines never hands one machine's code to another. The machine code refers to a few names outside itself: the
Python C API (bound by the loader to this Python, which exports it to its extensions) and numba's error and
reference-counting helpers, which the kernel never calls (:data:`solvers.opt._kernel_cache._ALLOWED`); in the
shared object those are stubs that abort. numba's objects are not position independent, so the link makes text
relocations (the loader patches the code as it maps it); where a system refuses that, :func:`open_shared` says None
and llvmlite serves. The machine-code file is read by :func:`solvers.opt._kernel_cache.read` and handed in (this
module imports nothing of the cache's).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["open_shared", "link", "start_link", "so_path", "cpu_tag"]

#: The stubs the shared object defines for the outside names that are not the Python C API or the C library's:
#: numba's error path and reference counting, never reached (the kernel neither raises nor allocates).
STUBS = ("numba_gil_ensure", "numba_gil_release", "numba_do_raise", "numba_runtime_build_excinfo_struct",
         "numba_unpickle", "NRT_Free", "NRT_MemInfo_call_dtor")

_handles: list = []  # the loaded shared objects (alive as long as the process)


@functools.lru_cache(maxsize=1)
def cpu_tag() -> str | None:
    """A short hash of this processor's model and flags (``/proc/cpuinfo``, first processor), or None where it
    cannot be read."""
    try:
        text = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return None
    first = text.split("\n\n", 1)[0]
    keep = [ln.split(":", 1)[1].strip() for ln in first.splitlines()
            if ln.split(":", 1)[0].strip() in ("vendor_id", "model name", "flags", "cpu family", "model")
            and ":" in ln]
    if not keep:
        return None
    keep.append(f"{sys.platform} {sys.version_info[:2]}")
    return hashlib.sha256("\n".join(keep).encode()).hexdigest()[:12]


def so_path(bin_path: Path) -> Path | None:
    """The shared object made from the machine-code file ``bin_path`` for this CPU (None where the CPU cannot be
    named)."""
    tag = cpu_tag()
    if tag is None:
        return None
    bin_path = Path(bin_path)
    return bin_path.with_name(f"{bin_path.stem}-{tag}.so")


def open_shared(bin_path: Path | None, got: tuple | None) -> dict | None:
    """The address of each entry point (name -> int) from the shared object of ``bin_path`` for this CPU, or None
    when there is none, or it does not load (then llvmlite loads the machine-code file); ``got``: the machine-code
    file as :func:`solvers.opt._kernel_cache.read` returns it (its header names each entry point's symbol)."""
    if bin_path is None or got is None or not sys.platform.startswith("linux"):
        return None
    target = so_path(bin_path)
    if target is None or not target.exists():
        return None
    header = got[0]
    try:
        lib = ctypes.CDLL(str(target), mode=ctypes.RTLD_LOCAL)
        out = {name: ctypes.cast(lib[e["symbol"]], ctypes.c_void_p).value for name, e in header["entries"].items()}
    except (OSError, AttributeError, KeyError, TypeError):
        return None
    if not all(out.values()):
        return None
    _handles.append(lib)
    return out


def _forget_old(bin_path: Path) -> None:
    """Remove the shared objects of earlier sources from this install's own folder (as the machine-code files of
    earlier sources are removed when a new one is built)."""
    folder = bin_path.parent
    if folder.resolve() != (Path(__file__).resolve().parent / "__pycache__"):
        return
    for old in folder.glob("kernel-*-*.so"):
        if not old.name.startswith(bin_path.stem + "-"):
            try:
                old.unlink()
            except OSError:
                pass


def _failure(target: Path) -> Path:
    """The mark a failed link leaves beside its target (a new source or new versions name a new target)."""
    return target.with_name(target.name + ".failed")


def _compiler() -> str | None:
    cc = os.environ.get("CC", "").strip()
    for name in ([cc] if cc else []) + ["cc", "gcc", "clang"]:
        found = shutil.which(name.split()[0]) if name else None
        if found:
            return found
    return None


def _script(got: tuple | None, target: Path) -> tuple[str, Path] | None:
    """A shell script linking the objects of the machine-code file ``got`` (as
    :func:`solvers.opt._kernel_cache.read` returns it) into ``target`` (atomically) in a fresh scratch folder that
    it removes, and that folder; None without a compiler or a readable machine-code file."""
    cc = _compiler()
    if cc is None or got is None:
        return None
    header, blobs = got
    work = Path(tempfile.mkdtemp(prefix="littlestone-so-"))
    objs = []
    for i, (name, e) in enumerate(sorted(header["entries"].items())):
        p = work / f"{i}.o"
        p.write_bytes(blobs[e["offset"]:e["offset"] + e["size"]])
        objs.append(str(p))
    stubs = work / "stubs.c"
    stubs.write_text("#include <stdlib.h>\n" + "".join(f"void {s}(void) {{ abort(); }}\n" for s in STUBS))
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    q = shlex.quote
    script = (f"{q(cc)} -shared -fPIC -o {q(str(tmp))} {' '.join(map(q, objs))} {q(str(stubs))} "
              f">/dev/null 2>&1 && mv -f {q(str(tmp))} {q(str(target))} || : > {q(str(_failure(target)))}; "
              f"rm -f {q(str(tmp))}; rm -rf {q(str(work))}")
    return script, work


def link(bin_path: Path, got: tuple | None) -> Path | None:
    """Link the machine-code file ``bin_path`` (``got``: as :func:`solvers.opt._kernel_cache.read` returns it) into
    its shared object for this CPU now (a few tenths of a second); the shared object's path, or None where it could
    not be made (no C compiler, say)."""
    target = so_path(bin_path)
    if target is None:
        return None
    made = _script(got, target)
    if made is None:
        return None
    subprocess.run(["sh", "-c", made[0]], stdin=subprocess.DEVNULL, check=False)
    return target if target.exists() else None


def start_link(bin_path: Path, got: tuple | None) -> bool:
    """Start :func:`link` in a detached process (it finishes even after this one exits); False where it cannot
    be started or the shared object is there already. Call it only once the machine-code file has loaded and
    passed its check of the CPU in this process."""
    target = so_path(bin_path)
    if target is None or target.exists() or _failure(target).exists() or not sys.platform.startswith("linux"):
        return False  # (there, or its link failed here once: not tried again by every process)
    made = _script(got, target)
    if made is None:
        return False
    _forget_old(Path(bin_path))
    try:
        subprocess.Popen(["sh", "-c", made[0]], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
    except OSError:
        shutil.rmtree(made[1], ignore_errors=True)
        return False
    return True
