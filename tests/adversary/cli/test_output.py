"""The helpers of :mod:`adversary.cli._output`: output files are checked before any computation (writable,
not an input, not named twice) and written atomically (never half a file)."""

import json
import os
import time
from pathlib import Path

import pytest

from .checks import assert_usage_error, one_error_line, run


@pytest.mark.parametrize("option", ["--tree", "--proof"])
def test_unwritable_output_fails_at_once(capsys, hard_matrix, option):
    t = time.monotonic()
    code, out, err = run(capsys, "opt", "--matrix", hard_matrix, option, "/proc/no-such-dir-here.json")
    one_error_line(code, err, contains=["cannot write", "/proc/no-such-dir-here.json"])
    assert time.monotonic() - t < 2.0


def test_output_must_not_be_the_input(capsys, hard_matrix, tmp_path):
    before = hard_matrix.read_text()
    code, _, err = run(capsys, "opt", "--matrix", hard_matrix, "--tree", hard_matrix)
    one_error_line(code, err, contains=["--tree", "input of --matrix"])
    code, _, err = run(capsys, "export", "--matrix", hard_matrix, "-o", hard_matrix)
    one_error_line(code, err, contains=["-o"])
    code, _, err = run(capsys, "attack", "halving", "--matrix", hard_matrix, "--witness", hard_matrix)
    one_error_line(code, err, contains=["--witness"])
    assert hard_matrix.read_text() == before


def test_tree_and_proof_naming_one_file(capsys, tmp_path):
    code, _, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tmp_path / "x.json", "--proof", tmp_path / "x.json")
    one_error_line(code, err, contains=["--tree and --proof both name"])
    assert not (tmp_path / "x.json").exists()


def test_writes_are_atomic(capsys, tmp_path, monkeypatch):
    tree = tmp_path / "tree.json"
    tree.write_text("an older file\n")
    from solvers.certificate import MistakeTree

    def broken(self, path):
        Path(path).write_text('{"depth": 3, "ro')  # half written, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(MistakeTree, "write", broken)
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 1 and "could not write the tree" in err
    assert tree.read_text() == "an older file\n"  # never half a file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tree.json"]  # no temporary file left behind
    monkeypatch.undo()
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 0 and json.loads(tree.read_text())["depth"] == 3
    umask = os.umask(0)
    os.umask(umask)
    assert tree.stat().st_mode & 0o777 == 0o666 & ~umask  # as any file written in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tree.json"]


BAD = {
    "tree extension": ["opt", "thresholds", "N=7", "--tree", "{d}/t.png"],
    "tree directory missing": ["opt", "thresholds", "N=7", "--tree", "{d}/no/such/t.json"],
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, bad_files, case):
    assert_usage_error(*run(capsys, *[a.format(d=bad_files) for a in BAD[case]]))
