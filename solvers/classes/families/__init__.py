"""Named families of concept classes: the classes the seeds name, and the usual test beds.

One module per kind of domain: :mod:`.line` ({1..N} and n abstract points), :mod:`.boolean` ({0,1}^n),
:mod:`.grid` ({1..N}^2), :mod:`.random`, :mod:`.catalogue` (two classes of the catalogue of combinatorial
parameters); :mod:`.literal` lists {0,1}^n families by their formulas.

The registry of named families. ``make(name, **params)`` builds a
:class:`~solvers.classes.finite.ConceptClass` whose ``family`` and
``params`` (every parameter, defaults included) record where it came from. ``FAMILIES`` maps each name
to a :class:`Family` that documents its parameters, its size and the values of Opt(C) and of the VC
dimension that are known for it, with their source; ``describe()`` gives the rows of the
``littlestone families`` listing and ``parse_params`` turns the CLI's ``k=v`` words into typed
parameters.

Domains and point order
-----------------------
* {0,1}^n: the points are the bit tuples in the order of ``itertools.product([0, 1], repeat=n)``;
  variable ``x_i`` is coordinate ``i``. Inside this module a point is also the integer whose binary
  expansion is the tuple (``x_0`` the most significant bit), and a set of variables is a mask in the
  same bit order.
* {1..N}: the points are ``(x,)`` for x = 1..N. The grid {1..N}^2: ``(i, j)`` in row-major order.
* n abstract points (``all-functions``, ``random``): ``(j,)`` for j = 0..n-1.

Every invalid call raises ``ValueError`` with a one-line message that says what to change; so does an
instance with more than ``MAX_CELLS`` matrix cells or ``MAX_POINTS`` points.

Families and what is known about them
-------------------------------------
=========================  =====================================  ==============================
family                     size                                   known Opt / VC
=========================  =====================================  ==============================
thresholds N               N + 1                                  Opt = floor(log2(N+1)), VC = 1
intervals N [empty=1]      N(N+1)/2 + empty                       VC = min(N - 1 + empty, 2)
singletons N [empty=1]     N + empty                              Opt = VC = 1 (>= 2 concepts)
all-functions n            2^n                                    Opt = VC = n
monotone-conjunctions n    2^n                                    Opt = VC = n
conjunctions n [false=1]   3^n + false                            Opt = n + 1 when false = 1
monotone-disjunctions n k  sum_{i<=k} C(n, i)                     Opt = VC = n when k = n
disjunctions n [k=n]       sum_{i<=k} C(n, i) 2^i + [k >= 1]      Opt = n + 1 when k = n
parities n                 2^n                                    Opt = VC = n
halfspaces n (n <= 6)      4, 14, 104, ..., 15028134 (A000609)    VC = n + 1
rectangles N               (N(N+1)/2)^2 + 1                       VC = 4 for N >= 3
k-of-r n r k               C(n, r)                                -
decision-lists n (n <= 6)  sum_j C(n, j) A005612(j)               -
random m N [p] [seed]      <= m                                   -
blockwise-addressing d     2^(d+1) (on 2^(d+1) + 1 points)        -
qr-tournament p            p (on F_p)                             -
=========================  =====================================  ==============================

In both disjunction families k defaults to n.

Sources: the lecture notes ([Rivest94]: Opt(C) <= lg |C|, monotone disjunctions and Winnow;
[Mehta]: elimination for monotone conjunctions, <= n mistakes;
[OnlineAlgs]: ELIM for ORs of literals, <= n + 1 mistakes), OEIS A000609 (threshold
functions of n or fewer variables; Muroga, *Threshold Logic and Its Applications*, 1971) and OEIS
A005612 (1-decision-list functions of exactly n variables; Eiter, Ibaraki and Makino, *Decision lists
and related Boolean functions*, TCS 270, 2002). The lower bounds Opt >= VC used above hold because a
shattered set of d points is a mistake tree of depth d ([Rivest94]'s adversary may answer each point of
it with the label the learner did not predict).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> C = make("thresholds", N=3)
>>> len(C), C.n_points, C.points
(4, 3, ((1,), (2,), (3,)))
>>> C.matrix.astype(int).tolist()
[[1, 1, 1], [0, 1, 1], [0, 0, 1], [0, 0, 0]]
>>> C.family, C.params
('thresholds', {'N': 3})
>>> make("intervals", N=4).params
{'N': 4, 'empty': 1}
>>> parse_params("monotone-disjunctions", ["n=8", "k=2"])
{'n': 8, 'k': 2}
>>> make("parities", n=0)
Traceback (most recent call last):
...
ValueError: parities: n must be at least 1, got 0; give n >= 1
"""

