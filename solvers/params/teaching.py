"""The teaching dimension and the recursive teaching dimension.

A teaching set of a concept c in a class D is a set of points on whose labels c is the only concept of D
consistent: every other concept of D differs from c at one of them (a set cover of D - {c} by the points,
point x covering the concepts that differ from c at x; equally a hitting set of the sets diff(h) of points where
each other concept h differs from c). TD_D(c) is the size of the smallest; the teaching dimension TD(C) is the
largest TD_C(c) (Goldman and Kearns). The recursive teaching dimension (Zilles, Lange, Holte and Zinkevich) peels
the class: take the concepts of the smallest TD in what is left, remove them, repeat; RTD(C) is the largest of
those smallest values.

Two routes compute them, chosen by ``method``:

* ``"search"``: the smallest cover by trying every set of each size in turn (after dropping points that cover
  nothing, and of points covering the same concepts all but one): quick on tiny classes, slow past a dozen
  useful points.
* ``"sat"``: each smallest teaching set by a branch and bound over bitsets (a point as the set of concepts it
  separates from c): branch on a concept not yet separated, the one that differs from c at the fewest points,
  trying each of those points; prune when even the points separating the most concepts left could not separate
  them all with the points left to choose. RTD reuses its work across the rounds: a teaching set stays one when
  concepts are removed (an upper bound carried over), and removing a set R of concepts lowers TD(c) by at most
  the size of a set of points hitting each diff(h) of R (if t points teach c without R, those and that set taught
  it with R), leaving out each h of R that a concept left between h and c dominates (its diff within diff(h)), so
  a lower bound carries over less a greedy such set; each round decides "TD(c) <= t?" only for the concepts whose
  lower bound is t, t rising from the least.

  The side of the value the sets do not prove is then proven by a SAT solver: for TD that no set of one point
  fewer teaches the hardest concept; for RTD that at the last step of size RTD no set of RTD - 1 points teaches
  any concept left (RTD is the largest, over the subclasses, of their least TD: a teaching plan of smaller order,
  restricted to that subclass, would teach some concept of it first with fewer points). The solver (Glucose 4,
  through python-sat) gets a CNF written here from the matrix: a clause per other concept, a cardinality network
  for "at most k points". A second, independent route checks its refutations where that is cheap: every set of k
  points tried by numpy, else OR-Tools' CP-SAT on a model of linear constraints. The witness records both, e.g.
  ``"lower": {"by": "glucose4", "refuted": 4, "checked_by": "exhaustive"}`` (no teaching set of 4 points;
  ``"cp-sat"``, or ``"unchecked": why`` where no second route was cheap enough), and for RTD the ``"step"``
  whose concepts left the refutation is about.
* ``"auto"`` (the default): ``"search"`` on tiny classes (where it is the quicker), else ``"sat"``.

Under a time limit both routes give the bounds they proved, with no witness: the "sat" route the largest TD(c)
it settled and the largest greedy teaching set for TD (where the two meet, the value with the sets found as its
witness); for RTD the least lower bound of the latest round, and the largest step so far or greedy set of a
concept left (a teaching plan; where the two meet before the peeling is done, the lower one less: a value comes
with its peeling). A time limit that ends while the
solver proves the value leaves it proven by the branch and bound alone (``"by": "branch and bound"``,
``"unchecked"``).

References
----------
Goldman and Kearns, "On the complexity of teaching" (1995). Zilles, Lange, Holte and Zinkevich, "Models of
cooperative teaching and learning", JMLR 12 (2011), Section 3 (teaching plans, RTD) and Lemma 4 (the canonical
plan has the least order). Doliwa, Fan, Simon and Zilles, "Recursive teaching dimension, VC-dimension and
sample compression", JMLR 15 (2014) (RTD as the largest least TD over the subclasses).

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("singletons", N=4), "td").value    # the empty concept needs every point
4
>>> search(make("singletons", N=4), "rtd").value   # each singleton first (1 point), then the empty concept (0)
1
>>> r = search(make("thresholds", N=30), "td", method="sat")
>>> r.value, r.witness["lower"]
(2, {'by': 'glucose4', 'refuted': 1, 'checked_by': 'exhaustive'})
"""

