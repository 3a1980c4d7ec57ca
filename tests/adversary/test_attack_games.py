"""attack() in the games beyond Opt: randomized learners charged their exact expected mistakes, k label
errors; the worst cases that theory fixes come out (randomized halving's H_|C| - 1 on thresholds, RandSOA's
RL(C) and R_k(C), SOA's D_k(C)), every witness verifies, and the report names the game's optimum.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

import json
from fractions import Fraction

import pytest

from adversary.attack import attack
from adversary.referee import verify_witness
from solvers.classes.families import make
from solvers.learners.randomized_halving import harmonic_fraction
from tests.oracles import dk_brute, rk_brute, rl_brute


def ok(r):
    """The witness verifies from scratch (through JSON) and says what the result says."""
    w = json.loads(json.dumps(r.witness))
    v = verify_witness(w)
    assert v.ok, v.message
    if r.expected:
        assert isinstance(r.mistakes, Fraction) and v.expected == r.mistakes
        assert Fraction(w["expected_mistakes"]) == r.mistakes
    else:
        assert v.mistakes == r.mistakes == w["mistakes"]
    assert w.get("errors", 0) == r.errors
    out = r.to_json()
    json.dumps(out)
    return r


def rows(C):
    return C.matrix.astype(int).tolist()


@pytest.mark.parametrize("N", [1, 3, 7, 15])
def test_randomized_halving_on_thresholds_meets_its_bound(N):
    C = make("thresholds", N=N)
    r = ok(attack("randomized-halving", C, strategy="exact"))
    assert r.exact and r.expected and r.mistakes == harmonic_fraction(N + 1) - 1 == r.bound.value
    assert r.verdict == "tight" and r.opt_symbol == "RL"
    if N <= 7:
        assert r.opt == rl_brute(rows(C))
    assert r.to_json()["expected_mistakes"] == f"{r.mistakes.numerator}/{r.mistakes.denominator}"


def test_auto_picks_exact_for_randomized_learners():
    r = ok(attack("randomized-halving", make("thresholds", N=5), time_limit=20))
    assert r.strategy == "exact" and r.exact and r.verdict == "tight"


@pytest.mark.parametrize("family,params", [("thresholds", {"N": 5}), ("intervals", {"N": 4}),
                                           ("singletons", {"N": 4}), ("monotone-disjunctions", {"n": 3, "k": 1}),
                                           ("all-functions", {"n": 2})])
def test_rand_soa_worst_case_is_rl(family, params):
    C = make(family, **params)
    r = ok(attack("rand-soa", C, strategy="exact"))
    assert r.exact and r.mistakes == r.opt == r.bound.value == rl_brute(rows(C))
    assert r.verdict == "tight" and r.opt_symbol == "RL"


@pytest.mark.parametrize("family,params,k", [("thresholds", {"N": 3}, 1), ("all-functions", {"n": 1}, 2),
                                             ("singletons", {"N": 2}, 1)])
def test_rand_soa_with_label_errors_worst_case_is_r_k(family, params, k):
    C = make(family, **params)
    r = ok(attack("rand-soa", C, learner_params={"errors": k}, errors=k))
    assert r.strategy == "exact" and r.exact and r.errors == k
    assert r.mistakes == r.opt == r.bound.value == rk_brute(rows(C), k)
    assert r.verdict == "tight" and r.opt_symbol == f"R_{k}"


@pytest.mark.parametrize("family,params,k", [("thresholds", {"N": 7}, 1), ("all-functions", {"n": 1}, 2),
                                             ("monotone-disjunctions", {"n": 2, "k": 1}, 1)])
def test_soa_with_label_errors_worst_case_is_d_k(family, params, k):
    C = make(family, **params)
    r = ok(attack("soa", C, learner_params={"errors": k}, errors=k, strategy="exact"))
    assert r.exact and r.mistakes == r.opt == r.bound.value == dk_brute(rows(C), k)
    assert r.verdict == "tight" and r.opt_symbol == f"D_{k}" and not r.expected


def test_soa_built_for_more_errors_keeps_its_bound_in_the_realizable_game():
    C = make("thresholds", N=7)
    r = ok(attack("soa", C, learner_params={"errors": 1}, strategy="exact"))
    assert r.exact and r.errors == 0 and r.opt_symbol == "Opt" and r.opt == 3
    assert r.bound.value == 5 and "within 1 too" in r.bound.formula and r.mistakes <= 5


def test_weighted_majority_with_label_errors_respects_its_bound():
    C = make("monotone-disjunctions", n=3, k=1)
    for name in ("weighted-majority", "randomized-weighted-majority"):
        r = ok(attack(name, C, errors=1, time_limit=1.5))
        assert r.strategy == "exact" and r.bound.finite and r.mistakes <= r.bound.value
        assert r.verdict == "stopped" and r.stats["stopped"] == "time limit" and r.opt_symbol == ("R_1" if r.expected else "D_1")
        assert "m = the best expert's mistakes" in r.bound.formula
        assert r.bound.value == r.witness["bound"]["value"]


def test_randomized_weighted_majority_expectations_within_its_bound():
    r = ok(attack("rwm", make("thresholds", N=3), time_limit=2))
    assert r.expected and not r.exact and 0 < r.mistakes <= r.bound.value and r.verdict == "stopped"


def test_json_writes_fractions_next_to_floats():
    r = attack("rand-soa", make("intervals", N=3), strategy="exact")
    out = r.to_json()
    assert out["expected_mistakes"] == str(r.mistakes) and out["mistakes"] == float(r.mistakes)
    assert out["game"] == {"randomized": True, "errors": 0, "symbol": "RL"}
    if r.opt.denominator != 1:
        assert out["opt_fraction"] == str(r.opt) and out["opt"] == float(r.opt)
    d = attack("halving", make("thresholds", N=7), strategy="exact").to_json()
    assert d["mistakes"] == 3 and "expected_mistakes" not in d and d["game"]["symbol"] == "Opt"


def test_a_learner_for_the_game_takes_the_attacks_errors_by_default():
    # soa and rand-soa attacked with k label errors are built for that game unless told otherwise
    C = make("thresholds", N=5)
    r = attack("rand-soa", C, errors=1, strategy="exact")
    assert r.witness["learner"]["params"]["errors"] == 1 and r.verdict == "tight"
    r = attack("soa", C, errors=1, strategy="exact")
    assert r.witness["learner"]["params"]["errors"] == 1 and r.verdict == "tight"


@pytest.mark.parametrize("learner", ["randomized-halving", "rwm"])
def test_a_stopped_attack_on_a_randomized_learner_holds_half_a_mistake_per_split(learner):
    # the label the learner is likelier to miss, on a point both labels keep realizable: >= 1/2 expected mistakes
    r = ok(attack(learner, make("intervals", N=30), strategy="exact", time_limit=0.001))
    assert r.expected and r.mistakes >= Fraction(1, 2) and r.verdict == "stopped"
    assert r.stats["forced"]["mistakes"] >= Fraction(1, 2)