from __future__ import annotations

import functools
import math
from typing import Callable, Optional

import numpy as np

from ..finite import ConceptClass
from ..symmetry import Symmetry
from . import boolean, catalogue, grid, line, literal, random
from ._common import MAX_CELLS, MAX_POINTS, REQUIRED, Family, Param, check_limits, fmt, typed
from .literal import LITERAL_FAMILIES, MAX_LITERAL_CONCEPTS, LiteralForm

__all__ = [
    "make",
    "FAMILIES",
    "ATTACK_ONLY",
    "all_families",
    "attack_only",
    "Family",
    "Param",
    "describe",
    "parse_params",
    "resolve_params",
    "family_facts",
    "MAX_CELLS",
    "MAX_POINTS",
    "check_limits",
    "LiteralForm",
    "literal_form",
    "LITERAL_FAMILIES",
    "MAX_LITERAL_CONCEPTS",
    "concept_text",
]

_KINDS = {f.name: f for f in (*line.FAMILIES, *boolean.FAMILIES, *grid.FAMILIES, *random.FAMILIES, *catalogue.FAMILIES)}
#: name -> Family, every family ``make`` builds, in the order of the ``littlestone families`` listing.
FAMILIES: dict[str, Family] = {
    name: _KINDS[name]
    for name in ("thresholds", "intervals", "singletons", "all-functions", "monotone-conjunctions", "conjunctions",
                 "monotone-disjunctions", "disjunctions", "parities", "halfspaces", "rectangles", "k-of-r",
                 "decision-lists", "random", "blockwise-addressing", "qr-tournament", "halfintervals", "constants",
                 "majority-vote", "addressing")
}
assert set(FAMILIES) == set(_KINDS), "every family module's family is listed once"

#: Families a witness or an attack names but ``make`` does not build (no finite matrix): name -> the
#: module that defines the class. Margin halfspaces live in :mod:`solvers.classes.margin`.
ATTACK_ONLY: dict[str, str] = {"margin-halfspaces": "solvers.classes.margin"}

# family -> (params, index) -> words, for the families without a literal form
_WORDS: dict[str, Callable] = {**line.WORDS, **grid.WORDS}


def all_families() -> list[str]:
    """Every family name a class spec may give: the finite families, then the attack-only ones."""
    return [*FAMILIES, *ATTACK_ONLY]


def attack_only(name: str):
    """The module of the attack-only family ``name`` (its ``LISTING`` row for ``littlestone families``
    and its ``params_from_text`` for command-line parameters)."""
    import importlib

    return importlib.import_module(ATTACK_ONLY[name])


# ---------------------------------------------------------------------------------------- public API
def make(name: str, **params: object) -> ConceptClass:
    """Build the concept class ``name`` with the given parameters.

    Parameters
    ----------
    name : str
        A key of ``FAMILIES`` (``littlestone families`` lists them).
    **params
        The family's parameters (ints; ``p`` of ``random`` is a float). Omitted ones take their
        defaults.

    Returns
    -------
    ConceptClass
        With ``family=name`` and ``params`` holding every parameter, defaults included.

    Raises
    ------
    ValueError
        With a one-line message: unknown family or parameter, missing or non-integer value,
        impossible value, or an instance over ``MAX_CELLS`` cells / ``MAX_POINTS`` points.

    Examples
    --------
    >>> C = make("monotone-disjunctions", n=2, k=1)
    >>> C.points
    ((0, 0), (0, 1), (1, 0), (1, 1))
    >>> C.matrix.astype(int).tolist()     # 0, x_1, x_0
    [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1]]
    """
    spec = _family(name)
    full = resolve_params(name, params)
    matrix, points = spec.builder(**full)
    gens = spec.symmetry(full)
    return ConceptClass(matrix, points, family=name, params=full, facts=spec.facts(full),
                        words=functools.partial(concept_text, name, full),
                        symmetry=Symmetry(gens, len(points)) if gens else None)