from __future__ import annotations

import itertools
import time
from math import comb
from typing import Optional

from .. import interrupts
from ..numbers import bit_positions

__all__ = ["search", "teaching_set", "is_teaching_set", "smallest_teaching_set", "METHODS"]

#: The values of ``method`` :func:`search` takes.
METHODS = ("auto", "search", "sat")

#: The SAT solver (a python-sat name) that proves the lower side on the "sat" route (measured on the refutations
#: of random classes of 200 concepts on 24 points: Glucose 4 with a cardinality network the quickest of CaDiCaL,
#: MiniSat, Glucose and MapleChrono with sequential counters, totalizers and networks, by 10-40 %).
SOLVER = "glucose4"

#: "auto" takes the exhaustive search on classes of at most this many points times concepts (measured on random
#: classes: below about 100-300 the search is as quick or quicker, a millisecond or less; the tests of
#: test_params.py and test_separate.py, thousands of tiny classes, take 7.1 s with 128, 7.4 s all by the search,
#: 10.6 s all by the "sat" route).
TINY = 128

#: The most sets of points times concepts the second route tries by numpy (about a second); past it CP-SAT.
EXHAUSTIVE_CELLS = 30_000_000

#: How many concepts left nearest a concept just peeled RTD's carried bounds look among for one between it and
#: each concept left (see ``_Sat.carry``).
DOMINATORS = 8

#: The deterministic work (CP-SAT's measure, about seconds) the second route may give CP-SAT in all.
CPSAT_BUDGET = 5.0

#: Clock used by the "sat" route's looks at its deadline (tests replace it by one that leaps).
_clock = time.monotonic


class _Stop(Exception):
    pass


def is_teaching_set(M, alive, c: int, points) -> bool:
    """Whether concept ``c`` is the only one of the rows ``alive`` of the 0/1 matrix ``M`` that agrees with it on
    ``points``."""
    return all(any(M[h, x] != M[c, x] for x in points) for h in alive if h != c)


def teaching_set(M, alive, c: int, deadline=None) -> list:
    """A smallest teaching set of ``c`` among the rows ``alive`` (column indices), by trying every set of each
    size in turn (the "search" route)."""
    import numpy as np

    others = [h for h in alive if h != c]
    if not others:
        return []
    n = M.shape[1]
    rows = np.asarray(others)
    cover = {}
    for x in range(n):  # numpy over the concepts, a look at the clock per point (millions of concepts: seconds)
        if deadline is not None and time.monotonic() > deadline:
            raise _Stop
        interrupts.check()
        cover[x] = frozenset(rows[M[rows, x] != M[c, x]].tolist())
    useful = [x for x in range(n) if cover[x]]
    # distinct covers only, largest first
    seen, cand = set(), []
    for x in sorted(useful, key=lambda x: -len(cover[x])):
        if cover[x] not in seen:
            seen.add(cover[x])
            cand.append(x)
    need = frozenset(others)
    for k in range(1, len(cand) + 1):
        for S in itertools.combinations(cand, k):
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
            if frozenset().union(*(cover[x] for x in S)) == need:
                return list(S)
    raise ValueError("two concepts of the class are equal; a class is a set (merge duplicate rows)")


