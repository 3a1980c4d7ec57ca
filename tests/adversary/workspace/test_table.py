"""``Workspace.table`` as a notebook user calls it: a grid's rows against a brute force written from the definitions
(tests/oracles.py), the second call served whole from the store with the same rows and nothing written, the rows
streamed to ``on_row`` and counted to ``progress``, bad input refused in one line, and the notes to ``note=``."""

from __future__ import annotations

import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.workspace import Workspace, WorkspaceError
from adversary.workspace.table import MAX_GRID_CELLS, Grid, grid_cells
from solvers.classes.families import make
from tests.oracles import log2_floor, opt_brute, rl_brute, vc_brute
from tests.solvers.test_params import td_in


def brute_row(family: str, params: dict) -> dict:
    """What a row says of the class, from its 0/1 matrix alone."""
    M = make(family, **params).matrix
    return {"concepts": M.shape[0], "points": M.shape[1], "opt": opt_brute(M.astype(int).tolist()),
            "vc": vc_brute(M), "log2_size": log2_floor(M.shape[0])}


def facts(row: dict) -> dict:
    return {k: row[k] for k in ("concepts", "points", "opt", "vc", "log2_size")}


def test_a_grid_against_the_brute_force_then_served_whole_from_the_store(tmp_path):
    path = tmp_path / "r.db"
    seen = []
    with Workspace(path, note=seen.append) as ws:
        first = ws.table("intervals", {"N": [3, 5, 8]}, fixed={})
    assert [r["params"]["N"] for r in first] == [3, 5, 8] and first.keys == ["N"] and len(first) == 3
    for row in first.rows:
        assert facts(row) == brute_row("intervals", row["params"]), row["params"]
        assert row["lower"] == row["upper"] == row["opt"] and row["vc_lower"] == row["vc_upper"] == row["vc"]
        assert "served" not in row and row["stopped"] is None and "_records" not in row
    assert first.served == 0 and first.wrote >= 6 and not first.interrupted and first.store_error is None
    assert seen == []  # nothing to say

    with Workspace(path) as ws:  # a new session on the same store
        second = ws.table("intervals", {"N": "3,5,8"})
    assert second.served == 3 and second.wrote == 0
    assert all(r["served"] and r["stored"] == ["opt", "vc"] for r in second)
    strip = lambda row: {k: v for k, v in row.items() if k not in ("served", "stored")}  # noqa: E731
    assert [strip(r) for r in second] == list(first.rows)  # the same rows, the seconds of the run that computed them


@settings(max_examples=15, deadline=None)
@given(m=st.integers(1, 10), N=st.integers(1, 6), p=st.sampled_from([0.2, 0.5, 0.8]),
       seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=3, unique=True))
def test_random_classes_against_the_brute_force_and_served_the_second_time(m, N, p, seeds):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.db"
        with Workspace(path) as ws:
            first = ws.table("random", {"seed": seeds}, fixed={"m": m, "N": N, "p": p})
        assert [r["params"]["seed"] for r in first] == seeds
        for row in first:
            assert facts(row) == brute_row("random", row["params"]), row["params"]
        with Workspace(path) as ws:
            second = ws.table("random", {"seed": seeds}, fixed=[f"m={m}", f"N={N}", f"p={p}"])
        assert second.served == len(seeds) and second.wrote == 0
        assert [facts(r) for r in second] == [facts(r) for r in first]


def test_a_game_column_and_a_parameter_beside_opt(tmp_path):
    rows = []
    with Workspace(tmp_path / "r.db") as ws:
        run = ws.table("thresholds", ["N=2..4"], game="randomized", columns=["td", "opt"], on_row=rows.append)
    assert rows == run.rows and run.symbol == "RL" and run.columns == ["td"]
    for row in run:
        M = make("thresholds", **row["params"]).matrix
        assert Fraction(row["value"]) == rl_brute(M.astype(int).tolist()) and row["symbol"] == "RL"
        assert facts(row) == brute_row("thresholds", row["params"])
        assert row["td"]["value"] == max(td_in(M, range(M.shape[0]), c) for c in range(M.shape[0]))


