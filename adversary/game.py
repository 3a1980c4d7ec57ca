"""The referee of the mistake-bound game: replay a sequence, enforce realizability, count mistakes.

The game ([Mehta], Definition 1; [OnlineAlgs],
"Online Model"): each round the adversary shows a point x_t, the learner predicts, the adversary
reveals the label y_t; the labels must be *realizable*, i.e. some concept c of the class C gives
y_t = c(x_t) for every t. A learner's mistake bound M is a claim about every such sequence, so a
single realizable sequence on which the learner makes more than M mistakes refutes it. This module
turns such a sequence into a **witness**, a JSON object anyone can re-check from scratch::

    {"kind": "witness",
     "learner": {"name": "winnow2", "params": {"n": 4}},
     "class": {"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}},
     "sequence": [{"x": [0, 1, 1, 0], "y": 1}, ...],
     "target": 5,
     "mistakes": 3}

``"class"`` is one of

* ``{"family": NAME, "params": {...}}``: a finite family built by :func:`solvers.families.make`;
* ``{"matrix": [[0, 1, ...], ...], "points": [[...], ...]}``: a finite class from its 0/1 matrix
  (``points`` optional: point ``j`` is then ``[j]``);
* ``{"family": "margin-halfspaces", "params": {"d": d, "gamma": g, "R": 1}}``: the implicit class of
  [Mehta], section 3 (and [OnlineAlgs], "Perceptron - Analysis"): homogeneous halfspaces x -> [<w*, x> >= 0]
  in R^d with a unit-norm w*, on points with |x| <= R that w* separates with margin gamma
  (0 < gamma <= R: with gamma > R no point has the margin, and the class is refused as empty);
* the same ``{"family": NAME, "params": {...}}`` for a {0,1}^n family with a literal form
  (monotone-disjunctions, disjunctions, monotone-conjunctions, conjunctions, parities, k-of-r) whose
  domain has more than 2^12 points: an :class:`~adversary.implicit.ImplicitFamily`, listed by its
  concepts (in ``make``'s row order) and never by its 2^n points. Points are 0/1 lists of length n,
  and the witness must give the target (a concept index), which is checked on every example.

``"target"`` is, for a finite class, the index of a concept of the class *as built* (duplicate rows
merged, see :class:`~solvers.concept_class.ConceptClass`), or null / absent ("some concept"); for
margin halfspaces it is ``{"w": [...]}``. Other keys (``"bound"``, ``"verdict"``, ``"note"``) may be
added; the referee ignores them.

An optional ``"cycle": {"start": s, "length": L}`` claims that the learner has *no* finite mistake
bound on the class: replaying the sequence from a fresh learner, its ``state_key()`` after example s
(s = 0: before the first) equals its state after example s + L, the version space (for a finite
class, the set of concepts consistent with the examples so far) is the same at both points, and at
least one of the examples s+1..s+L is a mistake. The adversary can then repeat those L examples for
ever, each time with the same mistakes, and every repetition stays realizable (by the same target).
``state_key`` is exact by the learner protocol (:mod:`solvers.learners.base`), so equal keys mean the
learner behaves the same from then on. On margin halfspaces the target w labels every example of the
cycle with the margin, so the repetitions are realizable by w itself.

The learner is always rebuilt by name from ``solvers.learners.make_learner`` and replayed from its
initial state: a witness never carries learner state, and nothing a caller passes in is trusted.

Numbers. Finite classes are checked exactly (points are integer tuples, labels 0 or 1). Margin
halfspaces are checked in floating point with the tolerances 1e-9 the witness format states:
``abs(|w| - 1) <= 1e-9``, ``|x_t| <= R + 1e-9`` and ``s_t <w, x_t> >= gamma - 1e-9`` with
``s_t = +1`` for y_t = 1 and -1 for y_t = 0 ([Mehta]'s labels in {-1, +1}). Coordinates of x and w
may be JSON numbers or strings of rationals (``"3/5"``): the learner gets ints and floats as they
are and strings as Fractions (so a learner with exact arithmetic, like the Perceptron on ints and
Fractions, replays exactly; ``make_witness`` writes Fractions back as ``"p/q"``). gamma and R are
read as the decimals they print as (0.1 is 1/10), as the learners read their parameters. With
``exact=True`` the radius and margin conditions are checked in exact rational arithmetic instead
(floats are converted exactly, and the margin of the direction w is ``s_t <w, x_t> / |w|``, checked
by squaring, so no square root is taken; |w| = 1 keeps its tolerance); use it when a claimed
violation of R^2 / gamma^2 could hinge on the last 1e-9.

Every failure is a :class:`WitnessError` (a ``ValueError``) with a one-line message;
:func:`verify_witness` returns it in a :class:`VerifyResult` instead of raising.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
Halving (ties to 1) on three concepts 00, 01, 11: on point 1 two of them say 1, so it predicts 1; the
label 0 leaves only 00.

>>> w = make_witness("halving", {}, {"matrix": [[0, 0], [0, 1], [1, 1]]}, [{"x": [1], "y": 0}])
>>> w["target"], w["mistakes"]
(0, 1)
>>> print(verify_witness(w).message)
witness verified: halving makes 1 mistake on this sequence (target concept 0)
>>> w["mistakes"] = 2
>>> print(verify_witness(w).message)
claims 2 mistakes, replay gives 1
>>> w["sequence"].append({"x": [0], "y": 1})
>>> print(verify_witness(w).message)
target concept 0 labels example 2 (x = (0,)) 0, not 1
"""

from __future__ import annotations

import json
import math
import operator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress, repeat
from typing import Callable, Optional

import numpy as np

from adversary.implicit import ImplicitFamily, prefers_implicit
from solvers._jsontext import loads
from solvers.concept_class import ConceptClass

__all__ = [
    "MARGIN_FAMILY",
    "TOLERANCE",
    "WitnessError",
    "MarginHalfspaces",
    "Replay",
    "VerifyResult",
    "Game",
    "load_class",
    "target_words",
    "parse_sequence",
    "check_realizable",
    "build_learner",
    "replay",
    "make_witness",
    "verify_witness",
    "play",
    "contrary",
]

