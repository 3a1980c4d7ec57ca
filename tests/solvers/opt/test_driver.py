"""opt() (solvers/opt/driver.py): against the brute-force recurrence, its invariances and bounds, its
certificates, time limits and interrupts, solver reuse, argument checks, and published values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import verify_tree
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import ENGINES, Solver, opt

from ...oracles import matrices, opt_brute, rows_of, sparse_rows, tree_ok_brute, vc_brute
from .checks import check_result

SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------- vs brute force
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=matrices())
def test_opt_equals_brute(engine, rows):
    C = ConceptClass.from_matrix(rows)
    r = opt(C, engine=engine)
    b = opt_brute(rows)
    check_result(r, C, b)
    assert r.solved
    assert r.value == b


@pytest.mark.parametrize("engine", ["auto", "search", "table"])
@pytest.mark.parametrize("n,k", [(9, 3), (12, 2), (10, 5)])
def test_engines_agree_on_sparse_sets(engine, n, k):
    C = ConceptClass.from_matrix(sparse_rows(n, k))
    r = opt(C, engine=engine)
    assert r.value == k
    check_result(r, C, k)


@pytest.mark.parametrize("engine", ["fast", "", None, "TABLE"])
def test_invalid_engine(engine):
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), engine=engine)


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
    r = opt(C, engine=engine, time_limit=tl)
    check_result(r, C, opt_brute(rows))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n,k", [(16, 4), (14, 5)])
@pytest.mark.parametrize("tl", [1e-9, 1e-4, 2e-3, 5e-3, 1e-2, 3e-2])
def test_time_limit_bounds_valid_when_stopped(engine, n, k, tl):
    """All subsets of size <= k of n points: Opt = k (see tests.oracles.sparse_rows), far below log2 |C|, so the
    search needs many nodes (and the table 3^n cells) and a small time limit stops it."""
    C = ConceptClass.from_matrix(sparse_rows(n, k))
    r = opt(C, engine=engine, time_limit=tl)
    check_result(r, C, k)
    if r.stats["stopped"] is not None:
        assert r.stats["stopped"] == "time limit"
        assert r.value is None or r.value == k


@pytest.mark.parametrize("engine", ENGINES)
def test_time_limit_actually_stops(engine):
    C = ConceptClass.from_matrix(sparse_rows(16, 4))
    r = opt(C, engine=engine, time_limit=1e-9)
    assert r.stats["stopped"] == "time limit"
    assert not r.solved and r.value is None
    check_result(r, C, 4)


def test_without_time_limit_sparse_16_4():
    assert opt(ConceptClass.from_matrix(sparse_rows(16, 4)), engine="search").value == 4


@pytest.mark.parametrize("engine", ENGINES)
def test_interrupt_returns_bounds(engine):
    C = ConceptClass.from_matrix(sparse_rows(10, 3))
    calls = []

    def progress(info):
        calls.append(dict(info))
        raise KeyboardInterrupt

    r = opt(C, engine=engine, progress=progress)
    assert calls and {"lower", "upper"} <= set(calls[0])
    assert r.stats["stopped"] == "interrupted"
    check_result(r, C, 3)


@pytest.mark.parametrize("engine", ENGINES)
def test_solver_reuse_after_a_stopped_run(engine):
    C = ConceptClass.from_matrix(sparse_rows(14, 4))
    S = Solver(C)
    r1 = opt(C, engine=engine, solver=S, time_limit=1e-9)
    check_result(r1, C, 4)
    r2 = opt(C, engine=engine, solver=S)
    assert r2.value == 4
    check_result(r2, C, 4)


def test_solver_reuse():
    C = ConceptClass.from_matrix(sparse_rows(7, 2))
    S = Solver(C)
    r1 = opt(C, solver=S)
    r2 = opt(C, solver=S)
    assert r1.value == r2.value == 2
    check_result(r2, C)


@pytest.mark.parametrize("tl", [0, -1, -0.5, float("nan")])
def test_invalid_time_limit(tl):
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), time_limit=tl)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", None])
def test_invalid_jobs(jobs):
    with pytest.raises(ValueError):
        opt(make("thresholds", N=4), jobs=jobs)


@pytest.mark.parametrize("bad", [float("nan"), True, "100"])
def test_memo_limit_must_be_a_positive_number_of_bytes(bad):
    with pytest.raises(ValueError, match="memo_bytes"):
        opt(make("thresholds", N=4), memo_bytes=bad)


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


def test_the_package_is_the_module_and_calls_opt():
    """``import solvers.opt`` names the package (not the function that shadowed it), and calling it
    (``from solvers import opt; opt(C)``, as the README does) is :func:`solvers.opt.driver.opt`."""
    import importlib
    import types

    import solvers
    import solvers.opt as package
    from solvers.classes.families import make
    from solvers.opt.driver import opt as function

    assert isinstance(package, types.ModuleType) and package is importlib.import_module("solvers.opt")
    assert package.Solver.__name__ == "Solver" and solvers.opt is package
    C = make("thresholds", N=7)
    assert package(C).value == function(C).value == 3


# ---------------------------------------------------------------------------------------- the plan's settlers
@pytest.mark.parametrize("limit", [None, 60])
def test_a_class_the_shattered_set_settles_is_settled_before_the_packed_engine(limit):
    """The regression of issue 35: a listed class past PACKED_FROM concepts on <= 64 points went to the packed engine
    before the shattered set ran, so all-functions n=20 took 75 s (19 <= Opt <= 20 with a 60 s limit). Here n=13
    with the packed threshold lowered under it: the settler answers, with or without a time limit, and its
    certificates check."""
    import json

    from solvers.certificates import verify_upper
    from solvers.opt import Tuning

    C = make("all-functions", n=13)
    r = opt(C, time_limit=limit, tuning=Tuning(packed_from=1000))
    assert r.stats["plan"][:2] == ["shattered set", "packed"]
    assert r.stats["engine"] == "shattered set" and r.value == 13 and r.stats["nodes"] == 0
    assert verify_tree(json.loads(json.dumps(r.tree.to_json())), C) == 13
    assert verify_upper(json.loads(json.dumps(r.upper_certificate())), C) == 13
    # without the settlers (anytime=False) the packed engine itself answers, with the same value
    assert opt(C, anytime=False, tuning=Tuning(packed_from=1000)).stats["engine"] == "packed"


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=matrices(max_rows=64, max_cols=6))
def test_the_settlers_give_the_brute_forces_value(rows):
    """With the settlers on every class (shattered_from=1), whatever step answers gives the brute force's value."""
    from solvers.opt import Tuning

    C = ConceptClass.from_matrix(rows)
    r = opt(C, tuning=Tuning(shattered_from=1))
    assert r.value == opt_brute(rows)
    if r.stats["engine"] == "shattered set":
        assert r.value == C.log2_size()


