"""The conservative version A' of any learner A: A fed only the examples it got wrong ([OnlineAlgs]).

The notes' construction ("Conservative Mistake Bound Algorithm"): h_0 = A(empty); predict h_t(x_t); if it was
right, h_{t+1} = h_t; else append x_t to the sequence ER of mistakes and h_{t+1} = A(ER). Running A on ER from
scratch at each mistake is the same as running one copy of A on the mistakes alone, in order, which is what
:class:`Conservative` does: it predicts with A, and only a mistake reaches A's ``learn_one``.

A' is conservative (its hypothesis changes only after a mistake), and its mistake bound is A's: the mistakes
of A' on any sequence are exactly A's mistakes on ER, a subsequence of the same labels (realizable if the
sequence is; with k label errors if it has k), of the same kinds (so A's lemmas on u and v hold for A' too).
The claim is about bounds: A' and A may have different worst cases on a class (``scripts/conservative_table.py``).

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow), slides
   "Conservative Online Algorithm" and "Conservative Mistake Bound Algorithm".

Examples
--------
Halving keeps its version space on every example; its conservative version only on mistakes:

>>> from solvers.classes.families import make
>>> from solvers.learners import make_learner
>>> C = make("thresholds", N=3)
>>> A = make_learner("conservative", {"learner": "halving"}, C)
>>> A.predict_one((2,)), A.learn_one((2,), 1), A.mistakes_fed    # right: A does not see it
(1, None, 0)
>>> A.predict_one((1,)), A.learn_one((1,), 1), A.mistakes_fed    # wrong: A learns it
(0, None, 1)
>>> A.bound_on(C).value                                          # Halving's: floor(log2 4)
2
"""

from __future__ import annotations

import copy
import inspect
import json
from typing import TYPE_CHECKING, Any, Hashable

from .base import Bound, Lemma, OnlineLearner, Point, Points, check_label, cite

if TYPE_CHECKING:
    import numpy as np

    from ..classes.protocol import ConceptClassProtocol

__all__ = ["Conservative", "conservative"]