#: The family name of the implicit class of unit-norm homogeneous halfspaces with margin.
MARGIN_FAMILY = "margin-halfspaces"
#: The tolerance of the floating-point checks on margin halfspaces (|w| = 1, |x| <= R, margin >= gamma).
TOLERANCE = 1e-9

_WITNESS_KEYS = ("kind", "learner", "class", "sequence", "mistakes")


class WitnessError(ValueError):
    """A witness (or a sequence, class or learner given to the referee) is wrong; one-line message."""


# ---------------------------------------------------------------------------------------- classes
@dataclass(frozen=True)
class MarginHalfspaces:
    """The implicit class of [Mehta], section 3: x -> [<w*, x> >= 0] with |w*| = 1, |x| <= R and
    margin s <w*, x> >= gamma on every example (s = +1 for label 1, -1 for label 0).

    Parameters
    ----------
    d : int
        The dimension (d >= 1).
    gamma, R : Fraction
        The margin and the radius, 0 < gamma <= R, exactly as given.
    params : dict
        The JSON parameters as given (``{"d", "gamma", "R"}``), for the witness.

    Examples
    --------
    >>> H = load_class({"family": "margin-halfspaces", "params": {"d": 2, "gamma": "1/10"}})
    >>> H.d, float(H.gamma), H.R, H.params
    (2, 0.1, Fraction(1, 1), {'d': 2, 'gamma': '1/10', 'R': 1})
    """

    d: int
    gamma: Fraction
    R: Fraction
    params: dict = field(compare=False, hash=False)

    family = MARGIN_FAMILY

    def __str__(self) -> str:
        return f"{MARGIN_FAMILY} d={self.d} gamma={_num(self.gamma)} R={_num(self.R)}"


def load_class(spec) -> "ConceptClass | MarginHalfspaces | ImplicitFamily":
    """Build the class a witness names.

    Parameters
    ----------
    spec : dict, ConceptClass, MarginHalfspaces or ImplicitFamily
        ``{"family": NAME, "params": {...}}``, ``{"matrix": [[...]], "points": [[...]]}`` or
        ``{"family": "margin-halfspaces", "params": {"d", "gamma", "R"}}`` (see the module docstring).
        A class already built is returned as it is.

    Returns
    -------
    ConceptClass, MarginHalfspaces or ImplicitFamily
        A {0,1}^n family with a literal form and more than 2^12 points is an ImplicitFamily
        (:func:`adversary.implicit.prefers_implicit`); it lists the same concepts in the same order.

    Raises
    ------
    WitnessError
        Unknown family, bad parameters, malformed matrix, or a spec of the wrong shape.

    Examples
    --------
    >>> load_class({"family": "thresholds", "params": {"N": 3}})
    <ConceptClass thresholds {'N': 3}: 4 concepts x 3 points>
    >>> load_class({"family": "threshold", "params": {"N": 3}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adversary.game.WitnessError: unknown family 'threshold'; known families: thresholds, ..., margin-halfspaces
    """
    if isinstance(spec, (ConceptClass, MarginHalfspaces, ImplicitFamily)):
        return spec
    if not isinstance(spec, dict):
        raise WitnessError(f'malformed witness: "class" must be an object, got {_type(spec)}; '
                           'give {"family": NAME, "params": {...}} or {"matrix": [[...]], "points": [[...]]}')
    if "matrix" in spec:
        extra = sorted(set(spec) - {"matrix", "points", "names"})
        if extra:
            raise WitnessError(f'malformed witness: a matrix class has the keys "matrix", "points" (and "names"); '
                               f"unexpected {', '.join(map(repr, extra))}")
        try:
            return ConceptClass(spec["matrix"], spec.get("points"), names=spec.get("names"))
        except (ValueError, TypeError) as e:
            raise WitnessError(f"bad class matrix: {_one_line(e)}") from None
    if "family" not in spec:
        raise WitnessError('malformed witness: "class" needs a "family" (with "params") or a "matrix"')
    extra = sorted(set(spec) - {"family", "params"})
    if extra:
        raise WitnessError(f'malformed witness: a family class has the keys "family" and "params"; '
                           f"unexpected {', '.join(map(repr, extra))}")
    name, params = spec["family"], spec.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise WitnessError(f'malformed witness: the class "params" must be an object, got {_type(params)}')
    if name == MARGIN_FAMILY:
        return _margin_class(params)
    from solvers import families

    if not isinstance(name, str) or name not in families.FAMILIES:
        raise WitnessError(f"unknown family {name!r}; known families: {', '.join([*families.FAMILIES, MARGIN_FAMILY])}")
    try:
        if prefers_implicit(name, params):  # {0,1}^n with n > 12: listed by its concepts only
            return ImplicitFamily(name, params)
        return families.make(name, **params)
    except (ValueError, TypeError) as e:
        raise WitnessError(_one_line(e)) from None


def _margin_class(params: dict) -> MarginHalfspaces:
    extra = sorted(set(params) - {"d", "gamma", "R"})
    if extra:
        raise WitnessError(f"{MARGIN_FAMILY}: unknown parameter {extra[0]!r}; valid parameters: d, gamma, R")
    for key in ("d", "gamma"):
        if key not in params:
            raise WitnessError(f"{MARGIN_FAMILY}: missing required parameter {key}; give {key}=VALUE")
    d = params["d"]
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise WitnessError(f"{MARGIN_FAMILY}: d must be a whole number >= 1, got {d!r}")
    # gamma and R are read as the decimals they print as (0.1 is 1/10), as the learners read their
    # parameters (solvers.learners.base.as_rational); coordinates are read exactly.
    gamma = _rational(params["gamma"], f"{MARGIN_FAMILY}: gamma", decimal=True)
    R = _rational(params.get("R", 1), f"{MARGIN_FAMILY}: R", decimal=True)
    if gamma <= 0:
        raise WitnessError(f"{MARGIN_FAMILY}: gamma must be > 0, got {params['gamma']!r}")
    if R <= 0:
        raise WitnessError(f"{MARGIN_FAMILY}: R must be > 0, got {params.get('R')!r}")
    if gamma > R:  # |<w*, x>| <= |x| <= R < gamma: no point has the margin, there is no game
        raise WitnessError(f"{MARGIN_FAMILY} with gamma = {_num(gamma)} > R = {_num(R)} is empty: no point with "
                           f"|x| <= R has margin gamma; give gamma <= R")
    full = {"d": int(d), "gamma": params["gamma"], "R": params.get("R", 1)}
    return MarginHalfspaces(int(d), gamma, R, full)