def search(C, key: str = "td", *, time_limit: Optional[float] = None, method: str = "auto"):
    """TD(C) (``key="td"``) or RTD(C) (``"rtd"``) as a :class:`~solvers.params.ParamResult`.

    Parameters
    ----------
    C : ConceptClass
        A finite class (its rows distinct).
    key : {"td", "rtd"}
    time_limit : float, optional
        Seconds; a stopped search gives the bounds it proved (and no witness).
    method : {"auto", "search", "sat"}
        The route (see the module's description): every set of each size in turn, or the branch and bound
        with the SAT solver's refutation of the lower side; "auto" takes the first on tiny classes.

    Returns
    -------
    ParamResult
        Witness: for TD the hardest concept and its smallest teaching set, with every concept's smallest teaching
        set (the upper bound); for RTD the peeling, each step's concepts with their teaching sets. On the "sat"
        route also ``"lower"``: how the lower side was proven and checked (for RTD, ``"step"``: the step whose
        concepts left no set of one point fewer teaches).

    Raises
    ------
    ValueError
        An unknown key or method, or two equal concepts.
    """
    if key not in ("td", "rtd"):
        raise ValueError(f"teaching.search computes 'td' or 'rtd', not {key!r}")
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from: {', '.join(METHODS)}")
    if method == "auto":
        method = "search" if C.n_concepts * C.n_points <= TINY else "sat"
    if method == "search":
        return _search(C, key, time_limit)
    return _Sat(C, time_limit).td() if key == "td" else _Sat(C, time_limit).rtd()


def _search(C, key: str, time_limit: Optional[float]):
    """The "search" route: every concept's smallest teaching set by :func:`teaching_set`."""
    from . import ParamResult

    M = C.matrix
    m = C.n_concepts
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        if key == "td":
            sets = {c: teaching_set(M, range(m), c, deadline) for c in range(m)}
            hardest = max(range(m), key=lambda c: len(sets[c]))
            interrupts.check()
            return ParamResult("td", len(sets[hardest]), len(sets[hardest]),
                         {"concept": hardest, "teaching_set": sets[hardest],
                          "sets": {str(c): s for c, s in sets.items()}})
        alive, steps, value = list(range(m)), [], 0
        while alive:
            sets = {c: teaching_set(M, alive, c, deadline) for c in alive}
            low = min(len(s) for s in sets.values())
            peel = [c for c in alive if len(sets[c]) == low]
            steps.append({"size": low, "concepts": peel, "sets": [sets[c] for c in peel]})
            value = max(value, low)
            alive = [c for c in alive if c not in peel]
            interrupts.check()
        return ParamResult("rtd", value, value, {"steps": steps})
    except _Stop:
        return ParamResult(key, 0, C.n_points, {})


# ---------------------------------------------------------------------------------------------- the branch and bound
def _greedy(D: list, U: int) -> list:
    """A teaching set by the greedy cover: the point separating the most concepts of ``U`` left, until none is
    left (``D[x]``: the concepts point x separates, a bitset)."""
    S = []
    while U:
        x = max(range(len(D)), key=lambda x: (D[x] & U).bit_count())
        if not D[x] & U:
            raise ValueError("two concepts of the class are equal; a class is a set (merge duplicate rows)")
        S.append(x)
        U &= ~D[x]
    return S


def _points_needed(gains: list, left: int) -> int:
    """The fewest points whose counts of separated concepts (``gains``) add up to ``left``: no fewer points can
    separate ``left`` concepts."""
    r = 0
    for g in sorted(gains, reverse=True):
        if left <= 0:
            break
        left -= g
        r += 1
    return r if left <= 0 else len(gains) + 1