def test_fixed_parameters_and_the_order_of_the_cells():
    keys, cells = grid_cells("monotone-disjunctions", {"k": 1}, {"n": [2, 3]})
    assert keys == ["n"] and cells == [{"k": 1, "n": 2}, {"k": 1, "n": 3}]
    grid = grid_cells("thresholds", [], ["N=2,3"])
    assert isinstance(grid, Grid) and [c["N"] for c in grid.cells] == [2, 3]
    with Workspace() as ws:
        run = ws.table("monotone-disjunctions", {"n": [2, 3], "k": [1, 2]})
    assert [(r["params"]["n"], r["params"]["k"]) for r in run] == [(2, 1), (2, 2), (3, 1), (3, 2)]  # first key slowest
    for row in run:
        assert facts(row) == brute_row("monotone-disjunctions", row["params"])


def test_progress_counts_the_cells_and_shows_the_live_bounds():
    events = []
    with Workspace() as ws:
        run = ws.table("intervals", {"N": [4, 30]}, progress=events.append)
    counts = [e for e in events if "done" in e]
    assert [e["done"] for e in counts] == [0, 1, 2] and {e["total"] for e in counts} == {2}
    assert [e["row"] for e in counts[1:]] == run.rows
    live = [e for e in events if "done" not in e]
    assert all(e["cell"] in ({"N": 4}, {"N": 30}) and e["lower"] <= e["upper"] for e in live)


def test_two_worker_processes_give_the_same_rows(tmp_path):
    with Workspace(tmp_path / "r.db", jobs=2) as ws:
        run = ws.table("intervals", {"N": [3, 6, 9]})
    assert sorted(r["params"]["N"] for r in run) == [3, 6, 9] and run.wrote >= 6
    for row in run:
        assert facts(row) == brute_row("intervals", row["params"])
    with Workspace(tmp_path / "r.db", jobs=2) as ws:  # served here: the workers get the bounds, this process writes
        again = ws.table("intervals", {"N": [3, 6, 9]})
    assert again.served == 3 and again.wrote == 0


def test_an_impossible_cell_is_a_note_to_the_sink_and_the_others_go_on(capsys):
    seen = []
    with Workspace(note=seen.append) as ws:
        run = ws.table("thresholds", {"N": [-1, 3]})
    assert [r["params"] for r in run] == [{"N": 3}] and [r["params"] for r in run.skipped] == [{"N": -1}]
    assert len(seen) == 1 and seen[0].startswith("skipped N=-1: ") and "\n" not in seen[0]
    assert capsys.readouterr().err == ""  # to the sink, not to stderr


def test_a_time_limit_keeps_the_proven_bounds():
    with Workspace() as ws:
        run = ws.table("intervals", {"N": [11]}, time_limit=0.001)  # solved or not: its bounds hold
    row, = run.rows
    truth = brute_row("intervals", {"N": 11})
    assert row["lower"] <= truth["opt"] <= row["upper"] and row["vc_lower"] <= truth["vc"] <= row["vc_upper"]
    assert (row in run.unsolved) == (row["opt"] is None or row["vc"] is None)


