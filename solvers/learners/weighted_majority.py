"""Weighted majority over a finite set of experts, deterministic and randomized.

The setting is [OnlineAlgs]'s "Regret Minimization" / best-expert problem: labels need not come from any
expert, and the goal is to do nearly as well as the best one. [OnlineAlgs] states only the regret form
(average loss <= min_c Loss(c) + sqrt(log |C| / T), "Not in the course"), and [15-859B] mentions RWM
with one expert per OR function; neither gives the algorithms. The rules and the mistake bounds below
are Littlestone and Warmuth's (The weighted majority algorithm, Information and Computation 108,
1994), with their short proofs written out so that they can be checked.

Source for the setting: [OnlineAlgs].

References
----------
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Hashable

import numpy as np

from ..numbers import bit_positions
from .base import (Bound, IntParam, OnlineLearner, Point, VersionSpace, as_int, as_rational, check_label, cite,
                   json_number, number, rng_key)

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = ["WeightedMajority", "RandomizedWeightedMajority"]


class _Experts(OnlineLearner):
    """Shared state: the expert matrix (experts x points) and each expert's mistake count e_i.

    Expert i has weight beta^(e_i); the state is the tuple of the e_i (exact, and compact).
    """

    needs_class = True
    bound_source = cite("OnlineAlgs", 'slide "Regret Minimization"')
    bound_params = ("m",)

    def __init__(self, experts, beta=Fraction(1, 2)):
        from ..classes.finite import ConceptClass

        who = self.name
        if isinstance(experts, ConceptClass):
            self.C = experts
            self._matrix = experts.matrix
        else:
            try:
                m = np.asarray(experts)
            except Exception:  # noqa: BLE001 - anything numpy cannot read is not a matrix
                raise ValueError(f"{who}: experts must be a 0/1 matrix (experts x points) or a ConceptClass") from None
            if m.ndim != 2 or m.shape[0] == 0 or m.shape[1] == 0 or m.dtype == object or not np.isin(m, (0, 1)).all():
                raise ValueError(f"{who}: experts must be a non-empty 2-d 0/1 matrix (experts x points) or a ConceptClass")
            self.C = None
            self._matrix = m.astype(bool)
            self._matrix.setflags(write=False)
        self.beta = as_rational(beta, "beta", who)
        if not 0 < self.beta < 1:
            raise ValueError(f"{who}: beta must be strictly between 0 and 1, got {self.beta}; give e.g. beta=1/2")
        self.N = self._matrix.shape[0]
        self.e = (0,) * self.N  # mistakes of each expert so far
        self._light_memo: dict = {}  # _light_outside's values for this beta (a cache, shared by the copies)

    def _index(self, x) -> int:
        """The column of point x: the class's ``index_of``; for a bare matrix, point j is the column
        index (an int, (j,) or a 1-element array)."""
        if self.C is not None:
            return self.C.index_of(x)
        j = x
        if isinstance(j, np.ndarray):
            j = j.ravel().tolist()
        if isinstance(j, (tuple, list)) and len(j) == 1:
            j = j[0]
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) or not 0 <= j < self._matrix.shape[1]:
            raise ValueError(f"{self.name}: point {x!r} is not a column index 0..{self._matrix.shape[1] - 1} of the expert matrix")
        return int(j)

    def advice(self, x: Point) -> tuple[int, ...]:
        """Each expert's label for x."""
        return tuple(int(v) for v in self._matrix[:, self._index(x)])

    def weights(self) -> tuple[Fraction, ...]:
        """beta^(e_i) for each expert, exact."""
        return tuple(self.beta ** k for k in self.e)

    def scaled_weights(self) -> tuple[int, ...]:
        """The weights times a common factor, as ints: with beta = a/b and E = max e_i, a^(e_i) b^(E - e_i)
        (exact, and integer sums are much faster than Fraction sums). Cached per state."""
        cache = self.__dict__.get("_scaled")
        if cache is not None and cache[0] is self.e:
            return cache[1]
        a, b = self.beta.numerator, self.beta.denominator
        E = max(self.e)
        w = tuple(a ** k * b ** (E - k) for k in self.e)
        self._scaled = (self.e, w)
        return w

    def _charge(self, x, y) -> None:
        """Every expert that got (x, y) wrong loses a factor beta."""
        y = check_label(y)
        col = self._matrix[:, self._index(x)]
        self.e = tuple(k + 1 if bool(v) != bool(y) else k for k, v in zip(self.e, col))

    def get_params(self) -> dict:
        return {"beta": json_number(self.beta)}

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """The bound with m = ``errors``: with k label errors the best expert (a concept of the class, the
        rows being the experts) makes at most k mistakes; m = 0 when the labels come from one of them. For
        the randomized learner a bound on the expected mistakes, which the exact adversary measures."""
        return self.mistake_bound(m=errors)

    def _budgets(self, V) -> list[tuple[int, int]]:
        """(expert, budget) for every expert still possible as the best one: V a bitset of experts (budget
        0), or the levels (A_0, ..., A_k) of :mod:`solvers.game_rules` (budget: the last level holding it)."""
        if isinstance(V, int):
            return [(c, 0) for c in bit_positions(V)]
        levels = tuple(V)
        out = []
        for c in bit_positions(levels[0]):
            b = 0
            while b + 1 < len(levels) and levels[b + 1] >> c & 1:
                b += 1
            out.append((c, b))
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<{self.N} experts>, beta={json_number(self.beta)!r})"


