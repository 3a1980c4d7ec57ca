"""Margin halfspaces (solvers/classes/margin.py): parameters, points and the target's margin check
([Mehta], section 3), with one-line ValueErrors.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

from fractions import Fraction

import pytest

from solvers.classes.margin import MARGIN_FAMILY, MarginHalfspaces


def H(**params):
    return MarginHalfspaces.from_params({"d": 2, "gamma": "1/10", **params})


def test_parameters_are_read_exactly():
    h = H()
    assert (h.d, h.gamma, h.R) == (2, Fraction(1, 10), 1) and h.params == {"d": 2, "gamma": "1/10", "R": 1}
    assert H(gamma=0.1).gamma == Fraction(1, 10)  # a float as the decimal it prints as
    assert str(H(R="3/2")) == f"{MARGIN_FAMILY} d=2 gamma=0.1 R=1.5"
    assert H() == H(gamma=0.1) and hash(H()) == hash(H(gamma=0.1))


@pytest.mark.parametrize("params, needle", [
    ({"d": 0, "gamma": 0.1}, "d must be a whole number >= 1"),
    ({"d": 2}, "missing required parameter gamma"),
    ({"d": 2, "gamma": 0.1, "r": 1}, "unknown parameter 'r'"),
    ({"d": 2, "gamma": 0}, "gamma must be > 0"),
    ({"d": 2, "gamma": 0.1, "R": -1}, "R must be > 0"),
    ({"d": 2, "gamma": "abc"}, "margin-halfspaces: gamma must be a number"),
    ({"d": 2, "gamma": 2}, "is empty"),
])
def test_bad_parameters(params, needle):
    with pytest.raises(ValueError, match=needle):
        MarginHalfspaces.from_params(params)


def test_points():
    h = H()
    assert h.point([1, "1/2"]) == (1, Fraction(1, 2)) and h.point((0.5, 0)) == (0.5, 0)
    with pytest.raises(ValueError, match="x has 3 coordinates"):
        h.point([0, 0, 0])
    with pytest.raises(ValueError, match="coordinate must be a number"):
        h.point([0, "a"])
    with pytest.raises(ValueError, match="x must be a list of 2 numbers"):
        h.point(3)


def test_check_target_float_and_exact():
    h = H()
    w = {"w": [0.6, 0.8]}
    assert h.check_target([((1, 0), 1)], w) == (0.6, 0.8)
    with pytest.raises(ValueError, match="margin y<w,x> = 0.06"):
        h.check_target([((0.1, 0), 1)], w)
    with pytest.raises(ValueError, match=r"\|x\| = 2 > R = 1"):
        h.check_target([((2, 0), 1)], w)
    with pytest.raises(ValueError, match="unit vector"):
        h.check_target([], {"w": [1, 1]})
    with pytest.raises(ValueError, match='needs "target"'):
        h.check_target([], None)
    x = h.point(("1/6", 0))  # margin 0.6 / 6 = 0.1 exactly
    assert h.check_target([(x, 1)], {"w": ["3/5", "4/5"]}, exact=True) == (Fraction(3, 5), Fraction(4, 5))
    with pytest.raises(ValueError, match="exact check"):
        h.check_target([(h.point(("1/7", 0)), 1)], {"w": ["3/5", "4/5"]}, exact=True)


def test_margin_stats():
    h = H()
    m, r = h.margin_stats([((1, 0), 1), ((0, -0.5), 0)], (0.6, 0.8))
    assert m == pytest.approx(0.4) and r == pytest.approx(1)
