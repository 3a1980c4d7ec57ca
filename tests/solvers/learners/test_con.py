"""CON (:mod:`solvers.learners.con`): a hand-worked trace (its reference test is with Halving's, in test_halving.py).

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from solvers.classes import ConceptClass
from solvers.learners import CON


def run(L, trace):
    """Play ``trace`` = [(x, y, predicted, state after)], checking each prediction and state."""
    for t, (x, y, predicted, after) in enumerate(trace, 1):
        assert L.predict_one(x) == predicted, f"round {t}: prediction"
        L.learn_one(x, y)
        assert after(L), f"round {t}: state"


def test_con_predicts_with_the_first_consistent_concept():
    C = ConceptClass.from_matrix([[1, 1, 0], [0, 1, 1], [0, 0, 1]])
    run(CON(C), [
        ((0,), 0, 1, lambda L: L.V == 0b110),      # concept 0 eliminated
        ((1,), 0, 1, lambda L: L.V == 0b100),      # concept 1 eliminated
        ((2,), 1, 1, lambda L: L.V == 0b100),
    ])
    assert CON(C).mistake_bound().value == 2        # |C| - 1, met by the sequence above