def smallest_teaching_set(D: list, U: int, diff: dict, rank: list, below: int, enough: int = 0,
                          look=None) -> Optional[list]:
    """A smallest set of points, of fewer than ``below``, that separates every concept of ``U`` from the concept
    taught (a smallest teaching set; None: every teaching set has ``below`` points or more).

    Parameters
    ----------
    D : list of int
        ``D[x]``: the bitset of the concepts point x separates (those that differ from the concept taught at x).
    U : int
        The bitset of the concepts to separate (the others left).
    diff : dict
        ``diff[h]``: the bitset of the points where concept h differs from the concept taught.
    rank : list of int
        The concepts, those that differ at the fewest points first (each node branches on the first of them not
        yet separated, trying each point where it differs).
    below : int
        Look for sets of fewer points than this (the best known size).
    enough : int
        Stop at the first set of this many points or fewer (a known lower bound).
    look : callable, optional
        Called every 256 nodes (a look at the clock).
    """
    best: list = [None, below]
    chosen: list = []
    nodes = [0]
    n = len(D)

    def go(U: int, i: int) -> None:
        # the hot loop: bit operations on Python ints, a look at the clock every 256 nodes
        nodes[0] += 1
        if look is not None and nodes[0] & 255 == 0:
            look()
        if not U:
            best[0], best[1] = list(chosen), len(chosen)
            return
        room = best[1] - 1 - len(chosen)
        if room <= 0:
            return
        if room == 1:  # the last point must separate every concept left
            for x in range(n):
                if not U & ~D[x]:
                    best[0], best[1] = [*chosen, x], len(chosen) + 1
                    return
            return
        gains = [(D[x] & U).bit_count() for x in range(n)]
        if _points_needed(gains, U.bit_count()) > room:
            return
        while not U >> rank[i] & 1:
            i += 1
        d = diff[rank[i]]
        for x in sorted((x for x in range(n) if d >> x & 1), key=lambda x: -gains[x]):
            chosen.append(x)
            go(U & ~D[x], i + 1)
            chosen.pop()
            if best[1] <= enough or best[1] - 1 - len(chosen) <= 0:
                return

    go(U, 0)
    return best[0]