class WeightedMajority(_Experts):
    """Weighted Majority (Littlestone and Warmuth), for the best-expert setting of [OnlineAlgs].

    Rule: every expert starts with weight 1. Predict 1 iff the total weight of the experts saying 1 is
    at least that of those saying 0 (ties to 1, as Halving's). After the label, multiply the weight of
    every expert that was wrong by beta (every round, mistake or not). With beta -> 0 this is Halving.

    Bound (``mistake_bound(m=...)``, m = the mistakes of the best expert, 0 when the labels come from
    one of the experts): M <= (ln N + m ln(1/beta)) / ln(2/(1 + beta)). Proof: at a mistake at least
    half of the total weight W is on experts that were wrong, so W shrinks by a factor at most
    (1 + beta)/2; at the end W >= beta^m (the best expert's weight), and W started at N.

    Source: [OnlineAlgs] (the best-expert setting; [OnlineAlgs] itself states only the regret form
    Loss(online) <= min_c Loss(c) + sqrt(log |C| / T)); the algorithm and this bound are Littlestone and
    Warmuth's (1994), not in the seeds.

    Parameters
    ----------
    experts : ConceptClass or 0/1 matrix (experts x points)
        The rows are the experts. For a bare matrix the points are the column indices; duplicate rows
        are kept (a ConceptClass has merged them already).
    beta : number in (0, 1), default 1/2
        Kept exact.

    Examples
    --------
    >>> L = WeightedMajority([[1, 0], [1, 1], [0, 0]], beta="1/2")
    >>> L.predict_one(0), L.predict_one(1)          # 2 of 3 experts say 1, then 1 of 3
    (1, 0)
    >>> L.learn_one(0, 0)                           # experts 0 and 1 were wrong
    >>> [str(w) for w in L.weights()]
    ['1/2', '1/2', '1']
    >>> L.predict_one(0)                            # weight 1 for 1, 1 for 0: a tie goes to 1
    1
    >>> round(L.mistake_bound(m=0).value, 3)        # ln 3 / ln(4/3)
    3.819
    """

    name = "weighted-majority"
    bound_formula = ("(ln N + m ln(1/beta)) / ln(2/(1 + beta)), N = the experts, m = the best expert's mistakes "
                     "(Littlestone-Warmuth; the slides have only the regret setting)")
    summary = "the class's rows are experts; wrong experts' weights times beta"

    def predict_one(self, x: Point) -> int:
        col = self._matrix[:, self._index(x)]
        w = self.scaled_weights()  # the weights times one positive factor: the comparison is the same
        ones = sum(wi for wi, v in zip(w, col) if v)
        return int(2 * ones >= sum(w))

    def learn_one(self, x: Point, y: int) -> None:
        self._charge(x, y)

    def state_key(self) -> Hashable:
        """The mistake count of every expert (the weights are beta to these powers)."""
        return self.e

    def mistake_bound(self, m: IntParam = 0) -> Bound:
        """(ln N + m ln(1/beta)) / ln(2/(1 + beta)) (Littlestone-Warmuth; see the class docstring)."""
        m = as_int(m, "m", self.name, low=0)
        b = float(self.beta)
        value = (math.log(self.N) + m * math.log(1 / b)) / math.log(2 / (1 + b))
        formula = ("(ln N + m ln(1/beta)) / ln(2/(1 + beta)), m = the best expert's mistakes (Littlestone-Warmuth's "
                   "weighted majority bound, not in the lecture notes; the slides state only the regret form "
                   "Loss(online) <= min_c Loss(c) + sqrt(log |C| / T))")
        return Bound(number(value), formula, self.bound_source)

    def remaining_bound(self, V: VersionSpace) -> int:
        """The mistakes still possible when the target is an expert of V (a bitset over the experts), or
        with label errors an expert of the levels V = (A_0, ..., A_k) with its remaining budget b_c.

        A mistake leaves at most the fraction (1 + beta)/2 of the total weight W, and the target, an
        expert of V that errs at most b_c more times (0 without label errors), keeps a weight of at least
        beta^(e_c + b_c); so at most max{m : W ((1 + beta)/2)^m >= beta^(e_c + b_c)} more mistakes, the
        largest over the targets c in V (Littlestone-Warmuth's argument from this state on). Exact
        rational arithmetic: never off by one.
        """
        beta, e = self.beta, self.e
        q = (1 + beta) / 2
        W = sum(beta ** k for k in e)
        worst = max(e[c] + b for c, b in self._budgets(V))  # the lightest target still possible
        floor_weight = beta ** worst
        m, x = 0, W * q
        while x >= floor_weight:
            m += 1
            x *= q
        if isinstance(V, int) and m > 0 and V.bit_count() <= LIGHT_MAX_EXPERTS:
            inside = bit_positions(V)
            O = W - len(inside)
            if O <= LIGHT_MAX_EXPERTS * len(inside) and all(e[c] == 0 for c in inside):
                # the realizable game (the experts of V never erred): the sharper bound of _light_outside
                m = min(m, light_outside(len(inside), O, beta, self._light_memo))
        return m


