"""EvaluatedClass: the labels of make's classes computed from each concept's parameters, never stored."""

import numpy as np
import pytest

from solvers.classes.evaluated import EvaluatedClass, beyond_matrix
from solvers.classes.families import make

CASES = [("thresholds", {"N": N}) for N in (1, 2, 7)] + [
    ("intervals", {"N": N, "empty": e}) for N in (1, 2, 6) for e in (0, 1)] + [("rectangles", {"N": N}) for N in (1, 2, 4)] + [
    ("halfspaces", {"n": n}) for n in (1, 2, 3, 4, 5)]


@pytest.mark.parametrize("family,params", CASES)
def test_same_class_as_make(family, params):
    C, D = EvaluatedClass(family, params), make(family, **params)
    assert (C.n_concepts, C.n_points, C.points) == (D.n_concepts, D.n_points, D.points)
    assert np.array_equal(C.block(np.arange(C.n_concepts)), D.matrix)  # same rows, same order: all distinct
    assert np.array_equal(C.ones(np.arange(C.n_concepts)), D.matrix.sum(axis=0))
    assert C.log2_size() == D.log2_size()
    assert [C.concept_text(c) for c in range(C.n_concepts)] == [D.concept_text(c) for c in range(D.n_concepts)]


def test_sizes_beyond_the_matrix():
    assert EvaluatedClass("thresholds", {"N": 10**5}).n_concepts == 10**5 + 1
    assert EvaluatedClass("intervals", {"N": 1000}).n_concepts == 500501
    C = EvaluatedClass("rectangles", {"N": 32})
    assert (C.n_concepts, C.n_points) == (528**2 + 1, 1024)
    assert C.labels([0, C.n_concepts - 1], [0, 0]).tolist() == [True, False]  # [1,1]x[1,1] holds (1,1); empty
    assert beyond_matrix("rectangles", {"N": 32}) and not beyond_matrix("rectangles", {"N": 31})
    assert not beyond_matrix("singletons", {"N": 10**7})
    assert beyond_matrix("halfspaces", {"n": 6}) and not beyond_matrix("halfspaces", {"n": 5})


def test_halfspaces_on_six_variables():
    """15,028,134 truth tables (OEIS A000609), the constants first and last, labels read off the tables."""
    C = EvaluatedClass("halfspaces", {"n": 6})
    assert (C.n_concepts, C.n_points, C.log2_size()) == (15028134, 64, 23)
    assert C.points[0] == (0,) * 6 and C.points[-1] == (1,) * 6
    assert C.labels([0, 0, C.n_concepts - 1], [0, 63, 5]).tolist() == [False, False, True]
    c = int(np.searchsorted(C.tables, np.uint64(0xAAAAAAAAAAAAAAAA)))  # the dictator x_5 (point j has x_5 = bit 0)
    assert C.tables[c] == 0xAAAAAAAAAAAAAAAA
    assert C.block([c])[0].tolist() == [p[5] == 1 for p in C.points]


@pytest.mark.parametrize("family,params,word", [
    ("parities", {"n": 3}, "no evaluated form"), ("intervals", {"N": 0}, "N must be at least 1"),
    ("intervals", {"N": 5, "empty": 2}, "empty must be 0 or 1"), ("thresholds", {"M": 5}, "unknown parameter"),
    ("halfspaces", {"n": 7}, "give n <= 6")])
def test_bad_input(family, params, word):
    with pytest.raises(ValueError, match=word):
        EvaluatedClass(family, params)


@pytest.mark.parametrize("family, params, most", [("thresholds", {"N": 10**20}, 2**25 - 1),
                                                  ("intervals", {"N": 10**5}, 8191),
                                                  ("rectangles", {"N": 1000}, 107)])
def test_too_large_names_the_largest_N(family, params, most):
    """Issue 39: 'opt thresholds N=99999999999999999999' said "Maximum allowed size exceeded" (numpy's words)."""
    from solvers.classes.evaluated import MAX_CONCEPTS, _count

    with pytest.raises(ValueError, match=f"{family} N={params['N']} is too large.*give N at most {most}$"):
        EvaluatedClass(family, params)
    full = dict(params, empty=True) if family == "intervals" else params
    assert _count(family, full, most) <= MAX_CONCEPTS < _count(family, full, most + 1)
