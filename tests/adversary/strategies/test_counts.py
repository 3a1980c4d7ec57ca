"""The count search of the exact adversary (adversary/strategies/_counts.py) against the searches that
list the points: the point-by-point targets search of adversary/strategies/exact.py, and the brute force
of tests/oracles.py (every point, every realizable label, a deep copy of the learner per move).

Values must be identical (an unbounded learner is inf in all of them), every witness replays, and the
count arithmetic is checked against the learner itself while a witness is built.

References
----------
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

import math
import time
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from adversary.attack import attack
from adversary.referee import build_learner, witness_class, make_witness, verify_witness
from adversary.strategies import _counts
from adversary.strategies import exact as exact_module
from adversary.strategies.base import Problem, StrategyError
from adversary.strategies.exact import ExactStrategy
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.classes.implicit import ImplicitFamily
from solvers.learners.winnow import Winnow2
from tests.oracles import Unbounded, adversary_brute

COUNTS = ExactStrategy(mode="counts")
POINTS = ExactStrategy(mode="targets")  # point by point, variables renamed within blocks
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def problem(name, C, params=None):
    L = build_learner(name, dict(params or {}), C)
    return Problem(name, L.get_params(), C, C.to_spec())


def value(found):
    return math.inf if found.cycle is not None else found.mistakes


def check_found(found, p):
    """The sequence replays (the referee's count, a closing cycle)."""
    extra = {} if found.cycle is None else {"cycle": {"start": found.cycle[0], "length": found.cycle[1]}}
    w = make_witness(p.learner_name, p.learner_params, p.cls, found.sequence, found.target, extra=extra)
    assert w["mistakes"] == found.mistakes
    r = verify_witness(w)
    assert r.ok, r.message
    assert (r.cycle is not None) == (found.cycle is not None)


# ------------------------------------------------------------------------------------------ random cases
@st.composite
def classes(draw, max_n=5):
    """A class the count search plays: monotone disjunctions, k-of-r functions or monotone conjunctions."""
    family = draw(st.sampled_from(["monotone-disjunctions", "k-of-r", "monotone-conjunctions"]))
    n = draw(st.integers(1, max_n if family != "monotone-conjunctions" else min(max_n, 4)))
    if family == "monotone-disjunctions":
        return make(family, n=n, k=draw(st.integers(0, n)))
    if family == "k-of-r":
        r = draw(st.integers(1, n))
        return make(family, n=n, r=r, k=draw(st.integers(1, r)))
    return make(family, n=n)


@st.composite
def learners(draw):
    """(name, parameters) of a learner whose rule the count search knows; Winnow with any alpha, theta,
    demotion and strictness included."""
    name = draw(st.sampled_from(["winnow", "winnow1", "winnow2", "winnow-r", "winnow-k-of-r"]))
    if name == "winnow":
        return name, {"alpha": str(draw(st.sampled_from([Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5, 4)]))),
                      "theta": str(Fraction(draw(st.integers(1, 12)), draw(st.integers(1, 3)))),
                      "demotion": draw(st.sampled_from(["divide", "zero"])), "strict": draw(st.booleans())}
    if name == "winnow-k-of-r":
        return name, {"k": draw(st.integers(1, 2))}
    return name, {}


def _learner_problem(C, learner):
    name, params = learner
    if name == "winnow-k-of-r":
        params = {"k": min(params["k"], C.facts["n"])}
    return problem(name, C, params)


def same_answer(a, b) -> bool:
    """Both prove the same finite worst case, or neither proves one: each found a cycle or a line of
    MAX_DEPTH mistakes (weights that fall for ever, e.g. Winnow's divide on conjunctions)."""
    finite = [f.exact and f.cycle is None for f in (a, b)]
    if any(finite):
        return all(finite) and a.mistakes == b.mistakes
    return all(f.cycle is not None or f.stats["stopped"] == "depth limit" for f in (a, b))


@SETTINGS
@given(C=classes(), learner=learners())
def test_counts_equal_the_point_search(C, learner):
    p = _learner_problem(C, learner)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exact_module, "MAX_DEPTH", 200)  # a line of 200 mistakes on n <= 5 variables: no finite bound here
        a, b = COUNTS.run(p), POINTS.run(p)
    assert same_answer(a, b), (a.mistakes, a.cycle, a.stats["stopped"], b.mistakes, b.cycle, b.stats["stopped"])
    assert a.stats["mode"] == "counts"
    check_found(a, p)


