"""VC, dual VC, threshold dimension and star number as constraint problems (issue 37): each CP-SAT model and each CNF
of the second route against a brute force from the definition at every size, the three routes of
:func:`solvers.params.compute` (search, sat, auto) against each other and the brute force on random small classes
(hypothesis), the catalogue classes' star numbers (16 and 5), stopped runs that keep sound bounds, the witness's
account of its upper bound through the checker, the store and the command line."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates.params import check, check_bounds
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import compute, sat
from solvers.params.orbits import concept_representatives, point_representatives
from tests.oracles import vc_brute
from tests.solvers.test_params import star_brute, threshold_brute

from ..adversary.cli.checks import run

KEYS4 = ("vc", "dual_vc", "threshold", "star")
BRUTE = {"vc": vc_brute, "dual_vc": lambda M: vc_brute(M.T), "threshold": threshold_brute, "star": star_brute}


@st.composite
def matrices(draw, max_points=5, max_concepts=9):
    n = draw(st.integers(1, max_points))
    m = draw(st.integers(1, max_concepts))
    rows = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=m, max_size=m))
    return np.array(rows, dtype=bool)


def cpsat_feasible(model) -> bool:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    sat.cpsat_parameters(solver, None)
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return status != cp_model.INFEASIBLE


def cnf_satisfiable(clauses) -> bool:
    from pysat.solvers import Solver

    with Solver(name=sat.CHECKER, bootstrap_with=clauses) as s:
        return s.solve()


def star_around(M, c) -> int:
    """The largest star with centre c, from the definition."""
    m, n = M.shape
    best = 0
    for k in range(1, n + 1):
        if any(all(any(M[h, x] != M[c, x] and all(M[h, y] == M[c, y] for y in S if y != x) for h in range(m))
                   for x in S) for S in itertools.combinations(range(n), k)):
            best = k
    return best


# ------------------------------------------------------------------------------------------ the encodings one by one
@settings(max_examples=40, deadline=None)
@given(matrices())
def test_each_model_and_each_cnf_at_every_size_against_the_definition(M):
    """'value >= k' is feasible exactly for k <= the brute force's value, in CP-SAT's model and in the CNF of the
    second route alike (the CNF on the whole matrix, the model on its reduction)."""
    C = ConceptClass.from_matrix(M)
    M = C.matrix
    m, n = M.shape
    values = {key: f(M) for key, f in BRUTE.items()}
    for d in range(1, min(n, 3) + 1):
        assert cpsat_feasible(sat.vc_model(M, d)[0]) == (values["vc"] >= d)
        assert cnf_satisfiable(sat.vc_cnf(M, d)) == (values["vc"] >= d)
    for t in range(1, min(m, n) + 2):
        model, read = sat.threshold_model(M, t)
        assert (read is not None and cpsat_feasible(model)) == (values["threshold"] >= t)
        assert cnf_satisfiable(sat.threshold_cnf(M, t)) == (values["threshold"] >= t)
    for s in range(1, n + 2):
        model, read = sat.star_model(M, s)
        assert (read is not None and cpsat_feasible(model)) == (values["star"] >= s)
    for c in range(m):
        around = star_around(M, c)
        for s in range(1, min(n, around + 1) + 1):
            assert cnf_satisfiable(sat.star_cnf(M, c, s)) == (around >= s)
            model, read = sat.star_model(M, s, [c])
            assert (read is not None and cpsat_feasible(model)) == (around >= s)


# ------------------------------------------------------------------------------------------ the routes of compute
@settings(max_examples=60, deadline=None)
@given(matrices())
def test_sat_route_equals_search_route_equals_the_definition(M):
    C = ConceptClass.from_matrix(M)
    truth = {key: f(C.matrix) for key, f in BRUTE.items()}
    for method in ("search", "sat", "auto"):
        got = compute(C, KEYS4, method=method)
        assert {k: p.value for k, p in got.items()} == truth, method
        for k, p in got.items():
            ok, why = check(C, k, p.to_json())
            assert ok, (method, k, why)
            up = p.witness["upper"]
            if method == "sat":
                assert up["by"] in ("cp-sat", "bound")
                if up["by"] == "cp-sat":  # the refutation, checked by the second route
                    assert up["refuted"] == p.value + 1 and up["checked_by"] == sat.CHECKER
            else:
                assert up["by"] in ("search", "bound", "opt")


@settings(max_examples=15, deadline=None)
@given(matrices(max_points=7, max_concepts=24))
def test_larger_classes_both_routes_and_the_brute_force(M):
    C = ConceptClass.from_matrix(M)
    search, by_sat = compute(C, ("threshold", "star"), method="search"), compute(C, ("threshold", "star"), method="sat")
    assert search["threshold"].value == by_sat["threshold"].value == threshold_brute(C.matrix)
    assert search["star"].value == by_sat["star"].value == star_brute(C.matrix)


@pytest.mark.parametrize("family, params, expected", [
    ("thresholds", {"N": 7}, {"vc": 1, "threshold": 7, "star": 2}),
    ("intervals", {"N": 6}, {"vc": 2, "threshold": 6, "star": 6}),
    ("intervals", {"N": 6, "empty": 0}, {"vc": 2, "threshold": 6, "star": 5}),
    ("singletons", {"N": 6}, {"vc": 1, "threshold": 1, "star": 6}),
    ("all-functions", {"n": 4}, {"vc": 4, "dual_vc": 2, "star": 4}),
])
@pytest.mark.parametrize("method", ["search", "sat"])
def test_known_values(family, params, expected, method):
    C = make(family, **params)
    got = compute(C, list(expected), method=method)
    assert {k: p.value for k, p in got.items()} == expected
    assert all(check(C, k, p.to_json())[0] for k, p in got.items())


# ------------------------------------------------------------------------------------------ the catalogue classes
def test_catalogue_classes_sizes_and_definitions():
    B = make("blockwise-addressing", d=4)
    assert (B.n_concepts, B.n_points) == (32, 33)
    m = 16  # f_i: z = 0, x = {x_i}, each block of 4 y's the bits of i - 1; g_i the same with x and y swapped, z = 1
    rows = set()
    for i in range(m):
        block = [(i >> (3 - k)) & 1 for k in range(4)]
        rows.add(tuple([0] + [int(j == i) for j in range(m)] + block * (m // 4)))
        rows.add(tuple([1] + block * (m // 4) + [int(j == i) for j in range(m)]))
    assert {tuple(int(v) for v in r) for r in B.matrix} == rows
    Q = make("qr-tournament", p=31)
    assert (Q.n_concepts, Q.n_points) == (31, 31)
    squares = {(x * x) % 31 for x in range(1, 31)}
    assert {tuple(int(v) for v in r) for r in Q.matrix} == {
        tuple(int((a - b) % 31 in squares) for b in range(31)) for a in range(31)}
    # a tournament: exactly one of a -> b, b -> a
    M = Q.matrix.astype(int)
    assert (M + M.T == 1 - np.eye(31, dtype=int)).all()


@pytest.mark.parametrize("params, bad", [({"d": 3}, "power of two"), ({"d": 1}, "power of two"),
                                         ({"p": 29}, r"3 \(mod 4\)"), ({"p": 15}, r"3 \(mod 4\)")])
def test_catalogue_classes_bad_parameters_are_one_line(params, bad):
    name = "blockwise-addressing" if "d" in params else "qr-tournament"
    with pytest.raises(ValueError, match=bad) as e:
        make(name, **params)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("method", ["search", "sat", "auto"])
@pytest.mark.parametrize("family, params, star", [("blockwise-addressing", {"d": 4}, 16), ("qr-tournament", {"p": 31}, 5)])
def test_catalogue_star_numbers(family, params, star, method):
    """The issue's values: 16 and 5, exact by every route; the SAT route's refutation checked by the second solver."""
    C = make(family, **params)
    p = compute(C, ["star"], method=method)["star"]
    assert p.value == star
    ok, why = check(C, "star", p.to_json())
    assert ok and f"star >= {star}" in why
    if method == "sat":
        assert p.witness["upper"] == {"by": "cp-sat", "refuted": star + 1, "checked_by": sat.CHECKER}


def test_catalogue_other_parameters_agree_between_routes():
    for C in (make("blockwise-addressing", d=2), make("qr-tournament", p=11)):
        a, b = compute(C, KEYS4, method="search"), compute(C, KEYS4, method="sat")
        assert {k: p.value for k, p in a.items()} == {k: p.value for k, p in b.items()}


def test_symmetry_orbits_leave_the_values_unchanged():
    """One centre (one last point) per orbit of the declared group, against the same matrix with no group."""
    Q = make("qr-tournament", p=19)
    assert concept_representatives(Q) == [0] and point_representatives(Q) == [0]
    R = ConceptClass.from_matrix(Q.matrix)
    assert concept_representatives(R) == list(range(19)) and point_representatives(R) == list(range(19))
    for method in ("search", "sat"):
        assert {k: p.value for k, p in compute(Q, ("threshold", "star"), method=method).items()} == \
            {k: p.value for k, p in compute(R, ("threshold", "star"), method="search").items()}


# ------------------------------------------------------------------------------------------ stopped runs
R200 = np.random.default_rng(1).integers(0, 2, (200, 24)).astype(bool)
#: Computed once by both searches (threshold 22 s and star stopped at 30 s before issue 37, seconds since).
R200_VALUES = {"vc": 6, "dual_vc": 4, "threshold": 11, "star": 10}


@pytest.mark.parametrize("method", ["search", "sat", "auto"])
@pytest.mark.parametrize("key", KEYS4)
def test_a_stopped_run_keeps_sound_bounds(key, method):
    C = ConceptClass.from_matrix(R200)
    p = compute(C, [key], method=method, time_limit=0.05)[key]
    truth = R200_VALUES[key]
    assert p.lower <= truth <= p.upper
    assert p.upper <= {"vc": 7, "dual_vc": 4, "threshold": 24, "star": 24}[key]  # never past the trivial bounds
    if p.witness.get("points") or p.witness.get("concepts"):
        assert check(C, key, p.to_json())[0]


def test_a_stopped_star_search_reports_the_smaller_of_the_points_and_the_concepts_less_one():
    """The issue's bug: a stopped star search said |X| where |C| - 1 is smaller."""
    rng = np.random.default_rng(3)
    C = ConceptClass.from_matrix(rng.integers(0, 2, (12, 60)).astype(bool))
    p = compute(C, ["star"], method="search", time_limit=0.0)["star"]
    assert p.upper == C.n_concepts - 1 < C.n_points


