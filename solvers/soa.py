"""The optimal learner SOA (the "optimal algorithm" of [Rivest94]).

Source: [Rivest94], section 2.3.3: on input x, predict 1 iff
Opt(xi_1(V, x)) >= Opt(xi_0(V, x)), 0 otherwise (ties go to 1), where V is the current version space.
Its worst-case number of mistakes on C is exactly Opt(C): after a mistake on x the version space becomes
the side whose Opt is the smaller, and min(Opt(V_x^0), Opt(V_x^1)) <= Opt(V) - 1 whenever x splits V.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

from .concept_class import ConceptClass
from .opt import Solver
from .opt.subcube import SubcubeTable as OptTable

__all__ = ["SOA"]


class SOA:
    """The Standard Optimal Algorithm for a finite class.

    Rule: predict 1 iff Opt(V_x^1) >= Opt(V_x^0); keep the consistent concepts. Bound: Opt(C).

    Source: [Rivest94] (the optimal algorithm, section 2.3.3).

    Parameters
    ----------
    C : ConceptClass
    solver : Solver, optional
        A solver for ``C`` whose memo (or table) to reuse, for instance ``opt(C, solver=S)``'s.
        Without one, a new solver is made; classes over at most 12 distinct points get the table
        engine (:mod:`solvers.opt.subcube`) at once, which makes every prediction a table look-up.

    Examples
    --------
    >>> from solvers.families import make
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

    def __init__(self, C: ConceptClass, *, solver: Solver | None = None):
        if not isinstance(C, ConceptClass):
            raise TypeError("SOA needs a ConceptClass")
        self.C = C
        self.solver = solver if solver is not None else Solver(C)
        if self.solver.C is not C and self.solver.C != C:
            raise ValueError("the solver given to SOA was built for another class")
        self.V = C.full
        S = self.solver
        if S.table is None and solver is None and len(S.root_points) <= 12:
            S.table = OptTable(C, S.root_points)
        if S.table is not None:
            S.table.fill()
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
            self.p = S.table.root

    def _split(self, x) -> tuple[int, int]:
        return self.C.split(self.V, self.C.index_of(x))

    def predict_one(self, x) -> int:
        """1 iff Opt(V_x^1) >= Opt(V_x^0) (Opt of the empty set is -1)."""
        V0, V1 = self._split(x)
        if not V1:
            return 0
        if not V0:
            return 1
        T = self.solver.table
        if T is not None:
            j, flip = self._eff[self.C.index_of(x)]
            return int(T.U[T.child(self.p, j, 1 ^ flip)] >= T.U[T.child(self.p, j, flip)])
        return int(self.solver.value(V1) >= self.solver.value(V0))

    def learn_one(self, x, y) -> None:
        """Keep the concepts that agree with label ``y`` on ``x``.

        Raises
        ------
        ValueError
            If no concept of the class is consistent with the examples so far and this one.
        """
        if isinstance(y, bool) or y not in (0, 1):
            raise ValueError(f"label {y!r} is not 0 or 1")
        V0, V1 = self._split(x)
        V = V1 if y else V0
        if not V:
            raise ValueError(f"no concept of the class labels the examples so far and ({x}, {y}); the sequence is not realizable")
        T = self.solver.table
        if T is not None and V != self.V:
            j, flip = self._eff[self.C.index_of(x)]
            self.p = T.child(self.p, j, y ^ flip)
        self.V = V

    def state_key(self):
        """The version space: SOA's behaviour from now on depends on nothing else."""
        return self.V

    def get_params(self) -> dict:
        """No parameters besides the class (the learner protocol of :mod:`solvers.learners`)."""
        return {}

    def __deepcopy__(self, memo):
        """An independent learner: V and the table pointer are copied; the class, the solver (whose memo
        and table are a cache of Opt values, true for every copy) and the column map are shared."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        return new

    def mistake_bound(self):
        """Opt(C): SOA makes at most Opt(C) mistakes on any realizable sequence ([Rivest94]).

        Returns
        -------
        Bound
            ``Bound(Opt(C), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"))``.
        """
        from .learners.base import Bound, cite

        T = self.solver.table
        value = T.value() if T is not None else self.solver.value(self.C.full)
        return Bound(int(value), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"))