def _lw(W, q) -> int:
    """max{m : W q^m >= 1}: Littlestone-Warmuth's count of mistakes from total weight W to a target of weight 1."""
    m, x = 0, W * q
    while x >= 1:
        m += 1
        x *= q
    return m


#: The sharper bound of :func:`_light_outside` is computed for version spaces of at most this many experts, with
#: the others weighing at most this many times as much (beyond, its recursion is large and Littlestone-Warmuth's
#: bound is used alone).
LIGHT_MAX_EXPERTS = 16
#: ... and with at most this many new states of its recursion per call (exact fractions: the outside weights take
#: ever new values, so the memo seldom answers, and a state of 12 experts once took 25 s, past an attack's time
#: limit); past them Littlestone-Warmuth's bound, which always holds, is used for that state.
LIGHT_MAX_STATES = 5_000


class _TooMany(Exception):
    """Raised inside :func:`_light_outside` past its budget of states."""


def light_outside(k: int, O, beta, memo: dict, budget: int | None = None) -> int:
    """:func:`_light_outside`, computing at most ``budget`` (default :data:`LIGHT_MAX_STATES`) new states; past
    them Littlestone-Warmuth's bound max{m : (k + O) q^m >= 1}, q = (1 + beta)/2, which always holds (the memo
    keeps only the states computed whole)."""
    left = [LIGHT_MAX_STATES if budget is None else budget]
    try:
        return _light_outside(k, O, beta, memo, left)
    except _TooMany:
        return _lw(k + O, (1 + beta) / 2)