def _params(value) -> dict:
    """The wrapped learner's parameters: a dict, a JSON object, or ``k=v,k=v`` (the CLI's text)."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return dict(value)
    text = str(value).strip()
    if text.startswith("{"):
        try:
            out = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"conservative: params {text!r} is not a JSON object ({e}); write e.g. params=alpha=3,theta=4") from None
        if not isinstance(out, dict):
            raise ValueError(f"conservative: params must be a JSON object, got {text!r}")
        return out
    out = {}
    for item in text.split(","):
        key, eq, v = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"conservative: params item {item!r} is not k=v; write e.g. params=alpha=3,theta=4")
        out[key.strip()] = v.strip()
    return out


class Conservative(OnlineLearner):
    """A' of the notes: the learner ``learner`` (a CLI name) fed only the examples it predicts wrongly.

    Parameters
    ----------
    C : ConceptClass
        The class (the wrapped learner is built on it, as the CLI builds any learner: Halving from its
        concepts, Winnow with n from its points).
    learner : str, default "halving"
        The wrapped learner A (any deterministic learner of :data:`solvers.learners.LEARNERS`).
    params : dict or str, optional
        A's parameters (a dict, a JSON object, or ``alpha=3,theta=4``).
    """

    name = "conservative"
    needs_class = True
    conservative = True
    bound_formula = "the wrapped learner's bound (A' makes on any sequence exactly A's mistakes on ER)"
    bound_source = cite("OnlineAlgs", 'slide "Conservative Mistake Bound Algorithm"')
    summary = "A' of any learner A: A fed only the examples it gets wrong (same mistake bound)"

    def __init__(self, C, learner="halving", params=None):
        from . import LEARNERS, make_learner

        if not isinstance(learner, str) or learner not in LEARNERS:
            known = ", ".join(sorted({s.name for s in LEARNERS.values()} - {self.name}))
            raise ValueError(f"conservative: give the learner to wrap, learner=NAME, one of: {known}")
        spec = LEARNERS[learner]
        if spec.cls is type(self):
            raise ValueError("conservative: the learner to wrap is already conservative(...); wrap another learner")
        if spec.cls.randomized:
            raise ValueError(f"conservative: {spec.name} is randomized; the notes' conversion is for deterministic "
                             "learners (their hypothesis is a function)")
        self.inner_name = spec.name
        self.inner = make_learner(spec.name, _params(params), C)
        self.C = C
        self.mistakes_fed = 0  # |ER|: the examples A has seen
        self.max_errors = getattr(self.inner, "max_errors", None)
        # A refuses a label no concept within max_errors gives; A' sees every label, A only the mistakes: A'
        # keeps the labels' budget states itself, to refuse such a label as A would (solvers.game_rules).
        self._levels = None
        if self.max_errors is not None:
            from ..game_rules import start

            self._levels = start(C.full, self.max_errors)

    # ------------------------------------------------------------------ the rule
    def predict_one(self, x: Point) -> int:
        return self.inner.predict_one(x)

    def predict_many(self, P: Points) -> np.ndarray:
        return self.inner.predict_many(P)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        if self._levels is not None:
            from ..game_rules import step

            nxt = step(self._levels, self.C.columns[self.C.index_of(x)], y)
            if nxt is None:
                raise ValueError(f"conservative({self.inner_name}): no concept of the class gives these labels within "
                                 f"{self.max_errors} error{'s' if self.max_errors != 1 else ''} (the label {y} at "
                                 f"x = {tuple(x)}); {self.inner_name} refuses it")
        else:
            nxt = None
        if self.inner.predict_one(x) != y:  # a mistake: ER = ER || x_t, h = A(ER)
            self.inner.learn_one(x, y)
            self.mistakes_fed += 1
        if nxt is not None:  # (committed once A has taken the example)
            self._levels = nxt

    # ------------------------------------------------------------------ protocol
    def __deepcopy__(self, memo):
        new = copy.copy(self)
        new.inner = copy.deepcopy(self.inner, memo)
        return new

    def state_key(self) -> Hashable:
        """A's state: what A' predicts with from now on (``|ER|`` does not change a prediction)."""
        return self.inner.state_key()

    @property
    def symmetric_variables(self) -> bool:
        return bool(getattr(self.inner, "symmetric_variables", False))

    @property
    def batch_predictions(self) -> bool:
        return bool(getattr(self.inner, "batch_predictions", False))

    def get_params(self) -> dict:
        return {"learner": self.inner_name, "params": self.inner.get_params()}

    def set_deadline(self, deadline: float | None) -> None:
        self.deadline = deadline
        if hasattr(self.inner, "set_deadline"):
            self.inner.set_deadline(deadline)

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """A's bound on ``cls`` (with ``errors`` label errors when A states one): the notes' claim."""
        method = self.inner.bound_on
        if not errors:
            b = method(cls)
        elif "errors" in inspect.signature(method).parameters:
            b = method(cls, errors=errors)
        else:
            b = OnlineLearner.bound_on(self.inner, cls, errors)
        if not b.finite:
            return self.no_bound(cls, f"its bound is {self.inner_name}'s, and {b.formula}", errors)
        return Bound(b.value, f"{self.inner_name}'s bound, {b.formula} (A' makes A's mistakes on ER: "
                              "Online Algorithms, Conservative Mistake Bound Algorithm)", b.source)

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """A's lemmas: A' makes A's mistakes on ER, kind by kind."""
        return tuple(self.inner.lemmas_on(cls, errors)) if hasattr(self.inner, "lemmas_on") else ()

    def mistake_bound(self, **target_params: Any) -> Bound:
        b = self.inner.mistake_bound(**target_params)
        return Bound(b.value, f"A' of {self.inner_name}: {b.formula}", b.source)


def conservative(learner, params=None, C=None) -> Conservative:
    """``Conservative(C, learner, params)``: the conservative version A' of the learner ``learner`` (a CLI name,
    or a learner of this package, whose name and parameters are taken)."""
    if not isinstance(learner, str):
        params = learner.get_params() if params is None else params
        learner = learner.name
    return Conservative(C, learner, params)
