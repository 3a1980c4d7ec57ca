"""The shared version-space learner of :mod:`solvers.learners.base`.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import pytest

from solvers.classes import ConceptClass
from solvers.learners import CON, SOA, Halving, RandomizedHalving


def test_unrealizable_label_is_refused_and_changes_nothing():
    C = ConceptClass.from_matrix([[0, 0], [0, 1]])
    for L in (Halving(C), CON(C), RandomizedHalving(C), SOA(C)):
        key = L.state_key()
        with pytest.raises(ValueError, match="not realizable"):
            L.learn_one((0,), 1)
        assert L.state_key() == key

