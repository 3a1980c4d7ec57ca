"""The elimination learners (:mod:`solvers.learners.elimination`) against an independent reference and the seeds' traces.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from solvers.learners import ELIM, ConjunctionElimination
from tests.oracles import binary_stream, compare, RefConjunction, RefElim

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(binary_stream())
def test_conjunction_elimination_matches_reference(ns):
    n, stream = ns
    compare(ConjunctionElimination(n), RefConjunction(n), stream)


@SETTINGS
@given(binary_stream())
def test_elim_matches_reference(ns):
    n, stream = ns
    compare(ELIM(n), RefElim(n), stream)


def run(L, trace):
    """Play ``trace`` = [(x, y, predicted, state after)], checking each prediction and state."""
    for t, (x, y, predicted, after) in enumerate(trace, 1):
        assert L.predict_one(x) == predicted, f"round {t}: prediction"
        L.learn_one(x, y)
        assert after(L), f"round {t}: state"


def test_conjunction_elimination_of_seed_001():
    """[Mehta]: start from x1 x2 x3 x4; a false negative removes the variables that are 0; target x1 x3."""
    run(ConjunctionElimination(4), [
        ((1, 1, 1, 1), 1, 1, lambda L: L.hypothesis() == "x1 x2 x3 x4"),
        ((1, 0, 1, 0), 1, 0, lambda L: L.hypothesis() == "x1 x3"),
        ((1, 1, 0, 1), 0, 0, lambda L: L.hypothesis() == "x1 x3"),
        ((1, 1, 1, 0), 1, 1, lambda L: L.hypothesis() == "x1 x3"),
    ])
    assert ConjunctionElimination(4).mistake_bound().value == 4


def test_elim_of_seed_004():
    """[OnlineAlgs]: L1 = all 2n literals; each negative example deletes the literals it satisfies; the first
    mistake deletes n of them. Target z1 v ~z3."""
    L = ELIM(3)
    assert L.hypothesis() == "z1 v ~z1 v z2 v ~z2 v z3 v ~z3"
    assert L.predict_one((1, 0, 0)) == 1                 # a positive: no mistake
    L.learn_one((1, 0, 0), 1)
    assert L.hypothesis() == "z1 v ~z1 v z2 v ~z2 v z3 v ~z3"
    run(L, [
        ((0, 1, 1), 0, 1, lambda L: L.hypothesis() == "z1 v ~z2 v ~z3"),   # first mistake: n = 3 deleted
        ((0, 0, 1), 0, 1, lambda L: L.hypothesis() == "z1 v ~z3"),         # one more deleted
        ((0, 1, 1), 0, 0, lambda L: L.hypothesis() == "z1 v ~z3"),
        ((0, 0, 0), 1, 1, lambda L: L.hypothesis() == "z1 v ~z3"),
    ])
    assert ELIM(3).mistake_bound().value == 4

