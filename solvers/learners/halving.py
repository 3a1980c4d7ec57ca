"""The Halving algorithm (HAL): predict with the majority of the version space.

Source: [OnlineAlgs] (HAL, at most floor(log2 |C|) mistakes); the rule with ties to 1 is
[Mehta]'s majority vote MV_F(x) = 1 iff |{f in F : f(x) = 1}| >= |F|/2, and [Rivest94]'s
"predict 1 if |xi_1(V, x)| >= |xi_0(V, x)|".

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from .base import Bound, Point, VersionSpaceLearner, cite

__all__ = ["Halving"]


class Halving(VersionSpaceLearner):
    """Halving: predict the majority label of the concepts still consistent, ties to 1.

    Rule: on x, predict 1 iff ``|V_x^1| >= |V_x^0|`` ([Mehta]'s ``MV_F(x) = 1 iff |{f : f(x) = 1}| >= |F|/2``);
    after the label, keep the consistent concepts. A mistake means the majority was wrong, so at least
    half of V goes: ``|V_{t+1}| <= |V_t| / 2``, and the mistakes number at most ``floor(log2 |C|)``.

    Source: [OnlineAlgs] (HAL, bound floor(log2 |C|)); [Mehta] (the
    majority vote with ties to 1).

    Parameters
    ----------
    C : ConceptClass

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> L = Halving(C)
    >>> L.predict_one((0,))     # one concept says 1, two say 0
    0
    >>> L.predict_one((1,))     # two say 1
    1
    >>> L.learn_one((1,), 1)    # V = {01, 11}: a 1-1 tie on point 0 goes to 1
    >>> L.predict_one((0,))
    1
    >>> b = L.mistake_bound()
    >>> b.value, b.formula
    (1, 'floor(log2 |C|)')
    """

    name = "halving"
    bound_formula = "floor(log2 |C|)"
    bound_source = cite("OnlineAlgs", 'slide "HAL - halving algorithm"')
    summary = "majority vote of the version space, ties to 1 (HAL)"

    def predict_one(self, x: Point) -> int:
        V1 = self.V & self.C.columns[self._column(x)]
        return int(2 * V1.bit_count() >= self.V.bit_count())

    def mistake_bound(self) -> Bound:
        """floor(log2 |C|) mistakes on any realizable sequence ([OnlineAlgs]'s theorem for HAL)."""
        return Bound(self.C.log2_size(), self.bound_formula, self.bound_source)

    def remaining_bound(self, V: int) -> int:
        """floor(log2 |V|): each mistake at least halves V ([OnlineAlgs]'s proof, from this state on)."""
        return V.bit_count().bit_length() - 1