def test_ctrl_c_during_a_solve_keeps_the_bounds(monkeypatch):
    """A Ctrl-C seen while CP-SAT runs (here: the first look at interrupts) stops the solver and keeps the bounds."""
    from solvers import interrupts

    looks = []

    def check():
        looks.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(interrupts, "check", check)
    r = sat.star(R200, witness={"centre": 0, "points": []})
    assert looks and r.stopped == "interrupted" and r.lower <= R200_VALUES["star"] <= r.upper


# ------------------------------------------------------------------------------------------ the second route
def test_a_disagreement_of_the_two_solvers_is_an_error_not_a_number(monkeypatch):
    monkeypatch.setattr(sat, "_refuted_by_cnf", lambda clauses, clock: False)
    with pytest.raises(sat.Disagreement, match="an encoding is wrong"):
        sat.star(make("thresholds", N=3).matrix)


def test_a_cnf_too_large_is_left_unchecked_and_says_so(monkeypatch):
    monkeypatch.setattr(sat, "CNF_MAX_CLAUSES", 0)
    C = make("thresholds", N=5)
    p = compute(C, ["star"], method="sat")["star"]
    assert p.value == 2 and p.witness["upper"]["by"] == "cp-sat" and "checked_by" not in p.witness["upper"]
    assert "over 0" in p.witness["upper"]["unchecked"]
    ok, why = check(C, "star", p.to_json())
    assert ok and "not checked by a second solver" in why


