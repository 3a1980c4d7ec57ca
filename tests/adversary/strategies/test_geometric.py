"""The geometric adversary against the Perceptron on margin halfspaces ([Mehta], Theorem 2).

Every sequence it returns is turned into a witness and re-checked by the referee, in floating point
and, where the points are rationals, in exact arithmetic; no count may exceed R^2/gamma^2 (a theorem),
and in dimension d >= R^2/gamma^2 it must reach floor(R^2/gamma^2).

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adversary.referee import witness_class, make_witness, verify_witness
from adversary.strategies.base import Problem, StrategyError
from adversary.strategies.geometric import CONVENTIONS, STRATEGY, _dp_sets
from solvers.classes.families import make

LEARNERS = ["perceptron", "sklearn-perceptron"]


def _learner(name):
    if name == "sklearn-perceptron":
        pytest.importorskip("sklearn")
    return name


def attack(learner, d, gamma, R=1, *, seed=0, params=None):
    spec = {"family": "margin-halfspaces", "params": {"d": d, "gamma": gamma, "R": R}}
    H = witness_class(spec)
    params = {"d": d} if params is None else params
    found = STRATEGY.run(Problem(learner, params, H, spec, seed=seed))
    witness = make_witness(learner, params, spec, found.sequence, found.target)
    return found, witness


def floor_bound(gamma, R=1):
    return math.floor(Fraction(str(R)) ** 2 / Fraction(str(gamma)) ** 2)


def verified(witness, exact):
    text = json.loads(json.dumps(witness))  # as a file would carry it
    r = verify_witness(text, exact=exact)
    assert r.ok, r.message
    return r.mistakes


# ---------------------------------------------------------------------------------------- high dimension
@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("d, gamma, R", [(4, "0.5", 1), (9, "1/3", 1), (4, 1, 2), (12, "0.3", 1), (11, "0.3", 1),
                                         (9, "1/2", "3/2"), (7, "0.4", 1), (1, 1, 1)])
def test_meets_the_bound_when_d_is_large(learner, d, gamma, R):
    found, w = attack(_learner(learner), d, gamma, R)
    m = floor_bound(gamma, R)
    assert d >= m
    assert found.mistakes == w["mistakes"] == m
    assert found.exact and found.stats["construction"] == "orthogonal" and found.stats["exact_check"]
    assert verified(w, exact=False) == verified(w, exact=True) == m


def test_classic_sequence_is_the_orthogonal_one():
    found, w = attack("perceptron", 4, "0.5")
    assert [x for x, _ in found.sequence] == [(-1, 0, 0, 0), (0, -1, 0, 0), (0, 0, -1, 0), (0, 0, 0, -1)]
    assert {y for _, y in found.sequence} == {0}
    assert w["target"] == {"w": ["1/2", "1/2", "1/2", "1/2"]}
    # scikit-learn predicts 0 on <w, x> = 0, so its sequence is the same points with label 1
    assert CONVENTIONS["sklearn-perceptron"] == (1, 1) and CONVENTIONS["perceptron"] == (-1, 0)


def test_irrational_unit_target_still_verifies_exactly():
    found, w = attack("perceptron", 11, "0.3")   # m = 11, 1/sqrt(11) irrational: a float target
    assert found.mistakes == 11 and isinstance(w["target"]["w"][0], float)
    assert verified(w, exact=True) == 11


def test_margin_perceptron_is_attacked_but_not_called_exact():
    found, w = attack("perceptron", 4, "0.5", params={"d": 4, "margin": "1/2"})
    assert found.mistakes == 4 and not found.exact   # its bound is (R^2 + 2 margin)/gamma^2 = 8
    assert verified(w, exact=True) == 4


# ---------------------------------------------------------------------------------------- low dimension
@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("gamma", ["0.3", "0.2", "0.1"])
def test_plane_dp(learner, gamma):
    found, w = attack(_learner(learner), 2, gamma)
    m = floor_bound(gamma)
    assert 0 < found.mistakes <= m
    assert found.mistakes == found.stats["dp_value"] >= found.stats["rollout_best"]
    assert not found.exact
    assert verified(w, exact=False) == verified(w, exact=True) == found.mistakes
    # about half of R^2/gamma^2: 6 of 11.1, 13 of 25, 50 of 100
    assert found.mistakes == {"0.3": 6, "0.2": 13, "0.1": 50}[gamma]


def test_plane_dp_sets_shrink_to_nothing():
    S, V, K = _dp_sets(0.3, math.sqrt(1 - 0.09), 11)
    assert K == 6 and len(S) == 7 and all(V[k] for k in range(K + 1))
    assert V[0] == [(0.0, 0.0)]


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("d", [3, 5])
def test_spiral_meets_the_bound_in_three_dimensions(learner, d):
    found, w = attack(_learner(learner), d, "0.3")   # R^2/gamma^2 = 11.1: slack, so all 11 fit
    assert found.stats["construction"] == "spiral"
    assert found.mistakes == 11 and found.exact
    assert verified(w, exact=True) == 11


def test_spiral_in_a_tight_case_loses_only_the_last_move():
    found, w = attack("perceptron", 3, "0.2")        # R^2/gamma^2 = 25 exactly
    assert found.mistakes == 24 and not found.exact and "integer" in found.stats["note"]
    assert verified(w, exact=True) == 24


def test_one_dimension_and_empty_class():
    found, w = attack("perceptron", 1, "0.1")
    assert found.mistakes == 1 and found.exact and verified(w, exact=True) == 1
    with pytest.raises(ValueError, match="is empty") as info:  # gamma > R: no point has the margin
        attack("perceptron", 3, 2, 1)
    assert "give gamma <= R" in str(info.value) and "\n" not in str(info.value)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 6), st.fractions(Fraction(3, 20), Fraction(6, 5), max_denominator=20),
       st.sampled_from([1, 2, "1/2"]), st.integers(0, 3))
def test_never_above_the_theorem_and_always_verified(d, gamma, R, seed):
    R = Fraction(str(R))
    if R / gamma > 7 or gamma > R:  # keep R^2/gamma^2 <= 49 so the test stays fast; gamma > R is refused (empty)
        return
    found, w = attack("perceptron", d, str(gamma), str(R), seed=seed)
    m = math.floor(R * R / (gamma * gamma))
    assert found.mistakes <= m                        # [Mehta]'s Theorem 2
    assert verified(w, exact=False) == found.mistakes == verified(w, exact=True)
    if d >= m or (d >= 3 and (R * R / (gamma * gamma)).denominator != 1):
        assert found.mistakes == m                    # the orthogonal sequence, or the spiral with slack
    if d == 2 and m >= 1:
        assert found.mistakes >= 1


def test_seeded():
    a, _ = attack("perceptron", 2, "0.25", seed=3)
    b, _ = attack("perceptron", 2, "0.25", seed=3)
    assert a.sequence == b.sequence and a.stats["rollout_best"] == b.stats["rollout_best"]


# ---------------------------------------------------------------------------------------- refusals
def test_rejects_other_learners_and_classes():
    spec = {"family": "margin-halfspaces", "params": {"d": 2, "gamma": "0.5"}}
    with pytest.raises(StrategyError) as info:
        STRATEGY.check(Problem("winnow2", {"n": 2}, witness_class(spec), spec))
    text = str(info.value)
    assert "geometric attacks the Perceptron" in text and "winnow2" in text and "\n" not in text
    C = make("thresholds", N=3)
    with pytest.raises(StrategyError) as info:
        STRATEGY.run(Problem("perceptron", {"d": 1}, C, {"family": "thresholds", "params": {"N": 3}}))
    assert "margin-halfspaces" in str(info.value) and "\n" not in str(info.value)


def test_rejects_a_learner_of_another_dimension():
    spec = {"family": "margin-halfspaces", "params": {"d": 3, "gamma": "0.5"}}
    with pytest.raises(StrategyError, match="d=2 but the points of margin-halfspaces d=3 .* give d=3"):
        STRATEGY.run(Problem("perceptron", {"d": 2}, witness_class(spec), spec))


# ---------------------------------------------------------------------------------------- through attack
def test_through_attack_is_tight():
    from adversary.attack import attack as attack_fn

    H = witness_class({"family": "margin-halfspaces", "params": {"d": 4, "gamma": "0.5"}})
    result = attack_fn("perceptron", H, strategy="geometric", seed=0)
    assert result.mistakes == 4 and result.verdict == "tight"
    assert verify_witness(result.witness, exact=True).ok


def test_check_dimension_refuses_points_that_cannot_fit():
    """The estimate: floor(R^2/gamma^2) + 2 points of d coordinates, BYTES_PER_COORDINATE each, within half the
    memory; the message says the estimate and the largest d that fits."""
    from adversary.referee import witness_class
    from adversary.strategies.base import StrategyError
    from adversary.strategies.geometric import BYTES_PER_COORDINATE, check_dimension

    H = witness_class({"family": "margin-halfspaces", "params": {"d": 10**8, "gamma": 0.2}})
    with pytest.raises(StrategyError, match=r"about 27 points of d = 100,000,000 coordinates.*give d <= 1,000,000; "
                                            r"every d >= 25"):
        check_dimension(H, memory=2 * 27 * BYTES_PER_COORDINATE * 10**6)
    check_dimension(H, memory=2 * 27 * BYTES_PER_COORDINATE * 10**8)  # fits: no error