def _class_spec(cls) -> dict:
    """The JSON form of a class for a witness: the family and all its parameters, or the matrix."""
    if isinstance(cls, MarginHalfspaces):
        return {"family": MARGIN_FAMILY, "params": dict(cls.params)}
    if isinstance(cls, ImplicitFamily):
        return {"family": cls.family, "params": dict(cls.params)}
    if cls.family is not None:
        from solvers import families

        if cls.family in families.FAMILIES:
            return {"family": cls.family, "params": dict(cls.params)}
    out = cls.to_json()
    return {key: out[key] for key in ("matrix", "points", "names") if key in out}


def _class_text(cls) -> str:
    if isinstance(cls, (MarginHalfspaces, ImplicitFamily)):
        return str(cls)
    if cls.family is not None:
        return f"{cls.family} {' '.join(f'{k}={v}' for k, v in cls.params.items())}".strip()
    return f"the matrix class ({cls.n_concepts} concepts x {cls.n_points} points)"


# ---------------------------------------------------------------------------------------- sequences
def parse_sequence(sequence, cls) -> list[tuple[tuple, int]]:
    """Check a sequence and return it as ``[(x, y), ...]`` with canonical points.

    Parameters
    ----------
    sequence : list
        ``[{"x": [...], "y": 0 or 1}, ...]`` (the witness form) or ``[(x, y), ...]``.
    cls : ConceptClass or MarginHalfspaces

    Returns
    -------
    list of (tuple, int)
        For a finite class, ``x`` is the class's own point (an int tuple: ``3`` becomes ``(3,)``);
        for margin halfspaces, a tuple of ``Fraction`` (exact as given).

    Raises
    ------
    WitnessError
        A label that is not the integer 0 or 1, a point not in the domain of a finite class, or a
        vector of the wrong dimension or with a non-numeric coordinate. Examples are counted from 1.
    """
    if not isinstance(sequence, (list, tuple)):
        raise WitnessError(f'malformed witness: "sequence" must be a list of {{"x": [...], "y": 0 or 1}}, got {_type(sequence)}')
    out = []
    for t, item in enumerate(sequence, 1):
        if isinstance(item, dict):
            if "x" not in item or "y" not in item:
                raise WitnessError(f'malformed witness: example {t} needs "x" and "y"; write {{"x": [...], "y": 0 or 1}}')
            x, y = item["x"], item["y"]
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            x, y = item
        else:
            raise WitnessError(f'malformed witness: example {t} is not {{"x": [...], "y": 0 or 1}}')
        if isinstance(y, bool) or not isinstance(y, (int, np.integer)) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        out.append((_point(x, t, cls), int(y)))
    return out


def _point(x, t: int, cls) -> tuple:
    if isinstance(cls, MarginHalfspaces):
        if isinstance(x, np.ndarray):
            x = x.tolist()
        if not isinstance(x, (list, tuple)):
            raise WitnessError(f"example {t}: x must be a list of {cls.d} numbers, got {_type(x)}")
        if len(x) != cls.d:
            raise WitnessError(f"example {t}: x has {len(x)} coordinates; {cls} needs {cls.d}")
        x = list(x)
        for i in _not_ints(x):  # hot loop in high dimension: most coordinates are ints (0) already
            x[i] = _natural(x[i], f"example {t}: coordinate")
        return tuple(x)
    if isinstance(cls, ImplicitFamily):
        try:
            return cls.point(x)
        except ValueError as e:
            raise WitnessError(f"example {t}: {_one_line(e)}") from None
    try:
        return cls.points[cls.index_of(x)]
    except ValueError:
        raise WitnessError(f"example {t}: point {_show(x)} is not in the domain of {_class_text(cls)}") from None


# ---------------------------------------------------------------------------------------- realizability
def check_realizable(cls, examples, target=None, *, exact: bool = False):
    """Check that the labels are realizable by the class (and by ``target`` when given).

    Parameters
    ----------
    cls : ConceptClass or MarginHalfspaces
    examples : list of (x, y)
        As returned by :func:`parse_sequence`.
    target : int, dict or None
        A finite class: a concept index (rows of the class as built) or None for "some concept".
        Margin halfspaces: ``{"w": [...]}`` (required).
    exact : bool
        Margin halfspaces only: check |x| <= R and the margin in exact rational arithmetic.

    Returns
    -------
    int or tuple
        The target: the given index, or the lowest index of a concept consistent with every example;
        for margin halfspaces the tuple w (Fractions).

    Raises
    ------
    WitnessError
        "no concept of the class labels examples 1..t" (t the first example that leaves no concept),
        "target concept c labels example t ... 1, not 0", a target out of range, a margin violated,
        an |x| > R, or an |w| != 1.

    Examples
    --------
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> check_realizable(C, [((1,), 1)])
    1
    >>> check_realizable(C, [((0,), 1), ((1,), 0)])
    Traceback (most recent call last):
    ...
    adversary.game.WitnessError: no concept of the class labels examples 1..2
    """
    if isinstance(cls, MarginHalfspaces):
        return _check_margin(cls, examples, target, exact=exact)
    if isinstance(cls, ImplicitFamily):
        return _check_implicit(cls, examples, target)
    if target is None:
        V = cls.full
        for t, (x, y) in enumerate(examples, 1):
            V0, V1 = cls.split(V, cls.index_of(x))
            V = V1 if y else V0
            if not V:
                span = "example 1" if t == 1 else f"examples 1..{t}"
                raise WitnessError(f"no concept of the class labels {span}")
        return (V & -V).bit_length() - 1  # the lowest consistent concept
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        raise WitnessError(f"malformed witness: the target of a finite class is a concept index, got {_show(target)}")
    c = int(target)
    if not 0 <= c < cls.n_concepts:
        raise WitnessError(f"target concept {c} is out of range; the class has {cls.n_concepts} concepts "
                           f"(indices 0..{cls.n_concepts - 1})")
    row = cls.matrix[c]
    for t, (x, y) in enumerate(examples, 1):
        label = int(row[cls.index_of(x)])
        if label != y:
            raise WitnessError(f"target concept {c} labels example {t} (x = {_show(x)}) {label}, not {y}")
    return c


