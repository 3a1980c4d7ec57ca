"""A grid's seconds: ``time_limit`` for the whole run (each cell its share of what is left as it begins, the cells
not begun when the time is up listed as missing), ``cell_time_limit`` for each cell; in the library layer and in
the commands that run grids (``table``, ``attack --grid``, ``experts``).

The runs past their time limit are made so without waiting on the machine's speed: a callback that returns only
once the run's time is up (the library), or a clock that moves ten seconds at each look (the commands)."""

import json
import time

import pytest

from adversary.workspace import Workspace, WorkspaceError
from adversary.workspace import cells as cells_module
from adversary.workspace.cells import NOT_STARTED, Clock, cell_seconds

from ..cli.checks import run


# ------------------------------------------------------------------------------------------ the clock itself
def test_without_a_run_limit_each_cell_has_its_own():
    clock = Clock(None, 2.5, cells=4, jobs=2)
    assert [clock.limits() for _ in range(4)] == [{"seconds": 2.5, "deadline_at": None}] * 4
    assert not clock.over()
    assert Clock(None, None).limits() == {"seconds": None, "deadline_at": None}


def test_a_run_limit_is_shared_between_the_cells_left():
    clock = Clock(100.0, None, cells=4, jobs=1)
    first = clock.limits()
    assert first["deadline_at"] == clock.deadline_at
    assert 24.0 < first["seconds"] <= 25.0  # a quarter of what is left
    assert 32.0 < clock.limits()["seconds"] <= 100 / 3  # a third of it: the first cell used (almost) nothing
    parallel = Clock(100.0, None, cells=4, jobs=2)
    assert 49.0 < parallel.limits()["seconds"] <= 50.0  # two cells at once: half of it each
    assert 99.0 < Clock(100.0, None, cells=1, jobs=4).limits()["seconds"] <= 100.0


def test_a_cell_limit_is_cut_at_the_run_end():
    assert Clock(100.0, 3.0, cells=50).limits()["seconds"] == 3.0
    assert 0.0 < Clock(1.0, 30.0, cells=2).limits()["seconds"] <= 1.0


def test_cell_seconds():
    assert cell_seconds(None, None) is None and cell_seconds(4.0, None) == 4.0
    assert cell_seconds(4.0, time.time() - 1) == 0 and cell_seconds(None, time.time() - 1) == 0
    assert 9.0 < cell_seconds(None, time.time() + 10) <= 10.0
    assert cell_seconds(2.0, time.time() + 10) == 2.0


@pytest.mark.parametrize("bad", [0, -1, float("nan"), True, "5"])
def test_bad_seconds_are_one_line(bad):
    with Workspace() as ws:
        for keyword in ("time_limit", "cell_time_limit"):
            with pytest.raises(WorkspaceError, match=f"{keyword}=.* is not positive"):
                ws.table("thresholds", {"N": [3]}, **{keyword: bad})
            with pytest.raises(WorkspaceError, match=f"{keyword}=.* is not positive"):
                ws.attack_grid("thresholds", {"N": [3]}, "halving", **{keyword: bad})


# ------------------------------------------------------------------------------------------ the library layer
def _until_over(limit: float):
    """An ``on_row`` that returns once the run's ``limit`` seconds are up: ``limit`` seconds after the first row
    (the run's clock started before it)."""

    def on_row(row):
        started = time.time()
        while time.time() < started + limit + 0.01:
            time.sleep(0.01)

    return on_row


def test_the_cells_not_begun_within_the_run_limit_are_missing():
    with Workspace() as ws:
        run = ws.table("thresholds", {"N": [3, 4, 5, 6]}, time_limit=1, on_row=_until_over(1))
    assert [r["params"]["N"] for r in run] == [3]  # then the time was up
    assert run.rows[0]["lower"] <= 2 <= run.rows[0]["upper"]  # (solved, unless the machine is very busy)
    assert run.missing == [{"N": 4}, {"N": 5}, {"N": 6}]
    assert not run.complete and not run.interrupted
    assert "3 not begun within the time limit" in repr(run)


def test_a_grid_within_its_limits_is_complete():
    with Workspace() as ws:
        run = ws.table("thresholds", {"N": [3, 7]}, time_limit=600, cell_time_limit=300)
    assert [(r["params"]["N"], r["opt"]) for r in run] == [(3, 2), (7, 3)]
    assert run.complete and run.missing == []


