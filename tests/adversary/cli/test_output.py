"""The helpers of :mod:`adversary.cli._output`: output files are checked before any computation (writable,
not an input, not named twice) and written atomically (never half a file); progress is a tqdm bar on a
terminal and plain lines otherwise."""

import io
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from adversary.cli._output import Progress

from .checks import assert_usage_error, one_error_line, run


@pytest.mark.parametrize("option", ["--tree", "--proof"])
def test_unwritable_output_fails_at_once(capsys, hard_npy, option):
    t = time.monotonic()
    code, out, err = run(capsys, "opt", "--matrix", hard_npy, option, "/proc/no-such-dir-here.json")
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
    from solvers.certificates import MistakeTree

    def broken(self, path):
        Path(path).write_text('{"depth": 3, "ro')  # half written, then the disk is full
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(MistakeTree, "write", broken)
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", tree)
    assert code == 2 and "could not write the tree" in err
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


# ------------------------------------------------------------------------------------------ progress
class Terminal(io.StringIO):
    """stderr as a terminal: what Progress draws with tqdm, kept."""

    def isatty(self):
        return True


def test_progress_on_a_terminal_is_a_tqdm_bar(monkeypatch):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    bar = Progress(total=5, label="littlestone table", delay=0.0)
    bar.count(2, status="n=7 k=3: 3 <= Opt <= 4")
    drawn = err.getvalue()
    assert drawn.startswith("\r") and "\n" not in drawn  # one line, redrawn in place
    line = drawn.split("\r")[-1]
    assert line.startswith("littlestone table:  40%|") and "| 2/5 cells [" in line  # done / total, elapsed < left
    assert line.rstrip().endswith(", n=7 k=3: 3 <= Opt <= 4]")  # the cell in flight
    bar.clear()
    assert err.getvalue().endswith("\r") and err.getvalue().split("\r")[-2].strip() == ""  # the line is wiped
    before = err.getvalue()
    threading.Thread(target=bar.status, args=("n=8 k=3: 4 <= Opt <= 5",)).start()  # a cluster's report
    time.sleep(0.05)
    assert err.getvalue() == before  # nothing drawn between a clear() and what the caller prints next
    bar.next = 0.0  # past the tenth of a second between two redraws
    bar.count(3)  # the caller's next update draws it
    line = err.getvalue().split("\r")[-1]
    assert "| 3/5 cells [" in line and line.rstrip().endswith(", n=8 k=3: 4 <= Opt <= 5]")
    bar.close()
    assert bar._thread is None and err.getvalue().split("\r")[-2].strip() == ""


def test_progress_clock_against_a_limit(monkeypatch):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    bar = Progress(clock=True, limit=60, label="littlestone attack", delay=0.0)
    bar.status("exact: best 5 mistakes, 1,234 positions")
    line = err.getvalue().split("\r")[-1]
    assert line.startswith("littlestone attack:   0%|") and "| 0 of 60 s, exact: best 5 mistakes" in line
    bar.close()
    assert Progress(clock=True, limit=60, label="littlestone attack").line() == "littlestone attack: 0 s of 60 s"


def test_progress_off_a_terminal_is_plain_lines(capsys, monkeypatch):
    bar = Progress(total=4, label="littlestone table", delay=0.0)
    bar.count(1, status="n=2 done: Opt = 1")
    bar.count(2)  # within the second: no line
    monkeypatch.setattr(bar, "next", 0.0)
    bar.status("n=4: 1 <= Opt <= 3")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("littlestone table: 1/4 cells done, 0 s, about 0 s left; n=2 done: Opt = 1")
    assert re.fullmatch(r"littlestone table: 2/4 cells done, 0 s, about 0 s left; n=4: 1 <= Opt <= 3", lines[1])
    assert len(lines) == 2
    quiet = Progress(enabled=False, total=4, delay=0.0)
    quiet.count(1)
    quiet.show("nothing")
    assert capsys.readouterr().err == ""


AFTER_THE_RUN = {  # an output file that fails only when it is written, after the computation
    "opt --tree": ["opt", "thresholds", "N=7", "--no-store", "--tree", "{d}/t.json"],
    "opt --tree .dot": ["opt", "thresholds", "N=7", "--no-store", "--tree", "{d}/t.dot"],
    "opt --proof": ["opt", "thresholds", "N=7", "--no-store", "--quiet", "--proof", "{d}/p.json"],
    "attack --witness": ["attack", "halving", "--class", "thresholds", "N=7", "--no-store", "--quiet", "--witness",
                         "{d}/w.json"],
    "export -o": ["export", "thresholds", "N=7", "-o", "{d}/c.json"],
    # not solved / stopped, and the file cannot be written: bad input (2) comes before "not solved" (3)
    "unsolved opt --tree": ["opt", "intervals", "N=200", "--no-store", "--quiet", "--time-limit", "1", "--tree",
                            "{d}/t.json"],
    "stopped attack --witness": ["attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=2", "--strategy",
                                 "exact", "--time-limit", "1", "--no-store", "--quiet", "--witness", "{d}/w.json"],
}


