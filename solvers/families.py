"""Named families of concept classes: the classes the seeds name, and the usual test beds.

``make(name, **params)`` builds a :class:`~solvers.concept_class.ConceptClass` whose ``family`` and
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
halfspaces n (n <= 5)      4, 14, 104, 1882, 94572 (A000609)      VC = n + 1
rectangles N               (N(N+1)/2)^2 + 1                       VC = 4 for N >= 3
k-of-r n r k               C(n, r)                                -
decision-lists n (n <= 6)  sum_j C(n, j) A005612(j)               -
random m N [p] [seed]      <= m                                   -
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

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from .concept_class import ConceptClass

__all__ = [
    "make",
    "FAMILIES",
    "Family",
    "Param",
    "describe",
    "parse_params",
    "resolve_params",
    "MAX_CELLS",
    "MAX_POINTS",
    "LiteralForm",
    "literal_form",
    "LITERAL_FAMILIES",
    "MAX_LITERAL_CONCEPTS",
    "concept_text",
]

#: The largest matrix (concepts x points) ``make`` builds: 2^28 cells, e.g. 16384 x 16384.
MAX_CELLS = 2**28
#: The largest domain ``make`` builds (2^20 points: {0,1}^20).
MAX_POINTS = 2**20

# The largest weight any threshold function on n <= 5 variables needs (in its best integer
# realisation); checked by the exact counts of A000609 in tests/solvers/test_families.py.
_HALFSPACE_WEIGHTS = {1: 1, 2: 1, 3: 2, 4: 3, 5: 5}
_HALFSPACE_COUNTS = {1: 4, 2: 14, 3: 104, 4: 1882, 5: 94572}  # OEIS A000609, n = 1..5

# OEIS A005612: the 1-decision-list ("unate cascade") functions of exactly j variables, j = 1..7;
# j = 0 has the two constants. The functions of n variables number sum_j C(n, j) A005612(j).
_A005612 = (2, 2, 8, 64, 736, 10624, 183936, 3715072)


# ---------------------------------------------------------------------------------------- specs
REQUIRED = None  # the default of a required parameter


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its name, type (int or float), default and meaning.

    ``default`` is ``REQUIRED`` (None) for a required parameter, a value, or the name of another
    parameter whose value it copies (``k`` defaults to ``"n"``).
    """

    name: str
    type: type
    default: object
    doc: str

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def __str__(self) -> str:
        return self.name if self.required else f"{self.name}={self.default}"


@dataclass(frozen=True)
class Family:
    """A named family of concept classes.

    Attributes
    ----------
    name, description, domain : str
        The family's name (as ``make`` takes it), a one-line description, and its domain.
    params : tuple of Param
        The parameters in order; a ``Param`` with default None is required.
    size : str
        |C| as a formula in the parameters.
    known : str
        The known values of Opt(C) and of the VC dimension, with their source ("" when none).
    builder : callable
        ``builder(**params) -> (matrix, points)``, the bool matrix (concepts x points) and the points.
    check : callable
        ``check(params)`` raises ValueError (one line) for impossible values.
    count : callable
        ``count(params) -> int``: |C| from the formula (for ``random``, the upper bound m).
    n_points : callable
        ``n_points(params) -> int``: the size of the domain.
    main : tuple of str
        The parameters to lower when an instance is too big (the first gets a suggested value).
    opt, vc : callable
        ``opt(params)`` / ``vc(params)``: the known value for these parameters, or None.
    known_opt : str
        The known Opt(C) as a short formula for the listing ("" when none).
    """

    name: str
    params: tuple
    description: str
    domain: str
    size: str
    known: str
    builder: Callable
    check: Callable
    count: Callable
    n_points: Callable
    main: tuple
    opt: Callable = lambda p: None
    vc: Callable = lambda p: None
    known_opt: str = ""

    def param(self, key: str) -> Param:
        for p in self.params:
            if p.name == key:
                return p
        raise KeyError(key)

    @property
    def signature(self) -> str:
        """``"N empty=1"``: the parameters with their defaults, as the CLI takes them."""
        return " ".join(str(p) for p in self.params)


# ---------------------------------------------------------------------------------------- public API
def make(name: str, **params) -> ConceptClass:
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
    return ConceptClass(matrix, points, family=name, params=full)


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
            full[p.name] = _typed(name, p, params[p.name])
        elif p.required:
            raise ValueError(f"{name}: missing required parameter {p.name} ({p.doc}); give {p.name}=VALUE")
        elif isinstance(p.default, str):
            full[p.name] = full[p.default]  # e.g. k defaults to n
        else:
            full[p.name] = p.default
    spec.check(full)
    if limits:
        _check_limits(spec, full)
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
        out[key] = _typed(name, p, value)
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


def _typed(name: str, p: Param, value):
    if p.type is float:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{name}: {p.name} must be a number, got {value!r}; write e.g. {p.name}=0.5")
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{name}: {p.name} must be a finite number, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name}: {p.name} must be an integer, got {value!r}; write e.g. {p.name}=8")
    return int(value)


def _at_least(name: str, params: dict, key: str, low: int) -> None:
    if params[key] < low:
        raise ValueError(f"{name}: {key} must be at least {low}, got {params[key]}; give {key} >= {low}")


