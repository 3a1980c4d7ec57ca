"""Randomized halving (:mod:`solvers.learners.randomized_halving`) against an independent reference and a trace.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.learners import RandomizedHalving
from tests.oracles import matrices, realizable

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(matrices(), st.data(), st.integers(0, 2**32 - 1))
def test_randomized_halving_matches_reference(rows, data, seed):
    """The reference draws the k-th consistent row (in row order), k = Generator(seed).integers(|V|),
    at the start and after every example."""
    C = ConceptClass.from_matrix(rows)
    distinct = [tuple(int(v) for v in r) for r in C.matrix]
    stream = realizable(distinct, data)
    L = RandomizedHalving(C, seed=seed)
    rng = np.random.default_rng(seed)
    V = list(range(len(distinct)))
    h = V[int(rng.integers(len(V)))]
    for j, y in stream:
        assert L.predict_one(C.points[j]) == distinct[h][j]
        L.learn_one(C.points[j], y)
        V = [c for c in V if distinct[c][j] == y]
        h = V[int(rng.integers(len(V)))]
        assert h in V


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

