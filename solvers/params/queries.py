"""Learning games where the learner chooses what to ask, as exact minimax over version spaces (like Opt(C), whose
adversary chooses the points). A version space V is the set of concepts consistent with the answers so far; every
game ends when at most one concept is left (no final confirming query: the catalogue's convention), and a query
whose answer could leave V as it was is not allowed (the adversary would give that answer forever).

* ``self_directed``: self-directed learning (Goldman and Sloan). The learner picks the next point, predicts its
  label and is told the truth; the value is the least worst-case number of mistakes. On V,
  SD(V) = min over points x splitting V of [max(SD(V_0), SD(V_1)), or SD(V_0) + 1 when they are equal]: the learner
  predicts the side worth more. A point that does not split V teaches nothing and costs nothing.
* ``mq``: membership queries: the learner asks the label of a point; the least worst-case number of queries,
  Q(V) = 1 + min over x of max(Q(V_0), Q(V_1)): an optimal decision tree's depth, at least ceil(log2 |C|).
* ``peq``: proper equivalence queries: the learner proposes a concept g of C; the answer is "yes" (g is the
  target) or a point x where the target differs from g, leaving the concepts of V that differ from g at x. Every
  query counts, the accepted one too.
* ``mpeq``: membership and proper equivalence queries, either kind at each step.
* ``meq``: membership and equivalence queries with any labelling g of the points. An equivalence query is worth
  1 + max over the points x splitting V of the smaller of Q(V_0), Q(V_1) (g takes, at each point, the label that
  leaves the other side). Equivalence queries alone are Opt(C) (Littlestone), so meq <= Opt.
* ``partial_eq``: partial equivalence queries (Maass and Turan): the learner proposes labels on a set D of points
  of its choice; the answer is "yes" (the target agrees on D) or a point of D where it differs. A query at one
  point is a membership query and one defined everywhere an equivalence query, so partial_eq <= min(mq, meq). The
  value is monotone in V, so for each threshold one query dominates the rest (:meth:`_Game._partial`): a version
  space of s distinct splits takes O(s) solves, not its 3^s queries.
* ``majority``: the queries of the Halving algorithm as an equivalence-query learner. It proposes the strict
  majority vote of V at each point (a tie votes 0) and the adversary picks any counterexample, leaving the
  minority there. The learner does not choose, so this is the longest such run. Opt <= majority <= floor(log2 |C|).

Each value comes with the learner's strategy, a table from version spaces (their concepts as a bitset, in hex) to
moves: ``["mq", x]``, ``["sd", x, prediction]``, ``["eq", concept]`` (proper), ``["eq", "0110..."]`` (a labelling,
one character a point), ``["pq", "01-1-..."]`` (a partial one, "-" where undefined). The checker plays it against every target and every answer. majority's witness is the
longest run, its counterexamples in order.

The search is a memo over version spaces, one move per distinct split (and per concept for proper queries),
pruned by the best move so far and stopping at a move that meets the version space's lower bound.

References
----------
The catalogue obousquet/Combinatorial-Parameters, entries "Self-Directed Queries Complexity", "Membership Query
Complexity", "Proper Equivalence Queries Complexity", "Membership and Proper Equivalence Queries Complexity",
"Membership and Equivalence Queries Complexity", "Partial Equivalence Queries Complexity" and "Majority
Complexity". W. Maass and G. Turan, "Lower bound methods and separation results for on-line learning models",
1992. S. A. Goldman and R. H. Sloan, "The
power of self-directed learning", 1994. D. Angluin, "Queries and concept learning", 1988. N. Littlestone,
"Learning quickly when irrelevant attributes abound", 1988.

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=7)
>>> [play_game(C, key).value for key in GAMES]   # query from the left; binary search; ...
[1, 3, 3, 3, 3, 2, 3]
"""

from __future__ import annotations

import sys
import time
from typing import Optional

from .spaces import Stop, VersionSpaces, worst

__all__ = ["play_game", "GAMES", "MAX_STRATEGY", "game_bound"]

