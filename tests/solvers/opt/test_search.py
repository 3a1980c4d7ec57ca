"""The search (solvers/opt/search.py): Solver.value on arbitrary version spaces against the brute force,
the bounded memo, wide classes (the numpy filter), the root loop and the public API the driver and the
parallel root use."""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import SearchStop, Solver, Tuning, opt

from ...oracles import matrices, opt_brute, opt_of, sparse_rows
from .checks import check_result

search = importlib.import_module("solvers.opt.search")

SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------- Solver.value
@SETTINGS
@given(matrices(), st.data())
def test_solver_value_on_sub_version_spaces(rows, data):
    """Solver.value(V) (what SOA asks) equals the brute force on arbitrary version spaces V."""
    C = ConceptClass.from_matrix(rows)
    S = Solver(C)
    M = C.matrix.astype(int)
    for _ in range(5):
        V = data.draw(st.integers(0, C.full))
        sub = frozenset(tuple(M[c]) for c in range(len(C)) if (V >> c) & 1)
        assert S.value(V) == opt_of(sub, C.n_points)
        lo, hi = S.bounds(V)
        assert lo <= opt_of(sub, C.n_points) <= hi


def test_solver_needs_positive_memo():
    C = make("thresholds", N=4)
    with pytest.raises(ValueError):
        Solver(C, memo_bytes=0)
    with pytest.raises(TypeError):
        Solver([[0, 1]])


# ---------------------------------------------------------------------------------------- bounded memo
@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=12, max_cols=10))
def test_small_memo_still_correct(rows):
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine="search", memo_bytes=2000)
    check_result(r, C, opt_brute(rows))
    assert r.value == opt_brute(rows)


@pytest.mark.parametrize("seed", range(6))
def test_small_memo_evicts_and_is_correct(seed):
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 2, (12, 10)).tolist()
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine="search", memo_bytes=2000)
    assert r.value == opt_brute(rows)
    check_result(r, C)


def test_small_memo_forces_evictions_on_a_harder_class():
    rows = sparse_rows(8, 3)
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine="search", memo_bytes=2000)
    assert r.stats["evictions"] > 0
    assert r.value == 3 == opt_brute(rows)
    check_result(r, C)


def test_default_memo_limit_is_half_the_machine(monkeypatch):
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert search.physical_memory() == total
    assert search.default_memo_bytes() == total // 2
    assert Solver(make("thresholds", N=4)).memo_bytes == total // 2

    def no_sysconf(name):
        raise ValueError(name)

    monkeypatch.setattr(search.os, "sysconf", no_sysconf)
    assert search.physical_memory() == total  # (read once a process: the machine's memory does not change)
    search.physical_memory.cache_clear()
    try:
        assert search.physical_memory() is None
        assert search.default_memo_bytes() == 4 * 2**30
    finally:
        search.physical_memory.cache_clear()


# ---------------------------------------------------------------------------------------- wide classes
def all_columns(n: int) -> ConceptClass:
    """n concepts and every non-constant column: any split of any version space is available, so
    Opt(V) = floor(log2 |V|) for every V (binary search on the concepts' indices)."""
    cols = range(1, 2**n - 1)
    return ConceptClass.from_matrix(np.array([[(c >> i) & 1 for c in cols] for i in range(n)], dtype=bool))


@pytest.mark.parametrize("n", [5, 12, 13])
def test_all_columns_class(n):
    C = all_columns(n)
    r = opt(C)
    assert r.value == n.bit_length() - 1
    check_result(r, C)


def test_all_columns_sub_version_spaces():
    C = all_columns(13)  # 4095 distinct splits: beyond the solver's numpy threshold
    S = Solver(C)
    rng = np.random.default_rng(5)
    for _ in range(30):
        V = int(rng.integers(0, C.full + 1))
        assert S.value(V) == (V.bit_count().bit_length() - 1 if V else -1)


@pytest.mark.parametrize("N", [2100])
def test_wide_singletons_and_thresholds(N):
    sing = ConceptClass.from_matrix(np.vstack([np.eye(N, dtype=bool), np.zeros((1, N), dtype=bool)]))
    r = opt(sing)
    assert r.value == 1
    check_result(r, sing)
    x = np.arange(N)
    thr = ConceptClass.from_matrix(x[None, :] >= np.arange(N + 1)[:, None])
    r = opt(thr)
    assert r.value == (N + 1).bit_length() - 1
    check_result(r, thr)


@pytest.mark.parametrize("seed", range(4))
def test_wide_path_agrees_with_narrow_path(seed):
    """Classes with more distinct splits than the solver's numpy threshold: the numpy filter and the
    plain loop must give the same value (and valid certificates)."""
    rng = np.random.default_rng(seed)
    m = [60, 120, 90, 120][seed]
    p = [0.05, 0.05, 0.1, 0.1][seed]
    C = ConceptClass.from_matrix(rng.random((m, 2600)) < p)
    a = opt(C, engine="search")
    b = opt(C, engine="search", tuning=Tuning(wide_from=10**9))
    assert a.value == b.value is not None
    check_result(a, C)
    check_result(b, C)


