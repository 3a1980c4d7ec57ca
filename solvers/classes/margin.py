"""Margin halfspaces: the implicit class of homogeneous halfspaces in R^d with a margin.

[Mehta], section 3 (and [OnlineAlgs], "Perceptron - Analysis"): the concepts are x -> [<w*, x> >= 0] with
a unit-norm w*, on points with |x| <= R that w* separates with margin gamma: s <w*, x> >= gamma on every
example (s = +1 for label 1, -1 for label 0). The Perceptron makes at most R^2 / gamma^2 mistakes on it.
Neither the concepts nor the points are listed: a concept is a direction w, named by the witness
(``"target": {"w": [...]}``), and :meth:`MarginHalfspaces.check_target` checks it on the examples.

Numbers. The checks are in floating point with the tolerance :data:`TOLERANCE` = 1e-9 that the witness
format states (``abs(|w| - 1) <= 1e-9``, ``|x_t| <= R + 1e-9``, ``s_t <w, x_t> >= gamma - 1e-9``), or, with
``exact=True``, in exact rational arithmetic. Coordinates are read by :func:`solvers.numbers.as_coordinate`
(ints and floats as they are, strings of rationals as Fractions); gamma and R by
:func:`solvers.numbers.as_rational` (0.1 is 1/10), as the learners read their parameters.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> H = MarginHalfspaces.from_params({"d": 2, "gamma": "1/10"})
>>> H.d, float(H.gamma), H.R, H.params, str(H)
(2, 0.1, Fraction(1, 1), {'d': 2, 'gamma': '1/10', 'R': 1}, 'margin-halfspaces d=2 gamma=0.1 R=1')
>>> x = H.point((0, "-1/2"))                 # points in the class's own form: strings as Fractions
>>> H.check_target([((1, 0), 1), (x, 0)], {"w": [0.6, 0.8]})
(0.6, 0.8)
>>> H.label((0.6, 0.8), x), dict(H.facts)["margin"]
(0, (Fraction(1, 1), Fraction(1, 10)))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress
from types import MappingProxyType
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from ..numbers import as_coordinate, as_rational, json_type, not_ints, num_text, point_text

#: A vector as the class takes it: a tuple or list of numbers (ints, floats, Fractions, or strings of rationals
#: such as "1/3"), or a 1-d array.
Vector = Union[Sequence[Union[int, float, Fraction, str]], np.ndarray]
#: A version space of margin halfspaces: the tuple of labelled examples ``(x, y)`` so far, x in the class's form.
Examples = tuple[tuple[tuple, int], ...]

__all__ = ["MARGIN_FAMILY", "TOLERANCE", "MarginHalfspaces", "CLASS", "LISTING", "params_from_text"]

#: The family name of the implicit class of unit-norm homogeneous halfspaces with margin.
MARGIN_FAMILY = "margin-halfspaces"
#: The tolerance of the floating-point checks on margin halfspaces (|w| = 1, |x| <= R, margin >= gamma).
TOLERANCE = 1e-9

#: How ``littlestone families`` lists this attack-only family (the keys of the finite families' rows).
LISTING = {
    "name": MARGIN_FAMILY,
    "params": "d gamma R=1",
    "attack_only": True,
    "description": ("attack only: unit-norm homogeneous halfspaces x -> [<w, x> >= 0] in R^d, every example "
                    "within radius R and at margin >= gamma; an infinite class, so it has no Opt table"),
    "domain": "R^d, |x| <= R",
    "size": "infinite",
    "opt": "",
    "known": "the Perceptron makes at most R^2 / gamma^2 mistakes on it",
    "parameters": [
        {"name": "d", "type": "int", "default": None, "required": True, "doc": "the dimension, >= 1"},
        {"name": "gamma", "type": "float", "default": None, "required": True,
         "doc": "the margin, 0 < gamma <= R (a decimal or p/q)"},
        {"name": "R", "type": "float", "default": 1, "required": False, "doc": "the radius, > 0"},
    ],
    "example": f"littlestone attack perceptron --class {MARGIN_FAMILY} d=5 gamma=0.2",
}


def params_from_text(items: dict) -> dict:
    """Command-line parameters ``{"d": "5", "gamma": "0.2"}`` as :meth:`MarginHalfspaces.from_params`
    reads them: d an int, gamma and R an int, a decimal kept as the float it prints as, or a rational
    string such as ``"1/3"`` (read exactly; a bad value is reported by ``from_params``)."""
    out = {}
    for key, text in items.items():
        if key == "d" and text.lstrip("-").isdigit():
            out[key] = int(text)
            continue
        try:
            out[key] = int(text)
            continue
        except ValueError:
            pass
        try:
            f = float(text)
        except ValueError:
            out[key] = text
            continue
        out[key] = f if repr(f) == text or str(f) == text else text
    return out


@dataclass(frozen=True)
class MarginHalfspaces:
    """The class of [Mehta], section 3: ``x -> [<w*, x> >= 0]`` with ``|w*| = 1``, ``|x| <= R`` and margin
    ``s <w*, x> >= gamma`` on every example. Implements the class protocol (:mod:`solvers.classes.protocol`)
    with ``finite`` False and no list of concepts: a version space is the tuple of examples so far.

    Parameters
    ----------
    d : int
        The dimension (d >= 1).
    gamma, R : Fraction
        The margin and the radius, 0 < gamma <= R, exactly as given.
    params : dict
        The JSON parameters as given (``{"d", "gamma", "R"}``), for the witness.
    """

    d: int
    gamma: Fraction
    R: Fraction
    params: dict = field(compare=False, hash=False)

    family = MARGIN_FAMILY
    finite = False
    n_concepts = None  # infinitely many directions
    full = ()  # the version space before any example: no constraint yet

    @classmethod
    def from_params(cls, params: dict) -> "MarginHalfspaces":
        """The class with parameters ``{"d", "gamma", "R"}`` (R defaults to 1); ValueError (one line)."""
        if not isinstance(params, dict):
            raise ValueError(f'malformed witness: the class "params" must be an object, got {json_type(params)}')
        extra = sorted(set(params) - {"d", "gamma", "R"})
        if extra:
            raise ValueError(f"{MARGIN_FAMILY}: unknown parameter {extra[0]!r}; valid parameters: d, gamma, R")
        for key in ("d", "gamma"):
            if key not in params:
                raise ValueError(f"{MARGIN_FAMILY}: missing required parameter {key}; give {key}=VALUE")
        d = params["d"]
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise ValueError(f"{MARGIN_FAMILY}: d must be a whole number >= 1, got {d!r}")
        gamma = as_rational(params["gamma"], "gamma", MARGIN_FAMILY)
        R = as_rational(params.get("R", 1), "R", MARGIN_FAMILY)
        if gamma <= 0:
            raise ValueError(f"{MARGIN_FAMILY}: gamma must be > 0, got {params['gamma']!r}")
        if R <= 0:
            raise ValueError(f"{MARGIN_FAMILY}: R must be > 0, got {params.get('R')!r}")
        if gamma > R:  # |<w*, x>| <= |x| <= R < gamma: no point has the margin, there is no game
            raise ValueError(f"{MARGIN_FAMILY} with gamma = {num_text(gamma)} > R = {num_text(R)} is empty: no point "
                             f"with |x| <= R has margin gamma; give gamma <= R")
        full = {"d": int(d), "gamma": params["gamma"], "R": params.get("R", 1)}
        return cls(int(d), gamma, R, full)

    @classmethod
    def from_spec(cls, spec: dict) -> "MarginHalfspaces":
        """The class of ``{"family": "margin-halfspaces", "params": {...}}``."""
        if not isinstance(spec, dict) or spec.get("family") != MARGIN_FAMILY:
            raise ValueError(f'a {MARGIN_FAMILY} spec is {{"family": "{MARGIN_FAMILY}", "params": {{"d", "gamma", "R"}}}}')
        return cls.from_params(spec.get("params") or {})

    def to_spec(self) -> dict:
        """The JSON class spec of a witness."""
        return {"family": MARGIN_FAMILY, "params": dict(self.params)}

    def fingerprint(self) -> str:
        """The class's fingerprint: of its family and its exact parameters
        (:func:`~solvers.classes.protocol.spec_fingerprint`), so that gamma = 0.1, "0.1" and "1/10" agree."""
        from .protocol import spec_fingerprint

        exact = {"d": self.d, "gamma": f"{self.gamma.numerator}/{self.gamma.denominator}",
                 "R": f"{self.R.numerator}/{self.R.denominator}"}
        return spec_fingerprint({"family": MARGIN_FAMILY, "params": exact})

    def __str__(self) -> str:
        return f"{MARGIN_FAMILY} d={self.d} gamma={num_text(self.gamma)} R={num_text(self.R)}"

    @property
    def facts(self):
        """``{"d": d, "margin": (R, gamma)}`` (exact Fractions)."""
        return MappingProxyType({"d": self.d, "margin": (self.R, self.gamma)})

    # ------------------------------------------------------------------ points and labels
    def point(self, x: Vector) -> tuple:
        """``x`` as a tuple of d coordinates (ints, floats, Fractions for strings of rationals); ValueError
        (one line) for a vector of the wrong length or a coordinate that is not a number."""
        if isinstance(x, np.ndarray):
            x = x.tolist()
        if not isinstance(x, (list, tuple)):
            raise ValueError(f"x must be a list of {self.d} numbers, got {json_type(x)}")
        if len(x) != self.d:
            raise ValueError(f"x has {len(x)} coordinates; {self} needs {self.d}")
        x = list(x)
        for i in not_ints(x):  # hot loop in high dimension: most coordinates are ints (0) already
            x[i] = as_coordinate(x[i], "coordinate")
        return tuple(x)

    def label(self, w: Sequence[int | float | Fraction], x: Vector) -> int:
        """The label the direction ``w`` gives ``x``: [<w, x> >= 0]."""
        return int(math.fsum(float(a) * float(b) for a, b in zip(w, self.point(x))) >= 0)

    def proposals(self, rng: np.random.Generator, V: Examples | None = None, count: int = 64) -> list[tuple]:
        """About ``count`` points with |x| <= R: the axis points +-R e_i, then random directions scaled to R."""
        R = float(self.R)
        out: dict = {}
        for i in range(self.d):
            for s in (1, -1):
                out.setdefault(tuple(s * R if j == i else 0 for j in range(self.d)), None)
        while len(out) < count:
            v = rng.standard_normal(self.d)
            v *= R / max(float(np.linalg.norm(v)), 1e-300)
            out.setdefault(tuple(float(a) for a in v), None)
        return list(out)[:max(count, 2 * self.d)]

    # ------------------------------------------------------------------ version spaces
    def split(self, V: Examples | None, x: Vector) -> tuple[Examples, Examples]:
        """(V_x^0, V_x^1): the version space as the examples so far, extended by (x, 0) and by (x, 1)."""
        x = self.point(x)
        V = self.full if V is None else V
        return V + ((x, 0),), V + ((x, 1),)

    def consistent(self, examples: Iterable[tuple[Vector, int]], V: Examples | None = None) -> Examples:
        """The version space after the examples: the tuple of every example so far (the directions with
        the margin on them are not enumerated; :meth:`check_target` checks one)."""
        V = self.full if V is None else V
        return V + tuple((self.point(x), int(y)) for x, y in examples)

    def concept_text(self, c: object) -> Optional[str]:
        """A direction has no wording: None."""
        return None

    def check_target(self, examples: Iterable[tuple[tuple, int]], target: dict | None, *, exact: bool = False,
                     errors: int = 0) -> tuple:
        """Check (on examples whose points are in the class's own form, see :meth:`point`) that the direction ``target = {"w": [...]}`` has |w| = 1 and labels every example with
        margin gamma, every |x| <= R; return w (a tuple). ValueError (one line) saying what is wrong.
        With ``exact`` the radius and margin are checked in rational arithmetic (see the module docstring)."""
        if errors:
            raise ValueError(f"label errors (errors={errors}) are not supported on {MARGIN_FAMILY}, whose "
                             "examples must have the margin gamma; give errors=0")
        if target is None:
            raise ValueError(f'malformed witness: a {MARGIN_FAMILY} witness needs "target": {{"w": [...]}} (a unit vector)')
        if not isinstance(target, dict) or "w" not in target:
            raise ValueError(f'malformed witness: the target of {MARGIN_FAMILY} is {{"w": [...]}}, got {point_text(target)}')
        w = target["w"]
        if isinstance(w, np.ndarray):
            w = w.tolist()
        if not isinstance(w, (list, tuple)) or len(w) != self.d:
            raise ValueError(f"target w must be a list of d = {self.d} numbers, got {point_text(w)}")
        w = list(w)
        for i in not_ints(w):  # in high dimension most coordinates are int zeros: only the others are read
            w[i] = as_coordinate(w[i], "coordinate", "target w")
        w = tuple(w)
        wf = [float(v) for v in w]
        norm = math.sqrt(math.fsum(wf[i] * wf[i] for i in compress(range(len(w)), w)))
        if not abs(norm - 1.0) <= TOLERANCE:
            raise ValueError(f"target w has |w| = {norm:.12g}; give a unit vector (|w| = 1 within {TOLERANCE:g})")
        gamma, R = self.gamma, self.R
        gf, Rf = float(gamma), float(R)
        if exact:
            wq = list(w)  # only the nonzero coordinates as Fractions (the rest stay int 0)
            for i in compress(range(len(w)), w):
                wq[i] = Fraction(w[i])
            w2 = sum(wq[i] * wq[i] for i in compress(range(len(w)), w))
        for t, (x, y) in enumerate(examples, 1):
            s = 1 if y == 1 else -1
            # The zero coordinates of x are left out of both checks: they add nothing, and in high
            # dimension they are most of x (the exact sums would otherwise cost a Fraction each).
            nonzero = [(i, x[i]) for i in compress(range(len(x)), x)]
            if exact:  # rational arithmetic: |x|^2 <= R^2, s<w,x> >= 0 and <w,x>^2 >= gamma^2 |w|^2
                nonzero = [(i, Fraction(v)) for i, v in nonzero]  # floats convert exactly
                x2 = sum(v * v for _, v in nonzero)
                if x2 > R * R:
                    raise ValueError(f"example {t} has |x| = {math.sqrt(x2):.12g} > R = {num_text(R)} (exact check)")
                m = s * sum(wq[i] * v for i, v in nonzero)
                if m < 0 or m * m < gamma * gamma * w2:
                    raise ValueError(f"example {t} (y = {y}) has margin y<w,x> = {float(m) / math.sqrt(w2):.12g} "
                                     f"< gamma = {num_text(gamma)} (exact check)")
                continue
            xf = [(i, float(v)) for i, v in nonzero]
            r = math.sqrt(math.fsum(v * v for _, v in xf))
            if not r <= Rf + TOLERANCE:
                raise ValueError(f"example {t} has |x| = {r:.12g} > R = {num_text(R)}")
            m = s * math.fsum(wf[i] * v for i, v in xf)
            if not m >= gf - TOLERANCE:
                raise ValueError(f"example {t} (y = {y}) has margin y<w,x> = {m:.12g} < gamma = {num_text(gamma)}")
        return w

    def margin_stats(self, examples: Iterable[tuple[tuple, int]], w: Sequence[int | float | Fraction]) -> tuple[float, float]:
        """(smallest margin s<w,x>, largest |x|) over the examples, in floats (for messages)."""
        wf = [float(v) for v in w]
        margins, radii = [], []
        for x, y in examples:
            xf = [(i, float(x[i])) for i in compress(range(len(x)), x)]  # the nonzero coordinates
            margins.append((1 if y else -1) * math.fsum(wf[i] * v for i, v in xf))
            radii.append(math.sqrt(math.fsum(v * v for _, v in xf)))
        return (min(margins) if margins else math.inf), (max(radii) if radii else 0.0)


#: The class this attack-only family's specs build (:func:`solvers.classes.spec.load_class` reads it
#: through the registry's ``ATTACK_ONLY``).
CLASS = MarginHalfspaces