def family_facts(name: str, params: dict) -> dict:
    """The facts of family ``name`` with ``params`` (defaults filled in; size limits not checked).

    Examples
    --------
    >>> family_facts("monotone-disjunctions", {"n": 8, "k": 2})
    {'n': 8, 'monotone_or': 2, 'or_of_literals': 2}
    """
    return dict(_family(name).facts(resolve_params(name, params, limits=False)))


def resolve_params(name: str, params: dict, *, limits: bool = True) -> dict:
    """Check ``params`` for family ``name`` and return them with the defaults filled in.

    Raises ValueError (one line) for every problem ``make`` would refuse, without building anything;
    with ``limits=False`` the size limits (``MAX_CELLS``, ``MAX_POINTS``) are not checked, for the
    implicit forms of :func:`literal_form`.
    """
    spec = _family(name)
    valid = [p.name for p in spec.params]
    for key in params:
        if key not in valid:
            raise ValueError(f"{name}: unknown parameter {key!r}; valid parameters: {', '.join(valid)}")
    full = {}
    for p in spec.params:
        if p.name in params:
            full[p.name] = typed(name, p, params[p.name])
        elif p.required:
            raise ValueError(f"{name}: missing required parameter {p.name} ({p.doc}); give {p.name}=VALUE")
        elif isinstance(p.default, str):
            full[p.name] = full[p.default]  # e.g. k defaults to n
        else:
            full[p.name] = p.default
    spec.check(full)
    if limits:
        check_limits(spec, full)
    return full


def parse_params(name: str, items) -> dict:
    """Turn the CLI's ``["n=8", "k=2"]`` into ``{"n": 8, "k": 2}`` for family ``name``.

    Values are ints, except ``p`` (a float). Only the given parameters are returned (``make`` fills in
    the defaults); ranges are checked by ``make``.

    Examples
    --------
    >>> parse_params("random", ["m=10", "N=4", "p=0.25"])
    {'m': 10, 'N': 4, 'p': 0.25}
    >>> parse_params("thresholds", ["N"])
    Traceback (most recent call last):
    ...
    ValueError: thresholds: expected KEY=VALUE, got 'N'; write e.g. N=8
    """
    spec = _family(name)
    valid = [p.name for p in spec.params]
    out: dict = {}
    for item in items:
        key, sep, text = str(item).partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key:
            example = spec.params[0].name if spec.params else "k"
            raise ValueError(f"{name}: expected KEY=VALUE, got {item!r}; write e.g. {example}=8")
        if key not in valid:
            raise ValueError(f"{name}: unknown parameter {key!r}; valid parameters: {', '.join(valid)}")
        if key in out:
            raise ValueError(f"{name}: parameter {key} given twice; give it once")
        p = spec.param(key)
        if p.type is float:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{name}: {key} must be a number, got {text!r}; write e.g. {key}=0.5") from None
        else:
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{name}: {key} must be an integer, got {text!r}; write e.g. {key}=8") from None
        out[key] = typed(name, p, value)
    return out


def describe() -> list[dict]:
    """Rows for the ``littlestone families`` listing, one per family.

    Each row has ``name``, ``params`` (with defaults, e.g. ``"N empty=1"``), ``size`` (a formula),
    ``opt`` (the known Opt(C), "" if none), ``known`` (known Opt and VC values with their sources),
    ``domain`` and ``description``.

    Examples
    --------
    >>> row = describe()[0]
    >>> row["name"], row["params"], row["size"], row["opt"]
    ('thresholds', 'N', 'N + 1', 'floor(log2(N+1))')
    """
    return [
        {
            "name": f.name,
            "params": f.signature,
            "size": f.size,
            "opt": f.known_opt,
            "known": f.known,
            "domain": f.domain,
            "description": f.description,
        }
        for f in FAMILIES.values()
    ]


