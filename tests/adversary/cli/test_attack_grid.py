"""``littlestone attack ... --grid``: one attack per cell, in md, csv and json (a list of row objects); learner
parameters that name the class's (``n=n``) or vary on the grid; the store serving a second run; a time-limited
cell (a lower bound, marked); the errors; and one Ctrl-C keeping the finished rows."""

import csv
import io
import json
import re
import signal

import pytest

from adversary.workspace.grid import grid_verdict
from solvers.learners import make_learner

from .checks import Watched, assert_usage_error, posix, run


def _grid(capsys, *argv):
    code, out, err = run(capsys, "attack", *argv, "--quiet")
    assert code == 0, err
    return out, err


def test_grid_json_rows_hold_the_attack_of_each_cell(capsys):
    out, _ = _grid(capsys, "winnow2", "n=n", "--class", "monotone-disjunctions", "--grid", "n=2..4", "k=1,2",
                   "--format", "json", "--time-limit", "30")
    rows = json.loads(out)
    assert isinstance(rows, list) and [(r["n"], r["k"]) for r in rows] == [(2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2)]
    for r in rows:
        n, k = r["n"], r["k"]
        assert r["learner"] == {"name": "winnow2", "params": {"n": n}}  # n=n: the class's n
        assert r["exact"] and r["verdict"] in ("tight", "loose")
        bound = make_learner("winnow2", {"n": n}).mistake_bound(r=k).value  # 2 + 3r(1 + lg n), independently
        assert r["bound"] == pytest.approx(bound)
        assert r["gap"] == int(bound) - r["mistakes"] and r["gap"] >= 0
        assert r["opt"] <= r["mistakes"]  # Opt(C) is forced on every learner
        kinds = r["mistakes_by_kind"]
        assert kinds["false_negative"] + kinds["false_positive"] == r["mistakes"]
        assert [L["kind"] for L in r["lemmas"]] == ["false_negative", "false_positive"]
    # the docstring's worked value: Winnow2 on ORs of at most 2 of 4 variables is forced into 7 mistakes
    assert next(r["mistakes"] for r in rows if (r["n"], r["k"]) == (4, 2)) == 7


def test_grid_md_and_csv_columns(capsys):
    out, _ = _grid(capsys, "halving", "--class", "thresholds", "--grid", "N=3,7", "--no-store")
    lines = out.strip().splitlines()
    head = [c.strip() for c in lines[0].strip("|").split(" | ")]
    assert head[:10] == ["N", "learner", "mistakes", "u (FN)", "v (FP)", "bound", "gap", "verdict", "lemmas", "Opt"]
    out, _ = _grid(capsys, "halving", "--class", "thresholds", "--grid", "N=3,7", "--format", "csv", "--no-store")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["N"], r["mistakes"], r["bound"], r["gap"], r["verdict"], r["Opt"]) for r in rows] == [
        ("3", "2", "2", "0", "tight", "2"), ("7", "3", "3", "0", "tight", "3")]  # floor(log2 (N + 1))


def test_grid_over_a_learner_parameter(capsys):
    out, _ = _grid(capsys, "winnow", "--class", "monotone-disjunctions", "n=3", "k=1", "--grid", "alpha=2,3",
                   "--format", "json", "--no-store")
    rows = json.loads(out)
    assert [r["learner"]["params"]["alpha"] for r in rows] == [2, 3] and [r["alpha"] for r in rows] == [2, 3]


def test_grid_second_run_is_served_from_the_store(capsys):
    argv = ("halving", "--class", "thresholds", "--grid", "N=2..5", "--format", "json")
    first, err = _grid(capsys, *argv)
    assert "0 of 4 cells served" in err and "8 results written" in err  # each attack and its class's Opt(C)
    again, err = _grid(capsys, *argv)
    assert "4 of 4 cells served from it (witnesses replayed when stored, digest matches), 0 results written" in err
    strip = ("seconds", "served")
    assert [{k: v for k, v in r.items() if k not in strip} for r in json.loads(again)] == \
           [{k: v for k, v in r.items() if k not in strip} for r in json.loads(first)]


def test_grid_cell_stopped_by_its_time_limit_is_a_lower_bound(capsys):
    code, out, err = run(capsys, "attack", "halving", "--class", "halfspaces", "--grid", "n=5", "--time-limit", "0.5",
                         "--format", "json", "--no-store", "--quiet")
    assert code == 3, err
    r, = json.loads(out)
    assert r["verdict"] == "stopped" and not r["exact"] and r["mistakes"] <= r["bound"]
    assert "stopped by the time limit" in err


