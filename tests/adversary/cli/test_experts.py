"""``littlestone experts``: D_k, the volume bound and R_k of n experts in md, csv and json, streamed a row per
finished cell; the lines where D_k is below the volume bound; a time limit per cell (lo..hi, exit 3); bad
input in one line (exit 2); and one Ctrl-C or SIGTERM keeping the finished rows (exit 130 / 143)."""

import csv
import io
import json
import signal

import pytest

from .checks import assert_usage_error, posix, run, run_bounded, start, stop, wait_for_rows


def _md_rows(out):
    lines = [l for l in out.splitlines() if l.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    return header, [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]


def test_md_both_games_and_the_gap_lines(capsys):
    code, out, err = run(capsys, "experts", "n=1..5", "k=0..2", "--quiet")
    assert code == 0, err
    header, rows = _md_rows(out)
    assert header == ["n", "k", "D_k", "volume bound", "gap", "R_k", "R_k / D_k", "seconds"]
    assert [(r[0], r[1]) for r in rows] == [(str(n), str(k)) for n in range(1, 6) for k in range(3)]
    cell = {(int(r[0]), int(r[1])): r for r in rows}
    assert cell[3, 1][2:7] == ["3", "3", "", "67/32 (2.09375)", "0.6979"]
    assert cell[3, 2][2:6] == ["5", "6", "<", "857/256 (3.347656)"]
    assert cell[5, 2][2:6] == ["6", "7", "<", "1999/512 (3.904297)"]
    assert cell[2, 1][2] == "3" and cell[1, 0][6] == "-"            # R/D of 0/0
    tail = out.split("\n\n", 1)[1].strip().splitlines()              # after the table
    assert tail == ["n=3 k=2: D_2 = 5 < 6 = the volume bound", "n=5 k=2: D_2 = 6 < 7 = the volume bound"]
    assert err == ""


def test_csv_and_one_game(capsys):
    code, out, err = run(capsys, "experts", "n=2,4", "k=1", "--format", "csv", "--deterministic", "--quiet")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["n", "k", "D_k", "volume bound", "gap", "seconds"]
    assert [r[:4] for r in rows[1:]] == [["2", "1", "3", "3"], ["4", "1", "4", "4"]]
    code, out, err = run(capsys, "experts", "n=3", "k=2", "--format", "csv", "--randomized", "--quiet")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["n", "k", "volume bound", "R_k", "seconds"] and rows[1][:4] == ["3", "2", "6", "857/256 (3.347656)"]
    code, out, err = run(capsys, "experts", "n=3", "k=2", "--format", "csv", "--quiet")
    assert "littlestone: note: n=3 k=2: D_2 = 5 < 6 = the volume bound" in err  # csv stays csv: the lines go to stderr


def test_json(capsys):
    code, out, err = run(capsys, "experts", "n=3..4", "k=1,2", "--format", "json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == ["deterministic", "randomized"] and data["complete"] is True
    by = {(r["n"], r["k"]): r for r in data["rows"]}
    assert by[3, 2]["D"]["value"] == 5 and by[3, 2]["volume"] == 6
    assert by[4, 2]["R"]["value"] == "235/64" and by[4, 2]["R"]["decimal"] == 3.671875
    assert data["gaps"] == ["n=3 k=2: D_2 = 5 < 6 = the volume bound"]


def test_output_file(capsys, tmp_path):
    path = tmp_path / "experts.md"
    code, out, err = run(capsys, "experts", "n=1..3", "k=1", "-o", path, "--quiet")
    assert code == 0 and out == ""
    assert "wrote 3 rows to" in err
    assert "67/32 (2.09375)" in path.read_text()


def test_time_limit_shows_bounds_and_exits_3(capsys):
    code, out, err = run(capsys, "experts", "n=2,250", "k=2", "--randomized", "--cell-time-limit", "0.1", "--quiet")
    assert code == 3, err
    _, rows = _md_rows(out)
    assert rows[0][3] == "47/16 (2.9375)"
    lo, hi = rows[1][3].split("..")                 # proven: 2 + E(250) or 1 + R_1(250) <= R_2 <= the volume bound
    assert hi == rows[1][2]
    assert "1 of 2 cells not solved within the time limit" in err


BAD = {
    "n=0": (["n=0", "k=1"], "n=0 is not possible"),
    "k=-1": (["n=3", "k=-1"], "k=-1 is not possible"),
    "letters": (["n=1..x", "k=1"], "whole numbers"),
    "empty range": (["n=5..2", "k=1"], "smaller end first"),
    "other key": (["m=1..3", "k=1"], "n=RANGE"),
    "no k": (["n=1..3"], "give k=RANGE"),
    "twice": (["n=3", "k=1", "n=4"], "given twice"),
    "too large for memory": (["n=200000", "k=2", "--randomized"], "give n <="),
    "too large for time": (["n=10000", "k=1", "--randomized"], "more than a day"),
    "too large": (["n=10000000000000000000000", "k=1", "--deterministic"], "give a smaller n"),
    "bad format": (["n=3", "k=1", "--format", "xml"], "invalid choice"),
    "too many cells": (["n=1..1000", "k=0..1000"], "= 1,001,000 cells, over the limit of 100,000"),
    "k too large": (["n=2", "k=401"], "take k <= 400"),
    "over --memory": (["n=200", "k=2", "--randomized", "--memory", "0.001"], "more than the 0.001 GB it may use"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, case):
    argv, words = BAD[case]
    assert_usage_error(*run(capsys, "experts", *argv), contains=words)


@pytest.mark.parametrize("argv, words", [
    (["n=1..1000000000", "k=0"], "has 1,000,000,000 values, over the limit of 100,000"),   # 21 GB after 120 s
    (["n=2", "k=1000000000", "--deterministic"], "take k <= 400"),                         # killed for its memory
    (["n=2", "k=1000000000", "--randomized"], "take k <= 400"),                            # ran for ever
], ids=["a billion experts", "a billion mistakes", "a billion mistakes, randomized"])
def test_tiny_input_with_unbounded_work_is_refused_at_once(argv, words):
    # issue 39: each of these ran out of the machine's memory or for ever; now one error line, at once
    code, out, err = run_bounded("experts", *argv, gb=2)
    assert_usage_error(code, out, err, contains=words)


def test_a_memory_error_shows_the_bounds_and_exits_3(capsys, monkeypatch):
    # past the process's memory (ulimit -v), a cell stops with its proven bounds as a timed-out one does
    from solvers.opt.experts import DeterministicExperts

    def fail(self, *args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(DeterministicExperts, "solve_root", fail)
    code, out, err = run(capsys, "experts", "n=40", "k=2", "--deterministic", "--quiet")
    assert code == 3, err
    _, rows = _md_rows(out)
    assert rows[0][2] == f"{2 + 5}..{rows[0][3]}"        # k + floor(log2 40) <= D_2(40) <= the volume bound
    assert "not solved within the memory this process may use" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------ stops: Ctrl-C and SIGTERM
SLOW = ["experts", "n=2,3,4,2000", "k=1", "--randomized", "--quiet"]   # three quick cells, then minutes


@posix
def test_rows_stream_and_ctrl_c_keeps_them(tmp_path):
    out_file = tmp_path / "experts.csv"
    p = start(*SLOW, "--format", "csv", "-o", out_file)
    wait_for_rows(out_file, 3)                     # the quick rows are in the file while the slow cell runs
    code, out, err, seconds = stop(p, signal.SIGINT, to_group=True)
    assert code == 130, err
    assert "Traceback" not in err
    rows = list(csv.reader(io.StringIO(out_file.read_text())))
    assert [r[0] for r in rows[1:4]] == ["2", "3", "4"] and rows[2][3] == "67/32 (2.09375)"
    assert "interrupted: 3 of 4 cells computed" in err


@posix
def test_sigterm_closes_the_json(tmp_path):
    out_file = tmp_path / "experts.json"
    p = start(*SLOW, "--format", "json", "-o", out_file)
    wait_for_rows(out_file, 3)
    code, _, err, _ = stop(p, signal.SIGTERM, to_group=False)
    assert code == 143, err
    data = json.loads(out_file.read_text())       # still one valid JSON object
    assert data["complete"] is False and [r["n"] for r in data["rows"]][:3] == [2, 3, 4]


def test_a_run_that_fails_does_not_call_its_table_complete(capsys, tmp_path, monkeypatch):
    """(review of issue 39) a failure other than Ctrl-C wrote "complete": true and renamed the rows into place."""
    from adversary.cli import experts

    real, calls = experts._cell, []

    def failing(*a, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("a bug in the second cell")
        return real(*a, **kw)

    monkeypatch.setattr(experts, "_cell", failing)
    monkeypatch.delenv("LITTLESTONE_DEBUG", raising=False)
    out_file = tmp_path / "e.json"
    code, out, err = run(capsys, "experts", "n=1..3", "k=0", "--format", "json", "-o", out_file, "--quiet")
    assert code == 1 and "internal error RuntimeError" in err, err
    data = json.loads(out_file.read_text())
    assert data["complete"] is False and [r["n"] for r in data["rows"]] == [1]