@st.composite
def or_classes(draw):
    """Classes of ORs (kappa = 1) on n <= 3 variables, where Winnow has a finite bound whatever its
    alpha and theta (relevant weights are never demoted), so the brute force ends."""
    n = draw(st.integers(1, 3))
    if draw(st.booleans()):
        return make("monotone-disjunctions", n=n, k=draw(st.integers(0, n)))
    return make("k-of-r", n=n, r=draw(st.integers(1, n)), k=1)


@SETTINGS
@given(C=or_classes(), learner=learners())
def test_counts_equal_the_brute_force(C, learner):
    p = _learner_problem(C, learner)
    try:
        truth = adversary_brute(p.new_learner(), C.matrix.astype(int).tolist(), list(C.points))
    except Unbounded:
        truth = math.inf
    found = COUNTS.run(p)
    assert value(found) == truth
    check_found(found, p)


# ------------------------------------------------------------------------------------------ known values
@pytest.mark.parametrize("name", ["winnow1", "winnow2", "winnow-r"])
@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_counts_equal_the_point_search_on_monotone_disjunctions(name, k, n):
    if k > n:
        pytest.skip("k > n")
    p = problem(name, make("monotone-disjunctions", n=n, k=k))
    a, b = COUNTS.run(p), POINTS.run(p)
    assert a.mistakes == b.mistakes and a.exact and b.exact and a.cycle is None
    assert a.stats["targets"] == k + 1  # ORs of 0..k variables: one target each
    check_found(a, p)


@pytest.mark.slow
@pytest.mark.parametrize("name, k, n", [("winnow1", 2, 8), ("winnow2", 1, 8), ("winnow2", 2, 7), ("winnow2", 2, 8),
                                        ("winnow-r", 2, 8)])
def test_counts_equal_the_point_search_up_to_n_8(name, k, n):
    p = problem(name, make("monotone-disjunctions", n=n, k=k))
    a, b = COUNTS.run(p), POINTS.run(p)
    assert a.mistakes == b.mistakes and a.exact and b.exact
    check_found(a, p)


def test_winnow2_known_values():
    # Worst cases of Winnow2 ([15-859B]) on ORs of at most 2 of n variables, n = 4, 5, 6, as the point search
    # finds them (tests/adversary/strategies/test_exact.py), and per target (ORs of 2, 1 and 0 variables).
    for n, worst in ((4, 7), (5, 10), (6, 12)):
        found = ExactStrategy().run(problem("winnow2", make("monotone-disjunctions", n=n, k=2)))
        assert found.stats["mode"] == "counts" and found.mistakes == worst
    assert [v["worst"] for v in found.stats["target_values"]] == [12, 6, 1]


def test_listed_and_implicit_classes_agree():
    for name, n, k in (("winnow2", 7, 2), ("winnow1", 9, 2), ("winnow-r", 6, 1)):
        listed, implicit = make("monotone-disjunctions", n=n, k=k), ImplicitFamily("monotone-disjunctions", {"n": n, "k": k})
        a, b = COUNTS.run(problem(name, listed)), COUNTS.run(problem(name, implicit))
        assert a.mistakes == b.mistakes and a.target == b.target and a.sequence == b.sequence
        check_found(b, problem(name, implicit))


# ------------------------------------------------------------------------------------------ where it applies
def test_auto_picks_the_counts_where_they_apply():
    C = make("monotone-disjunctions", n=4, k=2)
    assert ExactStrategy().mode_for(problem("winnow2", C)) == "counts"
    assert ExactStrategy(symmetry=False).mode_for(problem("winnow2", C)) == "targets"
    assert ExactStrategy().mode_for(problem("perceptron", C)) == "targets"
    assert ExactStrategy().mode_for(problem("winnow2", make("disjunctions", n=3, k=2))) == "targets"
    assert ExactStrategy().mode_for(problem("halving", C)) == "version-space"
    with pytest.raises(StrategyError, match="count search does not apply"):
        COUNTS.check(problem("perceptron", C))