def _check_implicit(F: ImplicitFamily, examples, target) -> int:
    """The target of an implicit class: required, a concept index, and it labels every example."""
    if target is None:
        raise WitnessError(f'malformed witness: a witness on {F} needs "target": a concept index '
                           f"(0..{F.n_concepts - 1}, in the family's row order)")
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        raise WitnessError(f"malformed witness: the target of a finite class is a concept index, got {_show(target)}")
    c = int(target)
    if not 0 <= c < F.n_concepts:
        raise WitnessError(f"target concept {c} is out of range; the class has {F.n_concepts} concepts "
                           f"(indices 0..{F.n_concepts - 1})")
    for t, (x, y) in enumerate(examples, 1):
        label = F.evaluate(c, x)  # from the concept's literals, independently of the search's caches
        if label != y:
            raise WitnessError(f"target concept {c} ({F.names[c]}) labels example {t} (x = {_show(x)}) {label}, not {y}")
    return c


def _check_margin(H: MarginHalfspaces, examples, target, *, exact: bool):
    if target is None:
        raise WitnessError(f'malformed witness: a {MARGIN_FAMILY} witness needs "target": {{"w": [...]}} (a unit vector)')
    if not isinstance(target, dict) or "w" not in target:
        raise WitnessError(f'malformed witness: the target of {MARGIN_FAMILY} is {{"w": [...]}}, got {_show(target)}')
    w = target["w"]
    if isinstance(w, np.ndarray):
        w = w.tolist()
    if not isinstance(w, (list, tuple)) or len(w) != H.d:
        raise WitnessError(f"target w must be a list of d = {H.d} numbers, got {_show(w)}")
    w = tuple(_natural(v, "target w: coordinate") for v in w)
    wf = [float(v) for v in w]
    norm = math.sqrt(math.fsum(v * v for v in wf))
    if not abs(norm - 1.0) <= TOLERANCE:
        raise WitnessError(f"target w has |w| = {norm:.12g}; give a unit vector (|w| = 1 within {TOLERANCE:g})")
    gamma, R = H.gamma, H.R
    gf, Rf = float(gamma), float(R)
    if exact:
        wq = tuple(Fraction(v) for v in w)
        w2 = sum(v * v for v in wq)
    for t, (x, y) in enumerate(examples, 1):
        s = 1 if y == 1 else -1
        # The zero coordinates of x are left out of both checks: they add nothing, and in high
        # dimension they are most of x (the exact sums would otherwise cost a Fraction each).
        nonzero = [(i, x[i]) for i in compress(range(len(x)), x)]
        if exact:  # rational arithmetic: |x|^2 <= R^2, s<w,x> >= 0 and <w,x>^2 >= gamma^2 |w|^2
            nonzero = [(i, Fraction(v)) for i, v in nonzero]  # floats convert exactly
            x2 = sum(v * v for _, v in nonzero)
            if x2 > R * R:
                raise WitnessError(f"example {t} has |x| = {math.sqrt(x2):.12g} > R = {_num(R)} (exact check)")
            m = s * sum(wq[i] * v for i, v in nonzero)
            if m < 0 or m * m < gamma * gamma * w2:
                raise WitnessError(f"example {t} (y = {y}) has margin y<w,x> = {float(m) / math.sqrt(w2):.12g} "
                                   f"< gamma = {_num(gamma)} (exact check)")
            continue
        xf = [(i, float(v)) for i, v in nonzero]
        r = math.sqrt(math.fsum(v * v for _, v in xf))
        if not r <= Rf + TOLERANCE:
            raise WitnessError(f"example {t} has |x| = {r:.12g} > R = {_num(R)}")
        m = s * math.fsum(wf[i] * v for i, v in xf)
        if not m >= gf - TOLERANCE:
            raise WitnessError(f"example {t} (y = {y}) has margin y<w,x> = {m:.12g} < gamma = {_num(gamma)}")
    return w


def _margin_stats(H: MarginHalfspaces, examples, w) -> tuple[float, float]:
    """(smallest margin s<w,x>, largest |x|) over the examples, in floats (for messages)."""
    wf = [float(v) for v in w]
    margins, radii = [], []
    for x, y in examples:
        xf = [(i, float(x[i])) for i in compress(range(len(x)), x)]  # the nonzero coordinates
        margins.append((1 if y else -1) * math.fsum(wf[i] * v for i, v in xf))
        radii.append(math.sqrt(math.fsum(v * v for _, v in xf)))
    return (min(margins) if margins else math.inf), (max(radii) if radii else 0.0)


# ---------------------------------------------------------------------------------------- learners
def _learners():
    from solvers import learners

    return learners


def _learner_spec(learner) -> tuple[str, dict]:
    """``(name, params)`` from a name, a ``{"name", "params"}`` dict, a pair, or a learner instance
    (whose state is ignored: only its ``name`` and ``get_params()`` are used)."""
    if isinstance(learner, str):
        return learner, {}
    if isinstance(learner, dict):
        if "name" not in learner:
            raise WitnessError('malformed witness: "learner" must be {"name": NAME, "params": {...}}')
        params = learner.get("params", {})
        return learner["name"], ({} if params is None else params)
    if isinstance(learner, tuple) and len(learner) == 2:
        return learner[0], (learner[1] or {})
    name = getattr(type(learner), "name", None) or getattr(learner, "name", None)
    if isinstance(name, str) and hasattr(learner, "get_params"):
        return name, dict(learner.get_params())
    raise WitnessError(f"a learner is a name, {{\"name\": ..., \"params\": {{...}}}} or a learner object, got {_type(learner)}")


