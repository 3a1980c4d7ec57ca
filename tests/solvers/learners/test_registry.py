"""The registry of :mod:`solvers.learners`: adding a learner is one module plus one ``register`` line.

The example learner below stands for that new module: it states its rule, its bound and its
declarations on its class, and after ``register(Memorizer)`` the CLI's registry lists it, ``attack``
attacks it and the conformance suite checks it, with no other edit anywhere.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import math

import pytest

from adversary.attack import attack, bound_for
from solvers.classes.families import make
from solvers.learners import LEARNERS, Bound, describe, make_learner, register, unregister
from solvers.learners.base import OnlineLearner, check_label, cite
from tests.solvers.learners.test_conformance import conformance


class Memorizer(OnlineLearner):
    """Predict the label last shown with x, or 1 for a point not yet wrong; remember x after a mistake.

    Bound: a mistake on x stores the target's label of x, so x is never wrong again: at most |X|
    mistakes on any realizable sequence over a domain X (derived here, in [Rivest94]'s model).
    """

    name = "memorizer"
    conservative = True  # it remembers only the points it got wrong
    bound_formula = "|X| (each point errs at most once)"
    bound_source = cite("Rivest94", "section 2.2 (derived here)")
    bound_params = ("N",)
    summary = "remember the label of every point it got wrong; predict 1 elsewhere"

    def __init__(self):
        self.seen = frozenset()  # the points labelled 0 after a mistake

    def predict_one(self, x) -> int:
        return 0 if tuple(int(v) for v in x) in self.seen else 1

    def learn_one(self, x, y) -> None:
        y = check_label(y)
        x = tuple(int(v) for v in x)
        if y == 0 and x not in self.seen:
            self.seen = self.seen | {x}

    def state_key(self):
        return self.seen

    def get_params(self) -> dict:
        return {}

    def mistake_bound(self, N=math.inf) -> Bound:
        """N = |X| mistakes on a domain of N points (no bound without N)."""
        return Bound(N, self.bound_formula, self.bound_source)

    def bound_on(self, cls) -> Bound:
        if hasattr(cls, "n_points"):
            return self.mistake_bound(N=cls.n_points)
        return super().bound_on(cls)


@pytest.fixture
def memorizer():
    spec = register(Memorizer)  # the one registry line
    yield spec
    unregister("memorizer")


def test_a_registered_learner_is_listed_built_attacked_and_conformant(memorizer):
    assert LEARNERS["memorizer"] is memorizer and memorizer.bound_formula == Memorizer.bound_formula
    row = next(r for r in describe() if r["name"] == "memorizer")
    assert row["bound"] == "|X| (each point errs at most once)" and row["source"] == Memorizer.bound_source
    C = make("monotone-disjunctions", n=3, k=1)
    assert bound_for(make_learner("memorizer", {}, C), C).value == 8
    r = attack("memorizer", C, strategy="exact")
    assert r.exact and r.verdict == "tight"
    assert r.mistakes == 8  # the empty OR labels every point 0, and each point errs once
    conformance(memorizer)


def test_register_refuses_what_the_listings_cannot_show():
    class Nameless(Memorizer):
        name = ""

    class Unbounded(Memorizer):
        name = "unbounded-example"
        bound_formula = ""

    class Uncited(Memorizer):
        name = "uncited-example"
        bound_source = "  "

    with pytest.raises(ValueError, match="needs a CLI name"):
        register(Nameless)
    with pytest.raises(ValueError, match="bound_formula"):
        register(Unbounded)
    with pytest.raises(ValueError, match="bound_source is blank"):
        register(Uncited)
    with pytest.raises(ValueError, match="taken by Halving"):
        register(type("Other", (Memorizer,), {"name": "halving"}))
    assert "uncited-example" not in LEARNERS and LEARNERS["halving"].cls.__name__ == "Halving"