def _light_outside(k: int, O, beta, memo: dict, left: list) -> int:
    """A bound on weighted majority's mistakes still to come when the k experts still possible as the target
    (the version space V) have weight 1 each, never having erred, and the others weigh O in all.

    Derived here (not in the seeds). Take a point, a experts of V saying the label y, k - a saying 1 - y, and
    O_w, O_r the outside weight on the wrong and the right side. The learner errs only if
    k - a + O_w >= a + O_r (a tie the worse way), so, as O_w + O_r = O, only if
    O_w >= s = max(0, (O + 2a - k)/2), which needs 2a - k <= O. After the example V has the a experts; the
    k - a that leave weigh beta each; the outside experts that were wrong lose the factor beta. So a mistake
    moves (k, O) to (a, O') with O' <= O - (1 - beta) s + beta (k - a) (a = k: V unchanged, possible only if
    O >= k), and a correct prediction moves it to (a, O'') with O'' <= O + beta (k - a) (a = k: O only
    falls). Every such O' is non-decreasing in O, so by induction B is, and the mistakes from (k, O) are at most

        B(k, O) = max(0, [over 1 <= a <= k, 2a - k <= O] (1 + B(a, O - (1 - beta) s + beta (k - a))),
                      [over 1 <= a < k] B(a, O + beta (k - a))),

    and at most Littlestone-Warmuth's max{m : (k + O) q^m >= 1} (q = (1 + beta)/2); the smaller of the two
    is returned. With k = 1 and O < 1 it is 0: the target outweighs all the others, so every prediction is its
    label, for ever. It is what ends the exact adversary's lines of play on weighted majority, along which the
    counts of the experts outside V grow for ever while Littlestone-Warmuth's bound stays above the value.
    """
    key = (k, O)
    hit = memo.get(key)
    if hit is not None:
        return hit
    left[0] -= 1
    if left[0] < 0:
        raise _TooMany()
    q = (1 + beta) / 2
    cap = _lw(k + O, q)
    best = 0
    if cap > 0:
        for a in range(k, 0, -1):
            if best >= cap:
                break
            if 2 * a - k <= O:  # a mistake can leave a experts of V (a = k: V unchanged, O falls by a fixed amount)
                s = max(0, (O + 2 * a - k) / 2)
                best = max(best, 1 + _light_outside(a, O - (1 - beta) * s + beta * (k - a), beta, memo, left))
            if a < k:
                best = max(best, _light_outside(a, O + beta * (k - a), beta, memo, left))
    best = min(best, cap)
    memo[key] = best
    return best


