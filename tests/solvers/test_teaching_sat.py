"""TD and RTD as constraint problems (issue 37, part 2): the "sat" route of :mod:`solvers.params.teaching` (a
branch and bound over bitsets, the value's lower side refuted by a SAT solver and checked by a second route)
against the "search" route and against brute forces written here from the definitions (every set of points,
smallest first), on random small classes (hypothesis) and on classes whose values are published; the solver's
and the second route's refutations each against the brute force; stopped runs' bounds sound wherever the clock
stops them; a finder that returns a set too large is caught by the solver, never reported as the value."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates.params import check
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import teaching

WARMUTH = ["11000", "01100", "00110", "00011", "10001", "11010", "01101", "10110", "01011", "10101"]


# ------------------------------------------------------------------------------------------ brute forces
def teaches(M, alive, c, S) -> bool:
    """No concept of ``alive`` but c agrees with c on every point of S."""
    return not any(all(M[h][x] == M[c][x] for x in S) for h in alive if h != c)


def td_of(M, alive, c) -> int:
    """The size of a smallest teaching set of c among ``alive``: every set of points, smallest first."""
    n = len(M[0])
    return next(k for k in range(n + 1) if any(teaches(M, alive, c, S) for S in itertools.combinations(range(n), k)))


def td_brute(M) -> int:
    return max(td_of(M, range(len(M)), c) for c in range(len(M)))


def peeling_brute(M) -> list:
    """The peeling of Zilles et al.: the concepts of least TD among those left, removed together, each step's
    (least TD, concepts)."""
    alive, steps = list(range(len(M))), []
    while alive:
        tds = {c: td_of(M, alive, c) for c in alive}
        low = min(tds.values())
        steps.append((low, sorted(c for c in alive if tds[c] == low)))
        alive = [c for c in alive if tds[c] != low]
    return steps


def rtd_brute(M) -> int:
    return max(size for size, _ in peeling_brute(M))


def cls(rows) -> ConceptClass:
    return ConceptClass.from_matrix(np.array(rows, dtype=bool).reshape(len(rows), -1))


@st.composite
def classes(draw, max_points=6, max_concepts=12):
    n = draw(st.integers(1, max_points))
    m = draw(st.integers(1, max_concepts))
    rows = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=m, max_size=m))
    return cls(rows)


def rows_of(C) -> list:
    return [[int(v) for v in r] for r in np.asarray(C.matrix)]


# ------------------------------------------------------------------------------------------ against the definitions
@settings(max_examples=80, deadline=None)
@given(classes())
def test_td_routes_against_the_definition(C):
    M = rows_of(C)
    sat, old = teaching.search(C, "td", method="sat"), teaching.search(C, "td", method="search")
    assert sat.value == old.value == td_brute(M)
    w = sat.witness
    # every concept's set is one of its smallest teaching sets, and the hardest concept needs the value
    for c in range(C.n_concepts):
        S = w["sets"][str(c)]
        assert teaches(M, range(len(M)), c, S) and len(S) == td_of(M, range(len(M)), c)
    assert len(w["teaching_set"]) == sat.value == len(w["sets"][str(w["concept"])])
    assert w["lower"] == ({"by": teaching.SOLVER, "refuted": sat.value - 1, "checked_by": "exhaustive"} if sat.value
                          else {"by": "bound", "text": "no teaching set is smaller than the empty one"})
    assert check(C, "td", sat.to_json())[0]
    json.dumps(sat.to_json())  # JSON as it is (no numpy numbers)


@settings(max_examples=80, deadline=None)
@given(classes())
def test_rtd_routes_against_the_definition(C):
    M = rows_of(C)
    sat, old = teaching.search(C, "rtd", method="sat"), teaching.search(C, "rtd", method="search")
    steps = peeling_brute(M)
    assert sat.value == old.value == max(size for size, _ in steps)
    # the same canonical peeling: each step's least TD and every concept of it
    assert [(s["size"], sorted(s["concepts"])) for s in sat.witness["steps"]] == steps
    alive = list(range(len(M)))
    for s in sat.witness["steps"]:
        assert all(teaches(M, alive, c, S) and len(S) == s["size"] for c, S in zip(s["concepts"], s["sets"]))
        alive = [c for c in alive if c not in s["concepts"]]
    j = sat.witness["lower"]["step"]
    assert sat.witness["steps"][j]["size"] == sat.value
    assert all(s["size"] < sat.value for s in sat.witness["steps"][j + 1:])  # the last step of the value
    assert check(C, "rtd", sat.to_json())[0]
    json.dumps(sat.to_json())


@settings(max_examples=60, deadline=None)
@given(classes(max_points=11, max_concepts=40))
def test_the_routes_agree_on_larger_classes(C):
    """Up to 40 concepts on 11 points, past what the brute force takes: the two routes, written apart, agree on
    TD, on every concept's smallest teaching set's size and on the peeling."""
    for key in ("td", "rtd"):
        sat, old = teaching.search(C, key, method="sat"), teaching.search(C, key, method="search")
        assert sat.value == old.value
        if key == "td":
            assert {c: len(S) for c, S in sat.witness["sets"].items()} == {
                c: len(S) for c, S in old.witness["sets"].items()}
        else:
            assert [(s["size"], s["concepts"]) for s in sat.witness["steps"]] == [
                (s["size"], s["concepts"]) for s in old.witness["steps"]]
        assert check(C, key, sat.to_json())[0]


@pytest.mark.parametrize("dominators", [0, 1, 100])
def test_rtd_carries_its_bounds_soundly(monkeypatch, dominators):
    """The bounds RTD carries from a round to the next, lowered for every concept peeled (0 looked at for one
    between), for those of the nearest concept left alone, or for those no concept left dominates: the same
    peeling as the search, on classes of many rounds."""
    monkeypatch.setattr(teaching, "DOMINATORS", dominators)
    rng = np.random.default_rng(6)
    for C in [make("thresholds", N=30), make("intervals", N=9), make("conjunctions", n=3, false=0),
              *(ConceptClass.from_matrix(rng.random((40, 10)) < p) for p in (0.2, 0.5, 0.8))]:
        sat, old = teaching.search(C, "rtd", method="sat"), teaching.search(C, "rtd", method="search")
        assert [(s["size"], s["concepts"]) for s in sat.witness["steps"]] == [
            (s["size"], s["concepts"]) for s in old.witness["steps"]]


@settings(max_examples=60, deadline=None)
@given(classes(max_points=7, max_concepts=16), st.data())
def test_each_refutation_against_the_definition(C, data):
    """The SAT solver's CNF, the numpy route and CP-SAT's model each say "no set of k points teaches c" exactly
    when the brute force does; a set the solver returns teaches c."""
    M = rows_of(C)
    m, n = C.n_concepts, C.n_points
    alive = sorted(data.draw(st.sets(st.integers(0, m - 1), min_size=1)))
    c = data.draw(st.sampled_from(alive))
    k = data.draw(st.integers(0, n))
    none = td_of(M, alive, c) > k
    found = teaching.sat_refutes(C.matrix, alive, c, k)
    assert (found is None) == none
    if found is not None:
        assert len(found) <= k and teaches(M, alive, c, found)
    assert teaching.none_teach(C.matrix, alive, [c], k) == none
    assert teaching.none_teach(C.matrix, alive, alive, k) == all(td_of(M, alive, h) > k for h in alive)
    assert teaching.cpsat_refutes(C.matrix, alive, c, k)[0] == none


# ------------------------------------------------------------------------------------------ published values
@pytest.mark.parametrize("family, params, td, rtd", [
    # the empty concept needs every point; each singleton is taught by its own point, then the empty one by none
    ("singletons", {"N": 6}, 6, 1),
    # a threshold by the two points around it; peeled from the ends, one point each
    ("thresholds", {"N": 9}, 2, 1),
    ("all-functions", {"n": 4}, 4, 4),
    # monotone conjunctions on {0,1}^n: the conjunction of every variable needs the n points with one 0; peeled
    # from the constant 1 up, each by its own point (its variables set, the others 0)
    ("monotone-conjunctions", {"n": 4}, 4, 1),
    # conjunctions of literals: n + 1 points (Goldman and Kearns), or 2^n with the empty concept (each minterm's
    # point); RTD 2 (Zilles et al.: two examples teach a monomial)
    ("conjunctions", {"n": 3, "false": 0}, 4, 2),
    ("conjunctions", {"n": 3}, 8, 2),
    # intervals: the two ends and the two points outside; RTD 2 = VC
    ("intervals", {"N": 7, "empty": 0}, 4, 2),
    ("intervals", {"N": 7}, 7, 2),
])
@pytest.mark.parametrize("method", ["sat", "search"])
def test_published_values(family, params, td, rtd, method):
    C = make(family, **params)
    got = {k: teaching.search(C, k, method=method) for k in ("td", "rtd")}
    assert (got["td"].value, got["rtd"].value) == (td, rtd)
    for k, p in got.items():
        assert check(C, k, p.to_json())[0], k


def test_warmuths_class():
    """Ten concepts on five points, VC 2 and RTD 3 (Doliwa et al.): no concept has a teaching set of 2 points."""
    C = cls([[int(v) for v in row] for row in WARMUTH])
    r = teaching.search(C, "rtd", method="sat")
    assert r.value == 3 == rtd_brute(rows_of(C))
    assert [(s["size"], len(s["concepts"])) for s in r.witness["steps"]] == [(3, 10)]
    assert r.witness["lower"] == {"by": teaching.SOLVER, "refuted": 2, "checked_by": "exhaustive", "step": 0}


@pytest.mark.parametrize("seed", [1, 2])
def test_the_routes_agree_on_random_classes(seed):
    """40 concepts on 12 points: the same TD, the same peeling."""
    C = ConceptClass.from_matrix(np.random.default_rng(seed).integers(0, 2, (40, 12)).astype(bool))
    for key in ("td", "rtd"):
        sat, old = teaching.search(C, key, method="sat"), teaching.search(C, key, method="search")
        assert sat.value == old.value
        if key == "rtd":
            assert [(s["size"], s["concepts"]) for s in sat.witness["steps"]] == [
                (s["size"], s["concepts"]) for s in old.witness["steps"]]
        assert check(C, key, sat.to_json())[0]


def test_auto_takes_the_search_on_tiny_classes():
    tiny, larger = make("thresholds", N=7), make("thresholds", N=40)
    assert "lower" not in teaching.search(tiny, "td").witness  # the search's witness
    assert teaching.search(larger, "td").witness["lower"]["by"] == teaching.SOLVER


# ------------------------------------------------------------------------------------------ the second route
def test_cp_sat_checks_where_every_set_is_too_many(monkeypatch):
    monkeypatch.setattr(teaching, "EXHAUSTIVE_CELLS", 0)
    C = ConceptClass.from_matrix(np.random.default_rng(3).integers(0, 2, (30, 10)).astype(bool))
    for key in ("td", "rtd"):
        r = teaching.search(C, key, method="sat")
        assert r.witness["lower"]["checked_by"] == "cp-sat", key
        assert r.value == teaching.search(C, key, method="search").value


def test_no_second_route_when_cp_sat_has_no_work_left(monkeypatch):
    monkeypatch.setattr(teaching, "EXHAUSTIVE_CELLS", 0)
    monkeypatch.setattr(teaching, "CPSAT_BUDGET", 0.0)
    r = teaching.search(make("intervals", N=9), "td", method="sat")
    assert r.value == 9 and r.witness["lower"] == {"by": teaching.SOLVER, "refuted": 8,
                                                   "unchecked": "CP-SAT's work for the second route (0) is used up"}


def test_a_finder_that_misses_a_smaller_set_is_caught(monkeypatch):
    """With the branch and bound finding nothing better than the greedy sets (larger than the smallest, here),
    the SAT solver's refutation fails, loudly: a wrong value is never returned."""
    C = ConceptClass.from_matrix(np.random.default_rng(4).integers(0, 2, (40, 12)).astype(bool))
    monkeypatch.setattr(teaching, "smallest_teaching_set", lambda *a, **k: None)
    with pytest.raises(RuntimeError, match="SAT solver teaches concept"):
        teaching.search(C, "td", method="sat")