def test_grid_skips_impossible_cells(capsys):
    code, out, err = run(capsys, "attack", "winnow2", "--class", "monotone-disjunctions", "--grid", "n=2", "k=1..3",
                         "--format", "json", "--no-store", "--quiet")
    assert code == 0, err
    assert [r["k"] for r in json.loads(out)] == [1, 2] and "skipped n=2 k=3" in err


@pytest.mark.parametrize("argv, words", [
    (["--matrix", "m.json", "--grid", "n=2"], ["--class"]),
    (["--class", "thresholds", "--grid", "M=2"], ["neither a parameter of thresholds", "N"]),
    (["--class", "thresholds", "N=3", "--grid", "N=2"], ["both fixed and in --grid"]),
    (["--class", "thresholds", "--grid", "N=2", "--json"], ["--format json"]),
    (["--class", "thresholds", "N=3", "--format", "csv"], ["--grid"]),
    (["--class", "thresholds", "--grid", "N=5..2"], ["smaller end first"]),
    (["--class", "thresholds", "--grid", "N=1..1000000000"], ["1,000,000,000 values, over the limit of 100,000"]),
    (["--class", "monotone-disjunctions", "--grid", "n=1..400", "k=1..400"], ["= 160,000 cells, over the limit"]),
])
def test_grid_errors_are_one_line(capsys, argv, words):
    code, out, err = run(capsys, "attack", "halving", *argv, "--no-store")
    assert_usage_error(code, out, err)
    for word in words:
        assert word in err, err


def test_grid_verdicts():
    assert [grid_verdict(v, e) for v, e in [("below", True), ("below", False), ("violates", True), ("tight", True),
                                             ("stopped", False), ("unbounded", True)]] == [
        "loose", "below", "violated", "tight", "stopped", "unbounded"]


@posix
def test_grid_one_ctrl_c_keeps_the_finished_rows(tmp_path):
    w = Watched("attack", "halving", "--class", "halfspaces", "--grid", "n=2,3,5", "--format", "csv", "--quiet",
                "--no-store")
    w.wait_for(r"^3,")  # the quick cells are done; n=5 takes its 60 s
    code, rows, err, _ = w.stop(signal.SIGINT)
    assert code == 130, err
    assert "Traceback" not in err
    assert rows[0].startswith("n,learner,mistakes") and [r.split(",")[0] for r in rows[1:3]] == ["2", "3"]
    assert re.search(r"interrupted: 2 of 3 cells attacked", err), err


@posix
@pytest.mark.slow
def test_grid_ctrl_c_stores_the_interrupted_cell_with_its_lower_bound(tmp_path):
    # The cell a Ctrl-C stopped printed its verified count and was not stored (issue 39, 9).
    from adversary.store import Store, number

    db = tmp_path / "g.db"
    w = Watched("attack", "halving", "--class", "halfspaces", "--grid", "n=2,5", "--format", "csv", "--store", db)
    w.wait_for(r"n=5: ", stream="err")  # n=2 is done and n=5's attack runs (it takes its 60 s)
    code, rows, err, _ = w.stop(signal.SIGINT)
    assert code == 130, err
    with Store(db, readonly=True) as S:
        stored = {rec.params["n"]: rec for rec in S.rows("attack")}
    assert sorted(stored) == [2, 5], (rows, err)
    five = next(r for r in rows if r.startswith("5,")).split(",")
    assert five[7] == "stopped" and number(stored[5].lower) == int(five[2].lstrip(">="))
    assert stored[5].extra["result"]["stats"]["stopped"] == "interrupted"


def test_plot_tightness_reads_a_grid_and_the_store(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    rows = tmp_path / "grid.json"
    for learner in ("halving", "randomized-halving"):
        out = tmp_path / f"{learner}.json"
        code, _, err = run(capsys, "attack", learner, "--class", "thresholds", "--grid", "N=3,7", "--format", "json",
                           "-o", out, "--time-limit", "30", "--quiet")
        assert code == 0, err
    rows.write_text(json.dumps(json.loads((tmp_path / "halving.json").read_text())
                               + json.loads((tmp_path / "randomized-halving.json").read_text())))
    code, _, err = run(capsys, "plot", "tightness", rows, "--x", "N", "-o", tmp_path / "t.png")
    assert code == 0 and "4 of 4 attacks (2 learners, 1 class)" in err, err
    code, _, err = run(capsys, "plot", "tightness", "--from-store", "--x", "N", "-o", tmp_path / "s.png")
    assert code == 0 and "(2 learners, 1 class)" in err, err
