"""Random equivalence queries (Angluin and Dohrn): the learner proposes a hypothesis, and a wrong one is answered by
a counterexample drawn at random; the value is the least, over deterministic learners, of the worst case over targets
of the expected number of queries, an exact fraction.

* ``req``: random equivalence queries, any labelling of the points as the hypothesis;
* ``rpeq``: random proper equivalence queries, a concept of C as the hypothesis.

The counterexample distribution is the one the catalogue leaves to the user (it writes Q_req(H; mu)): here mu is
**uniform on the class's points as given**, so a counterexample to hypothesis h for target t is uniform on the points
where they differ, D(h, t). Two equal columns are two points and weigh twice. The catalogue's conventions otherwise,
as for the other query games (:mod:`.queries`): the learner stops once at most one concept is consistent, every
query counts (an accepted one too), and a query one of whose counterexamples could leave the version space as it was
is not allowed (h must agree with the version space wherever all of it agrees).

**Why this is not a recurrence over version spaces.** The worst case is over the target, outside the expectation,
so the best continuation after one counterexample depends on what the learner does after the others: for a version
space V this module keeps the Pareto frontier F(V) of the cost vectors (one expected cost per target of V) that
deterministic learners achieve from V. A learner's next step depends on the whole history, so after hypothesis h
each counterexample x (leaving V_x, the concepts of V that differ from h at x) takes its own vector s_x of F(V_x),
and target t's cost is

    1 if t = h, else 1 + (1 / |D(h, t)|) * sum over x in D(h, t) of s_x[t]   (s_x[t] = 0 when |V_x| = 1).

F(V) is the frontier of these over every allowed h and every choice of the s_x (built one counterexample at a time,
a dominated partial sum dropped as soon as it appears: what is added after is the same for both). The value is the
least, over F(C), of the largest entry. Each value comes with the learner that attains it, a tree
``{"query": h, "after": {x: subtree}}`` (h a concept's index for ``rpeq``, a string of 0/1 labels for ``req``;
no subtree where one concept is left), which :mod:`solvers.certificates.params_more` plays against every target.

Examples
--------
Singletons on n points: a proposed singleton {i} is the target or is told the point i or the target's point, each with
probability 1/2, so rpeq(S_n) = 1 + rpeq(S_(n-1)) / 2 = 2 - 2^(2-n); the empty labelling is told the target's point
at once, so req(S_n) = 1.

>>> from solvers.classes.families import make
>>> S4 = make("singletons", N=4, empty=0)
>>> rpeq(S4).value, req(S4).value
(Fraction(7, 4), Fraction(1, 1))

References
----------
D. Angluin and T. Dohrn, "The power of random counterexamples", ALT 2017. The catalogue
obousquet/Combinatorial-Parameters, entries "Random Proper Equivalence Queries Complexity" and "Random Equivalence
Queries Complexity".
"""

from __future__ import annotations

import itertools
import sys
import time
from fractions import Fraction
from typing import Optional

from ..numbers import bit_positions
from .spaces import Stop, VersionSpaces

__all__ = ["req", "rpeq", "MAX_SPLIT_POINTS", "MAX_TREE"]

#: The most points splitting a version space that ``req`` tries every labelling of (2^12 hypotheses a state).
MAX_SPLIT_POINTS = 12


#: The most queries a stopped search's learner (the upper bound's) lists in its tree.
MAX_TREE = 20_000
#: The caps tried at the root, as fractions of the way from the lower bound to the memoryless learner's worst case.
_STEPS = (Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))


class _TooWide(ValueError):
    """A version space split by more than :data:`MAX_SPLIT_POINTS` points, for ``req``."""


def _pareto(items: list, look=None) -> list:
    """The items (vector, provenance) whose vector no other item's is at most everywhere (one of equal vectors)."""
    items = sorted(items, key=lambda it: (sum(it[0]), it[0]))
    kept: list = []
    for vec, how in items:
        if look is not None:
            look()
        if any(all(a <= b for a, b in zip(other, vec)) for other, _ in kept):
            continue
        kept.append((vec, how))
    return kept


def _within(vec, cap) -> bool:
    return all(c is None or v <= c for v, c in zip(vec, cap))


def _covers(big, small) -> bool:
    """Cap ``big`` is at least cap ``small`` everywhere (None: no cap)."""
    return all(b is None or (a is not None and a <= b) for a, b in zip(small, big))


