"""``littlestone kernel status|build`` (issue 36): where the kernel's machine code is and whether it is current; its
build up front, once, with a progress line. A cache folder of the test's own (LITTLESTONE_CACHE_DIR)."""

from __future__ import annotations

import json
import os
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


def littlestone(cache_dir: Path, *argv, one_cpu: bool = False, **env) -> subprocess.CompletedProcess:
    one = min(os.sched_getaffinity(0))
    return subprocess.run([sys.executable, "-m", "adversary", *map(str, argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                       "LITTLESTONE_CACHE_DIR": str(cache_dir), **env},
                          preexec_fn=(lambda: os.sched_setaffinity(0, {one})) if one_cpu else None)


def test_status_of_an_empty_cache_says_where_and_not_built(tmp_path):
    r = littlestone(tmp_path, "kernel", "status")
    assert r.returncode == 0, r.stderr
    assert f"machine code: {tmp_path}/kernel-" in r.stdout and "not current: not built yet" in r.stdout
    r = littlestone(tmp_path, "kernel", "status", "--json", LITTLESTONE_KERNEL="python")
    st = json.loads(r.stdout)
    assert st["mode"] == "python" and st["exists"] is False and st["current"] is False
    assert st["path"].startswith(str(tmp_path)) and list(tmp_path.iterdir()) == []  # (status builds nothing)


def test_status_says_what_the_first_search_will_do(tmp_path):
    """Not built yet: with a CPU to spare, the first search builds the kernel beside it; on one CPU it waits for the
    build (issue 37, part 3); in the Python mode, nothing (it never builds)."""
    if len(os.sched_getaffinity(0)) >= 2:
        r = littlestone(tmp_path, "kernel", "status")
        assert "first search: builds it in the background" in r.stdout and "goes on in Python meanwhile" in r.stdout
    r = littlestone(tmp_path, "kernel", "status", one_cpu=True)
    assert "first search: builds it in the background" in r.stdout and "waits for it" in r.stdout, r.stdout
    assert "'littlestone kernel build' builds it now" in r.stdout
    assert json.loads(littlestone(tmp_path, "kernel", "status", "--json", one_cpu=True).stdout)["cpus"] == 1
    r = littlestone(tmp_path, "kernel", "status", LITTLESTONE_KERNEL="python")
    assert "first search" not in r.stdout and list(tmp_path.iterdir()) == []


def test_status_of_a_foreign_file_is_not_current(tmp_path):
    """A file of the right name made elsewhere (another CPU, other versions) is said not current, and left alone."""
    r = littlestone(tmp_path, "kernel", "status", "--json")
    target = Path(json.loads(r.stdout)["path"])
    head = json.dumps({"environment": {"cpu": "elsewhere"}, "entries": {}}).encode()
    import struct

    target.write_bytes(cache.MAGIC + struct.pack("<Q", len(head)) + head)
    st = json.loads(littlestone(tmp_path, "kernel", "status", "--json").stdout)
    assert st["exists"] and not st["current"] and "another" in st["why"] and target.exists()


@pytest.mark.slow
def test_build_makes_it_current_once(tmp_path):
    """A real build (15-25 s): the file is there and current, no builder or lock is left, and a second build says it
    is built already."""
    r = littlestone(tmp_path, "kernel", "build")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("littlestone kernel: built in ") and str(tmp_path) in r.stdout
    st = json.loads(littlestone(tmp_path, "kernel", "status", "--json").stdout)
    assert st["current"] and not st["building"] and not list(tmp_path.glob("*.lock"))
    out = littlestone(tmp_path, "kernel", "status").stdout
    assert "current (loads in about " in out and "first search" not in out
    r = littlestone(tmp_path, "kernel", "build")
    assert r.returncode == 0 and r.stdout.startswith("littlestone kernel: built already: ")
