"""The workspace object itself (adversary.workspace.Workspace): opening a store or none, its options checked in one
line, the notes to the sink it is given, and that importing it stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

from adversary.store import Store
from adversary.workspace import Workspace, WorkspaceError, note, speaking_to


def test_no_store_and_a_store_by_path_or_object(tmp_path):
    with Workspace() as ws:
        assert ws.store is None and "no store" in repr(ws)
    path = tmp_path / "r.db"
    with Workspace(path) as ws:
        assert isinstance(ws.store, Store) and str(ws.store.path) == str(path)
    assert path.exists()
    store = Store(str(path))
    with Workspace(store) as ws:
        assert ws.store is store


@pytest.mark.parametrize("kwargs, says", [
    ({"trust": True, "verify": True}, "exclude each other"),
    ({"jobs": 0}, "jobs=0"),
    ({"jobs": True}, "jobs=True"),
    ({"jobs": 1.5}, "jobs=1.5"),
])
def test_bad_options_are_one_line(kwargs, says):
    with pytest.raises(WorkspaceError, match=says) as e:
        Workspace(**kwargs)
    assert "\n" not in str(e.value) and isinstance(e.value, ValueError)


def test_a_read_only_folder_runs_without_a_store_and_says_so_to_the_sink(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        try:
            (folder / "probe").touch()
        except OSError:
            pass
        else:  # (root ignores the mode: nothing to test)
            pytest.skip("the folder is writable")
        seen = []
        ws = Workspace(folder / "r.db", note=seen.append)
        assert ws.store is None
        assert len(seen) == 1 and "running without a store" in seen[0] and "\n" not in seen[0]
    finally:
        folder.chmod(0o700)


def test_notes_go_to_the_innermost_sink_and_back_to_stderr(capsys):
    outer, inner = [], []
    with speaking_to(outer.append):
        note("one")
        with speaking_to(inner.append):
            note("two\nlines")
        note("three")
    note("four")
    assert outer == ["one", "three"] and inner == ["two lines"]
    assert capsys.readouterr().err == "littlestone: note: four\n"


def test_methods_are_named_by_their_modules():
    from adversary.workspace import _METHOD_MODULES
    import importlib

    for name in _METHOD_MODULES:
        module = importlib.import_module(f"adversary.workspace.{name}")
        for method in module.METHODS:
            assert getattr(Workspace, method) is getattr(module, method)


def test_importing_the_workspace_is_light():
    code = ("import sys, adversary.workspace; heavy = [m for m in ('numpy', 'solvers.opt', 'adversary.store', "
            "'joblib', 'distributed') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
