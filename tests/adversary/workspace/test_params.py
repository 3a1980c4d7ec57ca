"""``Workspace.params`` as a notebook user calls it: each parameter against a brute force written from its
definition (tests/solvers/test_params.py, tests/oracles.py), the second call served from the store with the same
results, a row changed by hand computed again, bad input refused in one line, and the store's notes to ``note=``."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.workspace import Workspace, WorkspaceError
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import DEFAULT_KEYS as KEYS
from tests.oracles import opt_brute, vc_brute
from tests.solvers.test_params import orders_brute, proper_brute, rtd_brute, star_brute, td_in, threshold_brute


def brute(M) -> dict:
    """Every parameter of the 0/1 matrix ``M`` from its definition."""
    rows = M.astype(int).tolist()
    out = {"opt": opt_brute(rows), "vc": vc_brute(M), "dual_vc": vc_brute(M.T), "threshold": threshold_brute(M),
           "star": star_brute(M), "td": max(td_in(M, range(M.shape[0]), c) for c in range(M.shape[0])),
           "rtd": rtd_brute(M)}
    out["best_order"], out["worst_order"] = orders_brute(M)
    out["proper"] = proper_brute(M)
    return out


@st.composite
def classes(draw):
    n = draw(st.integers(1, 4))  # (the brute forces of the orders and the proper game are exponential in n)
    rows = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=1, max_size=8))
    return ConceptClass.from_matrix(np.array(rows, dtype=bool))


@settings(max_examples=25, deadline=None)
@given(classes())
def test_values_against_the_brute_force_and_served_the_second_time(C):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.db"
        with Workspace(path) as ws:
            first = ws.params(C)
        assert first.keys == ["opt", *KEYS] and first.served == [] and not first.failed and first.solved
        assert first.values == brute(C.matrix)
        with Workspace(path) as ws:
            second = ws.params(C)
        assert second.served == list(KEYS)  # every parameter but opt, which params does not store
        assert second.values == first.values and not second.failed
        assert {k: v["witness"] for k, v in second.results.items()} == {
            k: v["witness"] for k, v in first.results.items()}


def test_some_keys_served_others_computed(tmp_path):
    C = make("thresholds", N=9)
    notes = []
    with Workspace(tmp_path / "r.db", note=notes.append) as ws:
        a = ws.params(C, "vc,td")
        b = ws.params(C, ["td", "threshold"])
    assert a.keys == ["vc", "td"] and a.served == [] and a.values == {"vc": 1, "td": 2}
    assert b.served == ["td"] and b.values == {"td": 2, "threshold": 9}  # threshold dimension of N thresholds: N
    assert b.checks["threshold"][0] and "threshold >= 9" in b.checks["threshold"][1]
    assert notes == []


def test_no_store_computes_each_time(tmp_path):
    C = make("singletons", N=5)
    with Workspace() as ws:
        runs = [ws.params(C, "star,rtd") for _ in range(2)]
    assert [r.served for r in runs] == [[], []] and [r.values for r in runs] == [{"star": 5, "rtd": 1}] * 2


def test_a_row_changed_by_hand_is_computed_again_and_said_to_the_sink(tmp_path):
    C = make("thresholds", N=6)
    path = tmp_path / "r.db"
    with Workspace(path) as ws:
        assert ws.params(C, "threshold").values == {"threshold": 6}
    with sqlite3.connect(path) as db:
        assert db.execute("UPDATE results SET value = 7, lower = 7, upper = 7 WHERE kind = 'param'").rowcount == 1
    notes = []
    with Workspace(path, note=notes.append) as ws:
        again = ws.params(C, "threshold")
    assert again.served == [] and again.values == {"threshold": 6}
    assert len(notes) == 1 and "threshold of the class" in notes[0] and "computing it again" in notes[0]


@pytest.mark.parametrize("keys, says", [("vc,nope", "unknown parameter 'nope' in keys"), (",,", "names no parameter"),
                                        ([], "names no parameter")])
def test_bad_keys_are_one_line(keys, says):
    with Workspace() as ws:
        with pytest.raises(WorkspaceError, match=says) as e:
            ws.params(make("thresholds", N=3), keys)
    assert "\n" not in str(e.value) and "opt, vc" in str(e.value)


def test_a_class_not_listed_is_refused():
    from solvers.classes.margin import MarginHalfspaces

    with Workspace() as ws:
        with pytest.raises(WorkspaceError, match="listed point by point") as e:
            ws.params(MarginHalfspaces.from_params({"d": 2, "gamma": 1}), "vc")
    assert "\n" not in str(e.value)


def test_a_time_limit_gives_bounds_that_hold(tmp_path):
    """A limit far too short for the class: each parameter stopped gives bounds around the true value (computed
    without a limit), never a wrong value; one stopped is not stored, so the next call computes it again."""
    C = make("all-functions", n=7)
    with Workspace() as ws:
        full = ws.params(C, "td,rtd,vc").values
        short = ws.params(C, "td,rtd,vc", time_limit=1e-3)
    assert full == {"td": 7, "rtd": 7, "vc": 7}  # every subset: the whole point set teaches and is shattered
    for k, v in short.results.items():
        assert v.get("value", full[k]) == full[k] and v.get("lower", full[k]) <= full[k] <= v.get("upper", full[k])


def test_progress_is_called_as_each_parameter_starts():
    seen = []
    with Workspace() as ws:
        ws.params(make("thresholds", N=4), "opt,vc,td", progress=seen.append)
    assert seen == [{"done": 0, "total": 2, "key": "vc"}, {"done": 1, "total": 2, "key": "td"}]


# ------------------------------------------------------------------------------------------ stopped searches
@settings(max_examples=60, deadline=None)
@given(classes(), st.sampled_from(["opt", *KEYS]))
def test_the_trivial_bounds_hold_against_the_brute_force(C, key):
    """trivial_bounds, from a stopped search's weakest bounds (0 and a huge upper), never leaves out the value."""
    from adversary.workspace.params import trivial_bounds

    value = brute(C.matrix)[key]
    lo, hi, why = trivial_bounds(C, key, 0, 10**6)
    assert lo <= value <= hi, (key, lo, value, hi, why)
    if key in ("vc", "td", "opt", "rtd") and len({tuple(r) for r in C.matrix.tolist()}) >= 2:
        assert lo == 1 and why  # two concepts: the trivial 1, said


def test_a_stopped_run_gives_bounds_at_least_the_trivial_ones(monkeypatch):
    """Searches stopped before any witness (0 and a loose upper, as a search out of time gives them): each result
    has the trivial lower 1, never 0, within the points, and says what it rests on (the CLI printed 'concept None
    needs 0 points, e.g. None')."""
    import solvers.params as sp

    monkeypatch.setattr(sp, "compute", lambda C, keys, time_limit=None: {k: sp.ParamResult(k, 0, 99) for k in keys})
    C = make("thresholds", N=9)
    with Workspace() as ws:
        run = ws.params(C, "vc,td,rtd,star", time_limit=5)
    assert run.missing == [] and run.stopped == ["vc", "td", "rtd", "star"] and not run.solved
    for k in ("vc", "td", "rtd"):
        assert run.results[k]["lower"] == 1 and "two concepts disagree" in run.results[k]["bounds"], run.results[k]
    assert run.results["vc"]["upper"] == 9 and run.results["td"]["upper"] == 9  # at most the points
    assert run.results["star"]["lower"] == 0 and "bounds" not in run.results["star"]  # no trivial bound claimed
