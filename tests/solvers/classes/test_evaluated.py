"""EvaluatedClass: the labels of make's classes computed from each concept's parameters, never stored."""

import numpy as np
import pytest

from solvers.classes.evaluated import EvaluatedClass, beyond_matrix
from solvers.classes.families import make

CASES = [("thresholds", {"N": N}) for N in (1, 2, 7)] + [
    ("intervals", {"N": N, "empty": e}) for N in (1, 2, 6) for e in (0, 1)] + [("rectangles", {"N": N}) for N in (1, 2, 4)]


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


@pytest.mark.parametrize("family,params,word", [
    ("parities", {"n": 3}, "no evaluated form"), ("intervals", {"N": 0}, "N must be at least 1"),
    ("intervals", {"N": 5, "empty": 2}, "empty must be 0 or 1"), ("thresholds", {"M": 5}, "unknown parameter")])
def test_bad_input(family, params, word):
    with pytest.raises(ValueError, match=word):
        EvaluatedClass(family, params)
