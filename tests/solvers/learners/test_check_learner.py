"""The conformance suite shipped as ``solvers.learners.check_learner``: it passes the learners shipped here,
passes a learner brought with its own citation, and catches false declarations with a message.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solvers.classes.families import make
from solvers.learners import (LEARNERS, Citation, ConformanceError, Halving, LearnerCheck, Winnow2, check_learner,
                              make_learner)
from solvers.learners.base import Bound, OnlineLearner, check_label, cite
from solvers.learners.winnow import BalancedWinnow
from solvers.seeds import is_citation


class FirstMistake(OnlineLearner):
    """Predict 1 until the first mistake, then the label of that mistake's point for every point (a toy)."""

    name = "first-mistake-example"
    conservative = True
    bound_formula = "|X|"
    bound_source = "my own paper (2026), Lemma 1"

    def __init__(self):
        self.fixed = None

    def predict_one(self, x) -> int:
        return 1 if self.fixed is None else self.fixed

    def learn_one(self, x, y) -> None:
        y = check_label(y)
        if y != self.predict_one(x):
            self.fixed = y

    def state_key(self):
        return self.fixed

    def get_params(self) -> dict:
        return {}

    def mistake_bound(self, N=float("inf")) -> Bound:
        return Bound(N, self.bound_formula, self.bound_source)


def test_every_shipped_learner_cites_the_lecture_notes():
    for spec in dict.fromkeys(LEARNERS.values()):
        assert is_citation(spec.source) and spec.cites_notes, spec.name


def test_shipped_learners_pass_and_say_what_was_checked():
    r = check_learner(Winnow2)
    assert isinstance(r, LearnerCheck) and r.learner == "winnow2" and r.cites_notes
    assert {"protocol", "conservative", "symmetric_variables", "probability", "max_errors"} <= set(r.checks)
    assert "winnow2" in r._repr_html_()
    assert check_learner(make_learner("halving", {}, make("thresholds", N=4)), make("thresholds", N=4)).learner == "halving"
    r = check_learner(Halving)
    assert "conservative" not in r.checks  # Halving is not conservative; the check is skipped, not run


def test_an_own_learner_with_its_own_citation_is_checked():
    r = check_learner(FirstMistake)
    assert r.source == "my own paper (2026), Lemma 1" and not r.cites_notes
    assert "conservative" in r.checks

    class Cited(FirstMistake):
        bound_source = Citation("my own paper (2026), Lemma 1", url="arXiv:2601.00001")

    assert check_learner(Cited).source == "my own paper (2026), Lemma 1 <arXiv:2601.00001>"


def test_false_declarations_are_caught_with_a_message():
    class Liar(BalancedWinnow):  # at (w+ - w-).x = theta it predicts 0 and, on label 0, still demotes
        conservative = True

    with pytest.raises(ConformanceError, match="changed after a correct prediction"):
        check_learner(Liar, params={"theta": 3})

    class Lopsided(Winnow2):  # one weight starts elsewhere: the variables are not alike
        def __init__(self, n):
            super().__init__(n)
            self.w = (Fraction(2),) + self.w[1:]

    with pytest.raises(ConformanceError, match="symmetric_variables"):
        check_learner(Lopsided)

    class Forgetful(FirstMistake):
        def state_key(self):
            return None  # says nothing of the state

    with pytest.raises(ConformanceError, match="state_key"):
        check_learner(Forgetful)

    class Lax(FirstMistake):
        def learn_one(self, x, y):
            if y in (0, 1):
                super().learn_one(x, y)

    with pytest.raises(ConformanceError, match="accepted the label"):
        check_learner(Lax)


def test_a_learner_that_states_no_bound_or_cannot_be_built_is_refused():
    class Uncited(FirstMistake):
        bound_source = ""

    with pytest.raises(ValueError, match="bound_source is blank"):
        check_learner(Uncited)
    with pytest.raises(ValueError, match="cannot be built"):
        check_learner(Winnow2, params={"alpha": 3})
    assert cite("Rivest94").startswith("Rivest")
