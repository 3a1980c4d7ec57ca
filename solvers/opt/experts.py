"""The experts game exactly: n experts, the best of which makes at most k mistakes, in count space.

This is the game of :mod:`solvers.game_rules` (k label errors, a deterministic or a randomized learner, no
horizon) on the *universal class of n dictators*: concept i labels the point (x_1, ..., x_n) of {0,1}^n
with x_i, so every advice vector is a point. Its deterministic value D_k(n) is the optimal mistake bound
of a deterministic learner with expert advice when the best expert errs at most k times, and its
randomized value R_k(n) the optimal expected number of mistakes of a randomized one ([CFHHSW97],
[FHMM23]). :func:`experts` computes both exactly; :func:`volume_bound_experts` is the upper bound of
[CFHHSW97].

Count space
-----------
A state of the game on the n dictators is a budget per expert (:mod:`solvers.game_rules`). Renaming the
experts by a permutation pi maps points to points (permute the coordinates), keeps legality, children and
loops, so the value of a state equals the value of every renamed state: it depends only on the *counts*
m = (m_0, ..., m_k), m_j = the number of living experts whose remaining budget is exactly j. A point x
at a state with counts m acts only through a = (a_0, ..., a_k), a_j = the number of living experts at
level j that say 1 at x (dead experts' advice changes nothing), and every vector with 0 <= a_j <= m_j is
the a of some point, because every advice vector is a point. Label 1 keeps the budget of the experts
saying 1 and takes one from the others (an expert at level 0 that disagrees dies):

    c1(m, a)_j = a_j + (m_{j+1} - a_{j+1}),      c0(m, a)_j = (m_j - a_j) + a_{j+1}      (m_{k+1} = a_{k+1} = 0).

So the game on counts, with the moves a, *is* the game on the dictators (the recursion of the value at a
state and at its counts is the same, move for move); a and m - a are one move with the labels swapped
(c0(m, m - a) = c1(m, a)). The move a = 0 (or a = m) is a *loop*: label 0 (1) leaves m as it is, the other
label shifts every budget down, ``shift(m) = (m_1, ..., m_k, 0)``, legal iff some m_j >= 1 with j >= 1.
Every other a is a *split*: both children are living states below m. By the monotonicity of
:mod:`solvers.game_rules` (more budget never lowers a value) the max(a, b) parts of g and f never win: a child's
best move is a move of m with larger children. So, with 0 for a state without moves,

    D(m) = max(1 + D(shift m) [loop],  max over splits a of 1 + min(D(c0(m, a)), D(c1(m, a)))),
    R(m) = max(1 + R(shift m) [loop],  max over splits a of (1 + R(c0(m, a)) + R(c1(m, a)))/2),

D_k(n) = D((0, ..., 0, n)) and R_k(n) = R((0, ..., 0, n)). Every split lowers the potential
sum_j (j + 1) m_j and so does a loop's exit, so the recursion ends.

Facts the solvers use (each proven here or in :mod:`solvers.game_rules`)
-------------------------------------------------------------------
* **Monotone in a.** Raising a_j by one moves one expert of c1(m, a) from level j - 1 up to level j (at
  j = 0: revives one), and one expert of c0(m, a) from level j down to j - 1 (or kills it). So D(c1(m, a))
  and R(c1(m, a)) are non-decreasing in every a_j, and D(c0(m, a)), R(c0(m, a)) non-increasing.
* **The volume window.** With Phi_q(m) = sum_j m_j V(q, j), V(q, j) = sum_{i <= j} C(q, i), the volume
  bound of :func:`solvers.game_rules.volume_bound` says D(m) >= d needs Phi_d(m) >= 2^d. By Pascal's rule
      Phi_{d-1}(c1(m, a)) = sum_{j>=1} m_j V(d-1, j-1) + sum_j a_j C(d-1, j)
  and Phi_{d-1}(c0(m, a)) = Phi_d(m) - Phi_{d-1}(c1(m, a)); so a split proving D(m) >= d has
  2^{d-1} <= Phi_{d-1}(c1) and Phi_{d-1}(c0) >= 2^{d-1}: the sum s(a) = sum_j a_j C(d-1, j) lies in a
  window, and of a and m - a it is enough to try the one whose label-1 child has the smaller volume.
* **Bounds at the root.** D_k(n) >= k + floor(log2 n) and R_k(n) >= k + E(n), E(n) =
  :func:`solvers.game_rules.universal_rl` (k loops take (0, .., 0, n) to (n, 0, .., 0), the game with no
  errors, whose values are floor(log2 n) and E(n) ([FHMM23])); R_k(n) <= D_k(n) <= B, the volume bound
  (:mod:`solvers.game_rules`), and 2 R_k(n) >= D_k(n) (a mistake tree of depth D valued by f is worth at least
  D/2 by induction, f(a, b) >= (1 + a + b)/2). For k = 0, R_0(n) = E(n) exactly ([FHMM23]; proof in
  :mod:`solvers.game_rules`), so no search is needed.

The two solvers
---------------
* **Deterministic** (:class:`DeterministicExperts`): the decision search of
  :class:`~solvers.opt.games.GameSolver` on counts. ``at_least(m, d)`` decides D(m) >= d: refuted at once
  when Phi_d(m) < 2^d; else the loop, then the splits whose s(a) lies in the volume window. A *row* fixes
  a_1..a_k; its a_0 range in the window is an interval, whose top is the most balanced. Rows are made
  lazily, a_k..a_2 from m_j / 2 outwards and only where the lower levels can still reach the window,
  then a_1 from the most balanced value nearest m_1 / 2 (the split a = m / 2 halves every level and the
  volume exactly, and it is nearly always the move that works). Pass 1 tries the top of every row; a row
  where c1 fails there is dead (as a_0 goes down c1 only gets weaker: monotone in a). Pass 2, on the
  live rows, bisects for the least a_0 where c1 still holds and tries c0 there only (c0 only gets
  stronger as a_0 goes down). A memo of proven (lower, upper) per count state, bounded in bytes; the
  root asks d = k + floor(log2 n) + 1, + 2, ... until the answer is no (or d passes the volume bound).
  Numbers are Python ints, so n may be astronomically large: in practice (measured up to n = 10^18) the
  search's work grows with the depth, not with n, except at the rare states where D is below the volume
  bound and a query must be refuted row by row.
* **Randomized** (:class:`RandomizedExperts`): a table of R over every count state with at most n
  experts, filled bottom-up. Every state is needed (the max at the root ranges over every move, and
  every state is a child of some move), and the optimal moves form wide plateaus (dozens of optimal a at
  one state), so bounds prune little: a fail-low value search in the manner of
  :class:`~solvers.opt.games.GameSolver` visited every state and was 20 to 40 times slower than the table
  on k = 1, 2 (n = 20 .. 60). The order: reversed lexicographic (m_k slowest) is topological. Compare
  from the top level down: c0(m, a)_k = m_k - a_k and c1(m, a)_k = a_k are at most m_k; where equal
  (a_k = 0, resp. a_k = m_k) the next level is c0_{k-1} = m_{k-1} - a_{k-1}, resp. c1_{k-1} = a_{k-1},
  again at most m_{k-1}, and so on: c0(m, a) = m only for a = 0, c1(m, a) = m only for a = m, and
  otherwise they come before m: a split's children do, and so does shift(m) = c1(m, 0). The values of
  a state's moves are two strided views of the table (the flat index of c0(m, a) and c1(m, a) is linear
  in a), so one state costs one numpy sum and one max over its moves, of which only the half
  a_t <= m_t / 2 at the top level t is looked at (a and m - a are one move: 1.4 to 1.5 times faster). Values are dyadic and kept as integers scaled by 2^P
  (int32 first: half the memory traffic of int64, about 15% faster), P chosen so that no sum of two
  values at most the volume bound B overflows; only the winning sum is halved, and an odd one (a value
  finer than 2^-P) starts the table again in int64, and past that with Fractions. (The finest value
  met for n <= 600 needs 2^-14; int32 leaves about 2^-25.)

Certificates (checked from count arithmetic alone by :mod:`solvers.certificates.experts`):
:meth:`ExpertsResult.lower_certificate` is a tree of moves (deterministic: a complete mistake tree of
depth D; randomized: a tree valued by f, with repeat nodes for loops) and
:meth:`ExpertsResult.upper_certificate` a list of entries "v(state) <= h", each state named by a path of
(move, label) steps and checked against every move of the state.

**Why these searches are kept** (issue 19: an engine the generic search comes within 1.5x of is retired).
They do what no matrix can (n = 10^6 experts: the dictators' matrix has 2^n columns), and on the classes
that fit one ``scripts/bench_engines.py`` measured the generic game search
(:class:`~solvers.opt.games.GameSolver` on the dictators' matrix) at 52-98x their time on D_1, D_2 (n = 8,
10) and 14-17x on R_1 (n = 8), R_2 (n = 6) (idle 2-core machine).

References
----------
.. [CFHHSW97] Cesa-Bianchi, Freund, Haussler, Helmbold, Schapire and Warmuth, "How to use expert advice",
   Journal of the ACM 44(3), 1997.
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
>>> experts(3, 1).value, experts(3, 1, randomized=True).value
(3, Fraction(67, 32))
>>> r = experts(3, 2)
>>> r.value, volume_bound_experts(3, 2)          # one below the volume bound of [CFHHSW97]
(5, 6)
>>> [experts(2, k).value for k in range(4)]      # two experts: 2k + 1
[1, 3, 5, 7]
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from .. import interrupts
from ..certificates import ProofTooLarge
from ..game_rules import universal_rl, volume_bound
from .memo import Limits as _Limits
from .memo import MemoSearch, SearchStop, cancelled
from .search import default_memo_bytes

__all__ = ["experts", "ExpertsResult", "UniversalExperts", "DeterministicExperts", "RandomizedExperts", "volume_bound_experts",
           "check_size", "table_bytes", "SearchStop", "MAX_DETERMINISTIC_N", "MAX_K", "MAX_RANDOMIZED_MOVES"]

#: The largest n the deterministic search accepts (it has been run up to here; its numbers are Python ints).
MAX_DETERMINISTIC_N = 10**18
#: The largest k either game accepts: the volume bound B at the root alone takes time cubic in k (a few seconds
#: at k = 400, hours at k = 10^4, and it is not interruptible), and the search's depth and states grow with it.
MAX_K = 400
#: A randomized table with more (state, move) pairs than this would take more than a day (a few ns each).
MAX_RANDOMIZED_MOVES = 2 * 10**13

_LOOP = "loop"          # the move of a state that proves its bound is a loop (not a split vector)


# ---------------------------------------------------------------------------------------- count arithmetic
def volume_bound_experts(n: int, k: int) -> int:
    """max{q : 2^q <= n * sum_{i<=k} C(q, i)}: the upper bound of [CFHHSW97] on D_k(n) (and so on R_k(n)).

    >>> [volume_bound_experts(2, k) for k in range(4)], volume_bound_experts(1000, 0)
    ([1, 3, 5, 7], 9)
    """
    _check_nk(n, k)
    return volume_bound([0] * k + [n])


def _root(n: int, k: int) -> tuple:
    return (0,) * k + (n,)


def _c0(m: tuple, a) -> tuple:
    K = len(m)
    return tuple(m[j] - a[j] + (a[j + 1] if j + 1 < K else 0) for j in range(K))


def _c1(m: tuple, a) -> tuple:
    K = len(m)
    return tuple(a[j] + (m[j + 1] - a[j + 1] if j + 1 < K else 0) for j in range(K))


def _shift(m: tuple) -> tuple:
    return m[1:] + (0,)


def _half_moves(m: tuple):
    """One a of each pair {a, m - a} of splits: a_t <= m_t / 2 at the top non-empty level t, a != 0."""
    K = len(m)
    t = max((j for j in range(K) if m[j]), default=-1)
    if t < 0:
        return
    ranges = [range(m[j] + 1) for j in range(K)]
    ranges[t] = range(m[t] // 2 + 1)
    for a in itertools.product(*ranges):
        if any(a) and a != m:
            yield a


def _around(lo: int, hi: int, c: int):
    """lo..hi from c outwards: c, c + 1, c - 1, c + 2, ... (c in [lo, hi])."""
    yield c
    for r in range(1, max(c - lo, hi - c) + 1):
        if c + r <= hi:
            yield c + r
        if c - r >= lo:
            yield c - r


def _outer(m, C, most, L, H, j, q, tail):
    """(a_2..a_k, q = sum_{i>=2} a_i C_i) for the levels j >= 2 going down, each a_j only where the levels
    below can still bring the sum into [L, H], from m_j / 2 outwards."""
    if j < 2:
        yield tail, q
        return
    c = C[j]
    if c:
        lo = max(0, -((q + most[j] - L) // c))   # ceil((L - q - most[j]) / c)
        hi = min(m[j], (H - q) // c)
    else:  # C(d-1, j) = 0 for j > d - 1: a_j does not move the volumes
        lo, hi = (0, m[j]) if q + most[j] >= L and q <= H else (1, 0)
    if lo > hi:
        return
    for x in _around(lo, hi, min(hi, max(lo, m[j] // 2))):
        yield from _outer(m, C, most, L, H, j - 1, q + x * c, (x,) + tail)


def _check_nk(n, k) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n={n!r}: give the number of experts, a whole number >= 1")
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k={k!r}: give the mistakes of the best expert, a whole number >= 0")


def table_bytes(n: int, k: int) -> int:
    """The memory of the randomized table at most: (n + 1)^(k + 1) cells of 8 bytes (int64, if int32 is not fine
    enough)."""
    return 8 * (n + 1) ** (k + 1)


def _randomized_moves(n: int, k: int) -> int:
    """About the number of (state, move) pairs the randomized table looks at: the (2k + 2)-tuples
    (a_j, m_j - a_j) with sum at most n, halved by the symmetry a <-> m - a."""
    return math.comb(n + 2 * k + 2, 2 * k + 2) // 2


def check_size(n: int, k: int, randomized: bool = False, memo_bytes: int | None = None) -> None:
    """Raise ValueError (saying what to change) when the game is beyond what this module can compute:
    the deterministic search for n > :data:`MAX_DETERMINISTIC_N`, the randomized table (k >= 1) when it
    does not fit in ``memo_bytes`` (default: half of the machine's memory) or would look at more than
    :data:`MAX_RANDOMIZED_MOVES` moves (more than a day)."""
    _check_nk(n, k)
    if k > MAX_K:  # before any number that grows with k is made (the volume bound, (n + 1)^(k + 1) bytes)
        raise ValueError(f"k={k}: the experts games take k <= {MAX_K} (the volume bound of a larger k alone takes "
                         "minutes to hours, cubic in k); give a smaller k")
    if not randomized:
        if n > MAX_DETERMINISTIC_N:
            raise ValueError(f"n={n}: the deterministic experts search takes n <= {MAX_DETERMINISTIC_N:.0e}; "
                             "give a smaller n")
        return
    if k == 0:
        return  # the closed form
    budget = default_memo_bytes() if memo_bytes is None else memo_bytes

    def fits(x: int) -> bool:
        return table_bytes(x, k) <= budget and _randomized_moves(x, k) <= MAX_RANDOMIZED_MOVES

    if fits(n):
        return
    lo, hi = 0, n  # the largest n that fits, by bisection (fits(0) holds, fits(n) does not)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    if table_bytes(n, k) > budget:
        gb = budget / 2**30
        why = (f"needs {table_bytes(n, k) / 2**30:,.2f} GB of memory, more than the {gb:.2f} GB it may use "
               "(half of this machine's, by default)" if memo_bytes is None else
               f"needs {table_bytes(n, k) / 2**30:,.3g} GB of memory, more than the {gb:.3g} GB it may use")
    else:
        why = f"would take more than a day (about {_randomized_moves(n, k):.1e} moves)"
    raise ValueError(f"n={n}, k={k}: the randomized table {why}; give n <= {lo}" if lo else
                     f"n={n}, k={k}: the randomized table {why}; give a smaller n")


def _json_num(v):
    """An int, or the string "p/q" of a Fraction (JSON has no exact rationals)."""
    v = Fraction(v)
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# ---------------------------------------------------------------------------------------- deterministic
class DeterministicExperts(MemoSearch):
    """The decision search for D_k on count states (module docstring).

    Parameters
    ----------
    n, k : int
        n >= 1 experts, the best with at most k >= 0 mistakes.
    memo_bytes : int, optional
        Memory the memo may use (default: half of the machine's); past it the older half is dropped.

    Examples
    --------
    >>> S = DeterministicExperts(5, 2)
    >>> S.value(), S.value((1, 1, 0))                  # the root, and one expert at level 0 and one at 1
    (6, 2)
    """

    ENTRY_BYTES = 240  # a memo entry: the key tuple, the (lo, hi) pair and the dict slot, roughly (k = 0)
    LEVEL_BYTES = 16   # and for each level past the first: a slot of the key and one of its move's tuple

    def __init__(self, n: int, k: int, *, memo_bytes: int | None = None):
        _check_nk(n, k)
        self.n, self.k, self.K = n, k, k + 1
        self.root = _root(n, k)
        # memo: counts -> (lo, hi) proven; moves: counts -> the move that proved lo (a tuple a, or _LOOP)
        self._init_memo(default_memo_bytes() if memo_bytes is None else memo_bytes,
                        self.ENTRY_BYTES + self.LEVEL_BYTES * k)
        self.nodes = 0
        self.tries = 0          # split candidates looked at
        self.full_scans = 0     # nodes whose first pass failed (the second pass ran)
        self._root_bounds: tuple | None = None
        self._vtab: list = []   # [V(q, 0..k)]
        self._ctab: list = []   # [C(q, 0..k)]

    # ------------------------------------------------------------------ volumes
    def _rows(self, q: int) -> tuple[list, list]:
        """([V(q, 0), ..., V(q, k)], [C(q, 0), ..., C(q, k)])."""
        while len(self._vtab) <= q:
            r = len(self._vtab)
            crow = [math.comb(r, b) for b in range(self.K)]
            self._ctab.append(crow)
            self._vtab.append(list(itertools.accumulate(crow)))
        return self._vtab[q], self._ctab[q]

    # ------------------------------------------------------------------ the decision search
    def at_least(self, m: tuple, d: int) -> bool:
        """Decide D(m) >= d (memoised; module docstring)."""
        # Hot loop: written for speed.
        if d <= 0:
            return True
        memo = self.memo
        e = memo.get(m)
        if e is not None:
            if e[0] >= d:
                return True
            if e[1] < d:
                return False
            lo, hi = e
        else:
            lo, hi = 0, 1 << 62
        V, _ = self._rows(d)
        P = 0
        for x, v in zip(m, V):
            P += x * v
        if P < (1 << d):
            self._store(m, lo, min(hi, d - 1))
            return False
        self.nodes += 1
        if not self.nodes & 63:
            self._tick()
        K = self.K
        if d == 1:  # Phi_1(m) >= 2: two living experts (a split) or a budget (a loop)
            self._store(m, 1, hi)
            t = max(j for j in range(K) if m[j])
            if sum(m) >= 2:
                self.moves[m] = tuple(int(j == t) for j in range(K))
            else:
                self.moves[m] = _LOOP
            return True
        d1 = d - 1
        if any(m[1:]) and self.at_least(_shift(m), d1):  # the loop
            self._store(m, d, hi)
            self.moves[m] = _LOOP
            return True
        a = self._split(m, d, P)
        if a is not None:
            self._store(m, d, hi)
            self.moves[m] = a
            return True
        self._store(m, lo, d - 1)
        return False

    def _split(self, m: tuple, d: int, P: int):
        """A split a with D(c0), D(c1) >= d - 1, or None (module docstring: the window, two passes)."""
        K = self.K
        d1 = d - 1
        V1, C1 = self._rows(d1)
        base1 = 0
        for j in range(1, K):
            base1 += m[j] * V1[j - 1]
        L = (1 << d1) - base1        # s(a) >= L: the label-1 child has volume >= 2^(d-1)
        H = (P - 2 * base1) // 2     # s(a) <= H: it is the smaller of the two (one of a, m - a)
        if L > H:
            return None
        memo = self.memo
        at_least = self.at_least
        rows = []
        dead = set()
        # pass 1: the most balanced a_0 of every row
        for r, (top, low, rest) in enumerate(self._window_rows(m, C1, L, H)):
            rows.append((top, low, rest))
            if r & 1023 == 1023:
                self._tick()
            a = (top,) + rest
            if not any(a) or a == m:
                continue
            self.tries += 1
            c1 = _c1(m, a)
            e1 = memo.get(c1)
            if (e1 is not None and e1[1] < d1) or not at_least(c1, d1):
                dead.add(r)  # c1 fails here, so for every smaller a_0 of the row
                continue
            c0 = _c0(m, a)
            e0 = memo.get(c0)
            if (e0 is None or e0[1] >= d1) and at_least(c0, d1):
                return a
        if len(dead) == len(rows):
            return None
        self.full_scans += 1
        # pass 2: in a live row c1 holds at the top a_0; D(c1) only falls and D(c0) only rises as a_0 goes
        # down (monotone in a), so the row has a move iff c0 holds at T1 = the least a_0 where c1 holds:
        # find T1 by bisection.
        for r, (top, low, rest) in enumerate(rows):
            if r in dead:
                continue
            if not any(rest):
                low = max(low, 1)          # a = 0 is the loop, not a split
            if low >= top:
                continue                   # pass 1 tried the top
            good, lo = top, low - 1        # c1 holds at `good`; below `lo + 1` it is not known
            while good - lo > 1:
                mid = (good + lo) // 2
                self.tries += 1
                if not self.tries & 1023:
                    self._tick()
                a = (mid,) + rest
                c1 = _c1(m, a)
                e1 = memo.get(c1)
                if (e1 is None or e1[1] >= d1) and at_least(c1, d1):
                    good = mid
                else:
                    lo = mid
            if good == top:
                continue
            a = (good,) + rest
            if a == m:
                continue
            self.tries += 1
            c0 = _c0(m, a)
            e0 = memo.get(c0)
            if (e0 is None or e0[1] >= d1) and at_least(c0, d1):
                return a
        return None

    def _window_rows(self, m: tuple, C1: list, L: int, H: int):
        """The rows (a_1..a_k) whose a_0 range [max(0, L - p), min(m_0, H - p)] is not empty, p = sum_{j>=1}
        a_j C(d-1, j), lazily, as (top a_0, lowest a_0, (a_1..a_k)): a_2..a_k from m_j / 2 outwards, and for
        each the a_1 of the window from the most balanced one nearest m_1 / 2 outwards (perfectly balanced
        rows, p >= H - m_0, first)."""
        K = self.K
        m0 = m[0]
        if K == 1:
            if max(0, L) <= min(m0, H):
                yield min(m0, H), max(0, L), ()
            return
        c1 = C1[1]  # = d - 1 >= 1
        # most[j] = the largest sum_{i<j} a_i C(d-1, i): the levels below j can add at most that much
        most = [0] * (K + 1)
        for j in range(K):
            most[j + 1] = most[j] + m[j] * C1[j]
        for rest, q in _outer(m, C1, most, L, H, K - 1, 0, ()):
            lo1 = max(0, -((q + m0 - L) // c1))     # ceil((L - q - m0) / c1)
            hi1 = min(m[1], (H - q) // c1)
            if lo1 > hi1:
                continue
            bal = min(hi1, max(lo1, -((q + m0 - H) // c1)))   # the first perfectly balanced a_1
            for a1 in itertools.chain(_around(bal, hi1, min(hi1, max(bal, m[1] // 2))), range(bal - 1, lo1 - 1, -1)):
                p = a1 * c1 + q
                yield min(m0, H - p), max(0, L - p), (a1,) + rest

    # ------------------------------------------------------------------ values
    def value(self, m: tuple | None = None) -> int:
        """D of a count state (default the root), exactly; uses and fills the memo."""
        m = self.root if m is None else self._state(m)
        if not any(m):
            return -1
        d = self._lower0(m)
        while self.at_least(m, d + 1):
            d += 1
        return d

    def _state(self, m) -> tuple:
        m = tuple(m)
        if len(m) != self.K or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in m):
            raise ValueError(f"a count state of this game is {self.K} whole numbers >= 0 (m_0, ..., m_k), not {m!r}")
        if sum(m) > self.n:
            raise ValueError(f"the state {m!r} has more than the n = {self.n} experts")
        return m

    @staticmethod
    def _lower0(m: tuple) -> int:
        """A proven lower bound of D(m): j loops from the top level j, then halving: max_j (j + floor(log2 N_j)),
        N_j the experts with budget >= j (they all still live after j loops)."""
        best = 0
        tail = 0
        for j in range(len(m) - 1, -1, -1):
            tail += m[j]
            if tail:
                best = max(best, j + tail.bit_length() - 1)
        return best

    @property
    def root_bounds(self) -> tuple:
        """(lower, upper) of D_k(n) proven so far."""
        if self._root_bounds is not None:
            return self._root_bounds
        return self._lower0(self.root), volume_bound(self.root)

    def solve_root(self, queries: list | None = None) -> tuple:
        """D_k(n) as (lower, upper), equal; ascending root queries appended to ``queries`` as ``{"d",
        "answer", "seconds"}``. A deadline raises :class:`SearchStop` with :attr:`root_bounds` proven."""
        queries = [] if queries is None else queries
        m = self.root
        lo, hi = self._lower0(m), volume_bound(m)
        e = self.memo.get(m)
        if e is not None:
            lo, hi = max(lo, e[0]), min(hi, e[1])
        self._root_bounds = (lo, hi)
        while lo < hi:
            d = lo + 1
            t0 = time.monotonic()
            ok = self.at_least(m, d)
            queries.append({"d": d, "answer": ok, "seconds": round(time.monotonic() - t0, 4)})
            lo, hi = (d, hi) if ok else (lo, d - 1)
            self._root_bounds = (lo, hi)
            if self._progress is not None:
                self._progress({"lower": lo, "upper": hi, "nodes": self.nodes, "memo": len(self.memo)})
        return lo, hi

    # ------------------------------------------------------------------ certificates
    def _move_for(self, m: tuple, d: int):
        """A move of m proving D(m) >= d (d >= 1): a split vector a or _LOOP."""
        if not self.at_least(m, d):
            raise RuntimeError(f"internal error: D{m} >= {d} does not hold")
        rec = self.moves.get(m)
        if rec is not None and self._proves(m, rec, d):
            return rec
        if any(m[1:]) and self._proves(m, _LOOP, d):
            return _LOOP
        for a in _half_moves(m):
            if self._proves(m, a, d):
                return a
        raise RuntimeError("internal error: no move proves the depth the search found")

    def _proves(self, m: tuple, move, d: int) -> bool:
        if move == _LOOP:
            return self.at_least(_shift(m), d - 1)
        return self.at_least(_c1(m, move), d - 1) and self.at_least(_c0(m, move), d - 1)

    def lower_tree(self, d: int | None = None, *, limit: int = 1_000_000):
        """A complete mistake tree of depth d (default D_k(n)) over count states: nodes ``{"move": [a_0..a_k],
        "0": node, "1": node}``, null leaves; a loop is the move [0, .., 0] (label 0 changes nothing).
        Raises :class:`~solvers.certificates.ProofTooLarge` past ``limit`` nodes."""
        if d is None:
            d = self.value()
        box: list = [None]
        stack = [(self.root, d, box, 0)]
        count = 0
        while stack:
            m, dd, parent, slot = stack.pop()
            if dd <= 0:
                parent[slot] = None
                continue
            count += 1
            if count > limit:
                raise ProofTooLarge(f"the mistake tree has more than {limit:,} nodes; give a smaller n or raise the limit")
            move = self._move_for(m, dd)
            if move == _LOOP:
                a = (0,) * self.K
                kids = (m, _shift(m))
            else:
                a = move
                kids = (_c0(m, a), _c1(m, a))
            node = {"move": list(a), "0": None, "1": None}
            stack.append((kids[1], dd - 1, node, "1"))
            stack.append((kids[0], dd - 1, node, "0"))
            parent[slot] = node
        return box[0]

    def upper_proof(self, h: int | None = None, *, limit: int = 100_000) -> list:
        """Entries ``{"path": [[[a_0..a_k], y], ...], "bound": b}`` proving D_k(n) <= h (default the value):
        at each entry every split has a child bounded by b - 1 (an entry or its volume bound) and the loop's
        exit is bounded by b - 1. Raises ProofTooLarge past ``limit`` entries."""
        if h is None:
            h = self.value()
        entries: list = []
        claimed: dict = {}
        stack = [(self.root, (), h)]
        while stack:
            m, path, b = stack.pop()
            old = claimed.get(m)
            if old is not None and old <= b:
                continue
            if volume_bound(m) <= b:
                continue
            if self.value(m) > b:
                raise RuntimeError(f"internal error: the claim D{m} <= {b} does not hold")
            claimed[m] = b
            entries.append({"path": [[list(a), y] for a, y in path], "bound": int(b)})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit:,} entries; "
                                    "give a smaller n or raise the limit")
            if any(m[1:]):
                stack.append((_shift(m), path + (((0,) * self.K, 1),), b - 1))
            for a in _half_moves(m):
                c0, c1 = _c0(m, a), _c1(m, a)
                if volume_bound(c0) <= b - 1 or volume_bound(c1) <= b - 1:
                    continue
                v0, v1 = self.value(c0), self.value(c1)
                child, y = (c0, 0) if v0 <= v1 else (c1, 1)
                stack.append((child, path + ((a, y),), b - 1))
        return entries


# ---------------------------------------------------------------------------------------- randomized
class _Precision(Exception):
    """A winning sum was odd: the value is finer than the table's 2^-P."""


def _states(n: int, K: int):
    """Every count state (m_0, ..., m_{K-1}) with 1 <= sum <= n, in reversed lexicographic order (m_{K-1}
    slowest): a topological order of the game (module docstring)."""
    if K == 1:
        for x in range(1, n + 1):
            yield (x,)
        return

    def rec(level: int, left: int):
        if level < 0:
            yield ()
            return
        for x in range(left + 1):
            for rest in rec(level - 1, left - x):
                yield rest + (x,)

    for m in rec(K - 1, n):
        if any(m):
            yield m


class RandomizedExperts:
    """The table of R over all count states with at most n experts (module docstring), k >= 1.

    Parameters
    ----------
    n, k : int
    memo_bytes : int, optional
        Memory the table may use (default: half of the machine's); a larger table is refused.

    Examples
    --------
    >>> T = RandomizedExperts(3, 1)
    >>> T.fill(); T.value(), T.value((1, 1))
    (Fraction(67, 32), Fraction(5, 4))
    """

    #: The integer tables tried in turn, (dtype, bits of the type): int32 moves half the bytes of int64.
    PRECISIONS = ((np.int32, 31), (np.int64, 63))

    def __init__(self, n: int, k: int, *, memo_bytes: int | None = None):
        _check_nk(n, k)
        if k == 0:
            raise ValueError("k=0: the randomized value is the closed form E(n) (solvers.game_rules.universal_rl); "
                             "give k >= 1 or call experts(n, 0, randomized=True)")
        check_size(n, k, randomized=True, memo_bytes=memo_bytes)
        self.n, self.k, self.K = n, k, k + 1
        self.root = _root(n, k)
        self.bytes = table_bytes(n, k)
        self.N1 = n + 1
        self.strides = [self.N1 ** j for j in range(self.K)]     # flat index = sum_j m_j (n + 1)^j
        self.B = volume_bound(self.root)
        self.P = None                    # the table's values are scaled by 2^P (set by fill)
        self.table: np.ndarray | None = None
        self.exact: dict | None = None   # the Fraction table, after a precision failure
        self.done = 0
        self.total = math.comb(n + self.K, self.K) - 1   # the states with 1 .. n experts
        self.filled = False
        self._deadline: float | None = None
        self._progress: Callable | None = None
        self._next_report = 0.0
        self.root_bounds = (self.k + universal_rl(n), Fraction(self.B))

    def limits(self, *, deadline: float | None = None, progress: Callable[[dict], None] | None = None):
        return _Limits(self, deadline, progress)

    def _index(self, m) -> int:
        return sum(x * s for x, s in zip(m, self.strides))

    def _report(self) -> None:
        interrupts.check()  # a Ctrl-C that a library swallowed stops the fill here
        now = time.monotonic()
        if self._deadline is not None and now >= self._deadline or cancelled():
            raise SearchStop()
        if self._progress is not None and now >= self._next_report:
            self._next_report = now + 1.0
            lo, hi = self.root_bounds
            self._progress({"lower": lo, "upper": hi, "states": self.done, "of": self.total})

    def fill(self) -> None:
        """Fill the table (once); a deadline raises :class:`SearchStop` with :attr:`root_bounds` proven.

        First in int32 (half the memory traffic of int64), then, if a value is finer than its 2^-P, in
        int64, then with Fractions: each attempt either finishes exact or gives up (:class:`_Precision`)."""
        if self.filled:
            return
        for dtype, bits in self.PRECISIONS:
            # every value is at most B, so a sum of two is below 2 (B + 1) 2^P <= 2^(bits - 1)
            P = bits - 1 - (2 * self.B + 2).bit_length()
            if P < 1:
                continue
            try:
                self._fill_fixed(dtype, P)
                break
            except _Precision:
                continue
        else:
            self._fill_exact()
        self.filled = True
        v = self.value()
        self.root_bounds = (v, v)

    def _fill_fixed(self, dtype, P: int) -> None:
        # Hot loop: written for speed (one numpy sum and max per state over strided views of the table).
        self.P = P
        n, K, N1 = self.n, self.K, self.N1
        one = 1 << P
        NEG = -(1 << (8 * np.dtype(dtype).itemsize - 2))   # a sum of two stays in range
        flat = self.table = np.full(N1 ** K, NEG, dtype=dtype)
        isz = flat.itemsize
        s = self.strides
        w0 = [((s[j - 1] if j else 0) - s[j]) * isz for j in range(K)]  # c0(m, a) = index(m) + a . w0
        w1 = [-w for w in w0]                                          # c1(m, a) = index(shift m) + a . w1
        ndarray = np.ndarray
        shift_at = self.root_bounds
        root_shift = self._index(_shift(self.root))
        self.done = 0
        clock = 0
        for m in _states(n, K):
            idx = 0
            for x, st in zip(m, s):
                idx += x * st
            best = 0
            sh = idx // N1  # index(shift m): m_0 < n + 1
            if sh:
                best = one + int(flat[sh])
            t = K - 1
            while not m[t]:
                t -= 1
            if m[t] >= 2 or any(m[:t]):  # two living experts: there are splits
                shape = m[:t] + (m[t] // 2,)
                shape = tuple(x + 1 for x in shape)
                v0 = ndarray(shape, dtype, flat, idx * isz, tuple(w0[:t + 1]))
                v1 = ndarray(shape, dtype, flat, sh * isz, tuple(w1[:t + 1]))
                S = int((v0 + v1).max())  # a = 0 reads index(m) itself, still NEG: never the max
                if S >= 0:
                    h = one + S
                    if h & 1:
                        raise _Precision()
                    h >>= 1
                    if h > best:
                        best = h
            flat[idx] = best
            self.done += 1
            if idx == root_shift:
                lo, hi = shift_at
                self.root_bounds = (max(lo, 1 + Fraction(best, one)), hi)
            clock += 1
            if clock >= 256:
                clock = 0
                self._report()

    def _fill_exact(self) -> None:
        """The same recursion with Fractions (slow; only after a precision failure)."""
        self.table = None
        R: dict = {}
        self.done = 0
        for m in _states(self.n, self.K):
            best = Fraction(0)
            if any(m[1:]):
                best = 1 + R[_shift(m)]
            for a in _half_moves(m):
                v = (1 + R[_c0(m, a)] + R[_c1(m, a)]) / 2
                if v > best:
                    best = v
            R[m] = best
            self.done += 1
            if not self.done & 63:
                self._report()
        self.exact = R

    def value(self, m=None) -> Fraction:
        """R of a count state (default the root); the table must be filled."""
        if not self.filled:
            raise RuntimeError("fill() the table first")
        m = self.root if m is None else tuple(m)
        if len(m) != self.K or any(x < 0 for x in m) or sum(m) > self.n:
            raise ValueError(f"a count state of this table is {self.K} numbers >= 0 with sum <= {self.n}, not {m!r}")
        if not any(m):
            return Fraction(-1)
        if self.exact is not None:
            return self.exact[m]
        return Fraction(int(self.table[self._index(m)]), 1 << self.P)

    def best_move(self, m: tuple):
        """A move attaining R(m): _LOOP, a split vector, or None when R(m) = 0 (the adversary stops)."""
        v = self.value(m)
        if v <= 0:
            return None
        if any(m[1:]) and 1 + self.value(_shift(m)) == v:
            return _LOOP
        for a in _half_moves(m):
            if (1 + self.value(_c0(m, a)) + self.value(_c1(m, a))) / 2 == v:
                return a
        raise RuntimeError("internal error: no move attains the value in the table")

    def lower_tree(self, *, limit: int = 1_000_000):
        """A tree valued by f worth R_k(n): ``{"move": a, "0": node, "1": node}`` for a split, ``{"move":
        [0, .., 0], "repeat": 0, "exit": node}`` for a loop, null for a state where the adversary stops."""
        box: list = [None]
        stack = [(self.root, box, 0)]
        count = 0
        best: dict = {}
        while stack:
            m, parent, slot = stack.pop()
            if m not in best:
                best[m] = self.best_move(m)
            move = best[m]
            if move is None:
                parent[slot] = None
                continue
            count += 1
            if count > limit:
                raise ProofTooLarge(f"the tree has more than {limit:,} nodes; give a smaller n or raise the limit")
            if move == _LOOP:
                node = {"move": [0] * self.K, "repeat": 0, "exit": None}
                stack.append((_shift(m), node, "exit"))
            else:
                node = {"move": list(move), "0": None, "1": None}
                stack.append((_c1(m, move), node, "1"))
                stack.append((_c0(m, move), node, "0"))
            parent[slot] = node
        return box[0]

    def upper_proof(self, *, limit: int = 100_000) -> list:
        """Entries ``{"path": [...], "bound": R(state)}`` for every state the check reaches whose volume
        bound is above its value: at each, f of the children's claims is at most the claim (the table's
        values satisfy the recursion with equality at the best move)."""
        entries: list = []
        seen = {self.root}   # states put on the stack (each once, with the first path found to it)
        stack = [(self.root, ())]
        K = self.K
        while stack:
            m, path = stack.pop()
            v = self.value(m)
            if volume_bound(m) <= v:
                continue
            entries.append({"path": [[list(a), y] for a, y in path], "bound": _json_num(v)})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit:,} entries; "
                                    "give a smaller n or raise the limit")
            steps = [(_shift(m), ((0,) * K, 1))] if any(m[1:]) else []
            for a in _half_moves(m):
                steps += [(_c1(m, a), (a, 1)), (_c0(m, a), (a, 0))]
            for child, step in steps:
                if child not in seen:
                    seen.add(child)
                    stack.append((child, path + (step,)))
        return entries


# ---------------------------------------------------------------------------------------- k = 0, randomized
def _balanced_tree(n: int, limit: int):
    """The tree of balanced splits of n experts with no errors, worth E(n) (solvers.game_rules: f(E(i), E(n - i))
    = E(n) at i = floor(n/2))."""
    count = 0

    def build(x: int):
        nonlocal count
        if x <= 1:
            return None
        count += 1
        if count > limit:
            raise ProofTooLarge(f"the tree has more than {limit:,} nodes; give a smaller n or raise the limit")
        return {"move": [x // 2], "0": build(x - x // 2), "1": build(x // 2)}

    return build(n)


# ---------------------------------------------------------------------------------------- the API
@dataclass(frozen=True)
class UniversalExperts:
    """The universal class of ``n`` experts, described by n and not listed: concept i labels the point
    (x_1, ..., x_n) of {0,1}^n with x_i (2^n points, so no matrix past a few dozen experts). The class the
    ``experts`` engine (:mod:`solvers.opt.engines.experts`) takes beside a listed class that is this one.

    >>> UniversalExperts(10**6).n_concepts
    1000000
    """

    n: int

    def __post_init__(self):
        _check_nk(self.n, 0)

    @property
    def n_concepts(self) -> int:
        return self.n

    def __str__(self) -> str:
        return f"the universal class of {self.n} experts"


@dataclass(frozen=True)
class ExpertsResult:
    """The outcome of :func:`experts`.

    Attributes
    ----------
    n, k : int
    randomized : bool
    value : int, Fraction or None
        D_k(n) (an int) or R_k(n) (a Fraction) when proven, else None.
    lower, upper : int or Fraction
        Proven bounds (equal to ``value`` when solved).
    volume : int
        The volume bound of [CFHHSW97], :func:`volume_bound_experts`.
    stats : dict
        ``engine`` ("search", "table" or "closed form"), ``seconds``, ``stopped`` (None, "time limit",
        "interrupted" or "memory": a MemoryError, past the process's limit), and the engine's counts (``nodes``,
        ``memo``, ``queries`` ...; ``states``).
    """

    n: int
    k: int
    randomized: bool
    value: object
    lower: object
    upper: object
    volume: int
    stats: dict = field(default_factory=dict)
    solver: object = field(default=None, repr=False, compare=False)

    @property
    def symbol(self) -> str:
        return f"{'R' if self.randomized else 'D'}_{self.k}"

    @property
    def game(self) -> dict:
        return {"game": "randomized" if self.randomized else "deterministic", "errors": self.k}

    def lower_certificate(self, *, limit: int = 1_000_000) -> dict:
        """The tree proving ``lower`` (checked by :func:`solvers.certificates.experts.verify_experts_tree`)."""
        if self.randomized:
            if self.value is None:
                raise ValueError("the randomized game was not solved; its tree exists only for the exact value")
            root = _balanced_tree(self.n, limit) if self.k == 0 else self.solver.lower_tree(limit=limit)
            return {"kind": "experts-tree", "game": self.game, "experts": self.n, "value": _json_num(self.value),
                    "root": root}
        return {"kind": "experts-tree", "game": self.game, "experts": self.n, "value": int(self.lower),
                "root": self.solver.lower_tree(int(self.lower), limit=limit)}

    def upper_certificate(self, *, limit: int = 100_000) -> dict:
        """The entries proving ``upper`` (checked by :func:`solvers.certificates.experts.verify_experts_upper`)."""
        if self.value is None:
            raise ValueError("the game was not solved; the upper certificate exists only for the exact value")
        if self.randomized:
            entries = [] if self.k == 0 else self.solver.upper_proof(limit=limit)
        else:
            entries = self.solver.upper_proof(int(self.value), limit=limit)
        from ..certificates.rules import stamp

        return stamp({"kind": "experts-upper", "game": self.game, "experts": self.n, "bound": _json_num(self.value),
                      "entries": entries}, "experts")

    def upper_proof(self, u=None, *, limit: int = 100_000) -> dict:
        """:meth:`upper_certificate`, as :meth:`solvers.opt.result.OptResult.upper_certificate` asks its solver
        for the certificate of ``u`` (the value: ValueError for another bound)."""
        if u is not None and u != self.upper:
            raise ValueError(f"the experts game's certificate proves its value {self.upper}, not {u}")
        return self.upper_certificate(limit=limit)


def experts(n: int, k: int = 0, *, randomized: bool = False, time_limit: float | None = None,
            progress: Callable[[dict], None] | None = None, memo_bytes: int | None = None) -> ExpertsResult:
    """D_k(n) or R_k(n): the optimal (expected) mistakes with n experts, the best of which errs k times.

    Parameters
    ----------
    n : int
        The experts, >= 1.
    k : int
        The mistakes of the best expert, >= 0.
    randomized : bool
        False: the deterministic optimum D_k(n), an int; True: the randomized one R_k(n), a Fraction.
    time_limit : float, optional
        Seconds; past them the proven bounds come back with ``value`` None (``stats["stopped"]``). So does
        Ctrl-C, and a MemoryError (the process past its limit, ``stopped == "memory"``).
    progress : callable, optional
        Called about once a second with ``{"lower", "upper", ...}``.
    memo_bytes : int, optional
        Memory for the deterministic memo / the randomized table (default: half of the machine's).

    Returns
    -------
    ExpertsResult

    Raises
    ------
    ValueError
        For n < 1, k < 0, a bad time limit, or a game too large (:func:`check_size`).

    Examples
    --------
    >>> r = experts(5, 2, randomized=True)
    >>> r.value, r.lower == r.upper == r.value, r.stats["engine"]
    (Fraction(1999, 512), True, 'table')
    >>> experts(8, 0, randomized=True).value           # the closed form E(8) = 3/2
    Fraction(3, 2)
    """
    _check_nk(n, k)
    if randomized not in (True, False):
        raise ValueError(f"randomized={randomized!r}: give True or False")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit < float("inf")):
        raise ValueError(f"time_limit={time_limit!r}: give a positive number of seconds (or None)")
    check_size(n, k, randomized, memo_bytes)
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    B = volume_bound(_root(n, k))
    if randomized and k == 0:
        v = universal_rl(n)
        return ExpertsResult(n, k, True, v, v, v, B, {"engine": "closed form", "seconds": round(time.monotonic() - t0, 4),
                                                      "stopped": None})
    if randomized:
        T = RandomizedExperts(n, k, memo_bytes=memo_bytes)
        stopped = None
        try:
            with T.limits(deadline=deadline, progress=progress):
                T.fill()
        except SearchStop:
            stopped = "time limit"
        except KeyboardInterrupt:
            stopped = "interrupted"
        except MemoryError:  # past the process's limit (ulimit -v, the machine's): the bounds proven so far
            T.table = T.exact = None
            stopped = "memory"
        lo, hi = T.root_bounds
        stats = {"engine": "table", "states": T.done, "of": T.total, "precision_bits": T.P,
                 "exact_fallback": T.exact is not None, "table_bytes": T.bytes}
        solver = T
    else:
        S = DeterministicExperts(n, k, memo_bytes=memo_bytes)
        queries: list = []
        try:
            done, stopped = S.run(lambda: S.solve_root(queries), deadline=deadline, progress=progress)
        except MemoryError:  # past the process's limit: the memo freed, the root's bounds proven so far kept
            S.memo.clear()
            S.moves.clear()
            done, stopped = None, "memory"
        lo, hi = done if done is not None else S.root_bounds
        stats = {"engine": "search", "nodes": S.nodes, "tries": S.tries, "full_scans": S.full_scans,
                 "memo": len(S.memo), "evictions": S.evictions, "memo_bytes": S.memo_bytes, "queries": queries}
        solver = S
    stats.update({"seconds": round(time.monotonic() - t0, 4), "stopped": stopped})
    value = lo if lo == hi and stopped is None else None
    return ExpertsResult(n, k, randomized, value, lo, hi, B, stats, solver)