def test_an_attack_grid_lists_its_missing_cells(tmp_path):
    with Workspace(tmp_path / "s.db") as ws:
        run = ws.attack_grid("thresholds", {"N": [3, 7, 15]}, "halving", time_limit=1, on_row=_until_over(1))
        assert [r["N"] for r in run.rows] == [3] and run.rows[0]["mistakes"] <= 2
        assert run.missing == [{"N": 7}, {"N": 15}] and not run.complete
        assert run.wrote >= 1  # the cell attacked is stored; the missing ones are not
        again = ws.attack_grid("thresholds", {"N": [3, 7, 15]}, "halving", time_limit=600)
    # the cell attacked before is served (its task keeps the cell's limit, not its share), unless it was stopped
    assert again.complete and again.served == (0 if run.rows[0]["stopped"] else 1)
    assert [r["mistakes"] for r in sorted(again.rows, key=lambda r: r["N"])] == [2, 3, 4]


def test_cells_the_store_proves_are_served_after_the_run_limit(tmp_path):
    with Workspace(tmp_path / "s.db") as ws:
        first = ws.table("thresholds", {"N": [3, 4, 5]})
        again = ws.table("thresholds", {"N": [3, 4, 5]}, time_limit=1, on_row=_until_over(1))
    assert first.complete and again.complete and again.missing == []
    assert again.served == 3 and [r["opt"] for r in again] == [r["opt"] for r in first]


def _slow_cell(cell, **keywords):
    time.sleep(0.2)
    return cell


def test_loky_prepares_a_cell_only_as_a_worker_is_free():
    """Each cell's share of the run's seconds is reckoned as it is handed out: loky takes no cell ahead of its
    workers (joblib's default dispatches two per worker at once)."""
    from adversary.workspace.cells import run_cells

    prepared = []
    runs = run_cells(_slow_cell, list(range(8)), jobs=2, prepare=lambda c, here: prepared.append(c) or {})
    first = next(iter(runs))
    assert first in range(8) and len(prepared) <= 4, prepared  # one a worker, and one for each finished cell
    assert sorted([first, *runs]) == list(range(8)) and sorted(prepared) == list(range(8))


def test_a_cell_that_begins_too_late_computes_nothing():
    from adversary.workspace.grid import attack_cell
    from adversary.workspace.table import table_cell

    late = time.time() - 1
    assert table_cell("thresholds", {"N": 3}, None, deadline_at=late) == {"params": {"N": 3}, NOT_STARTED: True}
    cell = {"grid": {"N": 3}, "class": {"N": 3}, "learner": {}}
    assert attack_cell("thresholds", cell, learner="halving", learner_items={}, strategy="auto", seed=0,
                       time_limit=None, errors=0, deadline_at=late) == {"grid": {"N": 3}, NOT_STARTED: True}


# ------------------------------------------------------------------------------------------ the commands
class _Leaping:
    """``time`` as the grid's clock sees it: ``time()`` moves ten seconds at each look, the rest is the real one."""

    def __init__(self):
        self.now = time.time()

    def time(self):
        self.now += 10.0
        return self.now

    def __getattr__(self, name):
        return getattr(time, name)


@pytest.fixture
def leaping(monkeypatch):
    monkeypatch.setattr(cells_module, "time", _Leaping())


def test_table_names_the_cells_not_begun(capsys, leaping):
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=3..6", "--time-limit", "35", "--format", "json",
                         "--no-store", "--quiet")
    assert code == 3, err
    data = json.loads(out)
    computed = [r["params"]["N"] for r in data["rows"]]
    assert computed and computed == [3, 4, 5, 6][:len(computed)] and len(computed) < 4
    assert data["missing"] == [{"params": {"N": n}, "reason": "time limit"} for n in range(3 + len(computed), 7)]
    assert data["complete"] is False and data["solved"] is False
    assert "the time limit of 35 s was up before" in err and f"N={3 + len(computed)}" in err


def test_experts_names_the_cells_not_begun(capsys, leaping):
    code, out, err = run(capsys, "experts", "n=2..5", "k=1", "--time-limit", "35", "--format", "json", "--quiet")
    assert code == 3, err
    data = json.loads(out)
    computed = [r["n"] for r in data["rows"]]
    assert computed and len(computed) < 4
    assert data["missing"] == [{"n": n, "k": 1, "reason": "time limit"} for n in range(2 + len(computed), 6)]
    assert data["complete"] is False
    assert "cells began, not computed: n=" in err


def test_attack_grid_names_the_cells_not_begun(capsys, leaping):
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "--grid", "N=3,7,15,31",
                         "--time-limit", "35", "--format", "json", "--no-store", "--quiet")
    assert code == 3, err
    rows = json.loads(out)
    assert rows and len(rows) < 4
    assert "cells began, not attacked: N=" in err


def test_cell_time_limit_needs_a_grid(capsys):
    code, out, err = run(capsys, "attack", "halving", "--class", "thresholds", "N=3", "--cell-time-limit", "1",
                         "--no-store")
    assert code == 2 and "--cell-time-limit is for a grid of attacks" in err
