"""The kernel's machine code linked into a shared object (:mod:`solvers.opt._kernel_so`): made from the machine-code
file, loaded without llvmlite or numba, the same search (the engine conformance suite passes through it), and
never loaded for another CPU or when broken."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from solvers.opt import _kernel_cache as cache
from solvers.opt import _kernel_so as so
from solvers.opt import kernel as kernel_module

from .test_kernel_cache import run  # (a fresh Python on this tree)

pytestmark = pytest.mark.skipif(not (sys.platform.startswith("linux") and cache.usable() and so._compiler()),
                                reason="needs Linux, numba and a C compiler")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A cache folder holding this tree's machine-code file (built if missing: 15-25 s) and its shared object."""
    assert cache.start_build(wait=True), cache.failed()
    here = tmp_path_factory.mktemp("kernel")
    target = here / cache.path().name
    shutil.copy(cache.path(), target)
    made = so.link(target, cache.read(target))
    assert made is not None and made.exists(), "the shared object was not made"
    return here


def test_the_shared_object_serves_every_entry_point(folder):
    target = folder / cache.path().name
    addresses = so.open_shared(target, cache.read(target))
    assert addresses is not None and set(addresses) == set(kernel_module.SIGNATURES)
    assert all(isinstance(a, int) and a for a in addresses.values())


def test_a_fresh_process_loads_it_without_llvmlite_and_conforms(folder):
    out = run("import json, sys\n"
              "from solvers.opt import kernel, conformance\n"
              "from solvers.opt.engines import search\n"
              "fails = conformance.check_engine(search, kernel='numba')\n"
              "print(json.dumps([kernel.how(), 'llvmlite.binding' in sys.modules, 'numba' in sys.modules,"
              " [str(f) for f in fails]]))\n",
              LITTLESTONE_CACHE_DIR=str(folder), LITTLESTONE_KERNEL="")
    how, llvm, numba, fails = json.loads(out.strip().splitlines()[-1])
    assert how == "shared object" and not llvm and not numba
    assert fails == []


def test_another_cpu_or_a_broken_file_falls_back(folder, tmp_path, monkeypatch):
    target = tmp_path / cache.path().name
    shutil.copy(folder / target.name, target)
    shutil.copy(so.so_path(folder / target.name), so.so_path(target))
    assert so.open_shared(target, cache.read(target)) is not None
    # another processor: its tag names another file, which is not there
    monkeypatch.setattr(so, "cpu_tag", lambda: "0" * 12)
    assert so.so_path(target).name.endswith("-000000000000.so") and so.open_shared(target, cache.read(target)) is None
    monkeypatch.undo()
    # a damaged shared object (in another folder: dlopen hands back a library it has open by its name): not
    # loaded (llvmlite serves)
    other = tmp_path / "damaged"
    other.mkdir()
    shutil.copy(target, other / target.name)
    so.so_path(other / target.name).write_bytes(b"\x7fELF not really")
    assert so.open_shared(other / target.name, cache.read(other / target.name)) is None
    # no machine-code file beside it: nothing to name the entry points by
    assert so.open_shared(tmp_path / "kernel-missing.bin", cache.read(tmp_path / "kernel-missing.bin")) is None


def test_no_compiler_no_shared_object(folder, tmp_path, monkeypatch):
    target = tmp_path / cache.path().name
    shutil.copy(folder / target.name, target)
    monkeypatch.setattr(so, "_compiler", lambda: None)
    assert so.link(target, cache.read(target)) is None and not so.start_link(target, cache.read(target))
    assert not so.so_path(target).exists()


def test_a_process_that_loads_the_machine_code_links_it_for_the_next(folder, tmp_path):
    shutil.copy(folder / cache.path().name, tmp_path / cache.path().name)
    code = ("import json\nfrom solvers.opt import kernel\nkernel._load()\nprint(json.dumps(kernel.how()))\n"
            "kernel._kernel_cache.end_build()\n")
    assert json.loads(run(code, LITTLESTONE_CACHE_DIR=str(tmp_path)).strip().splitlines()[-1]) == "machine code"
    made = so.so_path(tmp_path / cache.path().name)
    # the link runs detached: wait for its file (the event), not for a time
    for _ in range(600):
        if made.exists():
            break
        subprocess.run(["sleep", "0.1"])
    assert made.exists()
    assert json.loads(run(code, LITTLESTONE_CACHE_DIR=str(tmp_path)).strip().splitlines()[-1]) == "shared object"
    assert not list(tmp_path.glob(".*.tmp"))


def test_the_versions_naming_the_files_are_those_importlib_metadata_reads():
    """The machine-code file's name is keyed by the versions of numba and llvmlite, read from their dist-info by
    name (a millisecond, where importlib.metadata takes ten): the same versions."""
    from importlib.metadata import version

    for dist in ("numba", "llvmlite"):
        cache._version.cache_clear()
        assert cache._version(dist) == version(dist)
    assert cache._version("no-such-distribution-here") is None


def test_a_failed_link_is_not_tried_by_every_process(folder, tmp_path, monkeypatch):
    target = tmp_path / cache.path().name
    shutil.copy(folder / target.name, target)
    monkeypatch.setattr(so, "_compiler", lambda: "false")  # (a compiler that fails)
    assert so.link(target, cache.read(target)) is None
    assert so._failure(so.so_path(target)).exists()
    assert not so.start_link(target, cache.read(target))
