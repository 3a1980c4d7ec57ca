"""The brute-force oracles the tests share, written from the definitions and independent of ``solvers``.

Everything here works on plain Python data: a class is a tuple of concept rows, each row a tuple of
0/1 labels (one per point), and a version space is a frozenset of such rows. Nothing here imports the
solver's bitsets, memo, splits or bounds; the only thing imported from the package under test is
nothing at all (learners under test are passed in by the caller).

* :func:`opt_brute` -- the recurrence of [Rivest94]:
  Opt(V) = -1 if V is empty; 0 if no point splits V; else max over splitting x of
  1 + min(Opt(V_x^0), Opt(V_x^1)).
* :func:`vc_brute` -- the largest set of points shattered by the class.
* :func:`adversary_brute` -- the most mistakes any realisable sequence can force on a learner
  (predict_one / learn_one / state_key, deep-copied at every branch).
* :func:`expected_adversary_brute` -- the most *expected* mistakes an adversary can force on a learner
  (randomized or not, summing its ``probability(x)``), with k label errors and an optional horizon.
* :class:`HalvingBrute`, :class:`FirstConsistentBrute` -- tiny reference learners for checking the
  adversary itself.
* ``Ref*`` (:class:`RefWinnow`, :class:`RefPerceptron`, ...) -- each learner of the seeds written again
  from the seeds' pseudo-code, with the streams (:func:`binary_stream`, :func:`realizable`) and the
  round-by-round comparison (:func:`compare`) that tests/solvers/learners/test_<module>.py use.

Test modules import them from here (``from tests.oracles import opt_brute``); ``tests/solvers/brute.py``
re-exports them under their old import path.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
from hypothesis import strategies as st

__all__ = [
    "rows_of",
    "split_rows",
    "opt_brute",
    "opt_of",
    "vc_brute",
    "adversary_brute",
    "expected_adversary_brute",
    "HalvingBrute",
    "FirstConsistentBrute",
    "binary_stream",
    "compare",
    "realizable",
    "RefWinnow",
    "RefBalanced",
    "RefPerceptron",
    "RefConjunction",
    "RefElim",
    "RefVersionSpace",
    "RefWeightedMajority",
    "Unbounded",
    "tree_ok_brute",
    "sparse_rows",
    "matrices",
    "game_value_brute",
    "loop_rule_value_brute",
    "rl_brute",
    "dk_brute",
    "rk_brute",
    "randomized_horizon_values",
    "randomized_horizon_limit_check",
    "experts_matrix",
    "thresholds_matrix",
    "volume_bound",
    "rl_tree_brute",
    "shattered_tree_brute",
    "walk_depth",
    "tree_shattered_brute",
]


def rows_of(matrix) -> frozenset:
    """The class as a frozenset of distinct rows (tuples of 0/1 ints)."""
    return frozenset(tuple(int(bool(v)) for v in row) for row in matrix)


def split_rows(V: frozenset, j: int) -> tuple[frozenset, frozenset]:
    """(V_x^0, V_x^1) for point (column) j."""
    V0 = frozenset(r for r in V if r[j] == 0)
    V1 = frozenset(r for r in V if r[j] == 1)
    return V0, V1


@lru_cache(maxsize=None)
def _opt(V: frozenset, n_points: int) -> int:
    if not V:
        return -1
    best = 0
    for j in range(n_points):
        V0, V1 = split_rows(V, j)
        if V0 and V1:
            best = max(best, 1 + min(_opt(V0, n_points), _opt(V1, n_points)))
    return best


def opt_of(V: frozenset, n_points: int) -> int:
    """Opt of a version space given as a frozenset of rows."""
    return _opt(frozenset(V), n_points)


def opt_brute(matrix) -> int:
    """Opt(C) for a 0/1 matrix (list of rows), straight from the recurrence."""
    rows = rows_of(matrix)
    if not rows:
        return -1
    n = len(next(iter(rows)))
    return _opt(rows, n)


def vc_brute(matrix) -> int:
    """The VC dimension: the size of the largest shattered set of points (0 if none is shattered)."""
    rows = rows_of(matrix)
    n = len(next(iter(rows)))
    best = 0
    for k in range(1, n + 1):
        if (1 << k) > len(rows):
            break
        found = False
        for S in itertools.combinations(range(n), k):
            patterns = {tuple(r[j] for j in S) for r in rows}
            if len(patterns) == (1 << k):
                found = True
                break
        if not found:
            break  # a shattered set of size k+1 would contain one of size k
        best = k
    return best


class Unbounded(Exception):
    """The adversary found a cycle of learner states with a mistake on it (no finite bound)."""


def adversary_brute(learner, matrix, points) -> int:
    """The maximum number of mistakes a realisable adversary can force on ``learner``.

    The adversary picks any point (from ``points``, the domain in column order) and any label that
    leaves at least one concept of the class consistent. The learner is deep-copied before every
    branch. States are identified by (learner.state_key(), version space). A state revisited on the
    current path with a mistake in between raises :class:`Unbounded`; one revisited with no mistake in
    between adds nothing (the ancestor already maximises over every alternative).
    """
    rows = rows_of(matrix)
    n = len(points)
    memo: dict = {}
    on_path: dict = {}

    def rec(L, V: frozenset, made: int) -> int:
        key = (L.state_key(), V)
        if key in memo:
            return memo[key]
        if key in on_path:
            if made > on_path[key]:
                raise Unbounded(f"cycle with mistakes at state {key!r}")
            return 0
        on_path[key] = made
        best = 0
        for j in range(n):
            x = points[j]
            V0, V1 = split_rows(V, j)
            for y, Vy in ((0, V0), (1, V1)):
                if not Vy:
                    continue
                L2 = copy.deepcopy(L)
                p = L2.predict_one(x)
                assert p in (0, 1), f"learner predicted {p!r}"
                m = int(p != y)
                L2.learn_one(x, y)
                best = max(best, m + rec(L2, Vy, made + m))
        del on_path[key]
        memo[key] = best
        return best

    return rec(copy.deepcopy(learner), rows, 0)


def expected_adversary_brute(learner, matrix, points, *, errors: int = 0, horizon=None, prefix=()):
    """The most expected mistakes an adversary can force on ``learner`` (a Fraction), from the rules.

    The game: each round the adversary shows a point x (a column) and a label y; the whole label sequence
    must stay within ``errors`` disagreements of some concept row (budgets as in the "Game values" section
    below: b_c = k - disagreements so far, dead below 0). The learner predicts 1 with probability
    ``learner.probability(x)`` (for a deterministic learner, its prediction); the round costs it
    P(prediction != y): p for y = 0, 1 - p for y = 1. Because the learner's probabilities depend on the
    examples only (never on its coins), the adversary's best is a fixed sequence, so the value is

        W(L, b, t) = max(0, max over x, legal y of  P_L(pred(x) != y) + W(L after (x, y), b', t - 1)),

    with t the rounds left (``horizon``; None: no limit). The learner is deep-copied before every move;
    values are memoised on (``distribution_key()``, budgets, t), which the conformance suite checks to
    decide the probabilities. A move that changes nothing (no cost, same budgets, same distribution) is
    skipped. Without a horizon, a position met again on the current line with a positive cost in between
    raises :class:`Unbounded`, and one met again with no cost in between raises AssertionError (the value
    would depend on the line; none of the learners tested here does that); with a horizon every line ends.
    ``prefix`` [(column, label), ...] starts the budgets after those examples (give the learner in the
    state after them).
    """
    rows, n, start = _game_start(matrix, errors)
    assert len(points) == n
    for j, y in prefix:
        start = _child(rows, start, j, y)
        assert start is not None, "the prefix is not within the errors allowed"
    memo: dict = {}
    on_path: dict = {}

    def rec(L, b, t, made):
        if t == 0:
            return Fraction(0)
        key = (L.distribution_key(), b, t)
        if key in memo:
            return memo[key]
        if t is None and key[:2] in on_path:
            if made > on_path[key[:2]]:
                raise Unbounded(f"cycle with expected mistakes at {key!r}")
            raise AssertionError("a position repeats with no cost in between: the oracle does not handle it")
        on_path[key[:2]] = made
        best = Fraction(0)
        for j, x in enumerate(points):
            p = Fraction(L.probability(x))
            assert 0 <= p <= 1, p
            for y in (0, 1):
                b2 = _child(rows, b, j, y)
                if b2 is None:
                    continue
                cost = p if y == 0 else 1 - p
                L2 = copy.deepcopy(L)
                L2.learn_one(x, y)
                if cost == 0 and b2 == b and L2.distribution_key() == L.distribution_key():
                    continue
                best = max(best, cost + rec(L2, b2, None if t is None else t - 1, made + cost))
        del on_path[key[:2]]
        memo[key] = best
        return best

    return rec(copy.deepcopy(learner), start, horizon, Fraction(0))


class _RowLearner:
    """Base for reference learners over a matrix (rows) and its points."""

    def __init__(self, matrix, points):
        self.points = [tuple(p) for p in points]
        self.V = rows_of(matrix)

    def _j(self, x) -> int:
        x = tuple(x) if not isinstance(x, int) else (x,)
        return self.points.index(x)

    def learn_one(self, x, y) -> None:
        j = self._j(x)
        V = frozenset(r for r in self.V if r[j] == y)
        if not V:
            raise ValueError("unrealisable")
        self.V = V

    def state_key(self):
        return self.V


class HalvingBrute(_RowLearner):
    """Predict the majority label of the version space (ties -> 1)."""

    def predict_one(self, x) -> int:
        j = self._j(x)
        ones = sum(r[j] for r in self.V)
        return int(2 * ones >= len(self.V))


class FirstConsistentBrute(_RowLearner):
    """Predict with the lexicographically smallest consistent concept (CON)."""

    def predict_one(self, x) -> int:
        return min(self.V)[self._j(x)]


def log2_floor(n: int) -> int:
    return int(math.floor(math.log2(n)))


def tree_ok_brute(root, depth: int, matrix) -> bool:
    """True iff ``root`` (nested ``{"point": j, "0": .., "1": ..}`` / None) is a complete binary tree of
    exactly ``depth`` levels whose every root-to-leaf path is realised by some row of ``matrix``.

    Walks the tree carrying the list of row indices consistent with the path (plain Python lists over
    the matrix's columns; no bitsets)."""
    rows = [list(r) for r in matrix]
    n_rows = len(rows)
    n = len(rows[0]) if rows else 0
    cache: dict = {}

    def column(j):
        if j not in cache:
            cache[j] = [int(bool(r[j])) for r in rows]
        return cache[j]

    def walk(node, alive, level) -> bool:
        if not alive:
            return False
        if node is None:
            return level == depth
        if not isinstance(node, dict) or set(node) != {"point", "0", "1"}:
            return False
        j = node["point"]
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n:
            return False
        col = column(j)
        a0 = [c for c in alive if col[c] == 0]
        a1 = [c for c in alive if col[c] == 1]
        return walk(node["0"], a0, level + 1) and walk(node["1"], a1, level + 1)

    return walk(root, list(range(n_rows)), 0)


def sparse_rows(n: int, k: int) -> list:
    """All subsets of {0..n-1} of size <= k, as indicator rows. Its Opt is min(k, n): predicting 0
    errs only on positives (at most k of them), and any k points carry every labelling."""
    rows = []
    for i in range(k + 1):
        for S in itertools.combinations(range(n), i):
            rows.append([int(j in S) for j in range(n)])
    return rows


def tagged_rows(n: int) -> list:
    """The empty concept, {x}, {b_i} and {b_i, t_i} for n pairs of points (2n + 1 points in all): a class with the
    n! renamings of its pairs as symmetries, for the certificates' entries up to symmetry."""
    pts = 2 * n + 1
    rows = [[0] * pts, [int(x == 2 * n) for x in range(pts)]]
    for i in range(n):
        rows.append([int(x == i) for x in range(pts)])
        rows.append([int(x in (i, n + i)) for x in range(pts)])
    return rows


def matrices(max_rows: int = 10, max_cols: int = 8, min_rows: int = 1):
    """A hypothesis strategy for small 0/1 matrices (lists of rows), sizes drawn uniformly, with
    duplicate rows allowed half of the time (the class merges them) and distinct rows otherwise."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        c = draw(st.sampled_from(range(1, max_cols + 1)))
        r = draw(st.sampled_from(range(min_rows, min(max_rows, 1 << c) + 1)))
        unique = draw(st.booleans())
        ints = draw(st.lists(st.integers(0, (1 << c) - 1), min_size=r, max_size=r, unique=unique))
        return [[(v >> j) & 1 for j in range(c)] for v in ints]

    return build()


# ---------------------------------------------------------------------------------------- reference learners
# Each learner of the seeds written again from the seeds' pseudo-code, with plain lists and floats (or
# Fractions where floats would round: factors such as 3/2), sharing no code with ``solvers.learners``;
# tests/solvers/learners/test_<module>.py compare them with the package's learners round by round on
# random streams (arbitrary labels for the vector learners, realizable ones for the class-based learners).
class RefWinnow:
    """Winnow from [15-859B]/[OnlineAlgs]/[Rivest94] with list weights: threshold, factor, strict or not, halve or zero,
    and an optional floor ([Roth]'s Winnow-R)."""

    def __init__(self, n, alpha, theta, strict, zero, floor=None):
        self.w = [1.0 if isinstance(alpha, float) else Fraction(1)] * n
        self.alpha, self.theta, self.strict, self.zero, self.floor = alpha, theta, strict, zero, floor

    def predict(self, x):
        s = sum(wi for wi, xi in zip(self.w, x) if xi == 1)
        return 1 if (s > self.theta if self.strict else s >= self.theta) else 0

    def learn(self, x, y):
        p = self.predict(x)
        for i in range(len(x)):
            if x[i] == 1:
                if y == 1 and p == 0:
                    self.w[i] = self.w[i] * self.alpha
                elif y == 0 and p == 1:
                    if self.zero:
                        self.w[i] = 0
                    else:
                        self.w[i] = self.w[i] / self.alpha
                        if self.floor is not None and self.w[i] < self.floor:
                            self.w[i] = self.floor


class RefBalanced:
    def __init__(self, n, theta):
        self.p = [1.0] * n
        self.m = [1.0] * n
        self.theta = theta

    def s(self, x):
        return sum(self.p[i] - self.m[i] for i in range(len(x)) if x[i] == 1)

    def predict(self, x):
        return 1 if self.s(x) > self.theta else 0

    def learn(self, x, y):
        s = self.s(x)
        if y == 1 and s <= self.theta:
            for i in range(len(x)):
                if x[i] == 1:
                    self.p[i] *= 2
                    self.m[i] /= 2
        if y == 0 and s >= self.theta:
            for i in range(len(x)):
                if x[i] == 1:
                    self.p[i] /= 2
                    self.m[i] *= 2


class RefPerceptron:
    def __init__(self, d, margin=0):
        self.w = [0] * d
        self.margin = margin

    def predict(self, x):
        return 1 if sum(a * b for a, b in zip(self.w, x)) >= 0 else 0

    def learn(self, x, y):
        yy = 1 if y == 1 else -1
        s = sum(a * b for a, b in zip(self.w, x))
        if (self.margin == 0 and self.predict(x) != y) or (self.margin > 0 and yy * s <= self.margin):
            self.w = [a + yy * b for a, b in zip(self.w, x)]


class RefConjunction:
    def __init__(self, n):
        self.S = set(range(n))

    def predict(self, x):
        return 1 if all(x[i] == 1 for i in self.S) else 0

    def learn(self, x, y):
        if y == 1 and self.predict(x) == 0:
            self.S = {i for i in self.S if x[i] == 1}


class RefElim:
    def __init__(self, n):
        self.L = {(i, s) for i in range(n) for s in (True, False)}   # (i, True) is z_i, (i, False) not z_i

    def predict(self, x):
        return 1 if any((x[i] == 1) == s for i, s in self.L) else 0

    def learn(self, x, y):
        if y == 0:
            self.L = {(i, s) for i, s in self.L if (x[i] == 1) != s}


class RefVersionSpace:
    """Halving (majority, ties to 1) or CON (first consistent row) over a list of rows."""

    def __init__(self, rows, rule):
        self.V = list(rows)
        self.rule = rule

    def predict(self, j):
        if self.rule == "halving":
            ones = sum(r[j] for r in self.V)
            return 1 if 2 * ones >= len(self.V) else 0
        return self.V[0][j]

    def learn(self, j, y):
        self.V = [r for r in self.V if r[j] == y]


class RefWeightedMajority:
    def __init__(self, rows, beta):
        self.rows = rows
        self.w = [1.0] * len(rows)
        self.beta = beta

    def predict(self, j):
        one = sum(w for w, r in zip(self.w, self.rows) if r[j] == 1)
        zero = sum(w for w, r in zip(self.w, self.rows) if r[j] == 0)
        return 1 if one >= zero else 0

    def learn(self, j, y):
        self.w = [w * self.beta if r[j] != y else w for w, r in zip(self.w, self.rows)]


@st.composite
def binary_stream(draw, max_n=6, max_len=40):
    n = draw(st.integers(1, max_n))
    xs = draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), max_size=max_len))
    ys = draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    return n, list(zip(xs, ys))


def compare(L, R, stream):
    for t, (x, y) in enumerate(stream):
        assert L.predict_one(x) == R.predict(x), f"round {t}"
        L.learn_one(x, y)
        R.learn(x, y)


def realizable(rows, data, max_len=15):
    target = data.draw(st.sampled_from(rows), label="target")
    js = data.draw(st.lists(st.integers(0, len(rows[0]) - 1), max_size=max_len), label="points")
    return [(j, target[j]) for j in js]



# ------------------------------------------------------------------------------------------------------
# Game values: the randomized optimum RL(C), k label errors (D_k, R_k), horizon T -- brute force
# ------------------------------------------------------------------------------------------------------
# Written from the rules of the game alone (not from ``solvers``), slow but checkable line by line.
#
# The game. Each round the adversary shows a point x (a column), the learner predicts, the adversary
# reveals a label y; a mistake is y != prediction. With k label errors the whole label sequence must
# agree with some concept of the class up to at most k disagreements. The state is a tuple of budgets,
# one per distinct concept: b_c = k - (number of labels so far that disagree with c); a concept with
# b_c < 0 is dead and we store it as -1 (a dead concept stays dead, so its exact negative count does
# not matter). A label y at x is legal iff some concept is still alive after it. Duplicate concepts get
# identical budgets forever, so the class is reduced to its distinct rows (sorted, for a canonical
# state). The deterministic learner predicts a label; the randomized learner predicts 1 with a
# probability p that the adversary knows (it knows the algorithm and the history), but not the coin,
# and is charged the expected number of mistakes. The adversary may stop whenever it likes; with a
# horizon T at most T rounds are played.
#
# One step of the game (the Bellman operator). Write p = P(predict 1). With value W(child) after the
# round, label 0 costs the learner the line  W(b_0) + p  and label 1 the line  W(b_1) + (1 - p); the
# adversary takes the larger of the lines of the legal labels, the learner picks p to make that as
# small as possible, over p in {0, 1} (deterministic) or p in [0, 1] (randomized), and the adversary
# picks the point (or stops: 0):
#
#     W(b) = max(0, max_x min_p max_{legal y} line_y(p)).
#
# A max of lines is convex and piecewise linear in p, so its minimum over [0, 1] is attained at 0, 1
# or a crossing point of two lines; :func:`_learner_min` evaluates exactly those candidates with
# Fractions. With two legal labels this is max(W0, W1, (1 + W0 + W1)/2) for the randomized learner and
# min(max(W0, 1 + W1), max(1 + W0, W1)) for the deterministic one.
#
# The self-loop (k > 0). Call x a *loop point* of state b if every living concept gives x the same
# label y0. Then label y0 changes nothing (the state repeats, b_{y0} = b) and label 1 - y0 is legal iff
# some living concept has budget >= 1; it disagrees with every living concept, so its child is
# b - 1 := (every living budget minus one; budgets reaching -1 die), the same state for every loop
# point of b. Every other point splits the living concepts, and then both labels are legal and both
# children are strictly below b (componentwise <=, some living budget smaller), so apart from loops
# the game moves down a well-founded order. Let u = W(b - 1).
#
#  * Deterministic learner: predicting 1 - y0 at a loop point lets the adversary say y0 forever, one
#    mistake per round, unboundedly; predicting y0 costs nothing on y0 and one mistake on 1 - y0. So
#    the learner predicts the unanimous label y0 and the loop point is worth exactly 1 + u.
#  * Randomized learner: again the loop point is worth exactly 1 + u, and the learner should predict y0
#    with certainty (p chosen so that P(mistake | y0) = 0). Proof. Upper bound: with q = P(predict
#    1 - y0) = 0, repeating y0 is free and the state does not move, and flipping costs 1 + u. Lower
#    bound: let q_1, q_2, ... be the learner's probabilities on successive repetitions (the adversary
#    sees each one before labelling). Fix eps > 0 and N >= 1/eps. The adversary repeats x with label
#    y0 while q_i > eps, at most N times, then flips. If it flips at round i with q_i <= eps, it has
#    collected q_1 + ... + q_{i-1} >= 0 and then 1 - q_i >= 1 - eps, plus u afterwards; if all N
#    rounds had q_i > eps it has collected > N eps >= 1 already and the flip still adds (1 - q) + u
#    >= u. Either way >= 1 + u - eps. So the value is 1 + u, a supremum that q = 0 attains.
#    Hence there is nothing to iterate: W(b) = max(0, split points, 1 + W(b - 1) if b has a loop point
#    and a living budget >= 1) is a recursion down the well-founded order (:func:`loop_rule_value_brute`).
#    With a horizon, by contrast, the learner *does* gain from q > 0 (the adversary cannot repeat
#    forever): for one concept with k = 1, W_T = (1 + W_{T-1})/2 = 1 - 2^-T, which tends to 1 but
#    never reaches it -- which is why value iteration does not terminate for randomized k > 0.
#
# The unlimited deterministic value is also computed as the least fixpoint of the Bellman operator by
# value iteration from all zeros over the reachable states (loops included as they are); it
# terminates since the values are integers, increase, and are bounded (following the living concept
# of largest budget, each mistake lowers sum over living c of (b_c + 1) <= |C|(k + 1) by at least one).
# That the least fixpoint is the game value: it is the limit of the horizon values (the adversary can
# play any T-round strategy, so the value is >= every horizon value), and the learner that picks the
# minimising prediction against a fixpoint F has F(before) >= mistake + F(after) on every round, so it
# never makes more than F(start) mistakes. On loops it is the loop rule: at a loop point the Bellman
# term is max(F(b), 1 + F(b - 1)), and the loop-rule values are a fixpoint lying below every fixpoint
# (induction down the well-founded order); the tests check the two computations agree.
#
# Forcing points (used by the tests). If D(b) = v >= 1 there is a point x with both labels legal and
# D(child) >= v - 1 for both children (a loop point counts: its y0 child is b itself). Proof by
# induction down the order: take the point that first reaches v in the value iteration; if it is not
# forcing, one child b' is strictly below b with D(b') = v, b' has a forcing point, and that point is
# forcing at b too because D is monotone in the budgets. Consequences: the adversary forces a mistake
# every round, so the deterministic value with horizon T is min(T, D_k); against a randomized learner
# it gets >= 1/2 per forcing round (the label the learner finds less likely), so R_k >= D_k / 2; and it
# has a complete depth-D_k tree of legal label sequences, whence :func:`volume_bound`.


def _game_start(matrix, errors: int):
    """(rows, n_points, start budgets) for the game with ``errors`` label errors; checks the input."""
    if isinstance(errors, bool) or not isinstance(errors, int) or errors < 0:
        raise ValueError(f"errors must be an int >= 0, got {errors!r}")
    rows = tuple(sorted(rows_of(matrix)))
    if not rows:
        raise ValueError("the class is empty: give at least one concept row")
    n = len(rows[0])
    if any(len(r) != n for r in rows):
        raise ValueError("concept rows have different lengths")
    return rows, n, (errors,) * len(rows)


def _child(rows, b: tuple, j: int, y: int):
    """The budgets after label ``y`` at point ``j``, or None if the label is illegal (nobody alive)."""
    child = tuple(-1 if bc < 0 else (bc if r[j] == y else max(bc - 1, -1)) for r, bc in zip(rows, b))
    return child if any(bc >= 0 for bc in child) else None


def _learner_min(lines, randomized: bool):
    """min over p of max over ``lines`` (pairs (a, s) meaning a + s*p), p in {0,1} or in [0,1].

    Exact: the max of lines is convex piecewise linear, so its minimum over [0, 1] is at an endpoint
    or where two lines cross; every such candidate is evaluated with Fractions."""
    candidates = {Fraction(0), Fraction(1)}
    if randomized:
        for (a1, s1), (a2, s2) in itertools.combinations(lines, 2):
            if s1 != s2:
                p = Fraction(a2 - a1) / (s1 - s2)
                if 0 <= p <= 1:
                    candidates.add(p)
    return min(max(a + s * p for a, s in lines) for p in candidates)


def _point_value(rows, b: tuple, j: int, value_of, randomized: bool):
    """min_p max_{legal y} (P(mistake | y, p) + value_of(child_y)) for point ``j`` at state ``b``."""
    lines = []
    for y in (0, 1):
        child = _child(rows, b, j, y)
        if child is not None:
            # P(mistake | y=0) = p, P(mistake | y=1) = 1 - p
            lines.append((value_of(child), 1) if y == 0 else (value_of(child) + 1, -1))
    value = _learner_min(lines, randomized)
    return value if randomized else int(value)


def _bellman(rows, n: int, b: tuple, value_of, randomized: bool):
    """W(b) = max(0 [stop], max over points of the point value), values of children from ``value_of``."""
    zero = Fraction(0) if randomized else 0
    return max([zero] + [_point_value(rows, b, j, value_of, randomized) for j in range(n)])


def _reachable(rows, n: int, start: tuple) -> list:
    """Every state reachable from ``start`` by legal moves (depth-first, plain sets)."""
    seen, stack = {start}, [start]
    while stack:
        b = stack.pop()
        for j in range(n):
            for y in (0, 1):
                c = _child(rows, b, j, y)
                if c is not None and c not in seen:
                    seen.add(c)
                    stack.append(c)
    return sorted(seen)


def _horizon_value(rows, n: int, start: tuple, horizon: int, randomized: bool):
    """W_T(b) = 0 if T = 0, else the Bellman operator applied to W_{T-1}; memoised on (b, T)."""
    memo: dict = {}

    def W(b, t):
        if t == 0:
            return Fraction(0) if randomized else 0
        if (b, t) not in memo:
            memo[b, t] = _bellman(rows, n, b, lambda c: W(c, t - 1), randomized)
        return memo[b, t]

    return W(start, horizon)


def _fixpoint_value(rows, n: int, start: tuple) -> int:
    """The least fixpoint of the deterministic Bellman operator by value iteration from all zeros."""
    states = _reachable(rows, n, start)
    bound = len(rows) * (start[0] + 1)  # sum over c of (b_c + 1): no value can exceed it
    W = {b: 0 for b in states}
    while True:
        new = {b: _bellman(rows, n, b, W.__getitem__, randomized=False) for b in states}
        if new == W:
            return W[start]
        assert all(new[b] >= W[b] for b in states), "value iteration must be monotone"
        assert max(new.values()) <= bound, "values exceed the follow-the-leader bound"
        W = new


def _loop_rule_value(rows, n: int, start: tuple, randomized: bool):
    """The unlimited value by recursion down the well-founded order, loop points by the loop rule."""
    memo: dict = {}

    def W(b):
        if b in memo:
            return memo[b]
        alive = [i for i, bc in enumerate(b) if bc >= 0]
        best = Fraction(0) if randomized else 0
        has_loop = False
        for j in range(n):
            labels = {rows[i][j] for i in alive}
            if len(labels) == 1:
                has_loop = True  # all living concepts agree at j: a loop point
                continue
            best = max(best, _point_value(rows, b, j, W, randomized))  # both children strictly below b
        if has_loop and max(b) >= 1:
            down = tuple(max(bc - 1, -1) for bc in b)  # b - 1: the flip at any loop point
            best = max(best, 1 + W(down))
        memo[b] = best
        return best

    return W(start)


def game_value_brute(matrix, *, randomized: bool = False, errors: int = 0, horizon=None):
    """The value of the online mistake-bound game at its start (all budgets = ``errors``).

    Parameters
    ----------
    matrix : sequence of 0/1 rows, one per concept (duplicates are merged).
    randomized : False -> the deterministic optimum (an int); True -> the randomized optimum, the
        least expected number of mistakes (a Fraction).
    errors : k, the number of labels that may disagree with the best concept.
    horizon : None (unlimited, the adversary stops when it likes) or T >= 0 (at most T rounds).

    Rules (see the section comment above for the proofs): with a horizon, the plain recursion
    W_T = Bellman(W_{T-1}), W_0 = 0. Unlimited, deterministic: the least fixpoint of the Bellman
    operator by value iteration from zeros. Unlimited, randomized: the recursion down the well-founded
    order in which a loop point (all living concepts agree) is worth 1 + W(b - 1); for errors = 0 there
    are no such moves and it is the plain recursion on version spaces.

    Examples
    --------
    >>> game_value_brute([[0], [1]])
    1
    >>> game_value_brute([[0], [1]], randomized=True)
    Fraction(1, 2)
    >>> game_value_brute([[0, 1], [1, 1]], errors=1)
    3
    >>> game_value_brute([[1]], randomized=True, errors=1, horizon=3)
    Fraction(7, 8)
    """
    rows, n, start = _game_start(matrix, errors)
    if horizon is not None:
        if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
            raise ValueError(f"horizon must be None or an int >= 0, got {horizon!r}")
        return _horizon_value(rows, n, start, horizon, randomized)
    if randomized:
        return _loop_rule_value(rows, n, start, randomized=True)
    return _fixpoint_value(rows, n, start)


def loop_rule_value_brute(matrix, *, randomized: bool = False, errors: int = 0):
    """The unlimited value by the loop rule (see the section comment), for either learner.

    For the randomized learner this is what :func:`game_value_brute` returns; for the deterministic one
    it is a second computation, to be checked against the value iteration of :func:`game_value_brute`.

    >>> loop_rule_value_brute([[0, 1], [1, 1]], errors=1)
    3
    """
    rows, n, start = _game_start(matrix, errors)
    return _loop_rule_value(rows, n, start, randomized)


def rl_brute(matrix) -> Fraction:
    """RL(C): the randomized optimum with no label errors (the least expected number of mistakes).

    >>> rl_brute([[0, 0], [0, 1], [1, 0], [1, 1]])
    Fraction(1, 1)
    """
    return game_value_brute(matrix, randomized=True)


def dk_brute(matrix, k: int) -> int:
    """D_k(C): the deterministic optimum when the labels may disagree with the best concept k times."""
    return game_value_brute(matrix, errors=k)


def rk_brute(matrix, k: int) -> Fraction:
    """R_k(C): the randomized optimum when the labels may disagree with the best concept k times."""
    return game_value_brute(matrix, randomized=True, errors=k)


def randomized_horizon_values(matrix, errors: int, T: int) -> list:
    """[W_0, W_1, ..., W_T]: the randomized values with horizons 0..T, by iterating the Bellman
    operator T times over all reachable states (bottom-up; the same values as
    ``game_value_brute(matrix, randomized=True, errors=errors, horizon=t)``)."""
    rows, n, start = _game_start(matrix, errors)
    states = _reachable(rows, n, start)
    W = {b: Fraction(0) for b in states}
    out = [W[start]]
    for _ in range(T):
        W = {b: _bellman(rows, n, b, W.__getitem__, randomized=True) for b in states}
        out.append(W[start])
    return out


def randomized_horizon_limit_check(matrix, errors: int, T: int):
    """(values, exact, gap): the horizon values W_0..W_T, the unlimited randomized value (loop rule),
    and exact - W_T. The loop-rule argument predicts: values non-decreasing, W_t <= min(t/2, exact),
    and gap -> 0 as T grows (geometrically; W_T = 1 - 2^-T for one concept with one error).

    >>> randomized_horizon_limit_check([[1]], 1, 4)[2]
    Fraction(1, 16)
    """
    values = randomized_horizon_values(matrix, errors, T)
    exact = rk_brute(matrix, errors)
    return values, exact, exact - values[-1]


def experts_matrix(n: int) -> list:
    """The universal class of n experts: concept i labels the point (a_1, ..., a_n) in {0,1}^n by a_i.

    Points are listed as the binary expansions of 0 .. 2^n - 1 (a_i = bit i).

    >>> experts_matrix(2)
    [[0, 1, 0, 1], [0, 0, 1, 1]]
    """
    return [[(v >> i) & 1 for v in range(1 << n)] for i in range(n)]


def thresholds_matrix(N: int) -> list:
    """Thresholds over points 1..N: concept t (t = 1..N+1) labels x with 1 iff x >= t.

    >>> thresholds_matrix(2)
    [[1, 1], [0, 1], [0, 0]]
    """
    return [[int(x >= t) for x in range(1, N + 1)] for t in range(1, N + 2)]


def volume_bound(n: int, k: int) -> int:
    """max{q : 2^q <= n * sum_{i<=k} C(q, i)}: a counting bound on D_k of any class of n concepts.

    If D_k = q the adversary has a complete binary tree of depth q of legal label sequences (a forcing
    point at every node, see the section comment). A leaf's sequence is within k errors of some concept
    c with error rounds E, |E| <= k, and (c, E) fixes the label at every node along the way, so distinct
    leaves need distinct pairs: 2^q <= n * sum_{i<=k} C(q, i). For the n universal experts this is the
    bound of [Cesa-Bianchi et al. 1997].

    >>> [volume_bound(2, k) for k in range(4)]
    [1, 3, 5, 7]
    """
    q = 0
    while (1 << (q + 1)) <= n * sum(math.comb(q + 1, i) for i in range(k + 1)):
        q += 1
    return q


def rl_tree_brute(matrix) -> Fraction:
    """RL(C) from shattered trees: max over trees T shattered by C of (average depth of T)/2.

    A shattered tree has points at its internal nodes, edges labelled 0 and 1, leaves at any depth,
    and every root-to-leaf path realised by some concept. Its average depth is the expected length of
    the random walk that goes down each edge with probability 1/2. With best(V) the largest average
    depth of a tree shattered by the version space V:

        best(V) = max(0 [a leaf], max over points x splitting V of 1 + (best(V_x^0) + best(V_x^1))/2).

    [Filmus, Hanneke, Mehalel, Moran, COLT 2023]: RL(C) = best(C)/2.

    >>> rl_tree_brute([[0, 0], [0, 1], [1, 0], [1, 1]])
    Fraction(1, 1)
    """
    return walk_depth(shattered_tree_brute(matrix)) / 2


def shattered_tree_brute(matrix):
    """A shattered tree of largest average depth, as nested ``{"point": j, "0": .., "1": ..}`` / None.

    Enumerates, memoised on the version space, the best subtree for every splitting point (see
    :func:`rl_tree_brute`); ties go to the first point."""
    rows = rows_of(matrix)
    if not rows:
        raise ValueError("the class is empty: give at least one concept row")
    n = len(next(iter(rows)))
    memo: dict = {}

    def best(V):
        if V not in memo:
            tree, depth = None, Fraction(0)
            for j in range(n):
                V0, V1 = split_rows(V, j)
                if V0 and V1:
                    (t0, d0), (t1, d1) = best(V0), best(V1)
                    if 1 + (d0 + d1) / 2 > depth:
                        tree, depth = {"point": j, "0": t0, "1": t1}, 1 + (d0 + d1) / 2
            memo[V] = (tree, depth)
        return memo[V]

    return best(rows)[0]


def walk_depth(tree) -> Fraction:
    """The expected depth of the leaf reached by the fair random walk from the root (leaf: None)."""
    if tree is None:
        return Fraction(0)
    return 1 + (walk_depth(tree["0"]) + walk_depth(tree["1"])) / 2


def tree_shattered_brute(tree, matrix) -> bool:
    """True iff every root-to-leaf path of ``tree`` (leaves at any depth) is realised by a row."""
    rows = [tuple(int(bool(v)) for v in r) for r in matrix]

    def walk(node, alive):
        if not alive:
            return False
        if node is None:
            return True
        j = node["point"]
        return (walk(node["0"], [r for r in alive if r[j] == 0])
                and walk(node["1"], [r for r in alive if r[j] == 1]))

    return walk(tree, rows)


def cube_classes(max_n: int, rows: tuple):
    """A hypothesis strategy: classes over all of {0,1}^n (2 <= n <= ``max_n``) with ``rows`` = (fewest, most)
    random concepts, as ConceptClasses whose points are the bit vectors."""
    from solvers.classes import ConceptClass

    @st.composite
    def build(draw):
        n = draw(st.integers(2, max_n))
        pts = [tuple((i >> b) & 1 for b in range(n)) for i in range(2 ** n)]
        m = draw(st.lists(st.lists(st.booleans(), min_size=len(pts), max_size=len(pts)), min_size=rows[0],
                          max_size=rows[1]))
        return ConceptClass.from_matrix(np.array(m, dtype=bool), pts)

    return build()