@pytest.mark.parametrize("grid, kwargs, says", [
    ({"N": "5..2"}, {}, "is empty; write the smaller end first"),
    (["N"], {}, "is not name=RANGE"),
    ({"M": [1, 2]}, {}, "unknown parameter 'M'"),
    ({"N": range(MAX_GRID_CELLS + 1)}, {}, "over the limit of 100,000"),
    (["N=1..1000", "N=3"], {}, "given more than once"),
    ({"N": [2]}, {"fixed": {"N": 3}}, "both fixed and in"),
    ({"N": [2]}, {"columns": ["nope"]}, "unknown column 'nope'"),
    ({"N": [2]}, {"game": "nope"}, "game='nope'"),
    ({"N": [2]}, {"errors": -1}, "errors=-1"),
    ({"N": [-5, -3]}, {}, "every cell of the grid is impossible, e.g. N=-5"),
    ({"N": []}, {}, "has no values"),
])
def test_bad_input_is_one_line(grid, kwargs, says):
    with Workspace() as ws, pytest.raises(WorkspaceError, match=says) as e:
        ws.table("thresholds", grid, **kwargs)
    assert "\n" not in str(e.value) and isinstance(e.value, ValueError)


def test_an_unknown_family_is_one_line():
    with Workspace() as ws, pytest.raises(WorkspaceError, match="unknown family 'nothing'"):
        ws.table("nothing", {"n": [1]})


# ------------------------------------------------------------------------------------------ a row's flags agree
def exact_row(row: dict) -> bool:
    return (row["opt"] is not None and row["vc"] is not None and ("symbol" not in row or row["value"] is not None)
            and all(row[k]["value"] is not None for k in ("td",) if k in row))


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 40), st.integers(1, 9), st.sampled_from([1e-4, 1e-3, 0.01, None]))
def test_a_row_is_stopped_exactly_when_a_value_is_bounds_only(m, N, limit):
    """Whatever the time limit: ``stopped`` names why a value is bounds only, and is None beside exact values (a row
    said "stopped": "time limit" beside an exact Opt and VC); ``unsolved`` is the stopped rows."""
    with Workspace() as ws:
        run = ws.table("random", {"m": [m]}, fixed={"N": N}, time_limit=limit, columns=["td"])
    for row in run.rows:
        assert (row["stopped"] is None) == exact_row(row), row
        assert (row in run.unsolved) == (not exact_row(row)), row


def test_a_search_stopped_but_closed_by_the_other_bound_is_not_stopped(monkeypatch):
    """Opt's search stops at 0..3 while VC's finds 3 (VC <= Opt closes it): the row is exact, not stopped."""
    import solvers.opt
    import solvers.vc

    class Stopped:
        lower, upper, value, stats = 0, 3, None, {"stopped": "time limit"}

    class Vc:
        lower = upper = value = 3
        witness, stats = [0, 1, 2], {"stopped": None}

    monkeypatch.setattr(solvers.opt, "opt", lambda C, **kw: Stopped())
    monkeypatch.setattr(solvers.vc, "vc_search", lambda C, **kw: Vc())
    with Workspace() as ws:
        row, = ws.table("all-functions", {"n": [3]}, time_limit=5).rows
    assert (row["opt"], row["lower"], row["upper"], row["vc"], row["stopped"]) == (3, 3, 3, 3, None), row


def test_a_table_over_class_files(tmp_path):
    """family "matrix": a row per file, as the files' classes are; a file that cannot be read is a skipped cell."""
    import numpy as np

    a, b = tmp_path / "a.npy", tmp_path / "b.json"
    np.save(a, make("intervals", N=4).matrix.astype(np.uint8))
    b.write_text("[[0, 0], [0, 1], [1, 1]]")
    seen = []
    with Workspace(note=seen.append) as ws:
        run = ws.table("matrix", {"matrix": [a, b, tmp_path / "none.csv"]})
    assert [r["params"] for r in run] == [{"matrix": str(a)}, {"matrix": str(b)}]
    assert facts(run.rows[0]) == brute_row("intervals", {"N": 4})
    assert (run.rows[1]["opt"], run.rows[1]["vc"]) == (1, 1)
    assert [r["params"] for r in run.skipped] == [{"matrix": str(tmp_path / "none.csv")}] and len(seen) == 1
    with pytest.raises(WorkspaceError, match="grid=.*matrix"):
        ws.table("matrix", {"N": [3]})