# ------------------------------------------------------------------------------------------ stopped runs
class LeapingClock:
    """A clock that moves a second each time it is read, from 0: a time limit of k - 0.5 seconds stops the search
    at its k-th look at the clock, whatever the machine's speed."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 1.0
        return self.now


class CtrlC:
    """``interrupts.check`` that raises KeyboardInterrupt at its k-th call, as a Ctrl-C there."""

    def __init__(self, k):
        self.k = k

    def __call__(self):
        self.k -= 1
        if self.k <= 0:
            raise KeyboardInterrupt


@pytest.mark.parametrize("key", ["td", "rtd"])
@pytest.mark.parametrize("how", ["time limit", "Ctrl-C"])
def test_stopped_runs_report_sound_bounds(monkeypatch, key, how):
    """Stopped at every look in turn (by the time limit or a Ctrl-C), the bounds hold the value and there is no
    witness, or the value with a witness that checks (the lower side by the branch and bound alone where the time
    ran out in the proof); the first run that the solver proves is exact and checks."""
    C = ConceptClass.from_matrix(np.random.default_rng(5).integers(0, 2, (30, 9)).astype(bool))
    value = teaching.search(C, key, method="search").value
    seen = set()
    for k in range(1, 1000):
        if how == "time limit":
            monkeypatch.setattr(teaching, "_clock", LeapingClock())
            r = teaching.search(C, key, method="sat", time_limit=k - 0.5)
        else:
            monkeypatch.setattr(teaching.interrupts, "check", CtrlC(k))
            r = teaching.search(C, key, method="sat")
        assert r.lower <= value <= r.upper, (k, r)
        seen.add((r.lower, r.upper))
        if r.witness:
            assert r.value == value and check(C, key, r.to_json())[0]
            if r.witness["lower"]["by"] == teaching.SOLVER:
                break
        else:
            assert r.value is None  # a value comes with its witness (the CLI printed 'concept None' without)
    else:
        pytest.fail("the search never finished")
    assert len(seen) > 2  # stopped with several different bounds on the way


def test_a_time_limit_during_the_proof_leaves_the_branch_and_bound(monkeypatch):
    """The proof looks at the clock between the SAT solver's budgets: stopped there, the value stands, its lower
    side proven by the branch and bound alone, and the witness says so."""
    calls = []

    def late(M, alive, c, k, look=None):
        calls.append(c)
        raise teaching._Stop

    monkeypatch.setattr(teaching, "sat_refutes", late)
    r = teaching.search(make("intervals", N=9), "rtd", method="sat")
    assert calls and r.value == 2
    assert r.witness["lower"] == {"by": "branch and bound", "refuted": 1, "unchecked": "no time left for the SAT solver",
                                  "step": r.witness["lower"]["step"]}


# ------------------------------------------------------------------------------------------ bad input
def test_bad_arguments_are_one_line_errors():
    C = make("thresholds", N=4)
    with pytest.raises(ValueError, match="unknown method 'fast'; choose from: auto, search, sat"):
        teaching.search(C, "td", method="fast")
    with pytest.raises(ValueError, match="'td' or 'rtd', not 'vc'"):
        teaching.search(C, "vc")


@pytest.mark.parametrize("key", ["td", "rtd"])
def test_equal_concepts_are_refused(key):
    class Twins:  # a matrix with two equal rows (a ConceptClass merges them)
        matrix = np.array([[0, 1, 1], [0, 1, 1], [1, 0, 0]], dtype=bool)
        n_concepts, n_points = 3, 3

    for method in ("sat", "search"):
        with pytest.raises(ValueError, match="two concepts of the class are equal"):
            teaching.search(Twins(), key, method=method)
