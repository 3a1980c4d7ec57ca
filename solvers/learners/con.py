"""CON: predict with a concept consistent with the examples so far (the first one, in row order).

Source: [OnlineAlgs] (CON: h_t an arbitrary consistent concept, at most |C| - 1 mistakes);
[Rivest94] states the same bound for "predicts according to the first remaining c".

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from .base import Bound, Point, VersionSpaceLearner, cite

__all__ = ["CON"]


class CON(VersionSpaceLearner):
    """CON: predict with the first concept of the version space (in the class's row order).

    Rule: h_t is the lowest-indexed concept of C consistent with every example so far; predict h_t(x).
    A mistake eliminates h_t (at least), and the target is never eliminated, so there are at most
    |C| - 1 mistakes.

    Source: [OnlineAlgs] (CON, bound |C| - 1; the choice of h_t is arbitrary there, here it
    is the first consistent row, as in [Rivest94]'s "first remaining c").

    Parameters
    ----------
    C : ConceptClass

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> C = ConceptClass.from_matrix([[1, 0], [0, 1], [0, 0]])
    >>> L = CON(C)
    >>> L.predict_one((0,)), L.predict_one((1,))    # both with concept 0 = [1, 0]
    (1, 0)
    >>> L.learn_one((0,), 0)                        # eliminates concept 0; now concept 1 = [0, 1]
    >>> L.predict_one((1,))
    1
    >>> L.mistake_bound().value
    2
    """

    name = "con"
    bound_formula = "|C| - 1"
    bound_source = cite("OnlineAlgs", 'slide "CON Algorithm"')
    summary = "predict with the first consistent concept"

    def predict_one(self, x: Point) -> int:
        first = (self.V & -self.V).bit_length() - 1
        return (self.C.columns[self._column(x)] >> first) & 1

    def mistake_bound(self) -> Bound:
        """|C| - 1 mistakes on any realizable sequence ([OnlineAlgs]'s theorem for CON)."""
        return Bound(len(self.C) - 1, self.bound_formula, self.bound_source)

    def remaining_bound(self, V: int) -> int:
        """|V| - 1: each mistake eliminates a concept of V, never the target ([OnlineAlgs])."""
        return V.bit_count() - 1