class _Frontiers(VersionSpaces):
    def __init__(self, C, proper: bool, deadline: Optional[float]):
        super().__init__(C, deadline)
        self.proper = proper
        self.rows = self.M.tolist()
        self.memo: dict = {}  # V -> [(cap, frontier within it), ...]
        self.greedy: dict = {}
        self.greedy_move: dict = {}

    def _split_points(self, V: int) -> list:
        return [x for x, c in enumerate(self.cols) if V & c and V & c != V]

    def _labels(self, name) -> list:
        """The labels of the hypothesis named ``name``: a concept's index (proper), or a string of 0/1."""
        return self.rows[name] if self.proper else [int(b) for b in name]

    def _side(self, V: int, h, x: int) -> int:
        """V_x: the concepts of V that differ from h at x (those a counterexample at x leaves)."""
        return V & (self.cols[x] if h[x] == 0 else ~self.cols[x])

    def hypotheses(self, V: int):
        """The allowed hypotheses on V: (name, labels), labels a list of the n points' labels."""
        split = self._split_points(V)
        some = self.rows[(V & -V).bit_length() - 1]
        fixed = [x for x in range(self.n) if x not in set(split)]
        if self.proper:
            for g, row in enumerate(self.rows):
                if all(row[x] == some[x] for x in fixed):
                    yield g, row
            return
        if len(split) > MAX_SPLIT_POINTS:
            raise _TooWide
        for bits in itertools.product((0, 1), repeat=len(split)):
            h = list(some)
            for x, b in zip(split, bits):
                h[x] = b
            yield "".join(map(str, h)), h

    def upper(self, V: int) -> Fraction:
        """The recurrence that gives each version space its best worst case, upper(V) = min over h of max over t of
        1 + (mean over x in D(h, t) of upper(V_x)): the learner that plays those hypotheses costs every target of V
        at most upper(V) (by induction: each target of V_x costs at most upper(V_x) from there), so it bounds the
        value from above. It is not the value: a target's cost is a mean, and the worst targets of the V_x differ."""
        got = self.greedy.get(V)
        if got is not None:
            return got
        if V & (V - 1) == 0:
            return Fraction(0)
        split = self._split_points(V)
        best = None
        for name, h in self.hypotheses(V):
            self.look()
            side = {x: self.upper(self._side(V, h, x)) for x in split}
            worst = Fraction(0)
            for t in bit_positions(V):
                differ = [x for x in split if self.rows[t][x] != h[x]]
                worst = max(worst, 1 + (Fraction(sum(side[x] for x in differ), len(differ)) if differ else 0))
            if best is None or worst < best:
                best = worst
                self.greedy_move[V] = (name, h)
        self.greedy[V] = best
        return best

    def memoryless(self, V: int, budget: list):
        """The learner behind :meth:`upper` as a tree (None past ``budget[0]`` nodes in all)."""
        if V & (V - 1) == 0:
            return None
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooWide
        name, h = self.greedy_move[V]
        return {"query": name, "after": {str(x): self.memoryless(Vx, budget) for x in self._split_points(V)
                                         if (Vx := self._side(V, h, x)) & (Vx - 1)}}

    def cost(self, V: int, tree, t: int) -> Fraction:
        """Target t's expected number of queries when the learner ``tree`` plays on V."""
        if V & (V - 1) == 0:
            return Fraction(0)
        h = self._labels(tree["query"])
        differ = [x for x in range(self.n) if self.rows[t][x] != h[x]]
        if not differ:
            return Fraction(1)
        total = sum((self.cost(Vx, tree["after"][str(x)], t) for x in differ if (Vx := self._side(V, h, x)) & (Vx - 1)),
                    Fraction(0))
        return 1 + total / len(differ)

    def frontier(self, V: int, cap: tuple) -> list:
        """The Pareto frontier of the cost vectors within ``cap`` (one entry per concept of V in increasing order,
        None where there is none) that learners achieve from V: [(vector, (h, [(x, cap of V_x, index)...]))]."""
        members = bit_positions(V)
        if len(members) <= 1:
            return [((Fraction(0),) * len(members), None)]
        for stored, F in self.memo.get(V, ()):
            if _covers(stored, cap):
                return [it for it in F if _within(it[0], cap)]
        where = {c: i for i, c in enumerate(members)}
        split = self._split_points(V)
        found: list = []
        for name, h in self.hypotheses(V):
            self.look()
            differ = [[x for x in split if self.rows[t][x] != h[x]] for t in members]
            sides = [(x, self._side(V, h, x)) for x in split]
            sides = [(x, Vx) for x, Vx in sides if Vx & (Vx - 1)]  # a side of one concept costs nothing more
            # rest[i]: the least that the sides still to come add to target i (a query at least on each)
            rest = [sum(Fraction(1, len(d)) for x, Vx in sides if (Vx >> members[i]) & 1) if d else Fraction(0)
                    for i, d in enumerate(differ)]
            partial = [((Fraction(1),) * len(members), ())]
            if not _within([p + r for p, r in zip(partial[0][0], rest)], cap):
                continue
            for x, Vx in sides:
                at = [where[c] for c in bit_positions(Vx)]
                weight = [Fraction(1, len(differ[i])) for i in at]
                for i, w in zip(at, weight):
                    rest[i] -= w
                low = [min(vec[i] for vec, _ in partial) for i in at]
                sub_cap = tuple(None if cap[i] is None else (cap[i] - lo - rest[i]) / w
                                for i, w, lo in zip(at, weight, low))
                sub = self.frontier(Vx, sub_cap)
                grown = []
                for vec, how in partial:
                    self.look()
                    for k, (sv, _) in enumerate(sub):
                        new = list(vec)
                        for i, w, v in zip(at, weight, sv):
                            new[i] += w * v
                        if all(cap[i] is None or new[i] + rest[i] <= cap[i] for i in at):
                            grown.append((tuple(new), how + ((x, sub_cap, k),)))
                partial = _pareto(grown, self.look)
                if not partial:
                    break
            found.extend((vec, (name, how)) for vec, how in partial)
        out = _pareto(found, self.look)
        self.memo.setdefault(V, []).append((cap, out))
        return out

    def strategy(self, V: int, cap: tuple, k: int):
        """The learner behind entry k of the frontier of V within ``cap``, as a tree."""
        if V & (V - 1) == 0:
            return None
        name, how = self.frontier(V, cap)[k][1]
        h = self._labels(name)
        return {"query": name, "after": {str(x): self.strategy(self._side(V, h, x), c, j) for x, c, j in how}}