def _flag(name: str, params: dict, key: str) -> None:
    if params[key] not in (0, 1):
        raise ValueError(f"{name}: {key} must be 0 or 1, got {params[key]}; give {key}=0 or {key}=1")


def _at_most(name: str, params: dict, key: str, other: str) -> None:
    if params[key] > params[other]:
        raise ValueError(
            f"{name}: {key} must be at most {other}, got {key}={params[key]} > {other}={params[other]}; "
            f"lower {key} or raise {other}"
        )


def _check_limits(spec: Family, params: dict) -> None:
    """Refuse instances over MAX_POINTS points or MAX_CELLS cells, naming the largest allowed value."""
    points = spec.n_points(params)
    if points > MAX_POINTS:
        shown = points if points != math.inf else "more than 2^64"
        what = f"{shown} points, over the limit of 2^20 = {MAX_POINTS}"
    else:
        rows = spec.count(params)
        if rows * points <= MAX_CELLS:
            return
        if rows == math.inf:
            what = f"more than 2^64 concepts, over the limit of 2^28 = {MAX_CELLS} matrix cells"
        else:
            what = f"{rows} x {points} = {rows * points} matrix cells, over the limit of 2^28 = {MAX_CELLS}"
    key, *others = spec.main
    largest = _largest_fitting(spec, params, key)
    hint = f"lower {key} to at most {largest}" if largest is not None else f"lower {key}"
    if others:
        hint += f" (or lower {' or '.join(others)})"
    raise ValueError(f"{spec.name} with {_fmt(params)} has {what}; {hint}")


def _largest_fitting(spec: Family, params: dict, key: str) -> Optional[int]:
    def fits(v: int) -> bool:
        q = dict(params, **{key: v})
        try:
            spec.check(q)
        except ValueError:
            return False
        pts = spec.n_points(q)
        return pts <= MAX_POINTS and spec.count(q) * pts <= MAX_CELLS

    lo, hi = 0, params[key]
    while lo <= hi and not fits(lo):
        lo += 1
        if lo > 64:
            return None
    if lo > hi:
        return None
    while hi - lo > 1:  # bisection: the size grows with the main parameter
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