def test_learners_bounds_given_as_data_settle_a_class_they_meet():
    """bounds=: a learner's bound equal to a shattered set's size settles Opt(C) (stats["engine"] == "learners");
    a bound that does not meet it leaves the class to the engine."""
    from solvers.opt import Tuning

    C = make("monotone-disjunctions", n=7, k=1)
    exact = opt(C).value
    low = Tuning(shattered_from=1, learners_from=1, disjunctions_from=10**6)
    M = np.zeros((5, 4), dtype=bool)
    for i in range(4):
        M[i + 1, i] = True  # singletons over 4 points and the empty concept: Opt = 1 (a shattered point), |C| = 5
    S = ConceptClass.from_matrix(M)
    r = opt(S, tuning=low, bounds=lambda D: [(1, "a test's bound")])
    assert r.stats["engine"] == "learners" and r.value == 1 == opt(S, anytime=False).value
    assert r.stats["upper_reason"] == "a test's bound" and verify_tree(r.tree.to_json(), S) == 1
    r = opt(C, tuning=low, bounds=lambda D: [(exact + 1, "too weak")])
    assert r.stats["engine"] != "learners" and r.value == exact


def test_a_cancel_stops_the_search_with_proven_bounds():
    """Control(cancel=...) set before the run: the search stops at its first look at the clock, with proven bounds
    and stopped == "cancelled"."""
    import threading

    from solvers.opt import Control

    ev = threading.Event()
    ev.set()
    C = make("decision-lists", n=4)
    r = opt(C, control=Control(cancel=ev), anytime=False)
    assert r.stats["stopped"] == "cancelled" and r.stopped == "cancelled" and 0 <= r.lower <= r.upper
    if r.tree is not None:
        assert verify_tree(r.tree.to_json(), C) == r.lower


def test_opt_has_its_own_signature_and_docstring():
    import inspect

    import solvers
    from solvers import opt as from_solvers

    sig = inspect.signature(solvers.opt)
    assert {"time_limit", "jobs", "engine", "control", "tuning", "bounds"} <= set(sig.parameters)
    assert inspect.signature(from_solvers) == sig and "Littlestone dimension" in from_solvers.__doc__
    r = from_solvers(make("thresholds", N=7))
    assert r.value == 3 and type(r.stats).__name__ == "Stats" and r.stats.engine == r.stats["engine"]
    assert dict(r.stats)["engine"] == r.stats.get("engine") and "nodes" in r.stats
