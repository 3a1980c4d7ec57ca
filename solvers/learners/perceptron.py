"""The homogeneous Perceptron, with the margin variant of [Roth].

Sources: [Mehta] (Algorithm 2: w_0 = 0, predict sgn(<w, x>) with sgn(0) = +1, on a
mistake w <- w + y x; Theorem 2: at most R^2/gamma^2 mistakes on a sequence separable with margin
gamma), [Roth] (the update on y w.x <= gamma as a gradient step of the hinge loss;
the bound (R + D_2)^2/gamma^2 without separability) and [OnlineAlgs] (the unrealizable
case: M <= 1/gamma^2 + (2/gamma) TD_gamma for |x| <= 1).

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import compress
from typing import TYPE_CHECKING, Hashable

import numpy as np

from .base import (Bound, OnlineLearner, Point, Points, RationalParam, as_bool, as_int, as_rational, check_label, cite,
                   class_facts, json_number, linear_signs, number, real_vector)

if TYPE_CHECKING:
    from ..classes.protocol import ConceptClassProtocol

__all__ = ["Perceptron", "margin_bound_on"]


def _positive(value, name: str, who: str) -> Fraction:
    if value is None:
        raise ValueError(f"{who}: the mistake bound needs {name}=; give R= (max |x|) and gamma= (the margin)")
    q = as_rational(value, name, who)
    if q <= 0:
        raise ValueError(f"{who}: {name} must be positive, got {q}; give {name} > 0")
    return q


def margin_bound_on(learner, cls, errors: int = 0) -> Bound:
    """``learner.mistake_bound(R=R, gamma=gamma)`` on margin halfspaces (their facts say R and gamma),
    for the Perceptron and the learners whose bound is its bound; no bound on any other class, nor with
    label errors (the hinge bounds need the deviations TD or D2, which a count of errors does not give)."""
    facts = class_facts(cls)
    if errors:
        return learner.no_bound(cls, "its bounds with mislabelled examples need the total hinge deviation "
                                     "(TD or D2), which a number of label errors does not bound", errors)
    if "margin" in facts:
        R, gamma = facts["margin"]
        return learner.mistake_bound(R=R, gamma=gamma)
    return learner.no_bound(cls, "its bound R^2/gamma^2 needs a margin gamma > 0 that this class does not "
                                 "guarantee (attack it on margin-halfspaces d gamma R)")


def _dot(w, x):
    """<w, x> over the nonzero coordinates of x (the others add nothing). Hot loop: in high dimension
    most coordinates are 0, and adding an int 0 to a Fraction costs as much as any Fraction sum."""
    return sum(w[i] * x[i] for i in compress(range(len(x)), x))


class Perceptron(OnlineLearner):
    """The Perceptron through the origin, labels 0/1 mapped to -1/+1 inside.

    Rule: w_0 = 0. Predict 1 iff <w, x> >= 0 ([Mehta]'s sgn, with sgn(0) = +1). With ``margin = 0``, on a
    mistake w <- w + y x (y in {-1, +1}). With ``margin > 0``, update w <- w + y x whenever
    y <w, x> <= margin ([Roth]'s hinge-loss step; this includes every mistake).

    Bounds (``mistake_bound(R=, gamma=, TD=None, D2=None)``), for a unit vector ``w*`` and ``|x| <= R``, with
    R'^2 = R^2 + 2 margin (= R^2 for the plain Perceptron):

    * separable, y <w*, x> >= gamma on every example: R'^2/gamma^2 ([Mehta]'s Theorem 2; with margin > 0,
      [Mehta]'s proof with claim (1) read as ``|w_m|^2 <= m R'^2``, since y <w, x> <= margin at an update;
      this counts updates, hence mistakes);
    * TD = TD_gamma = sum_i max(0, gamma - y_i <w*, x_i>) given: R'^2/gamma^2 + (2/gamma) TD ([OnlineAlgs] proves
      1/gamma^2 + (2/gamma) TD_gamma for ``|x| <= 1`` from sqrt(M) >= gamma M - TD_gamma; with
      ``|w_M| <= R' sqrt(M)`` the same steps give ((R' + sqrt(R'^2 + 4 gamma TD)) / (2 gamma))^2, at most
      this);
    * D2 = (sum_i max(0, gamma - y_i <w*, x_i>)^2)^(1/2) given: (R' + D2)^2/gamma^2 ([Roth], whose text
      prints "(R+D_2)^/gamma^2" with the exponent lost).

    Arithmetic is exact on ints and Fractions (w is a tuple of them); float inputs make w floats.

    Source: [Mehta] (the algorithm and R^2/gamma^2); [Roth] (the
    margin update, the D_2 bound); [OnlineAlgs] (the hinge bound with TD_gamma).

    With ``bias=True`` the points get the constant coordinate x_0 = 1 ([OnlineAlgs]: "add coordinate x_0 such
    that x_0 = 1 always"; [Mehta]'s non-homogeneous separators sgn(<w, x> + b)): w has d + 1 weights, w[0]
    the bias b, and the learner is the Perceptron on (1, x). On a finite class of integer vectors (a Boolean
    class) :meth:`bound_on` then computes each concept's margin exactly (:mod:`solvers.classes.separation`)
    and gives R^2/gamma^2 for the worst target, ``R^2 = 1 + max |x|^2``; the plain Perceptron gets the same
    without the bias coordinate (and no finite bound where the point 0 is labelled 0: sgn(0) = +1).

    Parameters
    ----------
    d : int
        The dimension.
    margin : number, default 0
        >= 0; with margin > 0 the learner also updates on correct predictions with y <w, x> <= margin.
    bias : bool, default False
        Learn a bias term (the constant coordinate x_0 = 1).

    Examples
    --------
    [OnlineAlgs]'s example (w_1 = w_2 = (0, 0), w_3 = (-1, 0), w_4 = (-0.2, 0.6)), its points read back
    from the weights: a positive point first (sgn(0) = +1: no mistake), then (1, 0) negative, then
    (0.8, 0.6) positive.

    >>> from fractions import Fraction as F
    >>> L = Perceptron(2)
    >>> L.predict_one((F(3, 5), F(4, 5))); L.learn_one((F(3, 5), F(4, 5)), 1)
    1
    >>> L.predict_one((1, 0)); L.learn_one((1, 0), 0)
    1
    >>> L.w
    (-1, 0)
    >>> L.learn_one((F(4, 5), F(3, 5)), 1)
    >>> [str(v) for v in L.w]
    ['-1/5', '3/5']
    >>> L.mistake_bound(R=1, gamma=F(1, 2)).value
    4
    """

    name = "perceptron"
    dim_param = "d"
    zero_score_prediction = 1  # sgn(0) = +1 ([Mehta])
    batch_predictions = True
    bound_formula = ("R^2 / gamma^2 (R = max |x|, gamma = the margin of a unit w*); given TD, the total hinge "
                     "deviation: R^2 / gamma^2 + (2 / gamma) TD (the Online Algorithms slides); given D2: "
                     "(R + D2)^2 / gamma^2 (Roth's notes); with margin > 0, R^2 becomes R^2 + 2 margin")
    bound_source = cite("Mehta", "section 3, Theorem 2")
    bound_params = ("R", "gamma", "TD", "D2")
    summary = "w <- w + y x on a mistake, sgn(0) = +1"

    def __init__(self, d, *, margin=0, bias=False):
        who = self.name
        self.d = as_int(d, "d", who, low=1)
        self.margin = as_rational(margin, "margin", who)
        if self.margin < 0:
            raise ValueError(f"{who}: margin must be >= 0, got {self.margin}; give margin=0 for the plain Perceptron")
        self.bias = as_bool(bias, "bias", who)
        self.w = (0,) * (self.d + self.bias)

    def _x(self, x) -> tuple:
        """x as the learner reads it: (1, x) with the bias coordinate."""
        x = real_vector(x, self.d, self.name)
        return (1, *x) if self.bias else x

    def dot(self, x: Point) -> int | float | Fraction:
        """<w, x> (<w, (1, x)> with the bias)."""
        return _dot(self.w, self._x(x))

    def predict_one(self, x: Point) -> int:
        return int(self.dot(x) >= 0)

    @property
    def conservative(self) -> bool:
        """Only mistakes update w, unless ``margin > 0`` ([Roth]'s hinge step also updates near misses)."""
        return self.margin == 0

    @property
    def symmetric_variables(self) -> bool:
        """w is one weight per coordinate, starting at 0: the rule treats the coordinates alike (the bias
        weight is not a variable's: the search's renamings then do not apply)."""
        return not self.bias

    def predict_many(self, P: Points) -> np.ndarray:
        """The predictions on the rows of the integer matrix ``P``, exactly."""
        if self.bias:
            return (linear_signs(self.w[1:], P, -Fraction(self.w[0])) >= 0).astype(np.int8)
        return (linear_signs(self.w, P, 0) >= 0).astype(np.int8)

    def learn_one(self, x: Point, y: int) -> None:
        y = check_label(y)
        x = self._x(x)
        s = 1 if y == 1 else -1
        m = _dot(self.w, x)
        if self.margin > 0:
            update = s * m <= self.margin
        else:
            update = (m >= 0) != (s == 1)  # a mistake: sgn(<w, x>) != y, with sgn(0) = +1
        if update:
            w = list(self.w)
            for i in compress(range(len(x)), x):  # the nonzero coordinates of x
                w[i] = w[i] + s * x[i]
            self.w = tuple(w)

    def state_key(self) -> Hashable:
        """The weight vector (exact when the inputs are ints or Fractions)."""
        return self.w

    def get_params(self) -> dict:
        out = {"d": self.d, "margin": json_number(self.margin)}
        if self.bias:  # (without it, the parameters read as before the bias was a parameter)
            out["bias"] = True
        return out

    def bound_on(self, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
        """R'^2/gamma^2 on margin halfspaces ([Mehta]'s Theorem 2); on a finite class of integer vectors, the
        same with R and each concept's margin computed exactly (the worst target's); no bound otherwise."""
        facts = class_facts(cls)
        if "margin" in facts or errors or not getattr(cls, "finite", False) or getattr(cls, "n_concepts", None) is None:
            if self.bias and "margin" in facts:
                return self.no_bound(cls, "margin-halfspaces are homogeneous; attack the Perceptron without bias")
            return margin_bound_on(self, cls, errors)
        return self._class_bound(cls)

    def _class_bound(self, cls) -> Bound:
        """R'^2/gamma^2 with gamma the smallest margin of a concept of ``cls`` (computed exactly), or no bound."""
        from solvers.classes.separation import MarginsTooLarge, class_margins, max_norm2
        from solvers.opt.memo import SearchStop

        declared = class_facts(cls).get("declared_margin")
        where = "(1, x)" if self.bias else "x"
        rname = "R^2" if self.margin == 0 else "(R^2 + 2 margin)"
        try:
            m = class_margins(cls, bias=self.bias, deadline=getattr(self, "deadline", None))
        except MarginsTooLarge as e:
            if declared is None:
                return self.no_bound(cls, f"its bound R^2/gamma^2 needs the concepts' margins, and {e} (declare one "
                                          "with --fact margin=G)")
            R2 = max_norm2(cls.points, self.bias)
            if R2 is None:
                return self.no_bound(cls, f"{e}")
            g2 = Fraction(declared) ** 2
            return Bound(number((R2 + 2 * self.margin) / g2),
                         f"{rname}/gamma^2 with R^2 = max |{where}|^2 = {R2} and gamma = {declared}, the margin declared "
                         f"with --fact for the points as this learner reads them, {where} (not checked: the class is too "
                         "large to compute its margins)", self.bound_source)
        except TimeoutError:
            raise SearchStop from None
        except RuntimeError as e:  # (a margin whose certificate does not check is never used)
            return self.no_bound(cls, f"its concepts' margins could not be certified ({e})")
        worst = min(range(len(m["gamma2"])), key=lambda c: m["gamma2"][c])
        g2 = m["gamma2"][worst]
        if declared is not None:
            if Fraction(declared) ** 2 > g2:
                raise ValueError(f"--fact margin={declared} does not hold: concept {worst} is separated with margin "
                                 f"at most {float(g2) ** 0.5:.6g} (gamma^2 = {g2}, computed exactly, the points read as "
                                 f"{where}); give a smaller margin, or drop --fact margin")
        if g2 == 0:
            hint = "" if self.bias else "; give bias=true for the bias term (x_0 = 1)"
            return self.no_bound(cls, f"concept {worst} is not separated by a vector w through the origin "
                                      f"with a margin (the points {where}){hint}")
        R2 = Fraction(m["R2"]) + 2 * self.margin
        formula = (f"{rname}/gamma^2 with R^2 = max |{where}|^2 = {m['R2']} and gamma^2 = {g2}, the smallest squared "
                   f"margin of a concept (concept {worst}; each computed exactly as the distance from 0 to the hull of "
                   f"the points y {where})")
        return Bound(number(R2 / g2), formula, self.bound_source)

    def mistake_bound(self, R: RationalParam | None = None, gamma: RationalParam | None = None,
                      TD: RationalParam | None = None, D2: RationalParam | None = None) -> Bound:
        """R'^2/gamma^2 ([Mehta]), R'^2/gamma^2 + (2/gamma) TD ([OnlineAlgs]) or (R' + D2)^2/gamma^2 ([Roth]); see the class."""
        who = self.name
        R = _positive(R, "R", who)
        gamma = _positive(gamma, "gamma", who)
        if TD is not None and D2 is not None:
            raise ValueError(f"{who}: give TD= (the total hinge deviation) or D2= (its 2-norm form), not both")
        R2 = R * R + 2 * self.margin
        rname = "R^2" if self.margin == 0 else "(R^2 + 2 margin)"
        if TD is None and D2 is None:
            if self.margin == 0:
                formula = "R^2 / gamma^2 (R = max |x|, gamma = the margin: a unit w* with y <w*, x> >= gamma)"
            else:
                formula = ("(R^2 + 2 margin) / gamma^2 (R = max |x|, gamma = the margin; derived here: Theorem 2's proof "
                           "with |w_m|^2 <= m (R^2 + 2 margin), as "
                           "y <w, x> <= margin at each update; bounds the updates)")
            return Bound(number(R2 / (gamma * gamma)), formula, self.bound_source)
        if TD is not None:
            TD = as_rational(TD, "TD", who)
            if TD < 0:
                raise ValueError(f"{who}: TD must be >= 0, got {TD}")
            formula = (f"{rname}/gamma^2 + (2/gamma) TD_gamma, TD_gamma = sum_i max(0, gamma - y_i <w*, x_i>) "
                       f"(the slides state 1/gamma^2 + (2/gamma) TD_gamma for |x| <= 1; rescaled to |x| <= R here)")
            return Bound(number(R2 / (gamma * gamma) + 2 * TD / gamma), formula,
                         cite("OnlineAlgs", 'slide "Perceptron - Performance" (unrealizable case)'))
        D2 = as_rational(D2, "D2", who)
        if D2 < 0:
            raise ValueError(f"{who}: D2 must be >= 0, got {D2}")
        if self.margin == 0:
            value = number((R + D2) ** 2 / (gamma * gamma))
        else:
            value = (math.sqrt(R2) + float(D2)) ** 2 / float(gamma * gamma)
        rr = "R" if self.margin == 0 else "sqrt(R^2 + 2 margin)"
        formula = (f"({rr} + D_2)^2/gamma^2, D_2 = (sum_i max(0, gamma - y_i <w*, x_i>)^2)^(1/2) (the notes "
                   f"print (R+D_2)^/gamma^2 with the exponent lost)")
        return Bound(number(value) if isinstance(value, float) else value, formula,
                     cite("Roth", 'section "Perceptron"'))
