"""The exact solver opt(): against the brute-force recurrence, its invariances and bounds, its
certificates, time limits, the bounded memo, and published values."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificate import verify_tree
from solvers.concept_class import ConceptClass
from solvers.families import make
from solvers.opt import OptResult, Solver, opt

OPT_MODULE = importlib.import_module("solvers.opt")  # the module (``solvers.opt`` the attribute is the function)
ENGINES = tuple(getattr(OPT_MODULE, "ENGINES", ("auto",)))
MAX_TABLE_POINTS = getattr(importlib.import_module("solvers.table"), "MAX_TABLE_POINTS", 0) if "table" in ENGINES else 0
needs_table = pytest.mark.skipif("table" not in ENGINES, reason="no table engine")


def run(C, engine="auto", **kw):
    """opt() with an explicit engine when the solver has engines."""
    if engine != "auto":
        kw["engine"] = engine
    return opt(C, **kw)

from .brute import matrices, opt_brute, opt_of, rows_of, sparse_rows, tree_ok_brute, vc_brute

SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def check_result(r: OptResult, C: ConceptClass, true_opt: int | None = None) -> None:
    """The invariants every OptResult must satisfy."""
    assert isinstance(r, OptResult)
    assert r.lower <= r.upper
    assert r.solved == (r.lower == r.upper)
    if r.solved:
        assert r.value == r.lower == r.upper
    else:
        assert r.value is None
    assert 0 <= r.lower
    assert r.upper <= len(C).bit_length() - 1  # the Halving bound floor(log2 |C|)
    assert r.tree is not None
    assert r.tree.depth == r.lower
    assert verify_tree(r.tree.to_json(), C) == r.lower
    assert tree_ok_brute(r.tree.root, r.lower, C.matrix)
    if true_opt is not None:
        assert r.lower <= true_opt <= r.upper


# ---------------------------------------------------------------------------------------- vs brute force
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=matrices())
def test_opt_equals_brute(engine, rows):
    C = ConceptClass.from_matrix(rows)
    r = run(C, engine)
    b = opt_brute(rows)
    check_result(r, C, b)
    assert r.solved
    assert r.value == b


@needs_table
def test_table_engine_is_really_used():
    """On a class the cheap bounds do not settle, engine="table" answers from the table."""
    rows = sparse_rows(6, 2)  # Opt 2 < floor(log2 22) = 4
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine="table")
    assert r.stats["engine"] == "table"
    assert r.value == 2 == opt_brute(rows)
    check_result(r, C, 2)
    s = opt(C, engine="search")
    assert s.stats["engine"] == "search" and s.value == 2


@needs_table
@pytest.mark.parametrize("engine", ["auto", "search", "table"])
@pytest.mark.parametrize("n,k", [(9, 3), (12, 2), (10, 5)])
def test_engines_agree_on_sparse_sets(engine, n, k):
    C = ConceptClass.from_matrix(sparse_rows(n, k))
    r = opt(C, engine=engine)
    assert r.value == k
    check_result(r, C, k)


@pytest.mark.parametrize("engine", ["fast", "", None, "TABLE"])
def test_invalid_engine(engine):
    if ENGINES == ("auto",):
        pytest.skip("no engines")
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), engine=engine)


@needs_table
def test_table_engine_refuses_too_many_points():
    N = MAX_TABLE_POINTS + 1
    C = ConceptClass.from_matrix([[int(i == j) for j in range(N)] for i in range(N)])
    with pytest.raises(ValueError):
        opt(C, engine="table")
    # duplicate and complementary columns count once: this one has 2 effective points
    D = ConceptClass.from_matrix(np.array([[0, 0], [0, 1], [1, 0], [1, 1]])[:, [0, 1] * 10])
    E = ConceptClass.from_matrix(np.hstack([D.matrix, ~D.matrix]))
    assert opt(E, engine="table").value == 2


@pytest.mark.parametrize(
    "rows, expected",
    [
        ([[0]], 0),
        ([[1, 0, 1]], 0),
        ([[0], [1]], 1),
        ([[0, 0], [0, 1], [1, 0], [1, 1]], 2),
        ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], 1),  # singletons + empty
        ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 1),  # singletons
        ([[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], 2),  # thresholds on 3 points
        ([[(i >> b) & 1 for b in range(4)] for i in range(16)], 4),  # the full cube
    ],
)
def test_opt_small_known(rows, expected):
    assert opt_brute(rows) == expected
    C = ConceptClass.from_matrix(rows)
    r = opt(C)
    check_result(r, C, expected)
    assert r.value == expected


def test_single_concept():
    C = ConceptClass.from_matrix([[0, 1, 1]])
    r = opt(C)
    assert (r.value, r.lower, r.upper) == (0, 0, 0)
    assert r.tree.depth == 0 and r.tree.root is None
    assert verify_tree(r.tree.to_json(), C) == 0


@pytest.mark.parametrize("n,k", [(4, 1), (5, 2), (6, 3), (7, 2), (3, 3), (8, 4)])
def test_sparse_sets_brute_and_solver(n, k):
    rows = sparse_rows(n, k)
    assert opt_brute(rows) == min(k, n)
    r = opt(ConceptClass.from_matrix(rows))
    assert r.value == min(k, n)


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


# ---------------------------------------------------------------------------------------- bounds
@SETTINGS
@given(matrices())
def test_halving_and_vc_bounds(rows):
    C = ConceptClass.from_matrix(rows)
    v = opt(C).value
    assert v <= math.floor(math.log2(len(rows_of(rows))))
    assert v >= vc_brute(rows)
    assert v <= len(C) - 1  # CON's bound
    assert v <= C.n_points


@SETTINGS
@given(matrices(max_rows=10, max_cols=8, min_rows=1), st.data())
def test_subclass_never_larger(rows, data):
    C = ConceptClass.from_matrix(rows)
    idx = data.draw(st.lists(st.integers(0, len(C) - 1), min_size=1, max_size=len(C), unique=True))
    D = C.restrict(idx)
    assert opt(D).value <= opt(C).value
    assert opt(D).value == opt_brute(D.matrix)


# ---------------------------------------------------------------------------------------- invariances
@SETTINGS
@given(matrices(), st.randoms(use_true_random=False))
def test_invariant_under_permutations_and_complements(rows, rnd):
    M = np.array(rows, dtype=int)
    base = opt(ConceptClass.from_matrix(M)).value
    cols = list(range(M.shape[1]))
    rnd.shuffle(cols)
    assert opt(ConceptClass.from_matrix(M[:, cols])).value == base
    perm = list(range(M.shape[0]))
    rnd.shuffle(perm)
    assert opt(ConceptClass.from_matrix(M[perm])).value == base
    j = rnd.randrange(M.shape[1])
    F = M.copy()
    F[:, j] = 1 - F[:, j]
    assert opt(ConceptClass.from_matrix(F)).value == base
    # complementing every column at once (the class of complements) too
    assert opt(ConceptClass.from_matrix(1 - M)).value == base
    # adding a constant column or a duplicate column changes nothing
    assert opt(ConceptClass.from_matrix(np.hstack([M, np.zeros((M.shape[0], 1), int)]))).value == base
    assert opt(ConceptClass.from_matrix(np.hstack([M, M[:, [j]]]))).value == base


# ---------------------------------------------------------------------------------------- certificates
@SETTINGS
@given(matrices())
def test_tree_verifies_and_has_depth_value(rows):
    C = ConceptClass.from_matrix(rows)
    r = opt(C)
    assert r.tree.depth == r.value
    assert verify_tree(r.tree.to_json(), C) == r.value
    assert tree_ok_brute(r.tree.root, r.value, rows)
    # the tree is no deeper than claimed either: it cannot certify value + 1
    assert not tree_ok_brute(r.tree.root, r.value + 1, rows)


def test_stats_keys():
    r = opt(make("thresholds", N=20))
    for k in ("nodes", "memo", "seconds", "queries", "stopped"):
        assert k in r.stats
    assert r.stats["stopped"] is None
    assert r.stats["seconds"] >= 0


# ---------------------------------------------------------------------------------------- time limits
@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(rows=matrices(), tl=st.sampled_from([1e-9, 1e-6, 1e-3]))
def test_tiny_time_limit_bounds_valid_small(engine, rows, tl):
    C = ConceptClass.from_matrix(rows)
    r = run(C, engine, time_limit=tl)
    check_result(r, C, opt_brute(rows))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n,k", [(16, 4), (14, 5)])
@pytest.mark.parametrize("tl", [1e-9, 1e-4, 2e-3, 5e-3, 1e-2, 3e-2])
def test_time_limit_bounds_valid_when_stopped(engine, n, k, tl):
    """All subsets of size <= k of n points: Opt = k (see brute.sparse_rows), far below log2 |C|, so the
    search needs many nodes (and the table 3^n cells) and a small time limit stops it."""
    C = ConceptClass.from_matrix(sparse_rows(n, k))
    r = run(C, engine, time_limit=tl)
    check_result(r, C, k)
    if r.stats["stopped"] is not None:
        assert r.stats["stopped"] == "time limit"
        assert r.value is None or r.value == k


@pytest.mark.parametrize("engine", ENGINES)
def test_time_limit_actually_stops(engine):
    C = ConceptClass.from_matrix(sparse_rows(16, 4))
    r = run(C, engine, time_limit=1e-9)
    assert r.stats["stopped"] == "time limit"
    assert not r.solved and r.value is None
    check_result(r, C, 4)


def test_without_time_limit_sparse_16_4():
    assert opt(ConceptClass.from_matrix(sparse_rows(16, 4)), engine="search" if "search" in ENGINES else "auto").value == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_interrupt_returns_bounds(engine):
    C = ConceptClass.from_matrix(sparse_rows(10, 3))
    calls = []

    def progress(info):
        calls.append(dict(info))
        raise KeyboardInterrupt

    r = run(C, engine, progress=progress)
    assert calls and {"lower", "upper"} <= set(calls[0])
    assert r.stats["stopped"] == "interrupted"
    check_result(r, C, 3)


@pytest.mark.parametrize("engine", ENGINES)
def test_solver_reuse_after_a_stopped_run(engine):
    C = ConceptClass.from_matrix(sparse_rows(14, 4))
    S = Solver(C)
    r1 = run(C, engine, solver=S, time_limit=1e-9)
    check_result(r1, C, 4)
    r2 = run(C, engine, solver=S)
    assert r2.value == 4
    check_result(r2, C, 4)


def test_jobs_two_gives_the_same_values():
    """The parallel root (joblib workers): the same values as the brute force, and valid bounds when
    stopped early."""
    eng = "search" if "search" in ENGINES else "auto"
    rng = np.random.default_rng(11)
    classes = [sparse_rows(7, 2), sparse_rows(9, 3)] + [rng.integers(0, 2, (10, 7)).tolist() for _ in range(3)]
    for rows in classes:
        C = ConceptClass.from_matrix(rows)
        r = run(C, eng, jobs=2)
        b = opt_brute(rows)
        assert r.value == b
        check_result(r, C, b)
    C = ConceptClass.from_matrix(sparse_rows(16, 4))
    r = run(C, eng, jobs=2, time_limit=0.05)
    check_result(r, C, 4)


@pytest.mark.parametrize("tl", [0, -1, -0.5, float("nan")])
def test_invalid_time_limit(tl):
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), time_limit=tl)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", None])
def test_invalid_jobs(jobs):
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), jobs=jobs)


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
    r = run(C, "search" if "search" in ENGINES else "auto", memo_bytes=2000)
    check_result(r, C, opt_brute(rows))
    assert r.value == opt_brute(rows)


@pytest.mark.parametrize("seed", range(6))
def test_small_memo_evicts_and_is_correct(seed):
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, 2, (12, 10)).tolist()
    C = ConceptClass.from_matrix(rows)
    r = run(C, "search" if "search" in ENGINES else "auto", memo_bytes=2000)
    assert r.value == opt_brute(rows)
    check_result(r, C)


def test_small_memo_forces_evictions_on_a_harder_class():
    rows = sparse_rows(8, 3)
    C = ConceptClass.from_matrix(rows)
    r = run(C, "search" if "search" in ENGINES else "auto", memo_bytes=2000)
    assert r.stats["evictions"] > 0
    assert r.value == 3 == opt_brute(rows)
    check_result(r, C)


def test_solver_reuse():
    C = ConceptClass.from_matrix(sparse_rows(7, 2))
    S = Solver(C)
    r1 = opt(C, solver=S)
    r2 = opt(C, solver=S)
    assert r1.value == r2.value == 2
    check_result(r2, C)


# ---------------------------------------------------------------------------------------- published values
@pytest.mark.parametrize("N", list(range(1, 65)) + [100, 127, 128, 255, 256, 500, 1000, 1023])
def test_thresholds_published(N):
    """Thresholds on N points (N + 1 concepts): Opt = floor(log2(N + 1)) (binary search)."""
    C = make("thresholds", N=N)
    assert len(C) == N + 1
    r = opt(C)
    expected = (N + 1).bit_length() - 1
    assert r.value == expected
    assert verify_tree(r.tree.to_json(), C) == expected
    if N <= 12:
        assert opt_brute(C.matrix) == expected


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


@pytest.mark.skipif(not hasattr(OPT_MODULE, "_WIDE"), reason="no wide-class path")
@pytest.mark.parametrize("seed", range(4))
def test_wide_path_agrees_with_narrow_path(seed, monkeypatch):
    """Classes with more distinct splits than the solver's numpy threshold: the numpy filter and the
    plain loop must give the same value (and valid certificates)."""
    rng = np.random.default_rng(seed)
    m = [60, 120, 90, 120][seed]
    p = [0.05, 0.05, 0.1, 0.1][seed]
    C = ConceptClass.from_matrix(rng.random((m, 2600)) < p)
    a = run(C, "search" if "search" in ENGINES else "auto")
    monkeypatch.setattr(OPT_MODULE, "_WIDE", 10**9)
    b = run(C, "search" if "search" in ENGINES else "auto")
    assert a.value == b.value is not None
    check_result(a, C)
    check_result(b, C)


def test_default_memo_limit_is_half_the_machine(monkeypatch):
    import os

    opt_module = importlib.import_module("solvers.opt")

    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert opt_module.physical_memory() == total
    assert opt_module.default_memo_bytes() == total // 2
    assert Solver(make("thresholds", N=4)).memo_bytes == total // 2

    def no_sysconf(name):
        raise ValueError(name)

    monkeypatch.setattr(opt_module.os, "sysconf", no_sysconf)
    assert opt_module.physical_memory() is None
    assert opt_module.default_memo_bytes() == 4 * 2**30


@pytest.mark.parametrize("bad", [float("nan"), True, "100"])
def test_memo_limit_must_be_a_positive_number_of_bytes(bad):
    with pytest.raises(ValueError, match="memo_bytes"):
        opt(make("thresholds", N=4), memo_bytes=bad)


def test_memo_limit_with_workers():
    C = make("intervals", N=60)
    r = opt(C, jobs=2, memo_bytes=2**20)
    assert r.value == opt(C).value and r.stats["memo_bytes"] == 2**20
