"""``Workspace.opt`` as a notebook user calls it (adversary.workspace.opt): computed and stored, served from the store
the second time with the same value (checked against the brute force and the published Opt of thresholds), a row
changed by hand computed again, a row written unsealed sealed later, a store that cannot be written loses nothing,
the states engine's row served to the search, bad input refused in one line before the store is read.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings

from adversary.store import Store
from adversary.workspace import Workspace, WorkspaceError
from adversary.workspace.storage import CHECKED, SEALED
from solvers.certificates import verify_upper
from solvers.certificates.opt import verify_tree
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import OptResult

from ...oracles import matrices, opt_brute


def _rows(path) -> list:
    with Store(str(path)) as S:
        return list(S.rows("opt"))


@pytest.mark.parametrize("N", [7, 30, 63])
def test_the_second_call_is_served_with_the_published_value(tmp_path, N):
    """Thresholds on N points: Opt = floor(log2(N + 1)) (the families' table, [Rivest94] 2.3.2)."""
    C = make("thresholds", N=N)
    with Workspace(tmp_path / "r.db") as ws:
        r = ws.opt(C)
        assert isinstance(r, OptResult) and r.stats.get("stored") is None
        r2 = ws.opt(make("thresholds", N=N))
    assert r.value == r2.value == (N + 1).bit_length() - 1
    stored = r2.stats["stored"]
    assert stored["path"] == str(tmp_path / "r.db") and stored["how"] == SEALED and stored["checked"] is True
    assert verify_tree(r2.tree.to_json(), C) == r2.value  # the stored tree, as served, proves the value
    (row,) = _rows(tmp_path / "r.db")
    assert row.proven is not None  # sealed when written (seal=True, the default)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=matrices(max_rows=9, max_cols=6))
def test_random_classes_are_served_with_the_brute_force_value(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("db") / "r.db"
    C = ConceptClass.from_matrix(rows)
    with Workspace(path) as ws:
        first = ws.opt(C, proof=True)
        second = ws.opt(ConceptClass.from_matrix(rows), proof=True)
    assert first.value == second.value == opt_brute(rows)
    assert second.stats.get("stored") is not None
    for r in (first, second):  # the upper-bound certificate, as written and as served, proves the value
        assert r.certificate is not None and verify_upper(r.certificate, C) == r.value


def test_intervals_against_the_brute_force_and_a_proof_without_a_store(tmp_path):
    C = make("intervals", N=8)
    with Workspace() as ws:
        r = ws.opt(C, proof=True)
    assert r.value == opt_brute(C.matrix.astype(int).tolist())
    assert verify_upper(r.certificate, C) == r.value and r.store_error is None


def test_a_tampered_row_is_computed_again_and_the_note_reaches_the_callback(tmp_path):
    path = tmp_path / "r.db"
    seen = []
    with Workspace(path, note=seen.append) as ws:
        ws.opt(make("thresholds", N=9))
    db = sqlite3.connect(path)
    db.execute("UPDATE results SET value = '5', lower = '5', upper = '5'")  # the certificates prove 3
    db.commit()
    db.close()
    with Workspace(path, note=seen.append) as ws:
        r = ws.opt(make("thresholds", N=9))
        assert r.value == 3 and r.stats.get("stored") is None
        assert len(seen) == 1 and "changed after it was written" in seen[0] and "\n" not in seen[0]
        assert ws.opt(make("thresholds", N=9)).stats["stored"]["how"] == SEALED  # the row was put right
    assert len(seen) == 1


def test_a_row_written_unsealed_is_sealed_by_the_result(tmp_path):
    """seal=False (the command line: the result is printed first): the row is stored unsealed, ``seal()`` seals it."""
    path = tmp_path / "r.db"
    C = make("intervals", N=12)
    with Workspace(path) as ws:
        r = ws.opt(C, seal=False)
        (row,) = _rows(path)
        assert row.proven is None
        r.seal()
        r.seal()  # (once is enough: nothing left to seal)
        (row,) = _rows(path)
        assert row.proven is not None
        assert ws.opt(C).stats["stored"]["how"] == SEALED


def test_a_store_that_cannot_be_written_loses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "r.db"
    with Workspace(path) as ws:
        ws.opt(make("thresholds", N=5))
    monkeypatch.setenv("LITTLESTONE_STORE_TIMEOUT", "0.3")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Workspace(path) as ws:
            r = ws.opt(make("thresholds", N=6))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.value == 2  # the result is returned
    assert "locked" in r.store_error and "\n" not in r.store_error
    assert len(_rows(path)) == 1  # and not stored


def test_the_states_engine_writes_a_row_the_search_serves(tmp_path):
    """The states engine starts afresh (never served) and writes its row unsealed, with its upper-bound certificate
    whether or not it was asked for (as the search engine's rows keep theirs): the search serves it, checked when
    first served. Without a store, the certificate is built only when asked for."""
    path = tmp_path / "r.db"
    C = make("intervals", N=30)
    with Workspace(None) as ws:
        assert ws.opt(C, engine="states").certificate is None
    with Workspace(path) as ws:
        states = ws.opt(C, engine="states")
        assert states.stats["engine"] == "states" and states.stats.get("stored") is None
        assert verify_upper(states.certificate, C) == states.value
        again = ws.opt(C, engine="states", proof=True)
        assert again.stats.get("stored") is None  # (the engine starts afresh)
        served = ws.opt(C)
    assert served.stats["stored"]["how"] == CHECKED
    assert states.value == again.value == served.value
    assert verify_tree(served.tree.to_json(), C) == served.value


def test_a_game_is_stored_apart_from_opt(tmp_path):
    """The randomized game's value RL(C) and Opt(C) are two rows of one class: each served as itself."""
    from fractions import Fraction

    from ...oracles import rl_brute

    rows = make("thresholds", N=5).matrix.astype(int).tolist()  # RL(C) = 5/4, Opt(C) = 2
    with Workspace(tmp_path / "r.db") as ws:
        rl = ws.opt(ConceptClass.from_matrix(rows), game="randomized")
        o = ws.opt(ConceptClass.from_matrix(rows))
        rl2 = ws.opt(ConceptClass.from_matrix(rows), game="randomized")
    assert rl.value == rl2.value == rl_brute(rows) and Fraction(rl2.value).denominator > 1
    assert o.value == opt_brute(rows) and o.stats.get("stored") is None
    assert rl2.stats["stored"] is not None


@pytest.mark.parametrize("kwargs, says", [
    ({"time_limit": -1}, "time_limit=-1"),
    ({"time_limit": float("nan")}, "time_limit=nan"),
    ({"time_limit": True}, "time_limit=True"),
    ({"engine": "nope"}, "unknown engine 'nope'"),
    ({"game": "nope"}, "game='nope'"),
    ({"errors": -1}, "errors=-1"),
    ({"memo_bytes": 0}, "memo_bytes=0"),
])
def test_bad_input_is_one_line_before_the_store_is_read(tmp_path, kwargs, says):
    with Workspace(tmp_path / "r.db") as ws:
        ws.opt(make("thresholds", N=5))
        with pytest.raises(WorkspaceError, match=says) as e:
            ws.opt(make("thresholds", N=5), **kwargs)
    assert "\n" not in str(e.value) and isinstance(e.value, ValueError)


def test_a_class_that_is_not_one_is_one_line():
    with Workspace() as ws, pytest.raises(WorkspaceError, match="give a concept class"):
        ws.opt([[0, 1], [1, 0]])


def test_the_states_engine_refuses_a_cluster_and_a_game_in_one_line(tmp_path):
    C = make("intervals", N=10)
    with Workspace(scheduler="tcp://127.0.0.1:1") as ws, pytest.raises(WorkspaceError, match="drop --scheduler"):
        ws.opt(C, engine="states")
    with Workspace() as ws, pytest.raises(WorkspaceError, match="computes Opt\\(C\\) only"):
        ws.opt(C, engine="states", game="randomized")


def test_jobs_lowered_is_a_note_to_the_callback():
    seen = []
    with Workspace(jobs=10**4, note=seen.append) as ws:
        r = ws.opt(make("thresholds", N=15))
    assert r.value == 4
    assert any(text.startswith("--jobs 10000 lowered to") for text in seen), seen


def test_the_result_type_is_made_when_first_needed():
    from adversary.workspace import opt as module

    assert issubclass(module.OptRun, OptResult) and module.OptRun.__module__ == module.__name__
    with pytest.raises(AttributeError):
        module.NoSuchThing  # noqa: B018
