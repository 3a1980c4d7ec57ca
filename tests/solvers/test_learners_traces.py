"""Each learner against a trace worked by hand from its seed: every prediction and every weight.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from solvers.classes import ConceptClass
from solvers.seeds import cite
from solvers.learners import (
    CON,
    ELIM,
    SOA,
    BalancedWinnow,
    Bound,
    ConjunctionElimination,
    Halving,
    Perceptron,
    RandomizedHalving,
    RandomizedWeightedMajority,
    WeightedMajority,
    Winnow,
    Winnow1,
    Winnow2,
    WinnowKofR,
    WinnowR,
)


def run(L, trace):
    """Play ``trace`` = [(x, y, predicted, state after)], checking each prediction and state."""
    for t, (x, y, predicted, after) in enumerate(trace, 1):
        assert L.predict_one(x) == predicted, f"round {t}: prediction"
        L.learn_one(x, y)
        assert after(L), f"round {t}: state"


# ---------------------------------------------------------------------------------------- Winnow
def test_winnow_example_of_seed_004():
    """[OnlineAlgs]: target x1 v x2, theta = 2, beta = 2, w0 = (1,1,1,1)."""
    L = Winnow(4, alpha=2, theta=2, demotion="divide")
    assert L.w == (1, 1, 1, 1)
    # x1 = (0,0,1,1), negative: w.x = 2 >= 2, a false positive: demotion.
    assert L.predict_one((0, 0, 1, 1)) == 1
    L.learn_one((0, 0, 1, 1), 0)
    assert L.w == (1, 1, F(1, 2), F(1, 2))
    # x2 = (1,0,1,0), positive: w.x = 3/2 < 2, a false negative: promotion.
    assert L.score((1, 0, 1, 0)) == F(3, 2) and L.predict_one((1, 0, 1, 0)) == 0
    L.learn_one((1, 0, 1, 0), 1)
    assert L.w == (2, 1, 1, F(1, 2))
    # x3 = (0,1,0,1), positive: w.x = 3/2 < 2: promotion.
    assert L.predict_one((0, 1, 0, 1)) == 0
    L.learn_one((0, 1, 0, 1), 1)
    assert L.w == (2, 2, 1, 1)
    # The two positives are now predicted right; the negative (0,0,1,1) sits at w.x = 2 = theta again.
    assert [L.predict_one(x) for x in [(1, 0, 1, 0), (0, 1, 0, 1)]] == [1, 1]
    assert L.score((0, 0, 1, 1)) == 2


def test_winnow1_of_seed_000():
    """[Rivest94]: Theta = n/2 = 2, predict 1 iff w.x > 2, double on promotion, zero on elimination; target x1."""
    run(Winnow1(4), [
        ((1, 1, 0, 0), 1, 0, lambda L: L.w == (2, 2, 1, 1)),   # w.x = 2 is not > 2: promotion
        ((0, 1, 1, 0), 0, 1, lambda L: L.w == (2, 0, 0, 1)),   # w.x = 3 > 2: elimination
        ((1, 0, 0, 0), 1, 0, lambda L: L.w == (4, 0, 0, 1)),   # w.x = 2: promotion
        ((1, 0, 0, 0), 1, 1, lambda L: L.w == (4, 0, 0, 1)),   # right: nothing changes
        ((0, 0, 0, 1), 0, 0, lambda L: L.w == (4, 0, 0, 1)),
    ])
    assert L_bound(Winnow1(4), k=1) == 6   # 2 + 2 * 1 * lg 4
    assert L_bound(Winnow1(1), k=1) == 2   # lg 1 = 0


def L_bound(L, **kw):
    return L.mistake_bound(**kw).value


def test_winnow2_of_seed_002():
    """[15-859B]: threshold n = 4, output + iff w.x >= 4, double / halve; target x1 v x2."""
    run(Winnow2(4), [
        ((1, 0, 0, 0), 1, 0, lambda L: L.w == (2, 1, 1, 1)),
        ((1, 0, 0, 0), 1, 0, lambda L: L.w == (4, 1, 1, 1)),
        ((1, 0, 0, 0), 1, 1, lambda L: L.w == (4, 1, 1, 1)),   # 4 >= 4
        ((0, 1, 1, 1), 1, 0, lambda L: L.w == (4, 2, 2, 2)),   # 3 < 4
        ((0, 0, 1, 1), 0, 1, lambda L: L.w == (4, 2, 1, 1)),   # 4 >= 4 on a negative: halve
        ((0, 1, 0, 0), 1, 0, lambda L: L.w == (4, 4, 1, 1)),
        ((0, 1, 1, 1), 1, 1, lambda L: L.w == (4, 4, 1, 1)),
    ])
    assert L_bound(Winnow2(4), r=2) == 2 + 3 * 2 * 3
    assert L_bound(Winnow2(3), r=1) == pytest.approx(2 + 3 * (1 + math.log2(3)))


def test_winnow_r_of_seed_003_never_below_half():
    """[Roth]: Winnow-R is Winnow whose weights never go below 1/2 (Winnow2 itself goes to 1/4)."""
    seq = [((1, 1), 0), ((1, 0), 1), ((1, 0), 1), ((1, 1), 0)]
    R, W = WinnowR(2), Winnow2(2)
    for x, y in seq:
        R.learn_one(x, y)
        W.learn_one(x, y)
    assert R.w == (1, F(1, 2))
    assert W.w == (1, F(1, 4))
    assert L_bound(WinnowR(4), r=1) == 5 * 3 + 4


def test_balanced_winnow_of_seed_003():
    """[Roth]: promotion if y = 1 but (w+ - w-).x <= theta, demotion if y = 0 but (w+ - w-).x >= theta."""
    L = BalancedWinnow(2, theta=F(3, 2))
    assert L.predict_one((1, 0)) == 0                    # 0 is not > 3/2
    L.learn_one((1, 0), 1)                               # promotion of x1
    assert (L.wp, L.wm) == ((2, 1), (F(1, 2), 1))
    assert L.score((1, 0)) == F(3, 2)
    # At the threshold exactly it predicts 0, and [Roth]'s demotion rule (>= theta) still fires on label 0.
    assert L.predict_one((1, 0)) == 0
    L.learn_one((1, 0), 0)
    assert (L.wp, L.wm) == ((1, 1), (1, 1))
    # ... and its promotion rule (<= theta) on label 1.
    L.learn_one((1, 0), 1)
    L.learn_one((1, 0), 1)
    assert (L.wp, L.wm) == ((4, 1), (F(1, 4), 1))
    assert L.predict_one((1, 0)) == 1
    b = L.mistake_bound()
    assert b.value == math.inf and b.formula == "none stated"


def test_winnow_k_of_r_of_seed_002():
    """[15-859B]: epsilon = 1/(2k); k = 1: multiply / divide by 3/2, threshold n = 3; target x1 (1 of {x1})."""
    run(WinnowKofR(3, k=1), [
        ((1, 1, 0), 1, 0, lambda L: L.w == (F(3, 2), F(3, 2), 1)),      # 2 < 3
        ((1, 0, 1), 1, 0, lambda L: L.w == (F(9, 4), F(3, 2), F(3, 2))),  # 5/2 < 3
        ((0, 1, 1), 0, 1, lambda L: L.w == (F(9, 4), 1, 1)),            # 3 >= 3 on a negative
        ((0, 1, 1), 0, 0, lambda L: L.w == (F(9, 4), 1, 1)),
    ])
    L = WinnowKofR(4, k=2)
    assert L.alpha == F(5, 4) and L.theta == 4
    assert L.chips_per_weight() == 7                  # (5/4)^6 < 4 <= (5/4)^7
    assert L_bound(L, r=2) == 3 * (2 * 7 + 5) + 5      # (4k+1)/(k+1) (r c + (k-1)(2k+1)) + 2k + 1


# ---------------------------------------------------------------------------------------- Perceptron
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


# ---------------------------------------------------------------------------------------- elimination
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


# ---------------------------------------------------------------------------------------- classes
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


def test_con_predicts_with_the_first_consistent_concept():
    C = ConceptClass.from_matrix([[1, 1, 0], [0, 1, 1], [0, 0, 1]])
    run(CON(C), [
        ((0,), 0, 1, lambda L: L.V == 0b110),      # concept 0 eliminated
        ((1,), 0, 1, lambda L: L.V == 0b100),      # concept 1 eliminated
        ((2,), 1, 1, lambda L: L.V == 0b100),
    ])
    assert CON(C).mistake_bound().value == 2        # |C| - 1, met by the sequence above


def test_randomized_halving_predicts_with_a_consistent_concept():
    C = ConceptClass.from_matrix([[0, 0, 1], [0, 1, 1], [1, 1, 0], [0, 1, 0]])
    L = RandomizedHalving(C, seed=5)
    for x, y in [((2,), 0), ((0,), 0)]:
        assert (L.V >> L.h) & 1
        assert L.predict_one(x) == int(C.matrix[L.h, x[0]])
        L.learn_one(x, y)
    assert L.V == 1 << 3 and L.h == 3                # one concept left: h is it
    assert [L.predict_one((j,)) for j in range(3)] == [0, 1, 0]
    assert L.mistake_bound().value == pytest.approx(1 / 2 + 1 / 3 + 1 / 4)


def test_unrealizable_label_is_refused_and_changes_nothing():
    C = ConceptClass.from_matrix([[0, 0], [0, 1]])
    for L in (Halving(C), CON(C), RandomizedHalving(C), SOA(C)):
        key = L.state_key()
        with pytest.raises(ValueError, match="not realizable"):
            L.learn_one((0,), 1)
        assert L.state_key() == key


# ---------------------------------------------------------------------------------------- experts
def test_weighted_majority_trace():
    experts = [[1, 0, 1], [1, 1, 0], [0, 0, 0]]
    run(WeightedMajority(experts, beta=F(1, 2)), [
        (0, 0, 1, lambda L: L.e == (1, 1, 0)),      # 2 of 3 say 1: wrong; experts 0, 1 lose half
        (0, 0, 1, lambda L: L.e == (2, 2, 0)),      # 1/2 + 1/2 vs 1: a tie goes to 1
        (0, 0, 0, lambda L: L.e == (3, 3, 0)),      # 1/4 + 1/4 < 1
        (2, 1, 0, lambda L: L.e == (3, 4, 1)),
    ])
    L = WeightedMajority(experts, beta=F(1, 2))
    b = L.mistake_bound(m=1)
    assert b.value == pytest.approx((math.log(3) + math.log(2)) / math.log(4 / 3))
    assert "not in the lecture notes" in b.formula


def test_randomized_weighted_majority_weights_and_draws():
    experts = [[1, 0], [0, 1], [1, 1]]
    L = RandomizedWeightedMajority(experts, beta=F(1, 3), seed=2)
    L.learn_one(0, 0)
    assert L.weights() == (F(1, 3), 1, F(1, 3))
    assert L.predict_one(1) == experts[L.h][1]
    assert L.mistake_bound(m=0).value == pytest.approx(math.log(3) / (2 / 3))