class _Sat:
    """The "sat" route on one class: the bitsets, every concept's best known teaching set and lower bound, and the
    deadline."""

    def __init__(self, C, time_limit: Optional[float]):
        self.M = C.matrix
        self.m, self.n = C.n_concepts, C.n_points
        self.deadline = None if time_limit is None else _clock() + time_limit
        self.ub: dict = {}  # concept -> a teaching set among the concepts alive
        self.lb: dict = {}  # concept -> a lower bound on its TD among the concepts alive
        self.rows = self.cols = None

    def look(self) -> None:
        interrupts.check()  # a Ctrl-C that a library swallowed stops the search here
        if self.deadline is not None and _clock() > self.deadline:
            raise _Stop

    def _bits(self) -> None:
        from . import Stopped, column_bits, row_bits

        # (row_bits looks at time.monotonic: the deadline in its terms)
        deadline = None if self.deadline is None else time.monotonic() + self.deadline - _clock()
        try:
            self.rows = row_bits(self.M, deadline)
            self.cols = column_bits(self.M, deadline)
        except Stopped:
            raise _Stop from None

    def covers(self, c: int, alive: int) -> list:
        """``D[x]``: the concepts of ``alive`` other than c that point x separates from c."""
        alive &= ~(1 << c)
        full = (1 << self.m) - 1
        rc = self.rows[c]
        return [(self.cols[x] ^ full if rc >> x & 1 else self.cols[x]) & alive for x in range(self.n)]

    def rank(self, c: int) -> list:
        """The concepts, those nearest c (differing at the fewest points) first (made anew each time: a list per
        concept kept would hold |C|^2 entries)."""
        import numpy as np

        return np.argsort(np.count_nonzero(self.M != self.M[c], axis=1), kind="stable").tolist()

    def smallest(self, c: int, alive: int, below: int, enough: int = 0) -> Optional[list]:
        """:func:`smallest_teaching_set` of c among ``alive``."""
        rc = self.rows[c]
        U = alive & ~(1 << c)
        return smallest_teaching_set(self.covers(c, alive), U, _Diffs(self.rows, rc), self.rank(c), below, enough,
                                     self.look)

    def first_sets(self, alive: int) -> None:
        """The greedy teaching set of every concept (the upper bounds the search starts from)."""
        for c in range(self.m):
            self.look()
            self.ub[c] = _greedy(self.covers(c, alive), alive & ~(1 << c))
            self.lb[c] = 0

    # ------------------------------------------------------------------------------------------------ TD
    def td(self):
        from . import ParamResult

        m = self.m
        full = (1 << m) - 1
        settled, by = 0, None  # the largest TD(c) settled (a lower bound on TD(C)), and that concept
        try:
            self._bits()
            self.first_sets(full)
            for c in range(m):
                self.look()
                better = self.smallest(c, full, len(self.ub[c]))
                if better is not None:
                    self.ub[c] = better
                if by is None or len(self.ub[c]) > settled:
                    settled, by = len(self.ub[c]), c
            sets = self.ub
            hardest = max(range(m), key=lambda c: len(sets[c]))
            k = len(sets[hardest])
            lower = self.prove(list(range(m)), [hardest], k)
        except (_Stop, KeyboardInterrupt):
            upper = max((len(s) for s in self.ub.values()), default=0) if len(self.ub) == m else self.n
            if by is None or upper > settled:
                return ParamResult("td", settled, max(upper, settled), {})
            # the bounds met: every set found is a witness, the concept settled needs them all (by the search)
            sets, hardest, k = self.ub, by, settled
            lower = {"by": "branch and bound", "refuted": k - 1, "unchecked": "no time left for the SAT solver"} \
                if k else {"by": "bound", "text": "no teaching set is smaller than the empty one"}
        return ParamResult("td", k, k, {"concept": hardest, "teaching_set": sets[hardest],
                                        "sets": {str(c): s for c, s in sets.items()}, "lower": lower})

    # ------------------------------------------------------------------------------------------------ RTD
    def rtd(self):
        from . import ParamResult

        m = self.m
        alive = (1 << m) - 1
        steps: list = []
        lives: list = []  # the concepts alive at each step
        lower = 0  # the largest least lower bound of a round: every concept there has TD >= it
        try:
            self._bits()
            self.first_sets(alive)
            peeled: list = []
            while alive:
                left = bit_positions(alive)
                if peeled:
                    self.carry(left, peeled, alive)
                t = min(self.lb[c] for c in left)
                while True:
                    lower = max(lower, t)
                    for c in left:
                        if self.lb[c] <= t < len(self.ub[c]):  # "TD(c) <= t?"
                            self.look()
                            found = self.smallest(c, alive, t + 1, t)
                            if found is None:
                                self.lb[c] = t + 1
                            else:
                                self.ub[c] = found
                    # t is at most every TD left: the concepts with a set of t points are those of least TD
                    peeled = [c for c in left if len(self.ub[c]) == t]
                    if peeled:
                        break
                    t = min(self.lb[c] for c in left)
                steps.append({"size": t, "concepts": peeled, "sets": [self.ub[c] for c in peeled]})
                lives.append(left)
                alive &= ~_bitset(peeled)
            value = max(s["size"] for s in steps)
            j = max(i for i, s in enumerate(steps) if s["size"] == value)  # the fewest concepts left
            proof = self.prove(lives[j], lives[j], value)
        except (_Stop, KeyboardInterrupt):
            left = bit_positions(alive)
            done = max((s["size"] for s in steps), default=0)
            plan = max((len(self.ub[c]) for c in left), default=0) if len(self.ub) == m else self.n
            upper = max(done, plan, lower)
            # a value only with its peeling: where the bounds met before the peeling was done, one less below
            return ParamResult("rtd", lower - 1 if lower == upper and lower else lower, upper, {})
        return ParamResult("rtd", value, value, {"steps": steps, "lower": {**proof, "step": j}})

    def carry(self, left: list, peeled: list, alive: int) -> None:
        """Each lower bound of the concepts ``left`` (``alive``), lowered by the size of a greedy set of points
        hitting diff(h) for each h just ``peeled`` that no concept left dominates; at least 1 while two concepts
        are left. With S teaching c now and T such a set, S and T taught c before: a concept g left between c and h
        (agreeing with c wherever h does) differs from c only where h does, and S separates g. The concepts
        between are looked for among the DOMINATORS concepts left nearest each h (one missed only lowers a bound
        more than needed)."""
        floor = 1 if len(left) > 1 else 0
        near = {}
        for h in peeled:
            near[h] = [g for g in self.rank(h) if alive >> g & 1][:DOMINATORS]
        for c in left:
            if self.lb[c] <= floor:
                self.lb[c] = floor
                continue
            self.look()
            rc = self.rows[c]
            needed = [h for h in peeled
                      if not any(g != c and not (self.rows[g] ^ rc) & (self.rows[g] ^ self.rows[h]) for g in near[h])]
            if needed:
                R = _bitset(needed)
                self.lb[c] = max(self.lb[c] - len(_greedy(self.covers(c, R), R)), floor)

    # ------------------------------------------------------------------------------------------------ the proof
    def prove(self, alive: list, concepts: list, k: int) -> dict:
        """That no set of k - 1 points teaches any of ``concepts`` among the concepts ``alive``: refuted by the SAT
        solver, then checked by a second route where cheap. Returns the witness's ``"lower"``."""
        if k == 0:
            return {"by": "bound", "text": "no teaching set is smaller than the empty one"}
        proof = {"by": SOLVER, "refuted": k - 1}
        try:
            for c in concepts:
                found = sat_refutes(self.M, alive, c, k - 1, self.look)
                if found is not None:
                    raise RuntimeError(f"teaching: the SAT solver teaches concept {c} with the points {found}, fewer "
                                       f"than the branch and bound found (a bug: please report it)")
        except (_Stop, KeyboardInterrupt):  # the time is up: the branch and bound's refutation stands alone
            return {"by": "branch and bound", "refuted": k - 1, "unchecked": "no time left for the SAT solver"}
        return {**proof, **self.second_route(alive, concepts, k - 1)}

    def second_route(self, alive: list, concepts: list, k: int) -> dict:
        """``{"checked_by": route}``: the route that checked the solver's refutations, or ``{"unchecked": why}``."""
        try:
            if comb(self.n, k) * len(alive) <= EXHAUSTIVE_CELLS:
                if not none_teach(self.M, alive, concepts, k, self.look):
                    raise RuntimeError("teaching: a set of points tried by numpy refutes the SAT solver (a bug: "
                                       "please report it)")
                return {"checked_by": "exhaustive"}
            budget = CPSAT_BUDGET
            for c in concepts:
                if budget <= 0:
                    return {"unchecked": f"CP-SAT's work for the second route ({CPSAT_BUDGET:g}) is used up"}
                got, used = cpsat_refutes(self.M, alive, c, k, budget, self.left())
                if got is False:
                    raise RuntimeError(f"teaching: CP-SAT teaches concept {c} with {k} points, refuting the SAT "
                                       "solver (a bug: please report it)")
                if got is None:
                    return {"unchecked": "CP-SAT did not finish in the work or time left"}
                budget -= used
            return {"checked_by": "cp-sat"}
        except (_Stop, KeyboardInterrupt):
            return {"unchecked": "no time left for the second route"}

    def left(self) -> Optional[float]:
        self.look()
        return None if self.deadline is None else max(self.deadline - _clock(), 0.0)