def _play(C, proper: bool, key: str, time_limit: Optional[float]):
    from . import ParamResult

    m = C.n_concepts
    trivial = (1 if m >= 2 else 0, max(m - 1, 0))  # a query at least; each query removes a concept
    deadline = None if time_limit is None else time.monotonic() + time_limit
    G = _Frontiers(C, proper, deadline)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * G.m + 1000))
    lower, upper, witness = *trivial, {"mu": "uniform", "strategy": None}
    try:
        U = G.upper(G.full)
        upper = min(upper, U)
        try:
            tree = G.memoryless(G.full, [MAX_TREE])  # the upper bound's learner, while the search runs
            witness["strategy"] = tree
            upper = min(upper, max((G.cost(G.full, tree, t) for t in range(m)), default=Fraction(0)))
        except _TooWide:
            pass
        U = upper
        L = Fraction(trivial[0])
        # The frontier within a cap lambda holds every learner whose worst case is at most lambda, so once it is not
        # empty its best worst case is the value; while it is empty, the value is above lambda. A cap just above the
        # value prunes the most: lambda is tried from below.
        for step in _STEPS:
            lam = L + (U - L) * step
            cap = (lam,) * m
            F = G.frontier(G.full, cap)
            if F:
                break
            lower = max(lower, lam)
        k = min(range(len(F)), key=lambda i: (max(F[i][0], default=Fraction(0)), sum(F[i][0])))
        v = max(F[k][0], default=Fraction(0))
        return ParamResult(key, v, v, {"mu": "uniform", "strategy": G.strategy(G.full, cap, k)})
    except (Stop, RecursionError, _TooWide):
        return ParamResult(key, lower, upper, witness)
    finally:
        sys.setrecursionlimit(limit)


def req(C, *, time_limit: Optional[float] = None):
    """Random equivalence queries, any hypothesis (module docstring), as a :class:`~solvers.params.ParamResult`
    whose value is a :class:`~fractions.Fraction`."""
    return _play(C, False, "req", time_limit)


def rpeq(C, *, time_limit: Optional[float] = None):
    """Random proper equivalence queries, a concept of C as the hypothesis (module docstring)."""
    return _play(C, True, "rpeq", time_limit)
