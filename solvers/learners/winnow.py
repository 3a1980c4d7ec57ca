"""Winnow: a linear-threshold learner with multiplicative updates, and its variants in the seeds.

Sources:

* [Rivest94] -- Winnow1 (Theta = n/2, predict 1 iff w.x > Theta, promotion doubles,
  elimination zeroes; u + v <= n/Theta + 2k(lg Theta + 1) = 2 + 2k lg n for an OR of k variables);
* [15-859B] -- Winnow (threshold n, predict + iff w.x >= n, double / halve; at most
  2 + 3r(1 + lg n) mistakes for an OR of r variables) and Winnow for k-of-r functions (multiply /
  divide by 1 + epsilon, epsilon = 1/(2k));
* [Roth] -- balanced Winnow (weights w+ and w-) and Winnow-R (weights never below
  1/2; 5u + 4 mistakes);
* [OnlineAlgs] -- Winnow with a general parameter beta > 1 and threshold theta, its worked
  example and its Lemmas 1 and 2 (v <= beta/(beta - 1) d/theta + beta u; w_i <= beta theta).

Weights are kept exact (``fractions.Fraction``), so the state key is exact. In all variants the points
are 0/1 vectors of length n; "the on-variables" of x are the i with x_i = 1.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Hashable, Sequence

import numpy as np

from .base import (
    Bound,
    IntParam,
    Lemma,
    OnlineLearner,
    Point,
    Points,
    as_bool,
    as_int,
    as_rational,
    binary_vector,
    check_label,
    cite,
    class_facts,
    json_number,
    lg,
    linear_signs,
    number,
)

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = ["Winnow", "Winnow1", "Winnow2", "BalancedWinnow", "WinnowR", "WinnowKofR"]

_ONE = Fraction(1)
_HALF = Fraction(1, 2)


def _target_size(value, name: str, who: str, n: int) -> int:
    if value is None:
        raise ValueError(f"{who}: the mistake bound needs {name}=, the number of relevant variables of the target (0..{n})")
    return as_int(value, name, who, low=0, high=n)


class Winnow(OnlineLearner):
    """Winnow with weights w, promotion factor alpha and threshold theta.

    Rule: weights start at 1. Predict 1 iff w.x >= theta (w.x > theta when ``strict``). On a false
    negative (label 1, predicted 0), *promotion*: multiply the weight of every on-variable by alpha. On
    a false positive (label 0, predicted 1), *demotion*: divide those weights by alpha
    (``demotion="divide"``) or set them to 0 (``demotion="zero"``, [Rivest94]'s elimination). Correct
    predictions change nothing.

    Bound, for a target that is an OR of r variables (``mistake_bound(r=...)``), derived here from the
    seeds' arguments with general alpha and theta: each promotion multiplies a relevant weight by alpha,
    relevant weights are never demoted, and a weight is promoted only while it is below theta (at most
    theta when strict), so u <= r t with t = #{j >= 0 : alpha^j < theta} ([15-859B]'s count); the total
    weight starts at n, grows by at most (alpha - 1) theta per promotion and falls by at least
    (1 - 1/alpha) theta per halving demotion (theta per zeroing one) and stays >= 0, so
    v <= alpha n / ((alpha - 1) theta) + alpha u ([OnlineAlgs]'s Lemma 1), respectively v <= n/theta + (alpha - 1) u
    ([Rivest94]'s Lemma 1). Hence u + v <= (1 + alpha) r t + alpha n / ((alpha - 1) theta) (divide) or
    alpha r t + n / theta (zero).

    Source: [OnlineAlgs] (Winnow with beta and theta, Lemma 1; its worked example is the
    first doctest below); [Rivest94] for the zeroing demotion.

    Parameters
    ----------
    n : int
        The number of variables.
    alpha : int, Fraction, str or float, default 2
        The promotion factor ([OnlineAlgs]'s beta), > 1; kept exact (a float is read as the decimal it prints).
    theta : number, optional
        The threshold, > 0; default n ([15-859B], [Roth]).
    demotion : {"divide", "zero"}, default "divide"
    strict : bool, default False
        Predict 1 iff w.x > theta ([Rivest94]'s Winnow1) instead of >= theta ([15-859B], [OnlineAlgs]).

    Examples
    --------
    [OnlineAlgs]'s example: target x1 v x2, theta = 2, beta = 2.

    >>> L = Winnow(4, alpha=2, theta=2)
    >>> L.predict_one((0, 0, 1, 1)); L.learn_one((0, 0, 1, 1), 0)    # w.x = 2 >= 2: demotion
    1
    >>> [str(w) for w in L.w]
    ['1', '1', '1/2', '1/2']
    >>> L.learn_one((1, 0, 1, 0), 1); L.learn_one((0, 1, 0, 1), 1)     # two promotions
    >>> [str(w) for w in L.w]
    ['2', '2', '1', '1']
    >>> L.mistake_bound(r=2).value      # 3 * 2 * 1 + 2 * 4 / 2; t = #{j : 2^j < 2} = 1
    10
    """

    name = "winnow"
    conservative = True         # weights change only after a mistake
    symmetric_variables = True  # one weight per variable, all starting at 1
    batch_predictions = True    # predict_many: one exact integer matrix product
    dim_param = "n"
    bound_formula = ("(1 + alpha) r t + alpha n / ((alpha - 1) theta) [divide] or alpha r t + n/theta [zero], "
                     "t = #{j >= 0 : alpha^j < theta}, for an OR of r variables (derived from the slides' Lemma 1)")
    bound_source = cite("OnlineAlgs", 'slides "Winnow - Theorem" and "Winnow - Analysis"')
    bound_params = ("r",)
    summary = "Winnow with general alpha, theta and demotion"

    def __init__(self, n, *, alpha=2, theta=None, demotion="divide", strict=False):
        who = self.name
        self.n = as_int(n, "n", who, low=1)
        self.alpha = as_rational(alpha, "alpha", who)
        if self.alpha <= 1:
            raise ValueError(f"{who}: alpha must be greater than 1, got {self.alpha}; give e.g. alpha=2")
        self.theta = Fraction(self.n) if theta is None else as_rational(theta, "theta", who)
        if self.theta <= 0:
            raise ValueError(f"{who}: theta must be positive, got {self.theta}; give e.g. theta={self.n}")
        if demotion not in ("divide", "zero"):
            raise ValueError(f"{who}: demotion must be 'divide' or 'zero', got {demotion!r}")
        self.demotion_rule = demotion
        self.strict = as_bool(strict, "strict", who)
        self.w = (_ONE,) * self.n

    # ------------------------------------------------------------------ the rule
    def score(self, x: Point) -> Fraction:
        """w.x for a 0/1 vector x."""
        return self._score(binary_vector(x, self.n, self.name))

    def _score(self, x: tuple) -> Fraction:
        return sum((w for w, v in zip(self.w, x) if v), Fraction(0))

    def _image(self) -> tuple:
        """(w, the weights over their common denominator D as ints, theta_num * D, theta_den, the
        state key), cached per weight vector: the exact search asks one state about many points, and
        Fraction sums and hashes were most of its time. A copy shares its original's cache."""
        c = self.__dict__.get("_cache")
        if c is None or c[0] is not self.w:
            den = math.lcm(*(w.denominator for w in self.w))
            ints = tuple(w.numerator * (den // w.denominator) for w in self.w)
            key = tuple((w.numerator, w.denominator) for w in self.w)
            c = self._cache = (self.w, ints, self.theta.numerator * den, self.theta.denominator, key)
        return c

    def _fires_on(self, x: tuple) -> bool:
        """Whether w.x reaches theta (exceeds it when strict), in integers: theta_den * sum >= theta_num * D."""
        _, ints, rhs, tden, _ = self._image()
        total = tden * sum(i for i, v in zip(ints, x) if v)
        return total > rhs if self.strict else total >= rhs

    def predict_one(self, x: Point) -> int:
        return int(self._fires_on(binary_vector(x, self.n, self.name)))

    def threshold_form(self) -> tuple:
        """(v, t, strict) with integers v_i and t such that the prediction on a 0/1 point x is
        [sum of v_i over the on-variables >= t] (> t when strict): w and theta over their common
        denominator, exactly. The heuristic adversaries update this sum one variable at a time."""
        _, ints, rhs, tden, _ = self._image()
        return tuple(i * tden for i in ints), rhs, self.strict

    def predict_many(self, P: Points) -> np.ndarray:
        """The predictions on the 0/1 points ``P`` (rows of a matrix, or a list of tuples), exactly
        (one integer matrix product)."""
        v, t, strict = self.threshold_form()
        s = linear_signs(v, P, t)
        return (s > 0 if strict else s >= 0).astype(np.int8)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        x = binary_vector(x, self.n, self.name)
        yhat = self._fires_on(x)
        if y == 1 and not yhat:
            self.promotion(x)
            self._image()  # cached now, so that copies of this state share it
        elif y == 0 and yhat:
            self.demotion(x)
            self._image()

    def promotion(self, x: Sequence[int]) -> None:
        """Multiply the weights of the on-variables of x by alpha."""
        a = self.alpha
        self.w = tuple(w * a if v else w for w, v in zip(self.w, x))

    def demotion(self, x: Sequence[int]) -> None:
        """Divide the weights of the on-variables of x by alpha, or zero them."""
        if self.demotion_rule == "zero":
            self.w = tuple(Fraction(0) if v else w for w, v in zip(self.w, x))
        else:
            a = self.alpha
            self.w = tuple(w / a if v else w for w, v in zip(self.w, x))

    # ------------------------------------------------------------------ protocol
    def state_key(self) -> Hashable:
        """The weights, exactly, each as the pair (numerator, denominator) of its Fraction in lowest
        terms (pairs of ints hash far faster than Fractions, and the exact search hashes many)."""
        return self._image()[4]

    def get_params(self) -> dict:
        return {"n": self.n, "alpha": json_number(self.alpha), "theta": json_number(self.theta),
                "demotion": self.demotion_rule, "strict": self.strict}

    def promotions_per_weight(self) -> int:
        """t: how many promotions one relevant weight can get (alpha^j must stay below theta)."""
        t, w = 0, _ONE
        while (w <= self.theta) if self.strict else (w < self.theta):
            t += 1
            w *= self.alpha
        return t

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """``mistake_bound(r=k)`` on a class of ORs of at most k variables without label errors; no bound
        on other classes (the notes prove none with label errors)."""
        facts = class_facts(cls)
        if "monotone_or" in facts and not errors:
            return self.mistake_bound(r=facts["monotone_or"])
        return super().bound_on(cls, errors)

    def _or_size(self, cls, errors: int):
        """r, when ``cls`` is a class of ORs of at most r variables and there are no label errors, else None."""
        facts = class_facts(cls)
        return facts["monotone_or"] if "monotone_or" in facts and not errors else None

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """u <= r t (promotions) and the notes' Lemma 1 on v (demotions), on ORs of at most r variables."""
        r = self._or_size(cls, errors)
        if r is None:
            return ()
        a, theta, n, t = self.alpha, self.theta, self.n, self.promotions_per_weight()
        u = Lemma("false_negative", r * t, 0, f"u <= r t = {r} * {t} (each of the r relevant weights is "
                  "promoted at most t times and never demoted)", cite("15-859B", 'section "Winnow algorithm"'))
        if self.demotion_rule == "divide":
            v = Lemma("false_positive", a * n / ((a - 1) * theta), a,
                      "v <= beta/(beta - 1) d/theta + beta u (Lemma 1)", self.bound_source)
        else:
            v = Lemma("false_positive", Fraction(n) / theta, a - 1,
                      "v <= n/theta + (alpha - 1) u (Lemma 1 for zeroing)", cite("Rivest94", "section 2.4 Winnow algorithm"))
        return (u, v)

    def mistake_bound(self, r: IntParam | None = None) -> Bound:
        """The bound for an OR of r variables, derived in the class docstring."""
        r = _target_size(r, "r", self.name, self.n)
        a, theta, n = self.alpha, self.theta, self.n
        t = self.promotions_per_weight()
        rel = "<=" if self.strict else "<"
        if self.demotion_rule == "divide":
            value = (1 + a) * r * t + a * n / ((a - 1) * theta)
            formula = (f"u + v <= (1 + alpha) r t + alpha n / ((alpha - 1) theta) for an OR of r variables, "
                       f"t = #{{j >= 0 : alpha^j {rel} theta}} = {t} (derived here: the Online Algorithms "
                       f"slides' Lemma 1 v <= beta/(beta - 1) d/theta + beta u, with u <= r t as in the 15-859(B) notes)")
            return Bound(number(value), formula, self.bound_source)
        value = a * r * t + Fraction(n) / theta
        formula = (f"u + v <= alpha r t + n / theta for an OR of r variables, t = #{{j >= 0 : alpha^j {rel} theta}} "
                   f"= {t} (derived here with Rivest's Lemma 1 for zeroing: v <= n/theta + (alpha - 1) u, u <= r t)")
        return Bound(number(value), formula, cite("Rivest94", "section 2.4 Winnow algorithm"))


class Winnow1(Winnow):
    """Winnow1 of [Rivest94]: Theta = n/2, predict 1 iff w.x > Theta, promotion doubles, elimination zeroes.

    Rule: w = (1, ..., 1). Predict 1 iff w.x > n/2. If c(x) = 1 but w.x <= Theta, double every w_i with
    x_i = 1 (promotion); if c(x) = 0 but w.x > Theta, zero every w_i with x_i = 1 (elimination).
    Bound: u + v <= n/Theta + 2k(lg Theta + 1) = 2 + 2k lg n for a target that is an OR of k variables.

    Source: [Rivest94] (Winnow1 and its theorem).

    Parameters
    ----------
    n : int

    Examples
    --------
    >>> L = Winnow1(4)                      # Theta = 2
    >>> L.predict_one((1, 1, 0, 0))         # w.x = 2 is not > 2
    0
    >>> L.learn_one((1, 1, 0, 0), 1)        # promotion
    >>> L.learn_one((0, 1, 1, 0), 0)        # w.x = 3 > 2: elimination of x2, x3
    >>> [int(w) for w in L.w]
    [2, 0, 0, 1]
    >>> L.mistake_bound(k=1).value          # 2 + 2 * 1 * lg 4
    6
    """

    name = "winnow1"
    bound_formula = "2 + 2k lg n (an OR of k variables)"
    bound_source = cite("Rivest94", "section 2.4 Winnow algorithm")
    bound_params = ("k",)
    summary = "Theta = n/2, w.x > Theta, double / zero"

    def __init__(self, n):
        n = as_int(n, "n", self.name, low=1)
        super().__init__(n, alpha=2, theta=Fraction(n, 2), demotion="zero", strict=True)

    def get_params(self) -> dict:
        return {"n": self.n}

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """``mistake_bound(k=k)`` on a class of ORs of at most k variables without label errors; no bound
        on other classes."""
        facts = class_facts(cls)
        if "monotone_or" in facts and not errors:
            return self.mistake_bound(k=facts["monotone_or"])
        return OnlineLearner.bound_on(self, cls, errors)

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """[Rivest94]'s u <= k(lg Theta + 1) (Lemmas 2 and 3) and v <= n/Theta + u (Lemma 1)."""
        k = self._or_size(cls, errors)
        if k is None:
            return ()
        theta = Fraction(self.n, 2)
        return (Lemma("false_negative", number(k * lg(self.n)), 0, "u <= k(lg Theta + 1) = k lg n (Lemmas 2 and 3)",
                      self.bound_source),
                Lemma("false_positive", Fraction(self.n) / theta, 1, "v <= n/Theta + u (Lemma 1)",
                      self.bound_source))

    def mistake_bound(self, k: IntParam | None = None) -> Bound:
        """2 + 2k lg n for an OR of k variables ([Rivest94])."""
        k = _target_size(k, "k", self.name, self.n)
        return Bound(number(2 + 2 * k * lg(self.n)), "n/Theta + 2k(lg Theta + 1) = 2 + 2k lg n (Theta = n/2), "
                     "for an OR of k variables", self.bound_source)


class Winnow2(Winnow):
    """Winnow of [15-859B] (the "basic version"): threshold n, double on false negatives, halve on false positives.

    Rule: w = (1, ..., 1); output + iff w.x >= n; on a positive example predicted negative double w_i
    for each x_i = 1; on a negative example predicted positive halve them. Bound: at most
    2 + 3r(1 + lg n) mistakes when the target is an OR of r variables (r(1 + lg n) on positives, at
    most twice that plus 2 on negatives).

    Source: [15-859B] (the Winnow algorithm and its theorem).

    Parameters
    ----------
    n : int

    Examples
    --------
    >>> L = Winnow2(4)
    >>> L.predict_one((1, 0, 0, 0))         # 1 < 4
    0
    >>> L.learn_one((1, 0, 0, 0), 1)
    >>> [int(w) for w in L.w]
    [2, 1, 1, 1]
    >>> L.mistake_bound(r=1).value          # 2 + 3 * 1 * (1 + lg 4)
    11
    """

    name = "winnow2"
    bound_formula = "2 + 3r(1 + lg n) (an OR of r variables)"
    bound_source = cite("15-859B", 'section "Winnow algorithm"')
    summary = "threshold n, w.x >= n, double / halve"

    def __init__(self, n):
        n = as_int(n, "n", self.name, low=1)
        super().__init__(n, alpha=2, theta=n, demotion="divide", strict=False)

    def get_params(self) -> dict:
        return {"n": self.n}

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """[15-859B]'s u <= r(1 + lg n) (mistakes on positive examples) and v <= 2 + 2u (on negative ones)."""
        r = self._or_size(cls, errors)
        if r is None:
            return ()
        return (Lemma("false_negative", number(r * (1 + lg(self.n))), 0, "u <= r(1 + lg n) (mistakes on positive "
                      "examples)", self.bound_source),
                Lemma("false_positive", 2, 2, "v <= 2 + 2u (mistakes on negative examples: the total weight)",
                      self.bound_source))

    def mistake_bound(self, r: IntParam | None = None) -> Bound:
        """2 + 3r(1 + lg n) for an OR of r variables ([15-859B])."""
        r = _target_size(r, "r", self.name, self.n)
        return Bound(number(2 + 3 * r * (1 + lg(self.n))), "2 + 3r(1 + lg n), for an OR of r variables",
                     self.bound_source)


class WinnowR(Winnow2):
    """Winnow-R of [Roth]: Winnow (threshold n, double / halve) whose weights never go below 1/2.

    Rule: as :class:`Winnow2`, except that a demotion sets w_i <- max(w_i / 2, 1/2). Bound: 5u + 4
    mistakes ([Roth]; "as compared to 3u + 2" for Winnow), where u bounds the promotions; for an OR of r
    variables u <= r(1 + lg n) ([15-859B]'s count), so at most 5r(1 + lg n) + 4.

    Source: [Roth] (Winnow-R, 5u + 4).

    Parameters
    ----------
    n : int

    Examples
    --------
    >>> L = WinnowR(2)                                      # threshold 2
    >>> L.learn_one((1, 1), 0)                              # 2 >= 2: demotion to (1/2, 1/2)
    >>> L.learn_one((1, 0), 1); L.learn_one((1, 0), 1)      # two promotions of x1: (2, 1/2)
    >>> L.learn_one((1, 1), 0)                              # 5/2 >= 2: x2 stays at 1/2
    >>> [str(w) for w in L.w]
    ['1', '1/2']
    >>> L.mistake_bound(r=1).value                          # 5 * 1 * (1 + lg 2) + 4
    14
    """

    name = "winnow-r"
    bound_formula = "5u + 4, u = r(1 + lg n) (an OR of r variables)"
    bound_source = cite("Roth", 'section "Winnow - R"')
    summary = "Winnow2 whose weights never go below 1/2"

    def demotion(self, x: Sequence[int]) -> None:
        """Halve the weights of the on-variables of x, but never below 1/2."""
        a = self.alpha
        self.w = tuple(max(w / a, _HALF) if v else w for w, v in zip(self.w, x))

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """u <= r(1 + lg n) ([15-859B]'s count: relevant weights are never demoted) and v <= 4u + 4 (derived:
        [Roth] states only the total 5u + 4)."""
        r = self._or_size(cls, errors)
        if r is None:
            return ()
        return (Lemma("false_negative", number(r * (1 + lg(self.n))), 0, "u <= r(1 + lg n) (the 15-859(B) notes' "
                      "count)", cite("15-859B", 'section "Winnow algorithm"')),
                Lemma("false_positive", 4, 4, "v <= 4u + 4 (derived here: the notes' 5u + 4 less the u promotions)",
                      self.bound_source))

    def mistake_bound(self, r: IntParam | None = None) -> Bound:
        """5u + 4 with u = r(1 + lg n) for an OR of r variables ([Roth], with [15-859B]'s u)."""
        r = _target_size(r, "r", self.name, self.n)
        return Bound(number(5 * r * (1 + lg(self.n)) + 4), "5u + 4 with u = r(1 + lg n) promotions, for an OR of "
                     "r variables (Roth's notes state 5u + 4; u <= r(1 + lg n) is the 15-859(B) notes' count)",
                     self.bound_source)


class WinnowKofR(Winnow):
    """Winnow for k-of-r functions ([15-859B]): multiply / divide by 1 + epsilon, epsilon = 1/(2k), threshold n.

    Rule: w = (1, ..., 1); predict 1 iff w.x >= n; on a mistake on a positive example multiply the
    weights of the on-variables by 1 + epsilon, on a mistake on a negative example divide them by it.
    Target: "at least k of the r relevant variables are on".

    Bound (``mistake_bound(r=...)``), derived here from [15-859B]'s two inequalities. A relevant weight is
    promoted only while it is below n, so it holds at most c = #{j >= 0 : (1 + eps)^j < n}
    = ceil(log_(1+eps) n) chips ([15-859B] writes log_(1+eps) n, one chip short); a mistake on a positive puts
    >= k chips on relevant weights and one on a negative removes <= k - 1, so
    k M_pos - (k - 1) M_neg <= r c; the total weight gives M_neg <= (1 + eps) M_pos + (1 + eps)/eps.
    With eps = 1/(2k), k - (k - 1)(1 + eps) = (k + 1)/(2k) and (1 + eps)/eps = 2k + 1, so exactly
    M_pos <= 2k/(k + 1) (r c + (k - 1)(2k + 1)) and
    M_pos + M_neg <= (4k + 1)/(k + 1) (r c + (k - 1)(2k + 1)) + 2k + 1.

    Source: [15-859B] (Winnow for majority-vote functions).

    Parameters
    ----------
    n : int
    k : int
        1 <= k <= n.

    Examples
    --------
    >>> L = WinnowKofR(4, k=2)              # epsilon = 1/4
    >>> L.learn_one((1, 1, 0, 0), 1)        # 2 < 4: promotion by 5/4
    >>> [str(w) for w in L.w]
    ['5/4', '5/4', '1', '1']
    >>> L.mistake_bound(r=2).value          # c = 7 ((5/4)^6 < 4 <= (5/4)^7): 3 (2 * 7 + 5) + 5
    62
    """

    name = "winnow-k-of-r"
    bound_formula = ("(4k + 1)/(k + 1) (r c + (k - 1)(2k + 1)) + 2k + 1, c = ceil(log_(1 + 1/(2k)) n) "
                     "(derived from the notes' two inequalities)")
    bound_source = cite("15-859B", 'section "Winnow for Majority Vote functions"')
    summary = "multiply / divide by 1 + 1/(2k), threshold n"

    @classmethod
    def params_from_class(cls_, cls: ConceptClassProtocol) -> dict:
        """k from a class of k-of-r functions: Winnow for k-of-r functions on that class."""
        facts = class_facts(cls)
        return {"k": facts["k_of_r"][0]} if "k_of_r" in facts else {}

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """``mistake_bound(r=r)`` on the class of k-of-r functions with this learner's k, without label errors."""
        facts = class_facts(cls)
        if "k_of_r" in facts and not errors:
            k, r = facts["k_of_r"]
            if self.k != k:
                return self.no_bound(cls, f"the learner's k = {self.k} is not the class's k = {k}; give k={k}")
            return self.mistake_bound(r=r)
        return OnlineLearner.bound_on(self, cls, errors)

    def __init__(self, n, k):
        n = as_int(n, "n", self.name, low=1)
        self.k = as_int(k, "k", self.name, low=1, high=n)
        super().__init__(n, alpha=1 + Fraction(1, 2 * self.k), theta=n, demotion="divide", strict=False)

    def get_params(self) -> dict:
        return {"n": self.n, "k": self.k}

    def chips_per_weight(self) -> int:
        """c = #{j >= 0 : (1 + 1/(2k))^j < n}, in integers: (2k + 1)^j < n (2k)^j."""
        c, num, den = 0, 1, 1
        while num < self.n * den:
            c += 1
            num *= 2 * self.k + 1
            den *= 2 * self.k
        return c

    def lemmas_on(self, cls: ConceptClassProtocol, errors: int = 0) -> tuple[Lemma, ...]:
        """M_pos <= 2k/(k + 1) (r c + (k - 1)(2k + 1)) and [15-859B]'s M_neg <= (1 + eps) M_pos + (1 + eps)/eps,
        on the class of k-of-r functions with this learner's k."""
        facts = class_facts(cls)
        if "k_of_r" not in facts or errors or facts["k_of_r"][0] != self.k:
            return ()
        k, r = facts["k_of_r"]
        c, eps = self.chips_per_weight(), Fraction(1, 2 * self.k)
        return (Lemma("false_negative", Fraction(2 * k, k + 1) * (r * c + (k - 1) * (2 * k + 1)), 0,
                      f"M_pos <= 2k/(k + 1) (r c + (k - 1)(2k + 1)), c = {c} (derived here from the notes' "
                      "k M_pos - (k - 1) M_neg <= r c)", self.bound_source),
                Lemma("false_positive", (1 + eps) / eps, 1 + eps,
                      "M_neg <= (1 + eps) M_pos + (1 + eps)/eps (the total weight)", self.bound_source))

    def mistake_bound(self, r: IntParam | None = None) -> Bound:
        """(4k + 1)/(k + 1) (r c + (k - 1)(2k + 1)) + 2k + 1 for a k-of-r target (derived from [15-859B])."""
        r = _target_size(r, "r", self.name, self.n)
        k, c = self.k, self.chips_per_weight()
        value = Fraction(4 * k + 1, k + 1) * (r * c + (k - 1) * (2 * k + 1)) + 2 * k + 1
        formula = (f"(4k + 1)/(k + 1) (r c + (k - 1)(2k + 1)) + 2k + 1 with c = #{{j >= 0 : (1 + eps)^j < n}} = {c}, "
                   f"eps = 1/(2k) (derived here by solving the notes' inequalities k M_pos - (k - 1) M_neg <= r c and "
                   f"M_neg <= (1 + eps) M_pos + (1 + eps)/eps exactly; they state only O(rk log n))")
        return Bound(number(value), formula, self.bound_source)


class BalancedWinnow(OnlineLearner):
    """Balanced Winnow of [Roth]: two weights per variable, the effective weight is their difference.

    Rule: w+ = w- = (1, ..., 1) ([Roth] gives no initial weights for this variant; these are its Winnow's
    "Initialize w = 1"), threshold theta (default n, [Roth]'s Winnow's). Predict 1 iff (w+ - w-).x > theta.
    [Roth]'s updates, taken literally:

    * if y = 1 but (w+ - w-).x <= theta: w+_i <- alpha w+_i and w-_i <- w-_i / alpha where x_i = 1;
    * if y = 0 but (w+ - w-).x >= theta: w+_i <- w+_i / alpha and w-_i <- alpha w-_i where x_i = 1.

    So at (w+ - w-).x = theta exactly the learner predicts 0 and, on label 0, still demotes ([Roth]'s two
    conditions overlap there). [Roth] uses alpha = 2 and states no mistake bound for this variant.

    Source: [Roth] (balanced Winnow, w+ and w-).

    Parameters
    ----------
    n : int
    alpha : number, default 2
        > 1.
    theta : number, optional
        Any rational threshold; default n.

    Examples
    --------
    >>> L = BalancedWinnow(2)               # theta = 2; (w+ - w-).x = 0
    >>> L.predict_one((1, 0))
    0
    >>> L.learn_one((1, 0), 1)              # promotion of x1: w+_1 = 2, w-_1 = 1/2
    >>> str(L.score((1, 0)))
    '3/2'
    >>> L.mistake_bound().value
    inf
    """

    name = "balanced-winnow"
    dim_param = "n"
    bound_formula = "none stated (inf)"
    bound_source = cite("Roth", 'section "Limitation of Winnow"')
    summary = "weights w+ and w-, predict 1 iff (w+ - w-).x > theta"

    def __init__(self, n, *, alpha=2, theta=None):
        who = self.name
        self.n = as_int(n, "n", who, low=1)
        self.alpha = as_rational(alpha, "alpha", who)
        if self.alpha <= 1:
            raise ValueError(f"{who}: alpha must be greater than 1, got {self.alpha}; give e.g. alpha=2")
        self.theta = Fraction(self.n) if theta is None else as_rational(theta, "theta", who)
        self.wp = (_ONE,) * self.n
        self.wm = (_ONE,) * self.n

    def score(self, x: Point) -> Fraction:
        """(w+ - w-).x for a 0/1 vector x."""
        return self._score(binary_vector(x, self.n, self.name))

    def _score(self, x: tuple) -> Fraction:
        return sum((p - m for p, m, v in zip(self.wp, self.wm, x) if v), Fraction(0))

    def predict_one(self, x: Point) -> int:
        return int(self.score(x) > self.theta)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        x = binary_vector(x, self.n, self.name)
        s = self._score(x)
        if y == 1 and s <= self.theta:
            self.promotion(x)
        elif y == 0 and s >= self.theta:
            self.demotion(x)

    def promotion(self, x: Sequence[int]) -> None:
        """w+_i <- alpha w+_i, w-_i <- w-_i / alpha for the on-variables of x."""
        a = self.alpha
        self.wp = tuple(p * a if v else p for p, v in zip(self.wp, x))
        self.wm = tuple(m / a if v else m for m, v in zip(self.wm, x))

    def demotion(self, x: Sequence[int]) -> None:
        """w+_i <- w+_i / alpha, w-_i <- alpha w-_i for the on-variables of x."""
        a = self.alpha
        self.wp = tuple(p / a if v else p for p, v in zip(self.wp, x))
        self.wm = tuple(m * a if v else m for m, v in zip(self.wm, x))

    def state_key(self) -> Hashable:
        """(w+, w-), as exact Fractions."""
        return (self.wp, self.wm)

    def get_params(self) -> dict:
        return {"n": self.n, "alpha": json_number(self.alpha), "theta": json_number(self.theta)}

    def mistake_bound(self) -> Bound:
        """None is stated in [Roth]: math.inf."""
        return Bound(math.inf, "none stated", self.bound_source)
