"""Each learner against an independent implementation written here from the seeds' pseudo-code.

The references use plain lists and floats (or Fractions where floats would round: factors such as
3/2), share no code with ``solvers.learners``, and are compared with the package's learners round by
round on random streams. Labels in these streams are arbitrary (not necessarily realizable) for the
vector learners, so every branch of every rule is exercised; the class-based learners get realizable
streams (they refuse the others).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.learners import (
    CON,
    ELIM,
    BalancedWinnow,
    ConjunctionElimination,
    Halving,
    Perceptron,
    RandomizedHalving,
    RandomizedWeightedMajority,
    WeightedMajority,
    Winnow,
    Winnow1,
    Winnow2,
    WinnowKofR,
    WinnowR,
)

from .brute import matrices

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------- references
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


# ---------------------------------------------------------------------------------------- strategies
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


# ---------------------------------------------------------------------------------------- Winnow
@SETTINGS
@given(binary_stream())
def test_winnow2_matches_reference(ns):
    n, stream = ns
    L, R = Winnow2(n), RefWinnow(n, 2.0, n, strict=False, zero=False)
    compare(L, R, stream)
    assert [float(w) for w in L.w] == R.w


@SETTINGS
@given(binary_stream())
def test_winnow1_matches_reference(ns):
    n, stream = ns
    L, R = Winnow1(n), RefWinnow(n, 2.0, n / 2, strict=True, zero=True)
    compare(L, R, stream)
    assert [float(w) for w in L.w] == R.w


@SETTINGS
@given(binary_stream())
def test_winnow_r_matches_reference(ns):
    n, stream = ns
    L, R = WinnowR(n), RefWinnow(n, 2.0, n, strict=False, zero=False, floor=0.5)
    compare(L, R, stream)
    assert [float(w) for w in L.w] == R.w


@SETTINGS
@given(binary_stream(), st.sampled_from([Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5, 4)]),
       st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2), Fraction(7, 3)]), st.booleans(), st.booleans())
def test_winnow_general_matches_reference(ns, alpha, theta_factor, strict, zero):
    n, stream = ns
    theta = theta_factor * n
    L = Winnow(n, alpha=alpha, theta=theta, strict=strict, demotion="zero" if zero else "divide")
    R = RefWinnow(n, alpha, theta, strict=strict, zero=zero)
    compare(L, R, stream)
    assert list(L.w) == R.w


@SETTINGS
@given(binary_stream(), st.integers(1, 4))
def test_winnow_k_of_r_matches_reference(ns, k):
    n, stream = ns
    k = min(k, n)
    L, R = WinnowKofR(n, k), RefWinnow(n, 1 + Fraction(1, 2 * k), n, strict=False, zero=False)
    compare(L, R, stream)
    assert list(L.w) == R.w


@SETTINGS
@given(binary_stream(), st.sampled_from([0, 1, 2, -1]))
def test_balanced_winnow_matches_reference(ns, theta_shift):
    n, stream = ns
    theta = n + theta_shift
    L, R = BalancedWinnow(n, theta=theta), RefBalanced(n, float(theta))
    compare(L, R, stream)
    assert [float(w) for w in L.wp] == R.p and [float(w) for w in L.wm] == R.m


# ---------------------------------------------------------------------------------------- Perceptron
@SETTINGS
@given(st.integers(1, 4), st.data(), st.sampled_from([0, 1, 3]))
def test_perceptron_matches_reference(d, data, margin):
    xs = data.draw(st.lists(st.tuples(*[st.integers(-3, 3)] * d), max_size=40))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    L, R = Perceptron(d, margin=margin), RefPerceptron(d, margin)
    compare(L, R, list(zip(xs, ys)))
    assert list(L.w) == R.w


@SETTINGS
@given(st.integers(1, 3), st.data())
def test_perceptron_exact_on_fractions(d, data):
    q = st.fractions(min_value=-2, max_value=2, max_denominator=7)
    xs = data.draw(st.lists(st.tuples(*[q] * d), max_size=25))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    L, R = Perceptron(d), RefPerceptron(d)
    compare(L, R, list(zip(xs, ys)))
    assert list(L.w) == R.w
    assert all(isinstance(v, (int, Fraction)) for v in L.state_key())


# ---------------------------------------------------------------------------------------- elimination
@SETTINGS
@given(binary_stream())
def test_conjunction_elimination_matches_reference(ns):
    n, stream = ns
    compare(ConjunctionElimination(n), RefConjunction(n), stream)


@SETTINGS
@given(binary_stream())
def test_elim_matches_reference(ns):
    n, stream = ns
    compare(ELIM(n), RefElim(n), stream)


# ---------------------------------------------------------------------------------------- classes
def realizable(rows, data, max_len=15):
    target = data.draw(st.sampled_from(rows), label="target")
    js = data.draw(st.lists(st.integers(0, len(rows[0]) - 1), max_size=max_len), label="points")
    return [(j, target[j]) for j in js]


@SETTINGS
@given(matrices(), st.data())
def test_halving_and_con_match_reference(rows, data):
    C = ConceptClass.from_matrix(rows)
    distinct = [tuple(int(v) for v in r) for r in C.matrix]   # the class's rows, in its row order
    stream = realizable(distinct, data)
    for L, R in ((Halving(C), RefVersionSpace(distinct, "halving")), (CON(C), RefVersionSpace(distinct, "con"))):
        for j, y in stream:
            assert L.predict_one(C.points[j]) == R.predict(j)
            L.learn_one(C.points[j], y)
            R.learn(j, y)


@SETTINGS
@given(matrices(), st.data(), st.integers(0, 2**32 - 1))
def test_randomized_halving_matches_reference(rows, data, seed):
    """The reference draws the k-th consistent row (in row order), k = Generator(seed).integers(|V|),
    at the start and after every example."""
    C = ConceptClass.from_matrix(rows)
    distinct = [tuple(int(v) for v in r) for r in C.matrix]
    stream = realizable(distinct, data)
    L = RandomizedHalving(C, seed=seed)
    rng = np.random.default_rng(seed)
    V = list(range(len(distinct)))
    h = V[int(rng.integers(len(V)))]
    for j, y in stream:
        assert L.predict_one(C.points[j]) == distinct[h][j]
        L.learn_one(C.points[j], y)
        V = [c for c in V if distinct[c][j] == y]
        h = V[int(rng.integers(len(V)))]
        assert h in V


# ---------------------------------------------------------------------------------------- experts
@SETTINGS
@given(matrices(max_rows=8, max_cols=6), st.data())
def test_weighted_majority_matches_reference(rows, data):
    stream = data.draw(st.lists(st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, 1)), max_size=30))
    L, R = WeightedMajority(rows, beta="1/2"), RefWeightedMajority(rows, 0.5)
    for j, y in stream:
        assert L.predict_one(j) == R.predict(j)
        L.learn_one(j, y)
        R.learn(j, y)
    assert [float(w) for w in L.weights()] == R.w


@SETTINGS
@given(matrices(max_rows=8, max_cols=6), st.data(), st.integers(0, 2**32 - 1))
def test_randomized_weighted_majority_matches_reference(rows, data, seed):
    """The reference draws u = Generator(seed).random() each round and takes the first expert whose
    cumulative weight exceeds u W (exact Fractions)."""
    stream = data.draw(st.lists(st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, 1)), max_size=30))
    beta = Fraction(1, 3)
    L = RandomizedWeightedMajority(rows, beta=beta, seed=seed)
    rng = np.random.default_rng(seed)
    w = [Fraction(1)] * len(rows)

    def draw():
        u = Fraction(rng.random()) * sum(w)
        acc = Fraction(0)
        for i, wi in enumerate(w):
            acc += wi
            if u < acc:
                return i

    h = draw()
    for j, y in stream:
        assert L.predict_one(j) == rows[h][j]
        L.learn_one(j, y)
        w = [wi * beta if r[j] != y else wi for wi, r in zip(w, rows)]
        h = draw()
    assert list(L.weights()) == w