@pytest.mark.parametrize("case", list(AFTER_THE_RUN), ids=list(AFTER_THE_RUN))
def test_an_output_file_that_cannot_be_written_exits_2(capsys, tmp_path, monkeypatch, case):
    """(issue 18) Exit 2 for an output file that cannot be written, as the README's table says, whether it is
    found before the run (a directory missing or read-only) or only when the file is written (a full disk)."""
    def full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    argv = [a.format(d=tmp_path) for a in AFTER_THE_RUN[case]]
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("littlestone: error: ") and "No space left on device" in lines[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing half written, no temporary file left


# An output path naming the results store destroyed every row in it (issue 39, 1): each command that writes a
# file and keeps a store refuses that file before any work, and the store still serves its rows after.
_OVER_THE_STORE = {
    "opt --tree": ["opt", "thresholds", "N=100", "--tree", "{store}"],
    "opt --proof": ["opt", "thresholds", "N=100", "--proof", "{store}"],
    "attack --witness": ["attack", "halving", "--class", "thresholds", "N=7", "--witness", "{store}"],
    "table -o": ["table", "thresholds", "--grid", "N=3..4", "--format", "json", "-o", "{store}"],
    "attack grid -o": ["attack", "halving", "--class", "thresholds", "--grid", "N=3..4", "--format", "json",
                       "-o", "{store}"],
    "store export -o": ["store", "export", "--format", "json", "-o", "{store}"],
    "store show --certificates": ["store", "show", "{key}", "--certificates", "{store}"],
}


@pytest.mark.parametrize("case", sorted(_OVER_THE_STORE))
def test_an_output_naming_the_store_is_refused_and_the_store_kept(capsys, tmp_path, case):
    store = tmp_path / "res.json"  # a store may have any name, .json included
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..4", "--store", store, "--quiet")
    assert code == 0, err
    code, listed, err = run(capsys, "store", "list", "--store", store)
    assert code == 0 and "thresholds N=4" in listed, (listed, err)
    key = listed.split()[0]
    before = store.read_bytes()
    argv = [a.format(store=store, key=key) for a in _OVER_THE_STORE[case]]
    code, out, err = run(capsys, *argv, "--store", store)
    one_error_line(code, err, contains=["results store", str(store)])
    assert store.read_bytes() == before
    code, out, err = run(capsys, "store", "list", "--store", store)
    assert code == 0 and out == listed, (out, err)


def test_an_output_naming_the_default_store_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LITTLESTONE_STORE", raising=False)
    monkeypatch.setenv("LITTLESTONE_STORE", str(tmp_path / "kept.json"))
    assert run(capsys, "opt", "thresholds", "N=5", "--quiet")[0] == 0
    before = (tmp_path / "kept.json").read_bytes()
    code, out, err = run(capsys, "opt", "thresholds", "N=6", "--tree", "kept.json")
    one_error_line(code, err, contains=["--tree", "results store"])
    assert (tmp_path / "kept.json").read_bytes() == before
    # with --no-store there is no store to keep: the file is the tree's to write
    assert run(capsys, "opt", "thresholds", "N=6", "--tree", "kept.json", "--no-store", "--quiet")[0] == 0


@pytest.mark.parametrize("argv", [["opt", "thresholds", "N=5", "--no-store", "--tree"], ["export", "thresholds", "N=5", "-o"]])
def test_a_directory_as_output_is_named_a_directory(capsys, tmp_path, argv):
    """Issue 39: a directory given to --tree or -o said "unknown extension"."""
    line = assert_usage_error(*run(capsys, *argv, tmp_path))
    assert "is a directory" in line and "extension" not in line


def test_a_streamed_output_whose_partial_name_is_too_long_is_refused_before_the_run(capsys, tmp_path):
    # (review of issue 39) the name FILE.partial was first tried after every cell was computed
    name = "t" * (255 - len(".csv") - 3) + ".csv"  # fits; with ".partial" it does not
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=3..4", "--format", "csv", "-o", tmp_path / name,
                         "--no-store")
    one_error_line(code, err, contains=["too long", ".partial"])
    assert list(tmp_path.iterdir()) == []
