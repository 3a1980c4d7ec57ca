"""The exact adversary's game search (randomized learners, k label errors) against the brute force of
tests/oracles.py, which plays the rules out literally (deep copies of the learner, its probabilities
summed, budgets per concept) and shares nothing with the search but the learner protocol.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from adversary.referee import make_witness, verify_witness
from adversary.strategies.base import Found, Problem, StrategyError
from adversary.strategies.exact import ExactStrategy
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.learners import make_learner
from solvers.learners.randomized_halving import harmonic_fraction
from tests.oracles import expected_adversary_brute, rk_brute, dk_brute

SETTINGS = settings(max_examples=int(__import__("os").environ.get("GAME_EXAMPLES", 25)), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_classes(draw, max_concepts=4, max_points=3):
    m = draw(st.integers(1, max_concepts))
    N = draw(st.integers(1, max_points))
    rows = draw(st.lists(st.lists(st.integers(0, 1), min_size=N, max_size=N), min_size=m, max_size=m))
    return ConceptClass(rows)


def problem(name, C, params=None, errors=0):
    L = make_learner(name, dict(params or {}), C)
    return Problem(name, L.get_params(), C, C.to_spec(), errors=errors)


def brute(name, C, params=None, errors=0, horizon=None):
    L = make_learner(name, dict(params or {}), C)
    return expected_adversary_brute(L, C.matrix.astype(int).tolist(), list(C.points), errors=errors, horizon=horizon)


def check_found(found: Found, name, C, params=None, errors=0):
    """The sequence is a witness the referee accepts, with the (expected) mistakes the search claims."""
    L = make_learner(name, dict(params or {}), C)
    extra = {} if found.cycle is None else {"cycle": {"start": found.cycle[0], "length": found.cycle[1]}}
    w = make_witness(name, L.get_params(), C, found.sequence, found.target, extra=extra, errors=errors)
    claimed = Fraction(w["expected_mistakes"]) if L.randomized else w["mistakes"]
    assert claimed == found.mistakes
    r = verify_witness(w)
    assert r.ok, r.message


# ------------------------------------------------------------------------------------------ against the brute force
# Learners whose game ends (their distribution is a function of the game state): the search settles.
SETTLING = [("randomized-halving", {}, 0), ("rand-soa", {}, 0), ("rand-soa", {"errors": 1}, 1),
            ("rand-soa", {"errors": 1}, 0), ("soa", {"errors": 1}, 1), ("soa", {"errors": 2}, 2)]


@SETTINGS
@given(small_classes(), st.sampled_from(SETTLING), st.booleans())
def test_game_search_equals_brute_force(C, case, prune):
    name, params, errors = case
    found = ExactStrategy(prune=prune).run(problem(name, C, params, errors))
    assert found.exact and found.cycle is None
    assert found.mistakes == brute(name, C, params, errors)
    check_found(found, name, C, params, errors)


# Weighted majority's states never repeat: compare the worst case within a horizon.
HORIZON = [("randomized-weighted-majority", {}, 0), ("randomized-weighted-majority", {"beta": "1/3"}, 1),
           ("weighted-majority", {}, 1), ("rand-soa", {"errors": 1}, 1), ("randomized-halving", {}, 0)]


@SETTINGS
@given(small_classes(max_concepts=3), st.sampled_from(HORIZON), st.integers(0, 3))
def test_game_search_within_a_horizon_equals_brute_force(C, case, T):
    name, params, errors = case
    found = ExactStrategy(horizon=T).run(problem(name, C, params, errors))
    check_found(found, name, C, params, errors)
    if found.cycle is None:
        assert found.mistakes == brute(name, C, params, errors, horizon=T)
        assert len(found.sequence) <= T


@SETTINGS
@given(small_classes(max_concepts=3, max_points=2))
def test_winnow_with_label_errors_equals_brute_force(C):
    """A vector learner with label errors (Winnow2 on 0/1 points): a deterministic gain, the levels."""
    pts = [(j >> 1 & 1, j & 1) for j in range(C.n_points)]
    D = ConceptClass(C.matrix.astype(int).tolist(), pts)
    found = ExactStrategy(horizon=4).run(problem("winnow2", D, {}, 1))
    check_found(found, "winnow2", D, {}, 1)  # a cycle is verified by the referee (same state and levels, a gain)
    if found.cycle is None:
        assert found.mistakes == brute("winnow2", D, {}, 1, horizon=4)


# ------------------------------------------------------------------------------------------ known values
@pytest.mark.parametrize("N", [1, 2, 3, 6, 15])
def test_randomized_halving_on_thresholds_is_its_bound(N):
    """The sequence 1, 2, ..., N labelled 0 leaves |V| = N + 1, N, ..., 2 and costs 1/(N + 1) + ... + 1/2."""
    C = make("thresholds", N=N)
    found = ExactStrategy().run(problem("randomized-halving", C))
    assert found.exact and found.mistakes == harmonic_fraction(N + 1) - 1
    check_found(found, "randomized-halving", C)


@pytest.mark.parametrize("family,params,errors", [("thresholds", {"N": 5}, 0), ("intervals", {"N": 4}, 0),
                                                  ("monotone-disjunctions", {"n": 3, "k": 1}, 0),
                                                  ("thresholds", {"N": 3}, 1), ("all-functions", {"n": 1}, 2)])
def test_rand_soa_worst_case_is_its_optimum(family, params, errors):
    C = make(family, **params)
    found = ExactStrategy().run(problem("rand-soa", C, {"errors": errors}, errors))
    assert found.exact and found.mistakes == rk_brute(C.matrix.astype(int).tolist(), errors)


@pytest.mark.parametrize("family,params,errors", [("thresholds", {"N": 7}, 1), ("all-functions", {"n": 1}, 2),
                                                  ("monotone-disjunctions", {"n": 2, "k": 1}, 1)])
def test_soa_with_label_errors_meets_d_k(family, params, errors):
    C = make(family, **params)
    found = ExactStrategy().run(problem("soa", C, {"errors": errors}, errors))
    assert found.exact and found.mistakes == dk_brute(C.matrix.astype(int).tolist(), errors)
    check_found(found, "soa", C, {"errors": errors}, errors)


def test_a_loop_that_costs_with_the_learner_unchanged_is_a_cycle():
    """With one label error, a point every concept labels 1 may be labelled 0 once; a learner that predicts 1
    there and does not change pays on every repetition only while budgets are spent, so the loop label (1,
    which all living concepts give) must cost something to be a cycle: a learner that predicts 0 on the
    constant point and never updates is charged 1 by the label 1 for ever."""
    from solvers.learners import LEARNERS, register, unregister
    from solvers.learners.base import Bound, OnlineLearner, check_label, cite

    class Stubborn(OnlineLearner):
        name = "stubborn-example"
        bound_formula = "none"
        bound_source = cite("Rivest94")

        def predict_one(self, x):
            return 0

        def learn_one(self, x, y):
            check_label(y)

        def state_key(self):
            return 0

        def get_params(self):
            return {}

        def mistake_bound(self):
            return Bound(float("inf"), "none", self.bound_source)

    register(Stubborn)
    try:
        C = ConceptClass([[1, 0], [1, 1]])
        found = ExactStrategy().run(problem("stubborn-example", C, {}, 1))
        assert found.cycle is not None and found.exact
        check_found(found, "stubborn-example", C, {}, 1)
    finally:
        unregister("stubborn-example")
    assert "stubborn-example" not in LEARNERS


def test_weighted_majority_without_a_time_limit_stops_with_patience(monkeypatch):
    import adversary.strategies.exact as exact_module

    monkeypatch.setattr(exact_module, "PATIENCE", 0.3)
    C = make("thresholds", N=3)
    found = ExactStrategy().run(problem("rwm", C))
    assert not found.exact and found.stats["stopped"] == "patience" and found.stats["horizon"] >= 8
    assert found.mistakes > 0
    check_found(found, "randomized-weighted-majority", C)


def test_horizon_must_be_a_whole_number():
    with pytest.raises(ValueError, match="horizon"):
        ExactStrategy(horizon=-1)
    with pytest.raises(StrategyError, match="refuses labels"):
        ExactStrategy().run(problem("randomized-halving", make("thresholds", N=2), {}, 1))