def test_the_checker_counts_the_bounds_of_every_class_and_reports_the_rest():
    C = make("singletons", N=5)
    p = compute(C, ["star"], method="sat")["star"].to_json()
    assert check_bounds(C, "star", p)[2:] == (5, 5)  # |C| - 1 = 5: counted by the checker itself
    C = make("thresholds", N=5)
    p = compute(C, ["star"], method="sat")["star"].to_json()
    ok, why, lo, hi = check_bounds(C, "star", p)
    assert ok and (lo, hi) == (2, None) and "CP-SAT refuted 3 (checked by glucose4" in why
    forged = {**p, "witness": {**p["witness"], "upper": {"by": "bound"}}}
    assert check_bounds(C, "star", forged)[3] is None  # a bound claimed where the count says otherwise proves nothing


# ------------------------------------------------------------------------------------------ vc and Opt
def test_vc_stops_at_opt():
    """VC <= Opt: the search stops at a shattered set of Opt's size (monotone disjunctions: Opt = VC = n when k = n)."""
    C = make("monotone-disjunctions", n=5, k=2)
    p = compute(C, ["vc"])["vc"]
    assert p.value == vc_brute(C.matrix)
    assert check(C, "vc", p.to_json())[0]


# ------------------------------------------------------------------------------------------ the command line, the store
def test_cli_star_of_the_catalogue_class(capsys):
    code, out, err = run(capsys, "params", "blockwise-addressing", "d=4", "--only", "star", "--no-store", "--quiet")
    assert code == 0, err
    assert "32 concepts, 33 points" in out and " star         16 " in out and "check: OK: star >= 16" in out


