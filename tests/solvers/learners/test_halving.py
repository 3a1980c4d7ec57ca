"""Halving (:mod:`solvers.learners.halving`, and CON beside it) against an independent reference and a hand-worked trace.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.learners import CON, Bound, Halving
from solvers.seeds import cite
from tests.oracles import matrices, realizable, RefVersionSpace

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(matrices(), st.data())
def test_halving_and_con_match_reference(rows, data):
    C = ConceptClass.from_matrix(rows)
    distinct = [tuple(int(v) for v in r) for r in C.matrix]   # the class's rows, in its row order
    stream = realizable(distinct, data)
    for L, R in ((Halving(C), RefVersionSpace(distinct, "halving")), (CON(C), RefVersionSpace(distinct, "con"))):
        for j, y in stream:
            assert L.predict_one(C.points[j]) == R.predict(j)
            L.learn_one(C.points[j], y)
            R.learn(j, y)


def test_halving_majority_with_ties_to_1():
    C = ConceptClass.from_matrix([[0, 0, 1], [0, 1, 1], [1, 1, 0], [0, 1, 0]])
    L = Halving(C)
    assert L.predict_one((0,)) == 0   # 1 of 4 say 1
    assert L.predict_one((1,)) == 1   # 3 of 4
    assert L.predict_one((2,)) == 1   # 2 of 4: a tie goes to 1 ([Mehta]'s MV: >= |F|/2)
    L.learn_one((2,), 0)              # V = {110, 010}: a mistake, V halved
    assert L.V.bit_count() == 2
    assert L.predict_one((0,)) == 1   # 1 of 2: tie
    assert L.predict_one((1,)) == 1
    L.learn_one((0,), 0)
    assert L.V.bit_count() == 1
    assert Halving(C).mistake_bound() == Bound(2, "floor(log2 |C|)", cite("OnlineAlgs", 'slide "HAL - halving algorithm"'))
    assert Halving(ConceptClass.from_matrix([[0, 0], [0, 1], [1, 0]])).mistake_bound().value == 1

