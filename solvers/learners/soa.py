"""The optimal learner SOA (the "optimal algorithm" of [Rivest94]).

Source: [Rivest94], section 2.3.3: on input x, predict 1 iff
Opt(xi_1(V, x)) >= Opt(xi_0(V, x)), 0 otherwise (ties go to 1), where V is the current version space.
Its worst-case number of mistakes on C is exactly Opt(C): after a mistake on x the version space becomes
the side whose Opt is the smaller, and min(Opt(V_x^0), Opt(V_x^1)) <= Opt(V) - 1 whenever x splits V.
The version space is kept as Halving's and CON's (:class:`~solvers.learners.base.VersionSpaceLearner`);
the Opt values come from the exact solver (:mod:`solvers.opt`).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

from ..classes.finite import ConceptClass
from ..opt.search import Solver
from .base import Bound, VersionSpaceLearner, check_label, cite

__all__ = ["SOA"]


class SOA(VersionSpaceLearner):
    """The Standard Optimal Algorithm for a finite class.

    Rule: predict 1 iff Opt(V_x^1) >= Opt(V_x^0); keep the consistent concepts. Bound: Opt(C).

    Source: [Rivest94] (the optimal algorithm, section 2.3.3).

    Parameters
    ----------
    C : ConceptClass
    solver : Solver, optional
        A solver for ``C`` whose memo (or table) to reuse, for instance ``opt(C, solver=S)``'s.
        Without one, a new solver is made; classes over at most 12 distinct points get the subcube
        table (:mod:`solvers.opt.subcube`) at once, which makes every prediction a table look-up.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> learner = SOA(make("thresholds", N=7))
    >>> learner.predict_one((4,))
    1
    >>> learner.learn_one((4,), 0)      # so the threshold t is in {5, 6, 7, 8}
    >>> learner.predict_one((5,))       # Opt({5}) = 0 < Opt({6, 7, 8}) = 1
    0
    >>> learner.mistake_bound().value
    3
    """

    name = "soa"
    bound_formula = "Opt(C)"
    bound_source = cite("Rivest94", "section 2.3.3 Optimal algorithm")
    summary = "the optimal algorithm: predict 1 iff Opt(V_x^1) >= Opt(V_x^0)"

    def __init__(self, C: ConceptClass, *, solver: Solver | None = None):
        if not isinstance(C, ConceptClass):
            raise TypeError("SOA needs a ConceptClass")
        super().__init__(C)
        self.solver = solver if solver is not None else Solver(C)
        S = self.solver
        if S.C is not C and S.C != C:
            raise ValueError("the solver given to SOA was built for another class")
        if S.table is None and solver is None and len(S.root_points) <= 12:
            S.subcube_table()
        # The subcube table (when the solver has one) answers every prediction by a look-up; p is
        # the subcube of the current version space.
        self._table = S.table
        if self._table is not None:
            self._table.fill()
            # Each column is constant on C, or equal / complementary to one of the table's points.
            where = {m: j for j, m in enumerate(S.root_masks)}
            full = C.full
            self._eff = []
            for col in C.columns:
                if col == 0 or col == full:
                    self._eff.append(None)
                elif col in where:
                    self._eff.append((where[col], 0))
                else:
                    self._eff.append((where[full ^ col], 1))
            self.p = self._table.root

    def predict_one(self, x) -> int:
        """1 iff Opt(V_x^1) >= Opt(V_x^0) (Opt of the empty set is -1)."""
        j = self._column(x)
        V0, V1 = self.C.split_index(self.V, j)
        if not V1:
            return 0
        if not V0:
            return 1
        T = self._table
        if T is not None:
            e, flip = self._eff[j]
            return int(T.U[T.child(self.p, e, 1 ^ flip)] >= T.U[T.child(self.p, e, flip)])
        return int(self.solver.value(V1) >= self.solver.value(V0))

    def learn_one(self, x, y) -> None:
        """Keep the concepts that agree with label ``y`` on ``x`` (and follow them in the table).

        Raises
        ------
        ValueError
            If ``y`` is not 0 or 1, or no concept of the class is consistent with the examples so far
            and this one.
        """
        before = self.V
        super().learn_one(x, y)
        if self._table is not None and self.V != before:
            e, flip = self._eff[self._column(x)]
            self.p = self._table.child(self.p, e, check_label(y) ^ flip)

    def mistake_bound(self) -> Bound:
        """Opt(C): SOA makes at most Opt(C) mistakes on any realizable sequence ([Rivest94]).

        Returns
        -------
        Bound
            ``Bound(Opt(C), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"))``.
        """
        T = self._table
        value = T.value() if T is not None else self.solver.value(self.C.full)
        return Bound(int(value), self.bound_formula, self.bound_source)

    def remaining_bound(self, V: int) -> int:
        """Opt(V): SOA makes at most Opt(V) more mistakes from version space V ([Rivest94])."""
        return self.solver.value(V)