class _Diffs(dict):
    """``diff[h]``: the points where concept h differs from the concept taught, made when first asked."""

    def __init__(self, rows: list, rc: int):
        super().__init__()
        self.rows, self.rc = rows, rc

    def __missing__(self, h: int) -> int:
        d = self[h] = self.rows[h] ^ self.rc
        return d


def _bitset(members) -> int:
    """The bitset of the indices ``members`` (by numpy)."""
    import numpy as np

    members = np.asarray(list(members), dtype=np.int64)
    if not len(members):
        return 0
    flags = np.zeros(int(members.max()) + 1, dtype=bool)
    flags[members] = True
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


# ---------------------------------------------------------------------------------------------- the two routes
def sat_refutes(M, alive, c: int, k: int, look=None) -> Optional[list]:
    """None when the SAT solver proves that no set of ``k`` points teaches concept ``c`` among the rows ``alive``
    of ``M``; else a teaching set of at most k points it found.

    The CNF, written from the matrix: a variable per point (chosen or not), a clause per other concept (a chosen
    point where it differs from c), and "at most k chosen" by a cardinality network. The solver runs in budgets
    of conflicts, ``look`` called between two."""
    import numpy as np
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    M = np.asarray(M, dtype=bool)
    n = M.shape[1]
    others = [h for h in alive if h != c]
    rows, points = np.nonzero(M[others] != M[c])
    clauses = [p.tolist() for p in np.split(points + 1, np.flatnonzero(np.diff(rows)) + 1)] if len(rows) else []
    if len(clauses) < len(others):  # a concept equal to c: no set teaches c
        clauses.append([])
    if k < n:
        clauses += CardEnc.atmost(lits=list(range(1, n + 1)), bound=k, top_id=n, encoding=EncType.cardnetwrk).clauses
    with Solver(name=SOLVER, bootstrap_with=clauses) as s:
        while True:
            s.conf_budget(10_000)
            got = s.solve_limited()
            if got is not None:
                break
            if look is not None:
                look()
        if not got:
            return None
        chosen = {lit for lit in s.get_model() if lit > 0}  # (a point no clause names may be missing)
        return [x for x in range(n) if x + 1 in chosen]


