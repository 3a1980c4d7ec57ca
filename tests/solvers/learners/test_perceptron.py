"""The Perceptron (:mod:`solvers.learners.perceptron`) against an independent reference and the hand-worked traces of the seeds.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from fractions import Fraction
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.learners import Perceptron
from solvers.seeds import cite
from tests.oracles import compare, RefPerceptron

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.integers(1, 4), st.data(), st.sampled_from([0, 1, 3]))
def test_perceptron_matches_reference(d, data, margin):
    xs = data.draw(st.lists(st.tuples(*[st.integers(-3, 3)] * d), max_size=40))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    L, R = Perceptron(d, margin=margin), RefPerceptron(d, margin)
    compare(L, R, list(zip(xs, ys)))
    assert list(L.w) == R.w


@SETTINGS
@given(st.integers(1, 3), st.data())
def test_perceptron_exact_on_fractions(d, data):
    q = st.fractions(min_value=-2, max_value=2, max_denominator=7)
    xs = data.draw(st.lists(st.tuples(*[q] * d), max_size=25))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    L, R = Perceptron(d), RefPerceptron(d)
    compare(L, R, list(zip(xs, ys)))
    assert list(L.w) == R.w
    assert all(isinstance(v, (int, Fraction)) for v in L.state_key())


def run(L, trace):
    """Play ``trace`` = [(x, y, predicted, state after)], checking each prediction and state."""
    for t, (x, y, predicted, after) in enumerate(trace, 1):
        assert L.predict_one(x) == predicted, f"round {t}: prediction"
        L.learn_one(x, y)
        assert after(L), f"round {t}: state"


def test_perceptron_of_seed_001():
    """[Mehta]: w0 = 0, predict sgn(<w, x>) with sgn(0) = +1, w += y x on a mistake."""
    run(Perceptron(2), [
        ((1, 2), 0, 1, lambda L: L.w == (-1, -2)),   # <0, x> = 0 -> +1: a mistake on a negative
        ((2, -1), 1, 1, lambda L: L.w == (-1, -2)),  # <w, x> = 0 -> +1: right, no update
        ((0, 1), 1, 0, lambda L: L.w == (-1, -1)),   # -2 < 0: a mistake on a positive
    ])
    assert Perceptron(2).mistake_bound(R=3, gamma=F(1, 2)).value == 36


def test_perceptron_margin_of_seed_003_updates_inside_the_margin():
    L = Perceptron(2, margin=1)
    L.learn_one((1, 2), 0)
    assert L.w == (-1, -2)
    assert L.predict_one((2, -1)) == 1
    L.learn_one((2, -1), 1)          # right, but y <w, x> = 0 <= 1: update
    assert L.w == (1, -3)
    L.learn_one((2, -1), 1)          # y <w, x> = 5 > 1: no update
    assert L.w == (1, -3)


def test_perceptron_example_of_seed_004():
    """[OnlineAlgs]'s figure: w1 = w2 = (0, 0), w3 = (-1, 0), w4 = (-0.2, 0.6). The points are read back from the
    weights: the first example is predicted right (a positive, as sgn(0) = +1), then x = (1, 0) with
    label -1 and x = (0.8, 0.6) with label +1 (|x| = 1, as [OnlineAlgs] assumes)."""
    L = Perceptron(2)
    seq = [((F(3, 5), F(4, 5)), 1), ((1, 0), 0), ((F(4, 5), F(3, 5)), 1)]
    ws = [L.w]
    for x, y in seq:
        L.learn_one(x, y)
        ws.append(L.w)
    assert ws == [(0, 0), (0, 0), (-1, 0), (F(-1, 5), F(3, 5))]


def test_perceptron_bounds():
    L = Perceptron(3)
    assert L.mistake_bound(R=1, gamma=F(1, 4)).value == 16
    # [OnlineAlgs]'s hinge bound with |x| <= 1: 1/gamma^2 + (2/gamma) TD
    assert L.mistake_bound(R=1, gamma=F(1, 2), TD=3).value == 4 + 12
    assert L.mistake_bound(R=2, gamma=F(1, 2), TD=3).value == 16 + 12
    assert L.mistake_bound(R=1, gamma=F(1, 2), D2=1).value == 16   # (1 + 1)^2 / (1/4)
    assert Perceptron(3, margin=1).mistake_bound(R=1, gamma=1).value == 3   # (R^2 + 2 margin)/gamma^2
    b = L.mistake_bound(R=1, gamma=F(1, 2), TD=1)
    assert b.source == cite("OnlineAlgs", 'slide "Perceptron - Performance" (unrealizable case)')
    with pytest.raises(ValueError):
        L.mistake_bound(R=1)
    with pytest.raises(ValueError):
        L.mistake_bound(R=1, gamma=0)
    with pytest.raises(ValueError):
        L.mistake_bound(R=1, gamma=1, TD=1, D2=1)