# ---------------------------------------------------------------------------------------- checks
def _family(name) -> Family:
    spec = FAMILIES.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ValueError(f"unknown family {name!r}; known families: {', '.join(FAMILIES)}")
    return spec



def literal_form(name: str, **params) -> LiteralForm:
    """The concepts of family ``name`` as a :class:`LiteralForm`, for any n the concepts allow.

    Families with a literal form: ``LITERAL_FAMILIES``. The size limits of ``make`` on the domain do
    not apply; the class itself may hold at most ``MAX_LITERAL_CONCEPTS`` concepts.

    Raises
    ------
    ValueError
        One line: a family without a literal form, bad parameters (as ``make`` says), or too many
        concepts.

    Examples
    --------
    >>> F = literal_form("monotone-disjunctions", n=32, k=2)
    >>> len(F), F.name(1), F.name(len(F) - 1)
    (529, 'x31', 'x0 v x1')
    >>> literal_form("thresholds", N=3)
    Traceback (most recent call last):
    ...
    ValueError: thresholds has no literal form; the families with one are monotone-disjunctions, disjunctions, monotone-conjunctions, conjunctions, parities, k-of-r
    """
    if name not in LITERAL_FAMILIES:
        raise ValueError(f"{name} has no literal form; the families with one are {', '.join(LITERAL_FAMILIES)}")
    full = resolve_params(name, params, limits=False)
    spec = FAMILIES[name]
    count = spec.count(full)
    if count > MAX_LITERAL_CONCEPTS:
        shown = count if count != math.inf else "more than 2^64"
        raise ValueError(f"{name} with {fmt(full)} has {shown} concepts, over the limit of 2^20 = "
                         f"{MAX_LITERAL_CONCEPTS} for a class listed by its concepts; lower n or k")
    return literal.build_form(name, full)


# ---------------------------------------------------------------------------------------- concepts in words
def concept_text(name: str, params: dict, c: int) -> Optional[str]:
    """Concept ``c`` (row ``c`` of ``make(name, **params)``) in words, or None where the family has no
    natural wording (halfspaces, decision lists, random classes).

    {0,1}^n families name variables x0 .. x{n-1} (x_i is coordinate i of a point) and read as
    :meth:`LiteralForm.name`; on {1..N} the point is x; a rectangle is [a1, b1] x [a2, b2] over the grid
    points (i, j); ``all-functions`` lists the points labelled 1. Constants are ``true`` and ``false``.
    Works for any n the concepts allow (the domain is never built).

    Raises
    ------
    ValueError
        Bad parameters (as ``make`` says), or ``c`` out of range.

    Examples
    --------
    >>> concept_text("monotone-disjunctions", {"n": 4, "k": 2}, 5)
    'x1 v x3'
    >>> concept_text("thresholds", {"N": 5}, 2), concept_text("thresholds", {"N": 5}, 5)
    ('x >= 3', 'false')
    >>> concept_text("intervals", {"N": 4}, 1), concept_text("rectangles", {"N": 2}, 1)
    ('1 <= x <= 2', '[1, 1] x [1, 2]')
    >>> concept_text("k-of-r", {"n": 5, "r": 3, "k": 2}, 0), concept_text("halfspaces", {"n": 2}, 0) is None
    ('at least 2 of {x2, x3, x4}', True)
    """
    spec = _family(name)
    full = resolve_params(name, params, limits=False)
    if name not in _WORDS and name not in LITERAL_FAMILIES:
        return None
    count = spec.count(full)
    if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < count:
        raise ValueError(f"{name}: concept {c!r} is not an index of the class's {count} concepts; give 0 <= c < {count}")
    c = int(c)
    if name in _WORDS:
        return _WORDS[name](full, c)
    return literal_form(name, **full).name(c)