def build_learner(name, params: Optional[dict] = None, cls=None):
    """A fresh learner ``name`` with ``params``, for class ``cls``, from ``solvers.learners.make_learner``.

    Class-based learners (Halving, CON, SOA, randomized halving: ``LEARNERS[name].needs_class``) get the
    finite class; they cannot play on the implicit class of margin halfspaces.

    Raises
    ------
    WitnessError
        Unknown learner or bad parameters (make_learner's message), or a class-based learner on margin
        halfspaces.
    """
    L = _learners()
    params = {} if params is None else params
    if not isinstance(name, str):
        raise WitnessError(f"malformed witness: the learner name must be a string, got {_show(name)}")
    if not isinstance(params, dict):
        raise WitnessError(f'malformed witness: the learner "params" must be an object, got {_type(params)}')
    spec = L.LEARNERS.get(name)
    if spec is None:
        known = dict.fromkeys(s.name for s in L.LEARNERS.values())  # canonical names, aliases left out
        raise WitnessError(f"unknown learner {name!r}; known learners: {', '.join(known)}")
    finite = cls if isinstance(cls, ConceptClass) else None
    if isinstance(cls, (ImplicitFamily, MarginHalfspaces)) and not spec.needs_class and spec.dim_param:
        dim = spec.dim_param  # the class determines n (or d), as make_learner does from a finite class's points
        size = cls.n if isinstance(cls, ImplicitFamily) else cls.d
        if dim not in params:
            params = dict(params, **{dim: size})
        elif str(params[dim]).strip() != str(size):
            raise WitnessError(f"{spec.name}: {dim}={params[dim]} but the points of {cls} have {size} "
                               f"coordinates; give {dim}={size}")
    if isinstance(cls, ImplicitFamily) and spec.needs_class:
        raise WitnessError(f"learner {name!r} needs a class built point by point, got {cls}; "
                           f"lower n to at most 12, or attack a vector learner (e.g. winnow2)")
    if spec.needs_class and finite is None:
        where = str(cls) if isinstance(cls, MarginHalfspaces) else "no class"
        raise WitnessError(f"learner {name!r} needs a finite concept class, got {where}; "
                           "use a vector learner (e.g. perceptron) on margin-halfspaces")
    try:
        return L.make_learner(name, dict(params), finite)
    except (ValueError, TypeError, KeyError) as e:
        raise WitnessError(_one_line(e)) from None


def _full_params(learner, given: dict) -> dict:
    """The learner's parameters with defaults, when ``get_params`` gives JSON-able ones."""
    try:
        params = dict(learner.get_params())
        json.dumps(params)
    except (AttributeError, TypeError, ValueError):
        return dict(given)
    return params


# ---------------------------------------------------------------------------------------- replay
@dataclass(frozen=True)
class Replay:
    """What a learner did on a sequence.

    Attributes
    ----------
    learner : str
        The learner's name; ``params`` its parameters (defaults included when the learner reports them).
    predictions : tuple of int
        The prediction (0 or 1) of every round.
    rounds : tuple of int
        The 0-based indices of the rounds with a mistake.
    """

    learner: str
    params: dict
    predictions: tuple
    rounds: tuple

    @property
    def mistakes(self) -> int:
        """The number of mistakes."""
        return len(self.rounds)


def replay(learner, sequence, cls=None) -> Replay:
    """Play ``sequence`` against a *fresh* learner and record its predictions and mistakes.

    The learner is rebuilt from its name and parameters (a learner object passed in is used only for
    its ``name`` and ``get_params()``; its state is never trusted), then for each example it predicts
    ``predict_one(x)`` and is told ``learn_one(x, y)``, every round (river's protocol). Realizability is
    *not* checked here (see :func:`check_realizable`); labels and points are.

    Parameters
    ----------
    learner : str, dict, (name, params) or learner object
    sequence : list
        ``[{"x": ..., "y": 0 or 1}, ...]`` or ``[(x, y), ...]``.
    cls : ConceptClass, MarginHalfspaces or a class spec dict, optional
        The class: class-based learners need it; for a finite class the points are mapped to the
        class's own point tuples (and must be in its domain). Without a class, points are passed as
        given (vector learners only).

    Returns
    -------
    Replay

    Raises
    ------
    WitnessError
        Bad learner, label or point; a learner that fails or predicts something other than 0 / 1.

    Examples
    --------
    >>> r = replay("halving", [((1,), 1), ((0,), 0)], ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]]))
    >>> r.predictions, r.rounds, r.mistakes       # on point 0, V = {01, 11} ties and ties go to 1
    ((1, 1), (1,), 1)
    """
    name, params = _learner_spec(learner)
    if cls is not None:
        cls = load_class(cls)
        examples = parse_sequence(sequence, cls)
    else:
        examples = _raw_examples(sequence)
    return _replay_parsed(name, params, examples, cls)


def _replay_parsed(name: str, params: dict, examples, cls) -> Replay:
    """:func:`replay` on examples that :func:`parse_sequence` has already checked for ``cls``."""
    model = build_learner(name, params, cls)
    full = _full_params(model, params)
    predictions, rounds = _run(model, name, examples)
    return Replay(name, full, predictions, rounds)


def _raw_examples(sequence):
    if not isinstance(sequence, (list, tuple)):
        raise WitnessError(f"a sequence is a list of (x, y) pairs, got {_type(sequence)}")
    out = []
    for t, item in enumerate(sequence, 1):
        x, y = (item["x"], item["y"]) if isinstance(item, dict) else item
        if isinstance(y, bool) or not isinstance(y, (int, np.integer)) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        out.append((tuple(x) if isinstance(x, list) else x, int(y)))
    return out


def _run(model, name: str, examples) -> tuple[tuple, tuple]:
    predictions, rounds = [], []
    for t, (x, y) in enumerate(examples):  # hot loop of every search: keep it lean
        try:
            p = model.predict_one(x)
            model.learn_one(x, y)
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as e:
            raise WitnessError(f"learner {name} failed on example {t + 1} (x = {_show(x)}): {_one_line(e)}") from None
        if p is not True and p is not False and p != 0 and p != 1:
            raise WitnessError(f"learner {name} predicted {p!r} on example {t + 1}; predictions must be 0 or 1")
        p = int(p)
        predictions.append(p)
        if p != y:
            rounds.append(t)
    return tuple(predictions), tuple(rounds)


