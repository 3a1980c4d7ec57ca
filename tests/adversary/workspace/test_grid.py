"""``Workspace.attack_grid`` as a notebook user calls it: each cell's worst case against the brute-force adversary
of tests/oracles.py (and Opt(C) against its brute force), the second call served from the store with the same rows,
the learner's parameters on the grid, skipped cells to ``note=`` (or ``on_skip``), the rows to ``on_row`` as they
finish, the count to ``progress``, and bad input refused in one line."""

from __future__ import annotations

import pytest

from adversary.workspace import Workspace, WorkspaceError
from adversary.workspace.grid import AttackGrid, GridRun, attack_grid_cells
from solvers.classes.families import make
from solvers.learners import make_learner
from tests.oracles import HalvingBrute, adversary_brute, opt_brute


def _halving_worst(C) -> int:
    return adversary_brute(HalvingBrute(C.matrix, C.points), C.matrix, C.points)


def test_random_classes_against_the_brute_force_then_served(tmp_path):
    """Halving on random classes (a grid over the seed and the size): each row's mistakes are the worst case the
    brute-force adversary forces (exact), Opt(C) is the brute force's; the second call serves every row, the same."""
    grid = {"seed": [1, 2, 3, 4], "m": [5, 9]}
    notes = []
    with Workspace(tmp_path / "r.db", note=notes.append) as ws:
        first = ws.attack_grid("random", grid, "halving", fixed={"N": 4}, strategy="exact")
    assert isinstance(first, GridRun) and len(first.rows) == first.cells == 8 and first.keys == ["seed", "m"]
    # each cell's attack and the Opt(C) it computed (solved: 4 points), sealed
    assert first.served == 0 and first.wrote == 16 and not first.skipped and not first.interrupted
    for r in first.rows:
        C = make("random", m=r["m"], N=4, seed=r["seed"])
        assert r["exact"] and r["mistakes"] == _halving_worst(C), r
        assert r["opt"] == opt_brute(C.matrix.astype(int).tolist())
        assert r["bound"] == C.n_concepts.bit_length() - 1 and r["verdict"] in ("tight", "loose")  # floor(log2 |C|)
        assert r["gap"] == r["bound"] - r["mistakes"]
    with Workspace(tmp_path / "r.db", note=notes.append) as ws:
        again = ws.attack_grid("random", grid, "halving", fixed={"N": 4}, strategy="exact")
    assert again.served == 8 and all(r["served"] for r in again.rows) and again.wrote == 0  # Opt(C) served too
    # (one cell after another here: the same order) the seconds too, kept with the row
    assert [{k: v for k, v in r.items() if k != "served"} for r in again.rows] == first.rows
    assert notes == []


def test_thresholds_meet_halvings_bound():
    """Thresholds on N points: Halving is forced into floor(log2 (N + 1)) mistakes, its bound (tight)."""
    with Workspace() as ws:
        run = ws.attack_grid("thresholds", ["N=3..6"], "halving")
    assert [(r["N"], r["mistakes"], r["bound"], r["verdict"]) for r in run.rows] == [
        (N, (N + 1).bit_length() - 1, (N + 1).bit_length() - 1, "tight") for N in range(3, 7)]
    assert all(r["mistakes"] == _halving_worst(make("thresholds", N=r["N"])) for r in run.rows)


def test_a_learner_parameter_on_the_grid():
    with Workspace() as ws:
        run = ws.attack_grid("monotone-disjunctions", {"alpha": [2, 3]}, "winnow", fixed={"n": 3, "k": 1})
    assert [r["learner"]["params"]["alpha"] for r in run.rows] == [2, 3] and [r["alpha"] for r in run.rows] == [2, 3]
    for r in run.rows:
        assert r["bound"] == pytest.approx(make_learner("winnow", {"n": 3, "alpha": r["alpha"]}).mistake_bound(r=1).value)
        assert r["mistakes"] <= r["bound"] and r["exact"]


def test_skipped_cells_go_to_the_sink_or_on_skip_and_rows_to_on_row():
    notes, rows, skips, counts = [], [], [], []
    with Workspace(note=notes.append) as ws:
        run = ws.attack_grid("monotone-disjunctions", {"n": [2], "k": [1, 2, 3]}, "winnow2", on_row=rows.append,
                             progress=lambda info: "cell" not in info and counts.append((info["done"], info["total"])))
        assert [r["k"] for r in run.rows] == [1, 2] and rows == run.rows
        assert [s["grid"] for s in run.skipped] == [{"n": 2, "k": 3}]
        assert len(notes) == 1 and notes[0].startswith("skipped n=2 k=3: ")
        assert counts[0] == (0, 3) and counts[-1] == (3, 3) and [d for d, _ in counts] == sorted(d for d, _ in counts)
        with pytest.raises(WorkspaceError, match="no cell of the grid can be attacked, e.g. n=2 k=3") as e:
            ws.attack_grid("monotone-disjunctions", {"n": [2], "k": [3]}, "winnow2", on_skip=skips.append)
    assert "\n" not in str(e.value) and [s["grid"] for s in skips] == [{"n": 2, "k": 3}] and len(notes) == 1


@pytest.mark.parametrize("args, kwargs, says", [
    (("thresholds", {"M": [2]}, "halving"), {}, r"neither a parameter of thresholds \(N\)"),
    (("thresholds", {"N": [2]}, "halving"), {"fixed": {"N": 3}}, "both fixed and in --grid"),
    (("thresholds", ["N=2", "N=3"], "halving"), {}, "given more than once"),
    (("thresholds", ["N=5..2"], "halving"), {}, "smaller end first"),
    (("monotone-disjunctions", {"n": range(1, 401), "k": range(1, 401)}, "halving"), {}, "over the limit"),
    (("no-such-family", {"N": [2]}, "halving"), {}, "unknown family 'no-such-family'"),
    (("monotone-disjunctions", {"alpha": [2]}, "winnow"), {"fixed": {"n": 3}, "learner_items": {"alpha": 2}},
     "learner parameter 'alpha' is both given and in --grid"),
    (("thresholds", {"N": [2]}, "halving"), {"fixed": ["N=3"]}, "as a dict"),
    (("thresholds", {"N": [2]}, "halving"), {"learner_items": ["alpha=2"]}, "as a dict"),
])
def test_bad_input_is_one_line(args, kwargs, says):
    with Workspace() as ws:
        with pytest.raises(WorkspaceError, match=says) as e:
            ws.attack_grid(*args, **kwargs)
    assert "\n" not in str(e.value)


def test_a_grid_made_beforehand_is_taken_as_it_is():
    grid = attack_grid_cells("thresholds", {}, {"N": [3, 7]}, "halving")
    assert isinstance(grid, AttackGrid) and grid.keys == ["N"] and len(grid.cells) == 2 and grid.learner_keys == []
    with Workspace() as ws:
        assert [r["mistakes"] for r in ws.attack_grid("thresholds", grid, "halving").rows] == [2, 3]
        with pytest.raises(WorkspaceError, match="fixed=None"):
            ws.attack_grid("thresholds", grid, "halving", fixed={"N": 3})