def test_a_listed_class_must_be_its_family():
    C = make("monotone-disjunctions", n=3, k=1)
    # the same family name over a matrix with one row changed: not the family, so not searched by counts
    rows = C.matrix.astype(int).tolist()
    rows[1] = [1 - v for v in rows[1]]
    fake = ConceptClass(rows, C.points, family="monotone-disjunctions", params={"n": 3, "k": 1})
    assert "no row is the concept" in _counts.targets_of(fake)
    fewer = ConceptClass(rows[:3], C.points, family="monotone-disjunctions", params={"n": 3, "k": 1})
    assert "concepts, not the 4" in _counts.targets_of(fewer)
    assert ExactStrategy().mode_for(problem("winnow2", fake)) == "targets"


def test_subclasses_keep_the_point_search():
    class Winnow2Variant(Winnow2):
        """Winnow2 whose demotion might differ: its rule is not known to the count search."""

    assert _counts.rule_of(Winnow2Variant(3)) is None
    assert _counts.rule_of(Winnow2(3)) == _counts.WinnowRule(Fraction(2), Fraction(3), False, "divide")


def test_a_wrong_rule_is_caught_while_the_witness_is_built():
    # the count arithmetic with alpha = 3 is not Winnow2's: the replay on the learner itself refuses it
    p = problem("winnow2", make("monotone-disjunctions", n=4, k=1))
    rule, targets = _counts.applies(p.new_learner(), p.cls)
    wrong = _counts.WinnowRule(Fraction(3), rule.theta, rule.strict, rule.demotion)
    with pytest.raises(RuntimeError, match="please report this"):
        _counts.CountSearch(p, wrong, targets).run()


# ------------------------------------------------------------------------------------------ limits and attacks
def test_deadline_returns_a_verified_lower_bound():
    p = problem("winnow2", ImplicitFamily("monotone-disjunctions", {"n": 16, "k": 2}))
    found = COUNTS.run(p, deadline=time.monotonic() + 0.5)
    assert not found.exact and found.stats["stopped"] == "time limit"
    assert found.mistakes >= 1
    check_found(found, p)


def test_the_beam_is_a_lower_bound():
    p = problem("winnow2", make("monotone-disjunctions", n=8, k=2))
    rule, targets = _counts.applies(p.new_learner(), p.cls)
    search = _counts.CountSearch(p, rule, targets)
    search.first_bound()
    assert 1 <= search.best <= 14  # the exact worst case is 14
    assert len(search.realize(search.best_orbit, search.best_moves)) == search.best
    assert COUNTS.run(p).mistakes == 14 == _counts.CountSearch(p, rule, targets, beam=0).run().mistakes


def test_attack_on_an_implicit_class():
    spec = {"family": "monotone-disjunctions", "params": {"n": 16, "k": 1}}
    r = attack("winnow1", spec, strategy="exact")
    assert r.exact and r.strategy == "exact" and r.stats["runs"][0]["stats"]["mode"] == "counts"
    assert r.verdict in ("below", "tight") and r.mistakes <= r.bound.value
    assert verify_witness(r.witness).ok
    assert witness_class(r.witness["class"]).finite is False


@pytest.mark.parametrize("strategy", ["auto", "exact"])
def test_the_count_plan_is_worked_out_once_per_attack(monkeypatch, strategy):
    """The attack's plan, the strategy's check, its mode and its run all need the count search's plan
    (the target orbits): it is worked out once and passed along (issue 19: it was computed 3 to 5 times)."""
    calls = []
    real = _counts.applies

    def counted(learner, cls):
        calls.append(type(learner).__name__)
        return real(learner, cls)

    monkeypatch.setattr(_counts, "applies", counted)
    r = attack("winnow2", {"family": "monotone-disjunctions", "params": {"n": 6, "k": 2}}, strategy=strategy,
               time_limit=60)
    assert r.mistakes == 12 and any(run["stats"].get("mode") == "counts" for run in r.stats["runs"])
    assert len(calls) == 1


def test_progress_is_reported():
    seen = []
    p = problem("winnow2", make("monotone-disjunctions", n=9, k=2))
    COUNTS.run(p, deadline=time.monotonic() + 1.5, progress=seen.append)
    assert seen and seen[-1].get("done") and all("mistakes" in s for s in seen)