# ---------------------------------------------------------------------------------------- witnesses
def make_witness(learner_name, learner_params, class_spec, sequence, target=None, *, extra=None,
                 exact: bool = False) -> dict:
    """Replay ``sequence`` and return a witness with the mistakes filled in.

    Parameters
    ----------
    learner_name : str
        A key of ``solvers.learners.LEARNERS``.
    learner_params : dict
        Its parameters; the witness records them with the defaults filled in (``get_params()``).
    class_spec : dict, ConceptClass or MarginHalfspaces
        The class (see :func:`load_class`). A family class is recorded with all its parameters; any
        other finite class as its matrix and points.
    sequence : list
        ``[{"x": ..., "y": 0 or 1}, ...]`` or ``[(x, y), ...]``.
    target : int, dict or None
        A concept index; for a finite class None picks the lowest consistent concept. Margin
        halfspaces need ``{"w": [...]}``.
    extra : dict, optional
        More keys for the witness (``"bound"``, ``"verdict"``, ``"note"``); they cannot replace the
        witness's own keys.
    exact : bool
        Check the margin conditions in exact arithmetic (see the module docstring).

    Returns
    -------
    dict
        The witness; ``verify_witness`` accepts it.

    Raises
    ------
    WitnessError
        Whatever ``verify_witness`` would reject: bad labels or points, unrealizable labels, a target
        that mislabels an example, a bad learner.
    """
    cls = load_class(class_spec)
    examples = parse_sequence(sequence, cls)
    target = check_realizable(cls, examples, target, exact=exact)
    name, params = _learner_spec({"name": learner_name, "params": learner_params})
    r = _replay_parsed(name, params, examples, cls)
    witness = {
        "kind": "witness",
        "learner": {"name": learner_name, "params": r.params},
        "class": _class_spec(cls),
        "sequence": [{"x": _json_point(x), "y": y} for x, y in examples],
        "target": _json_target(cls, target),
        "mistakes": r.mistakes,
    }
    for key, value in (extra or {}).items():
        if key in witness:
            raise WitnessError(f"extra key {key!r} would replace the witness's own {key!r}; choose another name")
        witness[key] = value
    return witness


def _json_point(x) -> list:
    x = list(x)
    for i in _not_ints(x):
        x[i] = _json_number(x[i])
    return x


def _json_number(v):
    """ints and floats as they are; a Fraction as the string "p/q", which reads back as the same
    Fraction (so a learner with exact arithmetic replays exactly as it played)."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return int(v) if isinstance(v, (int, np.integer)) else float(v)


def _json_target(cls, target):
    if isinstance(cls, MarginHalfspaces):
        return {"w": [_json_number(v) for v in target]}
    return int(target)


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of :func:`verify_witness`.

    Attributes
    ----------
    ok : bool
        Whether the witness holds.
    mistakes : int or None
        The replayed number of mistakes (None when the check failed before the replay).
    message : str
        One line: ``"witness verified: <learner> makes m mistakes on this sequence (target ...)"``, or
        what is wrong.
    """

    ok: bool
    mistakes: Optional[int]
    message: str
    cycle: Optional[tuple] = None  # (start, length, mistakes on the cycle) when a cycle was verified

    def __bool__(self) -> bool:
        return self.ok


def verify_witness(w, *, exact: bool = False) -> VerifyResult:
    """Re-check a witness from scratch.

    Checks, in order: the JSON shape (an object with ``kind == "witness"``, ``learner``, ``class``,
    ``sequence``, ``mistakes``; ``target`` required for margin halfspaces); the class (built from
    its family or matrix); every label 0 or 1 and every point in the domain; realizability, and that
    the target labels every example (for margin halfspaces: |w| = 1, |x| <= R, margin >= gamma);
    the learner, rebuilt by name; that replaying the sequence on the fresh learner gives exactly the
    claimed number of mistakes; and, when the witness has a ``"cycle"``, that the cycle closes (same
    learner state and version space at both ends, at least one mistake on it: see the module docstring).

    Parameters
    ----------
    w : dict or str
        The witness, or its JSON text.
    exact : bool
        Margin halfspaces: check |x| <= R and the margin in exact rational arithmetic instead of with
        the tolerance 1e-9.

    Returns
    -------
    VerifyResult
        ``ok``, the replayed ``mistakes`` and a one-line ``message``; never raises for a bad witness.

    Examples
    --------
    >>> print(verify_witness('{"kind": "witness"').message)
    malformed JSON: Expecting ',' delimiter: line 1 column 19 (char 18)
    >>> print(verify_witness({"kind": "witness", "learner": {"name": "halving"}}).message)
    malformed witness: missing key "class"
    """
    try:
        return _verify(w, exact)
    except WitnessError as e:
        return VerifyResult(False, None, _one_line(e))


def _verify(w, exact: bool) -> VerifyResult:
    if isinstance(w, (str, bytes)):
        try:
            w = loads(w, "the witness", error=WitnessError, hint="a witness is nested about 5 levels")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise WitnessError(f"malformed JSON: {e}") from None
    if not isinstance(w, dict):
        raise WitnessError(f"malformed witness: expected a JSON object, got {_type(w)}")
    if w.get("kind") != "witness":
        raise WitnessError(f'malformed witness: "kind" must be "witness", got {_show(w.get("kind"))}')
    for key in _WITNESS_KEYS:
        if key not in w:
            raise WitnessError(f'malformed witness: missing key "{key}"')
    claimed = w["mistakes"]
    if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0:
        raise WitnessError(f'malformed witness: "mistakes" must be a whole number >= 0, got {_show(claimed)}')
    learner = w["learner"]
    if not isinstance(learner, dict) or "name" not in learner:
        raise WitnessError('malformed witness: "learner" must be {"name": NAME, "params": {...}}')
    name, params = _learner_spec(learner)
    cls = load_class(w["class"])
    examples = parse_sequence(w["sequence"], cls)
    target = check_realizable(cls, examples, w.get("target"), exact=exact)
    r = _replay_parsed(name, params, examples, cls)
    if r.mistakes != claimed:
        return VerifyResult(False, r.mistakes, f"claims {claimed} mistakes, replay gives {r.mistakes}")
    noun = "mistake" if r.mistakes == 1 else "mistakes"
    message = (f"witness verified: {name} makes {r.mistakes} {noun} on this sequence "
               f"({_target_text(cls, examples, target)})")
    cycle = None
    if w.get("cycle") is not None:
        cycle = _check_cycle(w["cycle"], name, params, cls, examples, r)
        start, length, m = cycle
        message += (f"; no finite mistake bound: the cycle of {length} example{'s' if length != 1 else ''} "
                    f"({m} mistake{'s' if m != 1 else ''}), examples {start + 1}..{start + length}, "
                    f"can be repeated for ever")
    return VerifyResult(True, r.mistakes, message, cycle)


