"""What every family module shares: the ``Param`` and ``Family`` records, the parameter checks, the
size limits of ``make`` and the array helpers that build truth tables.

A family declares, besides its builder and its sizes, its **facts** (``Family.facts(params) -> dict``):
what its concepts are in the terms the learners' theorems need (see :mod:`solvers.classes.protocol`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

#: The largest matrix (concepts x points) ``make`` builds: 2^28 cells, e.g. 16384 x 16384.
MAX_CELLS = 2**28
#: The largest domain ``make`` builds (2^20 points: {0,1}^20).
MAX_POINTS = 2**20

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
    facts : callable
        ``facts(params) -> dict``: what every concept is, in the terms of the learners' theorems
        (keys of :data:`solvers.classes.protocol.FACT_KEYS`); ``{}`` when the family states none.
    symmetry : callable
        ``symmetry(params) -> list``: generators (permutation of the point indices, complement flag) of
        a group of symmetries of the class (:mod:`solvers.classes.symmetry`; ``[]`` when none is
        declared). A solver checks them on the matrix before it uses them.
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
    facts: Callable = lambda p: {}
    symmetry: Callable = lambda p: []

    def param(self, key: str) -> Param:
        for p in self.params:
            if p.name == key:
                return p
        raise KeyError(key)

    @property
    def signature(self) -> str:
        """``"N empty=1"``: the parameters with their defaults, as the CLI takes them."""
        return " ".join(str(p) for p in self.params)


def typed(name: str, p: Param, value):
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


def check_limits(spec: Family, params: dict) -> None:
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
    raise ValueError(f"{spec.name} with {fmt(params)} has {what}; {hint}")


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


def fmt(params: dict) -> str:
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


def _check_n(name, low=1):
    def check(q):
        _at_least(name, q, "n", low)
    return check



def _k(q) -> int:
    return q["n"] if q.get("k") is None else q["k"]



def _pow(base: int, n: int):
    """base^n, or infinity when it is far too big to build anyway (keeps the limit checks cheap)."""
    return base**n if n <= 64 else math.inf



def _cube_n(q):
    return _pow(2, q["n"])


_N = Param("N", int, None, "domain size")
_n = Param("n", int, None, "number of Boolean variables")
_empty = Param("empty", int, 1, "1 to include the empty concept")


def _cube_facts(q) -> dict:
    """The facts every {0,1}^n family has: its number of variables."""
    return {"n": q["n"]}