# ---------------------------------------------------------------------------------------- the root, the public API
def test_descend_asks_the_upper_bound_first_and_goes_down():
    """The root loop with a decide strategy of our own: queries from the upper bound down, stopping at
    the first yes, recorded in ``queries`` and in ``root_bounds``."""
    C = ConceptClass.from_matrix(sparse_rows(8, 3))  # Opt 3, floor(log2 |C|) = 6
    S = Solver(C)
    asked = []

    def decide(d):
        asked.append(d)
        return S.at_least(S.full, d)

    top = min(S.bounds(S.full)[1], len(S.root_masks))
    queries = []
    assert S.descend(queries, decide) == (3, 3)
    assert asked == list(range(top, 2, -1))
    assert [q["d"] for q in queries] == asked and [q["answer"] for q in queries] == [False] * (len(asked) - 1) + [True]
    assert S.root_bounds == (3, 3)


def test_descend_stopped_keeps_the_proven_bounds():
    C = ConceptClass.from_matrix(sparse_rows(8, 3))
    S = Solver(C)
    lo0, hi0 = S.reset_root_bounds()

    def decide(d):
        if d < hi0 - 1:
            raise SearchStop()
        return False

    with pytest.raises(SearchStop):
        S.descend([], decide)
    assert S.root_bounds == (lo0, hi0 - 2)


def test_limits_set_and_restore_the_deadline():
    S = Solver(ConceptClass.from_matrix(sparse_rows(16, 4)))
    assert S.deadline is None
    with S.limits(deadline=0.0):  # long past: the first clock check stops the search
        assert S.deadline == 0.0
        with pytest.raises(SearchStop):
            S.value()
        with S.limits(deadline=None):
            assert S.deadline is None
        assert S.deadline == 0.0
    assert S.deadline is None
    assert S.value() == 4  # what the stopped search proved stays valid


def test_record_and_add_nodes():
    C = make("thresholds", N=7)
    S = Solver(C)
    S.record(S.full, 3, 3, move=3)
    assert S.bounds(S.full) == (3, 3) and S.moves[S.full] == 3
    n = S.nodes
    S.add_nodes(5)
    assert S.nodes == n + 5


def test_subcube_table_is_built_once():
    S = Solver(make("thresholds", N=7))
    assert S.table is None
    T = S.subcube_table()
    assert S.subcube_table() is T and S.table is T and not T.complete


@settings(max_examples=60, deadline=None, database=None)
@given(st.integers(1, 150), st.integers(1, 400), st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_root_splits_with_numpy_as_the_plain_loop(m, n, seed, p):
    """The root's distinct splits found with numpy (classes over many points) are those of the loop over the
    columns, in the same order, with the same points: equal and complementary columns included."""
    rng = np.random.default_rng(seed)
    M = rng.random((m, n)) < p
    if n >= 4:
        M[:, 1], M[:, 3] = M[:, 0], ~M[:, 2]
    C = ConceptClass.from_matrix(M)
    S = Solver(C, symmetry=False)
    masks, points = S._root_splits()
    assert (list(masks), points) == tuple(map(list, S._distinct_splits(S.full, C.columns)))


@SETTINGS
@given(matrices(max_rows=12, max_cols=6), st.data())
def test_reached_against_the_examples(rows, data):
    """Solver.reached(V) is whether some labelled examples leave exactly V: V is the set of concepts that agree with
    every label all of V shares (the class itself among them: no example yet)."""
    C = ConceptClass.from_matrix(rows)
    S = Solver(C)
    M = C.matrix
    for V in [C.full, data.draw(st.integers(0, C.full))]:
        members = [c for c in range(C.n_concepts) if V >> c & 1]
        if not members:
            assert not S.reached(V)
            continue
        shared = [j for j in range(C.n_points) if len({bool(M[c, j]) for c in members}) == 1]
        agree = {c for c in range(C.n_concepts) if all(M[c, j] == M[members[0], j] for j in shared)}
        assert S.reached(V) == (agree == set(members))


def test_the_warm_up_goes_up_where_the_search_is_watched_or_may_stop():
    """With a progress hook or a time limit the root's queries go up first (a lower bound that rises while the top is
    asked); without either, one query going up, then the descent from the upper bound. The same value either way."""
    C = ConceptClass.from_matrix(np.asarray(make("rectangles", N=8).matrix, dtype=bool))
    plain = opt(C, anytime=False)
    watched = opt(C, anytime=False, progress=lambda info: None)
    limited = opt(C, anytime=False, time_limit=600)
    assert plain.value == watched.value == limited.value == 9
    assert [q["d"] for q in plain.stats["queries"]][:2] == [2, 10]
    for r in (watched, limited):
        ups = [q["d"] for q in r.stats["queries"]]
        assert ups[:4] == [2, 3, 4, 5]
    # 16 points: the plan caps the search's time for the table after it, which is no caller's deadline
    C = ConceptClass.from_matrix(np.asarray(make("random", m=3000, N=16, seed=0).matrix, dtype=bool))
    r = opt(C, anytime=False)
    assert r.stats["plan"] == ["search", "table"] and [q["d"] for q in r.stats["queries"]] == [2, 11]