def _check_cycle(cycle, name: str, params: dict, cls, examples, r: Replay) -> tuple[int, int, int]:
    """Check a witness's ``"cycle"`` (see the module docstring); return (start, length, mistakes on it)."""
    if not isinstance(cycle, dict) or set(cycle) != {"start", "length"}:
        raise WitnessError('malformed witness: "cycle" must be {"start": s, "length": L} '
                           "(the examples s+1..s+L bring the learner back to its state after example s)")
    s, L = cycle["start"], cycle["length"]
    for key, v, low in (("start", s, 0), ("length", L, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise WitnessError(f'malformed witness: cycle "{key}" must be a whole number >= {low}, got {_show(v)}')
    s, L = int(s), int(L)
    if s + L > len(examples):
        raise WitnessError(f"cycle: examples {s + 1}..{s + L} do not exist; the sequence has {len(examples)}")
    where = "before the first example" if s == 0 else f"after example {s}"
    model = build_learner(name, params, cls)
    keys = {}
    for t in range(s + L + 1):  # the state after t examples, for t = s and t = s + L
        if t == s or t == s + L:
            try:
                keys[t] = model.state_key()
            except Exception as e:  # noqa: BLE001 - a learner's failure is the witness's problem
                raise WitnessError(f"cycle: learner {name} failed to report its state: {_one_line(e)}") from None
        if t < s + L:
            _run(model, name, examples[t:t + 1])
    if keys[s] != keys[s + L]:
        raise WitnessError(f"cycle: the learner's state {where} differs from its state after example {s + L}; "
                           "the cycle does not close")
    if isinstance(cls, ConceptClass):
        if cls.version_space(examples[:s]) != cls.version_space(examples[:s + L]):
            raise WitnessError(f"cycle: the version space {where} differs from the one after example {s + L} "
                               "(the cycle's labels rule out concepts), so it cannot be repeated")
    m = sum(1 for t in r.rounds if s <= t < s + L)
    if m == 0:
        raise WitnessError(f"cycle: no mistake among examples {s + 1}..{s + L}; repeating them gains nothing")
    return s, L, m


def _target_text(cls, examples, target) -> str:
    if isinstance(cls, MarginHalfspaces):
        margin, radius = _margin_stats(cls, examples, target)
        w = ", ".join(f"{float(v):.6g}" for v in target)
        if not examples:
            return f"target w = ({w}); empty sequence"
        return (f"target w = ({w}), smallest margin {margin:.6g} >= gamma = {_num(cls.gamma)}, "
                f"largest |x| {radius:.6g} <= R = {_num(cls.R)}")
    words = target_words(cls, target)
    name = f" ({words})" if words is not None else ""
    return f"target concept {target}{name}"


def target_words(cls, target) -> Optional[str]:
    """Concept ``target`` of a class in words (``x1 v x3``), or None when the class cannot say it.

    ``cls`` is a loaded class or a witness's class spec (``{"family": ..., "params": ...}`` or a
    matrix with optional ``"names"``): a named concept reads as its name; a family's concept as
    :func:`solvers.families.concept_text` words it (a ConceptClass only when it is the family's own
    matrix, as :func:`load_class` builds it); anything else (a margin class's w, an unnamed matrix) is None.

    Examples
    --------
    >>> target_words({"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}}, 5)
    'x1 v x3'
    >>> target_words({"matrix": [[0, 1], [1, 1]]}, 1) is None
    True
    """
    from solvers import families

    if isinstance(cls, dict):
        if "names" in cls and cls["names"] is not None:
            names = cls["names"]
            return str(names[target]) if isinstance(target, int) and 0 <= target < len(names) else None
        family, params = cls.get("family"), cls.get("params") or {}
    elif isinstance(cls, MarginHalfspaces) or not isinstance(target, (int, np.integer)):
        return None
    elif isinstance(cls, ImplicitFamily):
        return cls.names[target]
    elif isinstance(cls, ConceptClass):
        if cls.names is not None:
            return cls.names[target]
        family, params = cls.family, dict(cls.params or {})
        if family not in families.FAMILIES:
            return None
        try:
            if families.make(family, **params) != cls:  # a matrix that only claims the family
                return None
        except (ValueError, TypeError):
            return None
    else:
        return None
    if not isinstance(family, str) or family not in families.FAMILIES or isinstance(target, bool):
        return None
    try:
        return families.concept_text(family, params, int(target))
    except (ValueError, TypeError):
        return None


# ---------------------------------------------------------------------------------------- playing
def contrary(game: "Game", x, prediction: int) -> int:
    """The label that makes the learner wrong when realizability allows it, else the other one.

    [Rivest94]'s adversary: answering each point with the label the learner did not predict forces a
    mistake every round the version space still splits on x.
    """
    allowed = game.allowed_labels(x)
    if not allowed:
        raise WitnessError(f"no label of x = {_show(x)} keeps the labels realizable")
    return 1 - prediction if (1 - prediction) in allowed else prediction


class Game:
    """One game in progress: a fresh learner, a class, and the examples played so far.

    The adversary shows a point with :meth:`show` (which returns the learner's prediction), then
    reveals its label with :meth:`reveal`; labels that would leave no concept of the class consistent
    (or that the fixed ``target`` does not give) are refused. :meth:`witness` turns the game into a
    witness. Search strategies that need to branch should copy the game (``copy.deepcopy``).

    Parameters
    ----------
    learner : str, dict, (name, params) or learner object
        Rebuilt fresh from its name and parameters.
    cls : dict, ConceptClass or MarginHalfspaces
        The class (see :func:`load_class`).
    target : int or dict, optional
        Fix the target concept (required for margin halfspaces: ``{"w": [...]}``).

    Examples
    --------
    >>> from solvers.families import make
    >>> g = Game("halving", make("thresholds", N=3))
    >>> g.show((2,))
    1
    >>> g.reveal(0)
    True
    >>> g.mistakes, g.allowed_labels((3,)), g.allowed_labels((1,))
    (1, (0, 1), (0,))
    """

    def __init__(self, learner, cls, *, target=None):
        self.cls = load_class(cls)
        self.learner_name, params = _learner_spec(learner)
        self.learner = build_learner(self.learner_name, params, self.cls)
        self.learner_params = _full_params(self.learner, params)
        self.examples: list[tuple[tuple, int]] = []
        self.predictions: list[int] = []
        self.mistakes = 0
        self._pending = None
        finite = isinstance(self.cls, (ConceptClass, ImplicitFamily))
        self.V = self.cls.full if finite else None
        self.target = None
        if target is not None or not finite:
            self.target = check_realizable(self.cls, [], target)

    def allowed_labels(self, x) -> tuple:
        """The labels of ``x`` that keep the game realizable (by the target, if one is fixed)."""
        x = _point(x, len(self.examples) + 1, self.cls)
        if isinstance(self.cls, MarginHalfspaces):
            return tuple(y for y in (0, 1) if _fits(self.cls, self.target, x, y))
        j = self.cls.index_of(x)
        if self.target is not None:
            return (self.cls.label(self.target, x),)
        V0, V1 = self.cls.split(self.V, j)
        return tuple(y for y, V in ((0, V0), (1, V1)) if V)

    @property
    def pending(self):
        """The point shown and not yet labelled (the class's own form of it), or None."""
        return None if self._pending is None else self._pending[0]

    def show(self, x) -> int:
        """Show the learner point ``x``; return its prediction."""
        if self._pending is not None:
            raise WitnessError("reveal the label of the point shown before showing another")
        x = _point(x, len(self.examples) + 1, self.cls)
        p = self.learner.predict_one(x)
        if p is not True and p is not False and p != 0 and p != 1:
            raise WitnessError(f"learner {self.learner_name} predicted {p!r}; predictions must be 0 or 1")
        p = int(p)
        self._pending = (x, p)
        return p

    def reveal(self, y: int) -> bool:
        """Reveal the label of the point shown; update the learner; return whether it erred."""
        if self._pending is None:
            raise WitnessError("show a point before revealing a label")
        x, p = self._pending
        t = len(self.examples) + 1
        if isinstance(y, bool) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        if y not in self.allowed_labels(x):
            raise WitnessError(f"example {t}: label {y} of x = {_show(x)} is not realizable "
                               f"{'by the target' if self.target is not None else 'by any concept consistent so far'}")
        if self.V is not None:
            V0, V1 = self.cls.split(self.V, self.cls.index_of(x))
            self.V = V1 if y else V0
        self.learner.learn_one(x, y)
        self._pending = None
        self.examples.append((x, y))
        self.predictions.append(p)
        self.mistakes += p != y
        return p != y

    def witness(self, *, extra=None) -> dict:
        """The game so far as a witness (re-checked by replaying from scratch)."""
        target = None if self.target is None else _json_target(self.cls, self.target)
        if target is None and isinstance(self.cls, ImplicitFamily):  # its witnesses name the target
            target = (self.V & -self.V).bit_length() - 1
        return make_witness(self.learner_name, self.learner_params, self.cls, self.examples, target, extra=extra)


def _fits(H: MarginHalfspaces, w, x, y) -> bool:
    try:
        _check_margin(H, [(x, y)], {"w": list(w)}, exact=False)
    except WitnessError:
        return False
    return True


def play(learner, cls, adversary: Callable, *, label: Callable = contrary, target=None,
         max_rounds: int = 10_000) -> Game:
    """Play a game: ``adversary(game)`` picks each point (None to stop), ``label(game, x, prediction)``
    its label (default :func:`contrary`, the mistake-forcing realizable answer).

    Returns the finished :class:`Game`; ``game.witness()`` gives the witness.

    Examples
    --------
    >>> from solvers.families import make
    >>> points = iter([(2,), (3,), (1,)])
    >>> g = play("halving", make("thresholds", N=3), lambda game: next(points, None))
    >>> g.mistakes, [y for _, y in g.examples]    # contrary: 0 where Halving says 1, as long as it can
    (2, [0, 0, 0])
    >>> verify_witness(g.witness()).ok
    True
    """
    game = Game(learner, cls, target=target)
    for _ in range(max_rounds):
        x = adversary(game)
        if x is None:
            break
        p = game.show(x)
        game.reveal(label(game, game.pending, p))
    return game


# ---------------------------------------------------------------------------------------- helpers
def _natural(v, what: str):
    """A coordinate as the learner reads it: ints and floats as they are, strings of rationals as
    Fractions (so a learner with exact arithmetic stays exact)."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (float, np.floating)) and math.isfinite(v):
        return float(v)
    return _rational(v, what)


def _rational(v, what: str, *, decimal: bool = False) -> Fraction:
    """A JSON number or a string of a rational (``"3/5"``, ``"0.6"``) as an exact Fraction; a float
    exactly (its binary value), or with ``decimal=True`` as the decimal it prints as."""
    if isinstance(v, bool):
        raise WitnessError(f"{what} must be a number, got {v!r}")
    if isinstance(v, (int, np.integer)):
        return Fraction(int(v))
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            raise WitnessError(f"{what} must be a finite number, got {v!r}")
        return Fraction(repr(float(v))) if decimal else Fraction(float(v))
    if isinstance(v, Fraction):
        return v
    if isinstance(v, str):
        try:
            return Fraction(v.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise WitnessError(f"{what} must be a number or a string of a rational such as \"3/5\", got {_show(v)}")


def _num(q: Fraction) -> str:
    """A Fraction as the shortest text: ``1``, ``0.1`` or ``1/3``."""
    if q.denominator == 1:
        return str(q.numerator)
    f = float(q)
    return repr(f) if Fraction(repr(f)) == q or Fraction(f) == q else f"{q.numerator}/{q.denominator}"


def _show(x) -> str:
    """A point or value in messages: lists and tuples as ``(0, 1, 1)``, Fractions as numbers."""
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        items = [_num(v) if isinstance(v, Fraction) else repr(v) for v in x]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def _not_ints(x) -> list:
    """The indices of the coordinates of ``x`` that are not ints (bools included), found in C: a
    point of high dimension is mostly int zeros, and a Python loop over them is the bulk of a check."""
    if _INT.issuperset(map(type, x)):
        return []
    return list(compress(range(len(x)), map(operator.is_not, map(type, x), repeat(int))))


_INT = frozenset({int})


def _type(v) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null"}.get(type(v), type(v).__name__)


def _one_line(text) -> str:
    return " ".join(str(text).split())