def test_a_sat_result_goes_through_the_store_and_is_served(tmp_path):
    from adversary.store import class_key, param_task, record_of_param
    from adversary.workspace import Workspace
    from adversary.workspace.storage import put

    C = make("qr-tournament", p=11)
    p = compute(C, ["star"], method="sat")["star"]
    with Workspace(tmp_path / "r.db") as ws:
        assert put(ws.store, record_of_param(C, p), C) is None  # sealed: its witness checked as it is written
        assert ws.store.get("param", class_key(C), param_task("star")).lower_cert["witness"]["upper"]["by"] == "cp-sat"
    with Workspace(tmp_path / "r.db") as ws:
        again = ws.params(C, "star")
    assert again.served == ["star"] and again.values == {"star": p.value}
    assert again.results["star"]["witness"]["upper"]["by"] == "cp-sat" and not again.failed


# ------------------------------------------------------------------------------------------ helpers on wide sets
@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(0, 20_000), max_size=300))
def test_members_and_bits_of_read_and_write_wide_sets(positions):
    from solvers.params import bits_of, members

    v = sum(1 << p for p in positions)
    assert members(v) == sorted(positions)
    flags = np.zeros(20_001, dtype=bool)
    flags[list(positions)] = True
    assert bits_of(flags) == v


@settings(max_examples=30, deadline=None)
@given(matrices(max_points=8, max_concepts=6))
def test_distinct_columns_and_the_checkers_counts(M):
    from solvers.certificates.params import every_class_bound
    from solvers.params import distinct_columns

    cols = [tuple(M[:, x]) for x in range(M.shape[1])]
    firsts = [x for x in range(M.shape[1]) if cols[x] not in cols[:x]]
    assert distinct_columns(M) == firsts
    assert distinct_columns(M, nonzero=True) == [x for x in firsts if any(cols[x])]
    C = ConceptClass.from_matrix(M)
    assert every_class_bound(C, "dual_vc") == every_class_bound(ConceptClass.from_matrix(C.matrix.T), "vc")