class RandomizedWeightedMajority(_Experts):
    """Randomized Weighted Majority (Littlestone and Warmuth), for the best-expert setting of [OnlineAlgs].

    Rule: weights as in :class:`WeightedMajority` (start at 1, times beta for each mistake of the
    expert, every round). Each round, predict with one expert drawn with probability proportional to
    its weight (one draw per round from the learner's own ``numpy.random.Generator``, made after each
    label; so P(predict 1) = W_1/W).

    Bound (``mistake_bound(m=...)``), an expectation for labels fixed in advance:
    E[M] <= (ln N + m ln(1/beta)) / (1 - beta). Proof: if a fraction F_t of the weight is wrong in round
    t, the learner errs with probability F_t and W shrinks by the factor 1 - (1 - beta) F_t <=
    exp(-(1 - beta) F_t); and beta^m <= W_final <= N exp(-(1 - beta) E[M]). The weights, hence the
    draw's distribution, depend on the labels only, never on the draws, so an adversary that knows the
    weights but not the draw gains nothing by adapting: the bound holds against it too (the exact
    adversary measures E[M] exactly from ``probability``).

    Source: [OnlineAlgs] (the best-expert setting and the regret form only); [15-859B] names
    RWM; the algorithm and the bound are Littlestone and Warmuth's (1994), not in the seeds.

    Parameters
    ----------
    experts : ConceptClass or 0/1 matrix (experts x points)
    beta : number in (0, 1), default 1/2
    seed : int, default 0
        Seed of the generator; the state key includes the generator's state.

    Examples
    --------
    >>> L = RandomizedWeightedMajority([[1, 0], [1, 1]], beta="1/3", seed=0)
    >>> L.predict_one(0)                    # both experts say 1
    1
    >>> L.learn_one(1, 1)                   # expert 0 was wrong: weights 1/3 and 1
    >>> [str(w) for w in L.weights()]
    ['1/3', '1']
    >>> round(L.mistake_bound(m=0).value, 4)   # ln 2 / (2/3)
    1.0397
    """

    name = "randomized-weighted-majority"
    randomized = True
    bound_formula = ("E[mistakes] <= (ln N + m ln(1/beta)) / (1 - beta) (Littlestone-Warmuth; the slides have only "
                     "the regret setting)")
    summary = "predict with an expert drawn in proportion to its weight"
    _deep_copied = ("rng",)

    def __init__(self, experts, beta=Fraction(1, 2), seed=0):
        super().__init__(experts, beta)
        self.seed = as_int(seed, "seed", self.name, low=0)
        self.rng = np.random.default_rng(self.seed)
        self._draw()

    def _draw(self) -> None:
        """h <- expert i with probability beta^(e_i) / W."""
        w = self.weights()
        u = Fraction(float(self.rng.random())) * sum(w)
        acc = Fraction(0)
        for i, wi in enumerate(w):
            acc += wi
            if u < acc:
                self.h = i
                return
        self.h = self.N - 1  # not reached: u < W

    def predict_one(self, x: Point) -> int:
        return int(self._matrix[self.h, self._index(x)])

    def probability(self, x: Point) -> Fraction:
        """P(predict 1) = W_1 / W, the weight of the experts saying 1 over the total, exactly."""
        col = self._matrix[:, self._index(x)]
        w = self.scaled_weights()  # the weights times one positive factor: the ratio is the same
        return Fraction(sum(wi for wi, v in zip(w, col) if v), sum(w))

    def distribution_key(self) -> Hashable:
        """The mistake counts less the smallest: the weights up to a common factor, which the draw ignores."""
        low = min(self.e)
        return tuple(k - low for k in self.e)

    def remaining_bound(self, V: VersionSpace) -> Fraction:
        """The expected mistakes still possible when the best expert is one of V (a bitset of experts, or the
        levels of :mod:`solvers.game_rules` with label errors): max over its experts c of
        (ln W + (e_c + b_c) ln(1/beta)) / (1 - beta), W = sum_i beta^e_i (the class docstring's proof from
        this state on, the target keeping weight >= beta^(e_c + b_c)). Computed in floats and returned as a
        Fraction rounded up by a margin of 1e-9 relative, far above the floats' error."""
        low = min(self.e)
        b = float(self.beta)
        W = math.fsum(b ** (k - low) for k in self.e)  # >= 1: the heaviest expert has weight 1
        worst = max(self.e[c] - low + bc for c, bc in self._budgets(V))
        value = (math.log(W) + worst * math.log(1 / b)) / (1 - b)
        return Fraction(value) * (1 + Fraction(1, 10**9)) + Fraction(1, 10**12)

    def learn_one(self, x: Point, y: int) -> None:
        self._charge(x, y)
        self._draw()

    def state_key(self) -> Hashable:
        """(mistake counts, the expert drawn for this round, the generator's state)."""
        return (self.e, self.h, rng_key(self.rng))

    def get_params(self) -> dict:
        return {"beta": json_number(self.beta), "seed": self.seed}

    def mistake_bound(self, m: IntParam = 0) -> Bound:
        """E[M] <= (ln N + m ln(1/beta)) / (1 - beta) (Littlestone-Warmuth; see the class docstring)."""
        m = as_int(m, "m", self.name, low=0)
        b = float(self.beta)
        value = (math.log(self.N) + m * math.log(1 / b)) / (1 - b)
        formula = ("E[M] <= (ln N + m ln(1/beta)) / (1 - beta), m = the best expert's mistakes, labels fixed in "
                   "advance (Littlestone-Warmuth's randomized weighted majority bound, not in the lecture notes; the slides state "
                   "only the regret form Loss(online) <= min_c Loss(c) + sqrt(log |C| / T))")
        return Bound(number(value), formula, self.bound_source)