def _fmt(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


# ---------------------------------------------------------------------------------------- helpers
def _cube_points(n: int) -> list[tuple[int, ...]]:
    """{0,1}^n in the order of itertools.product([0, 1], repeat=n)."""
    return list(itertools.product((0, 1), repeat=n))


def _line_points(N: int) -> list[tuple[int]]:
    return [(x,) for x in range(1, N + 1)]


def _kron_power(factor, n: int, combine: str) -> np.ndarray:
    """The n-fold Kronecker power of a bool ``factor`` (a x b) under ``combine`` ("and", "or", "xor").

    Row ``(s_0, ..., s_{n-1})`` (base a, s_0 most significant) and column ``(x_0, ..., x_{n-1})``
    (base b) hold ``factor[s_0, x_0] <op> ... <op> factor[s_{n-1}, x_{n-1}]``: the truth table of a
    formula that combines one factor per variable, e.g. a conjunction of literals.
    """
    factor = np.asarray(factor, dtype=bool)
    a, b = factor.shape
    out = np.empty((a**n, b**n), dtype=bool)
    out[0, 0] = combine == "and"  # the empty formula
    r, c = 1, 1
    # Fast: doubling in place, so the result is written once (no temporaries of the full size).
    for _ in range(n):
        M = out[:r, :c]
        blocks = [(p, q) for p in range(a) for q in range(b) if (p, q) != (0, 0)] + [(0, 0)]
        for p, q in blocks:  # (0, 0) last: it is where M lives
            dst = out[p * r:(p + 1) * r, q * c:(q + 1) * c]
            f = bool(factor[p, q])
            if combine == "and":
                if not f:
                    dst[...] = False
                elif (p, q) != (0, 0):
                    dst[...] = M
            elif combine == "or":
                if f:
                    dst[...] = True
                elif (p, q) != (0, 0):
                    dst[...] = M
            else:  # xor
                if f:
                    np.logical_not(M, out=dst)
                elif (p, q) != (0, 0):
                    dst[...] = M
        r, c = r * a, c * b
    return out


def _words(n: int, letters: int, k: int) -> np.ndarray:
    """All words over {0..letters-1} of length n with at most k non-zero letters, in lexicographic order.

    Returned as an int8 array (words, n). Built a position at a time, pruning prefixes with more than
    k non-zero letters, so the work is proportional to the output.
    """
    W = np.zeros((1, 0), dtype=np.int8)
    alphabet = np.arange(letters, dtype=np.int8)
    for _ in range(n):
        W = np.hstack([np.repeat(W, letters, axis=0), np.tile(alphabet, len(W))[:, None]])
        W = W[np.count_nonzero(W, axis=1) <= k]
    return W


def _masks(words: np.ndarray, letter: int) -> np.ndarray:
    """The mask (variable i at bit n-1-i) of the positions where each word has ``letter``."""
    n = words.shape[1]
    weights = (1 << np.arange(n - 1, -1, -1, dtype=np.int64))
    return (words == letter).astype(np.int64) @ weights


def _popcount(a: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(a)
    a = np.ascontiguousarray(a, dtype=np.int64)
    table = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)
    return table[a.view(np.uint8)].reshape(a.shape + (8,)).sum(axis=-1)


def _by_rows(n_rows: int, n_cols: int, block: Callable[[slice], np.ndarray]) -> np.ndarray:
    """A bool (n_rows, n_cols) matrix filled a band of rows at a time by ``block(rows)``."""
    out = np.empty((n_rows, n_cols), dtype=bool)
    step = max(1, (1 << 22) // max(1, n_cols))  # bands of ~4M cells keep the temporaries small
    for start in range(0, n_rows, step):
        rows = slice(start, min(n_rows, start + step))
        out[rows] = block(rows)
    return out


def _cube_codes(n: int) -> np.ndarray:
    """The points of {0,1}^n as integers, in product order (so code j is point j)."""
    return np.arange(1 << n, dtype=np.int64)


# ---------------------------------------------------------------------------------------- builders
def thresholds(N: int):
    """Thresholds on {1..N}: c_t(x) = [x >= t] for t = 1..N+1 (t = N+1 is the empty concept).

    Size N + 1. Opt = floor(log2(N+1)): the Halving bound Opt(C) <= lg |C| ([Rivest94], section 2.3.2)
    is met by the adversary that bisects the remaining thresholds. VC = 1.
    """
    x = np.arange(1, N + 1)
    t = np.arange(1, N + 2)
    return x[None, :] >= t[:, None], _line_points(N)


def intervals(N: int, empty: int = 1):
    """Intervals [a, b], 1 <= a <= b <= N, on {1..N} (lexicographic in (a, b)), then the empty concept.

    Size N(N+1)/2 + empty. VC = min(N, 2) (no interval holds the two ends of a triple but not its
    middle); without the empty concept min(N - 1, 2) (two points are shattered only if some interval
    misses both).
    """
    a, b = np.triu_indices(N)  # 0-based a <= b, lexicographic
    x = np.arange(N)
    m = (x[None, :] >= a[:, None]) & (x[None, :] <= b[:, None])
    if empty:
        m = np.vstack([m, np.zeros((1, N), dtype=bool)])
    return m, _line_points(N)


def singletons(N: int, empty: int = 1):
    """The singletons {i}, i = 1..N, on {1..N}, then the empty concept.

    Size N + empty. Opt = VC = 1 when there are at least two concepts (the learner that predicts 0
    errs once, on the target's point).
    """
    m = np.eye(N, dtype=bool)
    if empty:
        m = np.vstack([m, np.zeros((1, N), dtype=bool)])
    return m, _line_points(N)


def all_functions(n: int):
    """All 2^n functions on the n points (j,), j = 0..n-1; row f is the f-th tuple of product order.

    Size 2^n. Opt = VC = n: the n points are shattered, and Opt(C) <= lg |C| = n ([Rivest94]).
    """
    f = np.arange(1 << n, dtype=np.int64)
    m = ((f[:, None] >> np.arange(n - 1, -1, -1)) & 1).astype(bool)
    return m, [(j,) for j in range(n)]


def monotone_conjunctions(n: int):
    """Monotone conjunctions on {0,1}^n, one per set S of variables: c_S(x) = AND_{i in S} x_i.

    Rows in product order of the indicator of S (so row 0 is the empty conjunction, constant 1, and
    the last row is x_0 x_1 ... x_{n-1}). Size 2^n. Opt = VC = n: [Mehta]
    learns the class by elimination with at most n mistakes, and the n points 1 - e_i are shattered.
    """
    # Per variable: absent -> [1, 1], present -> [0, 1] (its value x_i).
    return _kron_power([[1, 1], [0, 1]], n, "and"), _cube_points(n)


def conjunctions(n: int, false: int = 1):
    """Conjunctions of literals on {0,1}^n: each variable absent, positive or negated; then "false".

    Rows in base-3 order of the variables' states (0 absent, 1 x_i, 2 not x_i). Size 3^n + false.
    With false = 1, Opt = n + 1: the dual of ELIM ([OnlineAlgs]) makes at most
    n + 1 mistakes (the first mistake removes n of the 2n literals, each later one at least one), and
    the adversary forces n + 1. VC = n for n >= 2 (2 for n = 1 with false = 1). Without "false"
    (false = 0) solvers.opt computes Opt = 1, 3, 4, 5 for n = 1..4 (no published value is used).
    """
    m = _kron_power([[1, 1], [0, 1], [1, 0]], n, "and")
    if false:
        m = np.vstack([m, np.zeros((1, 1 << n), dtype=bool)])
    return m, _cube_points(n)


def monotone_disjunctions(n: int, k: Optional[int] = None):
    """Monotone disjunctions of at most k variables on {0,1}^n: c_S(x) = OR_{i in S} x_i, |S| <= k.

    The empty OR is constant 0. Rows in product order of the indicator of S. Size
    sum_{i <= k} C(n, i) ([Rivest94], the class Winnow learns). Opt = VC = n
    when k = n (the points e_i are shattered; Opt <= lg 2^n); Opt = floor(log2(n+1)) when k = 1.
    """
    k = n if k is None else k
    if k >= n:
        # Per variable: absent -> [0, 0], present -> [0, 1].
        return _kron_power([[0, 0], [0, 1]], n, "or"), _cube_points(n)
    S = _masks(_words(n, 2, k), 1)
    x = _cube_codes(n)
    m = _by_rows(len(S), len(x), lambda r: (S[r, None] & x[None, :]) != 0)
    return m, _cube_points(n)


def disjunctions(n: int, k: Optional[int] = None):
    """ORs of literals over at most k distinct variables on {0,1}^n: the class ELIM learns ([OnlineAlgs]).

    Each variable is absent, positive or negated (rows in base-3 order of these states, the empty OR,
    constant 0, first); then the constant 1, which is every OR holding both x_i and not x_i (ELIM's
    first hypothesis L_1 computes it). Size sum_{i <= k} C(n, i) 2^i + [k >= 1]; for k = n that is
    3^n + 1, and Opt = n + 1: ELIM makes at most n + 1 mistakes ([OnlineAlgs]) and the
    adversary forces n + 1.
    """
    k = n if k is None else k
    if k >= n:
        # Per variable: absent -> [0, 0], x_i -> [0, 1], not x_i -> [1, 0].
        m = _kron_power([[0, 0], [0, 1], [1, 0]], n, "or")
    else:
        words = _words(n, 3, k)
        P, Q = _masks(words, 1), _masks(words, 2)
        x = _cube_codes(n)
        full = (1 << n) - 1
        m = _by_rows(len(P), len(x), lambda r: ((P[r, None] & x[None, :]) | (Q[r, None] & (full ^ x)[None, :])) != 0)
    if k >= 1:
        m = np.vstack([m, np.ones((1, 1 << n), dtype=bool)])
    return m, _cube_points(n)


def parities(n: int):
    """Parities on {0,1}^n: c_S(x) = XOR_{i in S} x_i (the empty parity is constant 0).

    Rows in product order of the indicator of S. Size 2^n. Opt = VC = n (the points e_i are
    shattered; Opt <= lg 2^n by [Rivest94]).
    """
    return _kron_power([[0, 0], [0, 1]], n, "xor"), _cube_points(n)


def halfspaces(n: int):
    """All linear threshold functions on {0,1}^n: x -> [w.x >= t], constants included (n <= 5).

    Every threshold function on n <= 5 variables has an integer realisation with |w_i| <= W, W = 1, 1,
    2, 3, 5 for n = 1..5, so enumerating w in [-W, W]^n and, for each w, every threshold between or
    around the distinct values of w.x finds them all. Rows sorted by truth table read as an integer
    (point j at bit j). Size 4, 14, 104, 1882, 94572 for n = 1..5 (OEIS A000609). VC = n + 1 (the
    points 0, e_1, ..., e_n are affinely independent; Radon's theorem bounds it above).
    """
    W = _HALFSPACE_WEIGHTS[n]
    X = np.array(_cube_points(n), dtype=np.int64)                      # (2^n, n)
    w = np.array(list(itertools.product(range(-W, W + 1), repeat=n)), dtype=np.int64)
    values = w @ X.T                                                   # (weights, 2^n)
    order = np.argsort(-values, axis=1, kind="stable")                 # points by decreasing w.x
    sorted_values = np.take_along_axis(values, order, axis=1)
    bits = np.left_shift(np.int64(1), order)
    # prefix[i] = the points with the i+1 largest values; a cut after i is a threshold when the
    # next value is strictly smaller (or i is the last point: the constant 1).
    prefix = np.bitwise_or.accumulate(bits, axis=1)
    cut = np.ones_like(values, dtype=bool)
    cut[:, :-1] = sorted_values[:, :-1] > sorted_values[:, 1:]
    tables = np.unique(np.concatenate([prefix[cut], [0]]))
    m = ((tables[:, None] >> np.arange(1 << n)) & 1).astype(bool)
    return m, _cube_points(n)


def rectangles(N: int):
    """Axis-aligned rectangles [a1, b1] x [a2, b2] on the grid {1..N}^2, then the empty rectangle.

    Points (i, j) in row-major order; rows in lexicographic order of ((a1, b1), (a2, b2)). Size
    (N(N+1)/2)^2 + 1. VC = 4 for N >= 3 (the diamond (1,2), (2,1), (2,3), (3,2) is shattered; of
    any 5 points one is in the bounding box of the others).
    """
    I, _ = intervals(N, empty=0)                                       # (N(N+1)/2, N)
    M = len(I)
    m = (I[:, None, :, None] & I[None, :, None, :]).reshape(M * M, N * N)
    m = np.vstack([m, np.zeros((1, N * N), dtype=bool)])
    return m, [(i, j) for i in range(1, N + 1) for j in range(1, N + 1)]


def k_of_r(n: int, r: int, k: int):
    """"At least k of the r variables in R are on", for every r-subset R of the n variables.

    The k-of-r functions Winnow learns in [15-859B]. Rows in product order
    of the indicator of R. Size C(n, r) (every variable of R is relevant, so the functions differ).
    k = 1 gives ORs and k = r ANDs of exactly r variables.
    """
    words = _words(n, 2, r)
    R = _masks(words[words.sum(axis=1) == r], 1)
    x = _cube_codes(n)
    m = _by_rows(len(R), len(x), lambda rows: _popcount(R[rows, None] & x[None, :]) >= k)
    return m, _cube_points(n)


def decision_lists(n: int):
    """1-decision lists on {0,1}^n: "if l_1 then b_1 elif l_2 then b_2 ... else b", l_i literals.

    A variable need not be tested twice (after "if x_i then b" the rest of the list only sees
    x_i = 0), so the functions of lists over a set V of variables are the two constants and, for each
    variable v in V, literal l of v and bit b, "l ? b : g" with g a function of a list over V - {v}.
    Rows sorted by truth table read as an integer (point j at bit j). Sizes for n = 1..6: 4, 14, 96,
    1050, 15036, 260134 (n = 7 would have 5253912 concepts x 128 points, over MAX_CELLS), matching
    sum_j C(n, j) A005612(j), the 1-decision-list functions of exactly j variables (OEIS A005612;
    Eiter, Ibaraki, Makino 2002). [15-859B] mentions decision lists.
    """
    P = 1 << n
    ones = np.uint64((1 << P) - 1)
    j = np.arange(P, dtype=np.uint64)
    # positive[i]: the truth table of x_i (point j has x_i = bit n-1-i of j), point j at bit j.
    positive = [np.bitwise_or.reduce(np.left_shift(np.uint64(1), j[((j >> np.uint64(n - 1 - i)) & np.uint64(1)) == 1]))
                for i in range(n)]
    memo: dict[int, np.ndarray] = {}

    def lists(V: int) -> np.ndarray:  # the functions of the decision lists over the variable set V
        if V not in memo:
            parts = [np.array([0, ones], dtype=np.uint64)]
            for i in range(n):
                if V >> i & 1:
                    g = lists(V & ~(1 << i))
                    for lit in (positive[i], positive[i] ^ ones):
                        parts.append(g | lit)              # if lit then 1 else g
                        parts.append(g & (lit ^ ones))     # if lit then 0 else g
            memo[V] = np.unique(np.concatenate(parts))
        return memo[V]

    tables = lists((1 << n) - 1)
    m = ((tables[:, None] >> np.arange(P, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    return m, _cube_points(n)


def random_class(m: int, N: int, p: float = 0.5, seed: int = 0):
    """m rows of N iid Bernoulli(p) labels from numpy.random.default_rng(seed), duplicates merged.

    Points (j,), j = 0..N-1. Size at most m (a single concept if all rows coincide, e.g. p = 0).
    """
    rng = np.random.default_rng(seed)
    return rng.random((m, N)) < p, [(j,) for j in range(N)]


# ---------------------------------------------------------------------------------------- checks
def _check_thresholds(q):
    _at_least("thresholds", q, "N", 1)


def _check_line(name):
    def check(q):
        _at_least(name, q, "N", 1)
        _flag(name, q, "empty")
    return check


def _check_n(name, low=1):
    def check(q):
        _at_least(name, q, "n", low)
    return check


def _check_conjunctions(q):
    _at_least("conjunctions", q, "n", 1)
    _flag("conjunctions", q, "false")


def _check_k_up_to_n(name):
    def check(q):
        _at_least(name, q, "n", 1)
        _at_least(name, q, "k", 0)
        _at_most(name, q, "k", "n")
    return check


def _check_halfspaces(q):
    _at_least("halfspaces", q, "n", 1)
    if q["n"] >= 6:
        raise ValueError(
            f"halfspaces: n={q['n']} is not supported (n = 6 already has 15028134 threshold functions); "
            "give n <= 5"
        )


def _check_k_of_r(q):
    for key in ("n", "r", "k"):
        _at_least("k-of-r", q, key, 1)
    _at_most("k-of-r", q, "r", "n")
    _at_most("k-of-r", q, "k", "r")


def _check_decision_lists(q):
    _at_least("decision-lists", q, "n", 1)
    if q["n"] >= 7:
        raise ValueError(
            f"decision-lists: n={q['n']} is too big (n = 7 already has 5253912 concepts x 128 points, "
            f"over the limit of 2^28 = {MAX_CELLS} cells); give n <= 6"
        )


def _check_random(q):
    _at_least("random", q, "m", 1)
    _at_least("random", q, "N", 1)
    if not 0.0 <= q["p"] <= 1.0:
        raise ValueError(f"random: p must be in [0, 1], got {q['p']}; give 0 <= p <= 1")
    _at_least("random", q, "seed", 0)


def _dl_count(n: int) -> int:
    return sum(math.comb(n, j) * _A005612[j] for j in range(n + 1)) if n < len(_A005612) else math.inf


def _k(q) -> int:
    return q["n"] if q.get("k") is None else q["k"]


def _monotone_disjunctions_opt(q) -> Optional[int]:
    k, n = _k(q), q["n"]
    if k == n:
        return n  # the points e_i are shattered, and Opt <= lg 2^n
    if k <= 1:
        return (n + 1).bit_length() - 1 if k == 1 else 0  # k = 1: n + 1 concepts, halved by any subset query
    return None


def _pow(base: int, n: int):
    """base^n, or infinity when it is far too big to build anyway (keeps the limit checks cheap)."""
    return base**n if n <= 64 else math.inf


# ---------------------------------------------------------------------------------------- registry
def _line_n(q):
    return q["N"]


def _cube_n(q):
    return _pow(2, q["n"])


_N = Param("N", int, None, "domain size")
_n = Param("n", int, None, "number of Boolean variables")
_empty = Param("empty", int, 1, "1 to include the empty concept")

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family(
            name="thresholds", params=(_N,), domain="{1..N}",
            description="thresholds x >= t on {1..N}, t = 1..N+1",
            size="N + 1",
            known="Opt = floor(log2(N+1)) (Halving bound, Rivest's notes; bisecting adversary); VC = 1",
            builder=thresholds, check=_check_thresholds,
            count=lambda q: q["N"] + 1, n_points=_line_n, main=("N",),
            opt=lambda q: (q["N"] + 1).bit_length() - 1, vc=lambda q: 1,
            known_opt="floor(log2(N+1))",
        ),
        Family(
            name="intervals", params=(_N, _empty), domain="{1..N}",
            description="intervals [a, b] on {1..N} (plus the empty concept if empty=1)",
            size="N(N+1)/2 + empty",
            known="VC = min(N, 2) (min(N - 1, 2) without the empty concept)",
            builder=intervals, check=_check_line("intervals"),
            count=lambda q: q["N"] * (q["N"] + 1) // 2 + q["empty"], n_points=_line_n, main=("N",),
            vc=lambda q: min(q["N"] - 1 + q["empty"], 2),
        ),
        Family(
            name="singletons", params=(_N, _empty), domain="{1..N}",
            description="the singletons {i} on {1..N} (plus the empty concept if empty=1)",
            size="N + empty",
            known="Opt = VC = 1 when |C| >= 2 (predict 0: one mistake)",
            builder=singletons, check=_check_line("singletons"),
            count=lambda q: q["N"] + q["empty"], n_points=_line_n, main=("N",),
            opt=lambda q: int(q["N"] + q["empty"] >= 2), vc=lambda q: int(q["N"] + q["empty"] >= 2),
            known_opt="1 (if |C| >= 2)",
        ),
        Family(
            name="all-functions", params=(_n,), domain="n points (j,)",
            description="all 2^n functions on n points",
            size="2^n",
            known="Opt = VC = n (shattered; Opt <= lg |C|, Rivest's notes)",
            builder=all_functions, check=_check_n("all-functions"),
            count=lambda q: _pow(2, q["n"]), n_points=lambda q: q["n"], main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
        ),
        Family(
            name="monotone-conjunctions", params=(_n,), domain="{0,1}^n",
            description="conjunctions of variables (the empty one is constant 1)",
            size="2^n",
            known="Opt = VC = n (elimination, Mehta's notes: <= n mistakes; 1 - e_i shattered)",
            builder=monotone_conjunctions, check=_check_n("monotone-conjunctions"),
            count=lambda q: _pow(2, q["n"]), n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
        ),
        Family(
            name="conjunctions", params=(_n, Param("false", int, 1, "1 to include the always-false concept")),
            domain="{0,1}^n",
            description="conjunctions of literals (plus the always-false concept if false=1)",
            size="3^n + false",
            known="Opt = n + 1 when false = 1 (dual of ELIM, the Online Algorithms slides); VC = n for n >= 2",
            builder=conjunctions, check=_check_conjunctions,
            count=lambda q: _pow(3, q["n"]) + q["false"], n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"] + 1 if q["false"] else None,
            vc=lambda q: q["n"] if q["n"] >= 2 else 1 + q["false"],
            known_opt="n + 1 (false=1)",
        ),
        Family(
            name="monotone-disjunctions", params=(_n, Param("k", int, "n", "largest number of variables")),
            domain="{0,1}^n",
            description="ORs of at most k variables (the empty one is constant 0); k defaults to n",
            size="sum_{i<=k} C(n, i)",
            known="Opt = VC = n when k = n (Rivest's notes, Winnow's class); Opt = floor(log2(n+1)) when k = 1",
            builder=monotone_disjunctions, check=_check_k_up_to_n("monotone-disjunctions"),
            count=lambda q: sum(math.comb(q["n"], i) for i in range(_k(q) + 1)), n_points=_cube_n, main=("n",),
            opt=_monotone_disjunctions_opt,
            vc=lambda q: q["n"] if _k(q) == q["n"] else (0 if _k(q) == 0 else None),
            known_opt="n (k=n)",
        ),
        Family(
            name="disjunctions", params=(_n, Param("k", int, "n", "largest number of variables")),
            domain="{0,1}^n",
            description="ORs of literals over at most k variables (ELIM's class, the Online Algorithms slides); k defaults to n",
            size="sum_{i<=k} C(n, i) 2^i + [k >= 1]  (3^n + 1 for k = n)",
            known="Opt = n + 1 when k = n (ELIM, the Online Algorithms slides)",
            builder=disjunctions, check=_check_k_up_to_n("disjunctions"),
            count=lambda q: sum(math.comb(q["n"], i) * 2**i for i in range(_k(q) + 1)) + int(_k(q) >= 1),
            n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"] + 1 if _k(q) == q["n"] else None,
            known_opt="n + 1 (k=n)",
        ),
        Family(
            name="parities", params=(_n,), domain="{0,1}^n",
            description="parities of subsets of variables (the empty one is constant 0)",
            size="2^n",
            known="Opt = VC = n (e_i shattered; Opt <= lg |C|, Rivest's notes)",
            builder=parities, check=_check_n("parities"),
            count=lambda q: _pow(2, q["n"]), n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
        ),
        Family(
            name="halfspaces", params=(_n,), domain="{0,1}^n",
            description="all linear threshold functions on {0,1}^n, constants included (n <= 5)",
            size="4, 14, 104, 1882, 94572 for n = 1..5 (OEIS A000609)",
            known="VC = n + 1",
            builder=halfspaces, check=_check_halfspaces,
            count=lambda q: _HALFSPACE_COUNTS.get(q["n"], 0), n_points=_cube_n, main=("n",),
            vc=lambda q: q["n"] + 1,
        ),
        Family(
            name="rectangles", params=(_N,), domain="{1..N}^2",
            description="axis-aligned rectangles on the N x N grid, plus the empty one",
            size="(N(N+1)/2)^2 + 1",
            known="VC = 4 for N >= 3",
            builder=rectangles, check=lambda q: _at_least("rectangles", q, "N", 1),
            count=lambda q: (q["N"] * (q["N"] + 1) // 2) ** 2 + 1, n_points=lambda q: q["N"] ** 2, main=("N",),
            vc=lambda q: 4 if q["N"] >= 3 else None,
        ),
        Family(
            name="k-of-r", params=(_n, Param("r", int, None, "size of the relevant set R"),
                                   Param("k", int, None, "how many of R must be on")),
            domain="{0,1}^n",
            description="[at least k of the r variables in R are on], over all r-subsets R",
            size="C(n, r)",
            known="",
            builder=k_of_r, check=_check_k_of_r,
            count=lambda q: math.comb(q["n"], q["r"]), n_points=_cube_n, main=("n",),
        ),
        Family(
            name="decision-lists", params=(_n,), domain="{0,1}^n",
            description="1-decision lists over n variables (n <= 6)",
            size="sum_j C(n, j) A005612(j): 4, 14, 96, 1050, 15036, 260134 for n = 1..6",
            known="",
            builder=decision_lists, check=_check_decision_lists,
            count=lambda q: _dl_count(q["n"]), n_points=_cube_n, main=("n",),
        ),
        Family(
            name="random", params=(Param("m", int, None, "number of random rows"), _N,
                                   Param("p", float, 0.5, "probability of a 1"),
                                   Param("seed", int, 0, "numpy.random.default_rng seed")),
            domain="N points (j,)",
            description="m iid Bernoulli(p) rows over N points, duplicates merged",
            size="<= m",
            known="",
            builder=random_class, check=_check_random,
            count=lambda q: q["m"], n_points=lambda q: q["N"], main=("m", "N"),
        ),
    ]
}


# ---------------------------------------------------------------------------------------- implicit forms
#: The largest class :func:`literal_form` enumerates (its concepts, not its domain): 2^20 concepts.
MAX_LITERAL_CONCEPTS = 2**20


@dataclass(frozen=True, eq=False)
class LiteralForm:
    """A family's concepts as formulas over literals, in ``make``'s row order, without the domain.

    For {0,1}^n families the concepts can be listed long after the domain (2^n points) cannot: an OR
    of at most 2 of 32 variables is one of 529 formulas. Concept ``c`` reads a 0/1 vector x through
    its positive literals ``P_c`` (x_i) and negative ones ``N_c`` (not x_i), and ``rule``:

    * ``"or"``: some literal of c holds (monotone-disjunctions, disjunctions);
    * ``"and"``: every literal of c holds (monotone-conjunctions, conjunctions);
    * ``"xor"``: an odd number of the variables of P_c are on (parities);
    * ``"at-least"``: at least ``k`` of the variables of P_c are on (k-of-r).

    The constant rows that ``make`` appends are formulas too: disjunctions' constant 1 is the OR of
    every x_i and every not x_i, conjunctions' constant 0 the AND of them. Row ``c`` of
    ``make(family, **params)`` is concept ``c`` here (checked in tests/solvers/test_families.py for
    small n), so a concept index means the same concept in both forms.

    Attributes
    ----------
    family : str
    params : dict
        Every parameter, defaults included (as ``make`` records them).
    n : int
        The number of variables.
    rule : str
    k : int
        The count of the ``"at-least"`` rule (1 otherwise).
    pos, neg : numpy.ndarray of uint64, shape (concepts, ceil(n / 64))
        The literals as bit masks: variable i is bit i % 64 of word i // 64.

    Examples
    --------
    >>> F = literal_form("monotone-disjunctions", n=3, k=1)
    >>> len(F), [F.name(c) for c in range(len(F))]
    (4, ['false', 'x2', 'x1', 'x0'])
    >>> F.labels((0, 1, 0)).astype(int).tolist()        # the column of point (0, 1, 0)
    [0, 0, 1, 0]
    >>> bool((F.matrix([(0, 1, 0), (1, 1, 1)]) == make("monotone-disjunctions", n=3, k=1).matrix[:, [2, 7]]).all())
    True
    """

    family: str
    params: dict
    n: int
    rule: str
    k: int
    pos: np.ndarray
    neg: np.ndarray

    def __len__(self) -> int:
        return self.pos.shape[0]

    def pack(self, x) -> np.ndarray:
        """A 0/1 vector of length n as its words (uint64, variable i at bit i % 64 of word i // 64)."""
        return _pack_rows(np.asarray(x, dtype=bool).reshape(1, self.n))[0]

    def labels(self, x) -> np.ndarray:
        """The labels every concept gives the 0/1 vector ``x``: a bool array, one per concept."""
        xw = self.pack(x)
        if self.rule == "or":
            hit = (self.pos & xw) | (self.neg & (_full_words(self.n) & ~xw))
            return hit.any(axis=1)
        if self.rule == "and":
            miss = (self.pos & (_full_words(self.n) & ~xw)) | (self.neg & xw)
            return ~miss.any(axis=1)
        on = _popcount(self.pos & xw).sum(axis=1)
        return (on & 1).astype(bool) if self.rule == "xor" else on >= self.k

    def matrix(self, points) -> np.ndarray:
        """The bool matrix (concepts, points) on the given 0/1 vectors."""
        return np.stack([self.labels(x) for x in points], axis=1)

    def literals(self, c: int) -> tuple[list[int], list[int]]:
        """(P_c, N_c): the variables of concept c's positive and negative literals."""
        return _bits(self.pos[c], self.n), _bits(self.neg[c], self.n)

    def name(self, c: int) -> str:
        """Concept c as a formula over x0 .. x{n-1} (x_i is coordinate i): ``x0 v ~x3``, ``x1 ^ x2``,
        ``x0 + x4 (mod 2)``, ``at least 2 of {x0, x1, x5}``; a constant is ``true`` or ``false``."""
        P, N = self.literals(c)
        lits = [f"~x{i}" if i in N else f"x{i}" for i in sorted(P + N)]
        if self.rule == "or":
            return "true" if set(P) & set(N) else (" v ".join(lits) or "false")
        if self.rule == "and":
            return "false" if set(P) & set(N) else (" ^ ".join(lits) or "true")
        if self.rule == "xor":
            return f"{' + '.join(lits)} (mod 2)" if lits else "false"
        return f"at least {self.k} of {{{', '.join(lits)}}}"


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
        raise ValueError(f"{name} with {_fmt(full)} has {shown} concepts, over the limit of 2^20 = "
                         f"{MAX_LITERAL_CONCEPTS} for a class listed by its concepts; lower n or k")
    n = full["n"]
    rule, k, letters, most, extra = LITERAL_FAMILIES[name](full)
    words = _words(n, letters, most)
    if name == "k-of-r":
        words = words[np.count_nonzero(words, axis=1) == full["r"]]
    pos, neg = words == 1, words == 2
    if extra:  # the constant row make appends: every literal at once
        pos = np.vstack([pos, np.ones((1, n), dtype=bool)])
        neg = np.vstack([neg, np.ones((1, n), dtype=bool)])
    return LiteralForm(name, full, n, rule, k, _pack_rows(pos), _pack_rows(neg))


# family -> params -> (rule, k, letters per variable, most non-zero letters, constant row appended)
LITERAL_FAMILIES: dict[str, Callable] = {
    "monotone-disjunctions": lambda q: ("or", 1, 2, _k(q), False),
    "disjunctions": lambda q: ("or", 1, 3, _k(q), _k(q) >= 1),
    "monotone-conjunctions": lambda q: ("and", 1, 2, q["n"], False),
    "conjunctions": lambda q: ("and", 1, 3, q["n"], bool(q["false"])),
    "parities": lambda q: ("xor", 1, 2, q["n"], False),
    "k-of-r": lambda q: ("at-least", q["k"], 2, q["r"], False),
}


def _pack_rows(bits: np.ndarray) -> np.ndarray:
    """Rows of bools (m, n) as uint64 words (m, ceil(n / 64)), column i at bit i % 64 of word i // 64."""
    m, n = bits.shape
    width = max(1, -(-n // 64))
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((m, width * 8), dtype=np.uint8)
    out[:, :packed.shape[1]] = packed
    return out.view("<u8").astype(np.uint64)


def _full_words(n: int) -> np.ndarray:
    return _pack_rows(np.ones((1, n), dtype=bool))[0]


def _bits(words: np.ndarray, n: int) -> list[int]:
    return [i for i in range(n) if int(words[i // 64]) >> (i % 64) & 1]


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


def _interval(N: int, c: int) -> tuple[int, int]:
    """The c-th interval [a, b], 1 <= a <= b <= N, in lexicographic order of (a, b)."""
    for a in range(1, N + 1):
        width = N - a + 1
        if c < width:
            return a, a + c
        c -= width
    raise AssertionError("index checked by the caller")


def _interval_words(q, c):
    if c == q["N"] * (q["N"] + 1) // 2:
        return "false"
    a, b = _interval(q["N"], c)
    return f"x = {a}" if a == b else f"{a} <= x <= {b}"


def _rectangle_words(q, c):
    M = q["N"] * (q["N"] + 1) // 2
    if c == M * M:
        return "false"
    (a1, b1), (a2, b2) = _interval(q["N"], c // M), _interval(q["N"], c % M)
    return f"[{a1}, {b1}] x [{a2}, {b2}]"


def _all_functions_words(q, c):
    n = q["n"]
    ones = [j for j in range(n) if c >> (n - 1 - j) & 1]
    return "false" if not ones else "true" if len(ones) == n else f"x in {{{', '.join(map(str, ones))}}}"


# family -> (params, index) -> words, for the families without a literal form
_WORDS: dict[str, Callable] = {
    "thresholds": lambda q, c: f"x >= {c + 1}" if c < q["N"] else "false",
    "intervals": _interval_words,
    "singletons": lambda q, c: f"x = {c + 1}" if c < q["N"] else "false",
    "all-functions": _all_functions_words,
    "rectangles": _rectangle_words,
}

