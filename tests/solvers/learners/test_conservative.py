"""The conservative conversion A' of the notes ("Conservative Mistake Bound Algorithm"): on random small
classes its hypothesis never changes after a correct prediction, it is A fed the mistakes alone (a plain loop
of A's own, independently), and its exact worst case never exceeds A's proven bound."""

import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.attack import attack
from adversary.referee import verify_witness

from tests.oracles import cube_classes
from solvers.classes.families import make
from solvers.learners import LEARNERS, conservative, make_learner

WRAPPED = ["halving", "con", "soa", "winnow1", "winnow2", "elim", "weighted-majority"]


def classes():
    return cube_classes(3, (1, 6))


@settings(max_examples=40, deadline=None)
@given(classes(), st.sampled_from(WRAPPED), st.data())
def test_conservative_and_a_fed_its_mistakes(C, name, data):
    A2 = conservative(name, None, C)
    plain = make_learner(name, {}, C)  # A itself, fed by hand the examples A' got wrong
    target = data.draw(st.integers(0, C.n_concepts - 1))
    for j in data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=10)):
        x, y = C.points[j], int(C.matrix[target, j])
        before = copy.deepcopy(A2.state_key())
        p = A2.predict_one(x)
        A2.learn_one(x, y)
        if p == y:
            assert A2.state_key() == before  # conservative: a right prediction changes nothing
        else:
            assert plain.predict_one(x) == p
            plain.learn_one(x, y)
        assert A2.state_key() == plain.state_key()


@settings(max_examples=25, deadline=None)
@given(classes(), st.sampled_from(["halving", "con", "soa", "winnow2", "elim"]))
def test_worst_case_of_a_prime_within_a_s_bound(C, name):
    A = make_learner(name, {}, C)
    bound = A.bound_on(C)
    r = attack("conservative", C, learner_params={"learner": name}, strategy="exact", time_limit=20)
    assert verify_witness(r.witness).ok and r.bound.value == bound.value
    if bound.finite:  # (a learner without a bound on C may have a line that never repeats: no exact answer)
        assert r.exact and r.mistakes <= math.floor(bound.value)


def test_registered_tagged_and_refusals():
    assert LEARNERS["conservative"].cls.conservative
    C = make("thresholds", N=3)
    with pytest.raises(ValueError, match="randomized"):
        conservative("randomized-halving", None, C)
    with pytest.raises(ValueError, match="learner=NAME"):
        make_learner("conservative", {"learner": "nope"}, C)
    assert make_learner("conservative", {}, C).get_params()["learner"] == "halving"  # the default
    with pytest.raises(ValueError, match="already conservative"):
        conservative("conservative", {"learner": "halving"}, C)
    W = make_learner("conservative", {"learner": "winnow", "params": "alpha=3"}, make("monotone-disjunctions", n=3, k=1))
    assert W.get_params() == {"learner": "winnow", "params": {"n": 3, "alpha": 3, "theta": 3, "demotion": "divide",
                                                               "strict": False}}


def test_halving_and_its_conservative_version_differ_on_a_class():
    """The claim is about bounds: Halving keeps its version space on every example, A' on its mistakes only,
    and their worst cases on intervals N=4 differ (both within floor(log2 |C|))."""
    C = make("intervals", N=4)
    a = attack("halving", C, strategy="exact")
    b = attack("conservative", C, learner_params={"learner": "halving"}, strategy="exact")
    assert a.exact and b.exact and max(a.mistakes, b.mistakes) <= a.bound.value