def none_teach(M, alive, concepts, k: int, look=None) -> bool:
    """Whether no set of ``k`` points teaches any of ``concepts`` among the rows ``alive`` of ``M``, by trying
    every set: on each, the concepts' patterns (numpy, blocks of sets), a concept taught where its pattern is
    alone."""
    import numpy as np

    alive = list(alive)
    if k == 0:  # the empty set teaches a concept exactly when it is alone
        return len(alive) > 1 or not concepts
    A = np.asarray(np.asarray(M)[alive], dtype=np.int64)
    where = [alive.index(c) for c in concepts]
    every = sorted(where) == list(range(len(alive)))
    sets = itertools.combinations(range(A.shape[1]), k)
    while True:
        block = np.array(list(itertools.islice(sets, 4096)), dtype=np.intp).reshape(-1, k)
        if look is not None:
            look()
        if not len(block):
            return True
        P = np.zeros((len(alive), len(block)), dtype=np.int64)  # P[i, s]: concept i's labels on set s, in binary
        for j in range(k):
            P |= A[:, block[:, j]] << j
        if every:  # some pattern alone in its column, whoever's
            S = np.sort(P, axis=0)
            same = np.zeros(S.shape, dtype=bool)
            same[1:] |= S[1:] == S[:-1]
            same[:-1] |= S[:-1] == S[1:]
            if not same.all():
                return False
        else:
            for i in where:
                if ((P == P[i]).sum(axis=0) == 1).any():
                    return False


def cpsat_refutes(M, alive, c: int, k: int, work: float = CPSAT_BUDGET,
                  seconds: Optional[float] = None) -> tuple:
    """``(refuted, work used)``: refuted True when CP-SAT proves that no set of ``k`` points teaches concept ``c``
    among the rows ``alive`` of ``M``, False when it finds one, None when its deterministic ``work`` (CP-SAT's
    measure, about seconds; the same on every run) or ``seconds`` ran out.

    The model, written from the matrix with linear constraints: a 0/1 variable per point, for each other concept
    the sum over the points where it differs from c at least 1, the sum of all at most k; one worker, a fixed
    seed."""
    import numpy as np
    from ortools.sat.python import cp_model

    M = np.asarray(M, dtype=bool)
    n = M.shape[1]
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{j}") for j in range(n)]
    for h in alive:
        if h != c:
            model.Add(sum(x[j] for j in np.flatnonzero(M[h] != M[c]).tolist()) >= 1)
    model.Add(sum(x) <= k)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = max(work, 0.01)
    if seconds is not None:
        solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    status = solver.Solve(model)
    used = float(solver.response_proto.deterministic_time if hasattr(solver, "response_proto")
                 else solver.ResponseProto().deterministic_time)  # (the older name, OR-Tools 9.8)
    if status == cp_model.INFEASIBLE:
        return True, used
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return False, used
    return None, used
