"""Learning by elimination: start from the most specific hypothesis and cross off what an example rules out.

Sources: [Mehta], section 1.1 (monotone conjunctions: start from x_1 x_2 ... x_d; on
a positive example predicted negative, remove the variables that are 0; at most d mistakes) and
[OnlineAlgs] (ELIM for an OR of literals: start from all 2n literals; on a negative example
delete the literals it satisfies; at most n + 1 mistakes).

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable

from .base import Bound, Lemma, OnlineLearner, Point, as_int, binary_vector, check_label, cite, class_facts

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = ["ConjunctionElimination", "ELIM"]


def _mask(x: tuple) -> int:
    """The variables that are 1 in x, as a bitmask (bit i = variable x_{i+1})."""
    m = 0
    for i, v in enumerate(x):
        if v:
            m |= 1 << i
    return m


def _names(mask: int, n: int, fmt: str) -> list[str]:
    return [fmt.format(i + 1) for i in range(n) if (mask >> i) & 1]


class ConjunctionElimination(OnlineLearner):
    """Elimination for monotone conjunctions on {0,1}^n.

    Rule: the hypothesis is the conjunction f of a set S of variables, initially all of them
    (f = x_1 x_2 ... x_n). Predict f(x). If the true label is 1 but the prediction was 0, remove from S
    every variable that is 0 in x (none of them can be in the target). Nothing else changes S: a
    negative example never causes a mistake when the target is a monotone conjunction, since f is
    always at least as specific as the target. Each mistake removes at least one variable: at most n
    mistakes.

    Source: [Mehta] (learning monotone conjunctions, at most d mistakes).

    Parameters
    ----------
    n : int
        The number of variables (points are 0/1 tuples of length n).

    Examples
    --------
    >>> L = ConjunctionElimination(3)
    >>> L.predict_one((1, 1, 0))          # f = x1 x2 x3
    0
    >>> L.learn_one((1, 1, 0), 1)         # a false negative: drop x3
    >>> L.hypothesis()
    'x1 x2'
    >>> L.predict_one((1, 1, 0)), L.predict_one((0, 1, 1))
    (1, 0)
    >>> L.mistake_bound().value
    3
    """

    name = "conjunction-elimination"
    conservative = True  # it removes variables only on a false negative
    dim_param = "n"
    bound_formula = "n"
    bound_source = cite("Mehta", "section 1.1 Learning monotone conjunctions")
    summary = "monotone conjunctions: drop the 0 variables of a false negative"

    def __init__(self, n):
        self.n = as_int(n, "n", self.name, low=1)
        self.S = (1 << self.n) - 1  # the variables of the conjunction, as a bitmask

    def predict_one(self, x: Point) -> int:
        ones = _mask(binary_vector(x, self.n, self.name))
        return int(self.S & ~ones == 0)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        ones = _mask(binary_vector(x, self.n, self.name))
        if y == 1 and self.S & ~ones:  # a false negative: remove the variables that are 0 in x
            self.S &= ones

    def hypothesis(self) -> str:
        """The current conjunction, e.g. ``'x1 x3'`` (``'true'`` when empty)."""
        return " ".join(_names(self.S, self.n, "x{}")) or "true"

    def state_key(self) -> Hashable:
        return self.S

    def get_params(self) -> dict:
        return {"n": self.n}

    def mistake_bound(self) -> Bound:
        """n mistakes for any monotone conjunction target ([Mehta])."""
        return Bound(self.n, "n (the number of variables, d in the notes)", self.bound_source)

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """No mistake on a negative example (f is always at least as specific as the target), and at most n
        on positive ones, on a class of monotone conjunctions without label errors ([Mehta])."""
        if "monotone_and" not in class_facts(cls) or errors:
            return ()
        return (Lemma("false_negative", self.n, 0, "u <= n: each mistake removes at least one variable",
                      self.bound_source),
                Lemma("false_positive", 0, 0, "v = 0: f is always at least as specific as the target",
                      self.bound_source))

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """n on a class of monotone conjunctions ([Mehta]) without label errors."""
        if "monotone_and" in class_facts(cls) and not errors:
            return self.mistake_bound()
        return super().bound_on(cls, errors)


class ELIM(OnlineLearner):
    """ELIM: learn an OR of literals by deleting the literals negative examples satisfy.

    Rule: the hypothesis is the OR of a set L of literals z_i and not-z_i, initially all 2n of them.
    Predict OR(L, x). On every negative example (label 0), whatever was predicted, delete from L every
    literal x satisfies: such a literal cannot be in the target OR, which x leaves false. The target's
    literals are never deleted, so there is no mistake on a positive example; the first mistake deletes
    n literals (x satisfies exactly n of the 2n) and each later one at least one more: at most n + 1
    mistakes.

    Source: [OnlineAlgs] (ELIM, "Maximum number of mistakes n + 1").

    Parameters
    ----------
    n : int
        The number of variables (points are 0/1 tuples of length n).

    Examples
    --------
    >>> L = ELIM(2)
    >>> L.predict_one((0, 0))           # every point satisfies some literal of all four
    1
    >>> L.learn_one((0, 0), 0)          # deletes ~z1 and ~z2
    >>> L.hypothesis()
    'z1 v z2'
    >>> L.predict_one((0, 0)), L.predict_one((1, 0))
    (0, 1)
    >>> L.mistake_bound().value
    3
    """

    name = "elim"
    conservative = True  # a correct 0 means x satisfies no literal of L: nothing to delete
    dim_param = "n"
    bound_formula = "n + 1"
    bound_source = cite("OnlineAlgs", 'slide "Analysis of ELIM"')
    summary = "ORs of literals: a negative example deletes the literals it satisfies"

    def __init__(self, n):
        self.n = as_int(n, "n", self.name, low=1)
        full = (1 << self.n) - 1
        self.pos = full  # literal z_i in L iff bit i is set
        self.neg = full  # literal not-z_i in L iff bit i is set

    def predict_one(self, x: Point) -> int:
        ones = _mask(binary_vector(x, self.n, self.name))
        return int(bool(self.pos & ones) or bool(self.neg & ~ones))

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        ones = _mask(binary_vector(x, self.n, self.name))
        if y == 0:  # delete every literal x satisfies
            self.pos &= ~ones
            self.neg &= ones

    def hypothesis(self) -> str:
        """The current OR, e.g. ``'z1 v ~z2'`` (``'false'`` when empty)."""
        lits = []
        for i in range(self.n):
            if (self.pos >> i) & 1:
                lits.append(f"z{i + 1}")
            if (self.neg >> i) & 1:
                lits.append(f"~z{i + 1}")
        return " v ".join(lits) or "false"

    def state_key(self) -> Hashable:
        return (self.pos, self.neg)

    def get_params(self) -> dict:
        return {"n": self.n}

    def mistake_bound(self) -> Bound:
        """n + 1 mistakes for any OR of literals ([OnlineAlgs])."""
        return Bound(self.n + 1, self.bound_formula, self.bound_source)

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """No mistake on a positive example (the target's literals are never deleted), and at most n + 1 on
        negative ones, on a class of ORs of literals without label errors ([OnlineAlgs])."""
        if "or_of_literals" not in class_facts(cls) or errors:
            return ()
        return (Lemma("false_negative", 0, 0, "u = 0: the target's literals are never deleted, so a positive "
                      "example is always predicted 1", self.bound_source),
                Lemma("false_positive", self.n + 1, 0, "v <= n + 1: the first mistake deletes n literals, each later "
                      "one at least one more", self.bound_source))

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """n + 1 on a class of ORs of literals ([OnlineAlgs]) without label errors; monotone ones are ORs
        of literals too."""
        if "or_of_literals" in class_facts(cls) and not errors:
            return self.mistake_bound()
        return super().bound_on(cls, errors)