#: The games of this module.
GAMES = ("self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "majority")
#: The most version spaces a strategy table lists (past it the upper side is the search's, not replayed).
MAX_STRATEGY = 50_000


def _floor(key: str, V: int) -> int:
    """The value's lower bound on V: 0 on one concept; ceil(log2 |V|) membership queries; else 1."""
    size = V.bit_count()
    if size <= 1:
        return 0
    return (size - 1).bit_length() if key == "mq" else 1


def game_bound(key: str, m: int) -> int:
    """The value's bound for every class of m concepts: floor(log2 m) for self_directed, meq and majority (predict,
    or propose, the majority vote), m - 1 for the others (each query removes a concept)."""
    if m <= 1:
        return 0
    return m.bit_length() - 1 if key in ("self_directed", "meq", "partial_eq", "majority") else m - 1


class _Game(VersionSpaces):
    def __init__(self, C, key: str, deadline: Optional[float]):
        super().__init__(C, deadline)
        self.key = key
        self.memo: dict = {}

    def proper_replies(self, V: int, g: int):
        """The answers to proposing concept g on V (the sets left by each counterexample; the "yes" leaves {g}),
        or None when some answer would leave V whole."""
        out = set()
        for c in self.splits + [self.full]:
            r = V & ~c if (c >> g) & 1 else V & c  # the concepts that differ from g at that column
            if r == V:
                return None
            if r:
                out.add(r)
        return out

    def solve(self, V: int) -> int:
        got = self.memo.get(V)
        if got is not None:
            return got[0]
        self.look()
        key = self.key
        if V.bit_count() <= 1:
            self.memo[V] = (0, None)
            return 0
        floor = _floor(key, V)
        best, move = None, None
        if key == "majority":
            g = [2 * (V & c).bit_count() > V.bit_count() for c in self.splits]
            best, move = 0, None
            for c, one in zip(self.splits, g):
                r = V & ~c if one else V & c
                if r and r != V:
                    v = 1 + self.solve(r)
                    if v > best:
                        best, move = v, ["cx", self.point[c]]
            self.memo[V] = (best, move)
            return best
        halves = self.halves(V)
        if key in ("self_directed", "mq", "mpeq", "meq"):
            for c, V0, V1 in halves:
                a, b = self.solve(V0), self.solve(V1)
                if key == "self_directed":
                    v, mv = (a + 1 if a == b else max(a, b)), ["sd", self.point[c], int(b >= a)]
                else:
                    v, mv = 1 + max(a, b), ["mq", self.point[c]]
                if best is None or v < best:
                    best, move = v, mv
                    if best <= floor and key != "meq":
                        break
        if key == "meq" and halves and best > floor:
            v = 1 + max(min(self.solve(V0), self.solve(V1)) for _, V0, V1 in halves)
            if v < best:
                best, move = v, ["eq", self._labelling(V)]
        if key == "partial_eq":
            best, move = self._partial(V, halves, floor)
        if key in ("peq", "mpeq") and (best is None or best > floor):
            for g in range(self.m):
                self.look()
                replies = self.proper_replies(V, g)
                if replies is None:
                    continue
                v = worst(self.solve, replies, best)
                if best is None or v < best:
                    best, move = v, ["eq", g]
                    if best <= floor:
                        break
        self.memo[V] = (best, move)
        return best

    def _partial(self, V: int, halves: list, floor: int) -> tuple:
        """The best partial equivalence query on V, in O(s) solves for s distinct splits (not the 3^s queries).

        A query labels b at some points x (one per distinct split of V: two points splitting V alike add nothing).
        Its answers are, for each, the concepts of V with x = 1 - b (a counterexample there), and "yes", those that
        agree everywhere it is defined. The value is monotone (V' a subset of V has a value at most V's: by
        induction on |V|, V's best query either stays legal on V', each answer a subset of V's, or has an answer
        containing V', a proper subset of V). So for a threshold t, a label b at x may be used exactly when its
        counterexample side has a value <= t, and the query with every such label has the smallest "yes" of them
        all. When both labels are usable at one point the membership query there is already worth t + 1.
        Otherwise the value is <= t + 1 exactly when that query's "yes" is worth <= t. Between two consecutive
        values of the sides the usable labels do not change, so the least t comes from one solve per range."""
        sides = [(c, V0, V1, self.solve(V0), self.solve(V1)) for c, V0, V1 in halves]
        # the membership query at the split whose worse side is least
        c, V0, V1, a0, a1 = min(sides, key=lambda s: max(s[3], s[4]))
        best = max(a0, a1)
        move = self._pq(V, {self.point[c]: 0})
        if best + 1 <= floor:
            return best + 1, move
        cuts = sorted({v for s in sides for v in s[3:]} | {best})
        for t, nxt in zip(cuts, cuts[1:]):
            if t >= best:
                break
            self.look()
            labels, yes = {}, V
            for c, V0, V1, a0, a1 in sides:
                if a0 <= t:  # label 1 here: a counterexample leaves V0
                    labels[self.point[c]], yes = 1, yes & V1
                elif a1 <= t:
                    labels[self.point[c]], yes = 0, yes & V0
            if not labels:
                continue
            y = max(t, self.solve(yes) if yes else 0)
            if y < nxt:  # the least threshold in [t, nxt) that this query meets
                if y < best:
                    best, move = y, self._pq(V, labels)
                break
        return best + 1, move

    def _pq(self, V: int, labels: dict) -> list:
        """The move of a partial query labelling the points of ``labels`` (point -> label)."""
        out = ["-"] * self.n
        for x, b in labels.items():
            out[x] = str(b)
        return ["pq", "".join(out)]

    def _labelling(self, V: int) -> str:
        """The labelling an equivalence query proposes on V: at a point splitting V, the label that leaves the side
        worth less when the point is the counterexample; elsewhere the label all of V gives."""
        out = []
        for c in self.cols:
            V1 = V & c
            if V1 in (0, V):
                out.append("1" if V1 else "0")
            else:  # the counterexample leaves the concepts that differ from g there: 0 leaves V1
                out.append("0" if self.solve(V1) <= self.solve(V & ~c) else "1")
        return "".join(out)

    def strategy(self) -> Optional[dict]:
        """The moves of the version spaces reached from the class, keyed by hex bitset (None past
        :data:`MAX_STRATEGY`)."""
        out, todo = {}, [self.full]
        while todo:
            V = todo.pop()
            key = format(V, "x")
            if key in out or V.bit_count() <= 1:
                continue
            move = self.memo[V][1]
            out[key] = move
            if len(out) > MAX_STRATEGY:
                return None
            todo.extend(self.replies(V, move))
        return out

    def replies(self, V: int, move) -> list:
        kind = move[0]
        if kind == "pq":
            yes, out = V, []
            for c, lab in zip(self.cols, move[1]):
                if lab != "-":
                    yes &= c if lab == "1" else ~c
                    out.append(V & (~c if lab == "1" else c))
            return [r for r in out + [yes] if r]
        if kind in ("mq", "sd", "cx"):
            c = self.cols[move[1]]
            return [V & c, V & ~c]
        if isinstance(move[1], int):
            return list(self.proper_replies(V, move[1]))
        return [V & ~c if lab == "1" else V & c for c, lab in zip(self.cols, move[1]) if
                (V & ~c if lab == "1" else V & c)]


def play_game(C, key: str, *, time_limit: Optional[float] = None):
    """The game ``key`` (one of :data:`GAMES`) on ``C`` as a :class:`~solvers.params.ParamResult`: witness
    ``{"strategy": {hex bitset: move}}`` (None past :data:`MAX_STRATEGY` or when stopped), or for majority
    ``{"run": [the counterexamples of a longest run]}``."""
    from . import ParamResult

    if key not in GAMES:
        raise ValueError(f"unknown game {key!r}; choose from: {', '.join(GAMES)}")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    G = _Game(C, key, deadline)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * G.m + 1000))
    try:
        v = G.solve(G.full)
    except (Stop, RecursionError):
        return ParamResult(key, _floor(key, G.full), game_bound(key, G.m), {"strategy": None})
    finally:
        sys.setrecursionlimit(limit)
    if key == "majority":
        run, V = [], G.full
        while G.memo[V][1] is not None:
            x = G.memo[V][1][1]
            run.append(x)
            c = G.cols[x]
            V = V & ~c if 2 * (V & c).bit_count() > V.bit_count() else V & c
        return ParamResult(key, v, v, {"run": run})
    return ParamResult(key, v, v, {"strategy": G.strategy()})


def _game(key: str):
    def f(C, *, time_limit: Optional[float] = None):
        return play_game(C, key, time_limit=time_limit)

    f.__name__ = f.__qualname__ = key
    f.__doc__ = f"The game {key!r} of :mod:`solvers.params.queries` (:func:`play_game`)."
    return f


self_directed, mq, peq, mpeq, meq, partial_eq, majority = (_game(k) for k in GAMES)
