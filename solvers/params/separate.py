"""Separating two parameters: the class on m points with the largest gap value(A) - value(B) (issue 22).

A class here is a nonempty set of distinct 0/1 rows over ``points`` columns (with ``concepts`` given, exactly
that many rows). A and B are ``"opt"`` (Opt(C), the Littlestone dimension, :func:`solvers.opt.opt`) or keys of
:data:`solvers.params.KEYS` (:func:`solvers.params.compute`); the gap is **value(A) - value(B)**, and
:func:`separate` looks for a class that makes it as large as it can.

Two searches:

* **Exhaustive**, when there are few classes: at most :data:`EXHAUSTIVE_CLASSES` of them before isomorphism and
  at most :data:`MAX_CANONICAL_POINTS` points (every class on up to 4 points; on 5 points those of up to 5 or at
  least 27 concepts; on 6 points those of up to 3 or at least 61). It computes both parameters on one class of
  each isomorphism type, so its answer is the largest gap over *all* classes on m points.
* **Local search** beyond: random restarts, each a hill-climb that moves to a neighbouring class (a row added,
  a row removed, or one label of a row flipped; with ``concepts`` given, a row replaced) when its gap is no
  smaller, and to a worse one with probability :data:`NOISE`; a restart after :data:`PATIENCE` steps without
  improvement. It stops at the time limit (default :data:`LOCAL_SECONDS`) or after ``max_steps`` steps, and the
  class it returns is the best it met, never a proof that no better one exists.

Isomorphism. Two classes are isomorphic when one becomes the other by renaming the points (permuting the
columns); the order of the rows never matters (a class is a set). Complementing a point's labels is *not*
allowed: Opt, VC, TD, RTD, the star number, the order parameters and proper do not change under it, but the
threshold dimension does (the thresholds ``{000, 100, 110, 111}`` have threshold dimension 3; with point 0
complemented, ``{100, 000, 010, 011}``, it is 2). Each parameter is a function of the class up to renaming, which
is all the search assumes.

The canonical form (:func:`canonical_form`) is a brute force, not bliss: a class on m points is the set of
its rows read as m-bit numbers (point 0 the highest bit), that set is a 2^m-bit number, and the form is the
least of those numbers over all m! renamings of the points. For m <= 6 the renamings are byte tables and numpy
applies each one to every class of the enumeration at once: all 65,535 classes on 4 points in 0.01 s here, where
building an igraph graph per class (rows and points as two colours) for bliss's ``canonical_labels``, as
:mod:`solvers.opt.isomorphism` does for version spaces up to complemented points, takes about 30 microseconds a
class (2 s for those 65,535). It is simpler too; its cost, m! renamings, is why it stops at 6 points.

The class returned is the first met with the largest gap and, among those, the largest value(A) (a gap of 0
between two parameters of 3 says more than between two of 0).

Time limits. A parameter whose search the time limit stopped has bounds, not a value: such a class is skipped
(counted in ``undecided``), never used with a guessed value, and a run that skipped one is not exhaustive. A
Ctrl-C (KeyboardInterrupt, or an interrupt :mod:`solvers.interrupts` recorded) ends the search: the best class
found so far is returned, marked not exhaustive.

Examples
--------
>>> s = separate("opt", "vc", 3)          # Opt - VC over every class on 3 points
>>> s.gap, s.value_a, s.value_b, s.exhaustive, s.examined
(1, 2, 1, True, 79)
>>> s.matrix.astype(int).tolist()
[[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 0, 0]]
>>> canonical_form([[1, 0], [1, 1]]) == canonical_form([[1, 1], [0, 1]])
True
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from .. import interrupts

__all__ = ["separate", "Separation", "canonical_form", "parameter_keys", "EXHAUSTIVE_CLASSES",
           "MAX_CANONICAL_POINTS", "MAX_POINTS", "LOCAL_SECONDS", "PATIENCE", "NOISE"]

#: The most classes (before isomorphism) the exhaustive search enumerates; past it, local search.
EXHAUSTIVE_CLASSES = 250_000
#: The most points of a class the canonical form takes (its 2^m-bit number fits 64 bits).
MAX_CANONICAL_POINTS = 6
#: The most points :func:`separate` takes (4,096 possible rows).
MAX_POINTS = 12
#: Seconds of local search when neither ``time_limit`` nor ``max_steps`` is given.
LOCAL_SECONDS = 10.0
#: Steps without improvement after which the local search restarts from a random class.
PATIENCE = 100
#: The probability that the local search moves to a neighbour whose gap is smaller.
NOISE = 0.05
#: A random starting class without ``concepts`` has 1 to START_ROWS * m rows: small classes are quick to
#: evaluate, and the moves grow them (measured: threshold - opt on 6 points, 10 s, four seeds, found the gap 4
#: of the thresholds four times from at most 12 rows, once from at most 64).
START_ROWS = 2
#: The most classes whose gap the local search remembers (it forgets them all past this).
CACHE = 100_000


def parameter_keys() -> tuple:
    """``("opt", *solvers.params.KEYS)``, read now: the parameters :func:`separate` compares."""
    from . import KEYS

    return ("opt", *KEYS)


@dataclass(frozen=True)
class Separation:
    """What :func:`separate` found.

    Attributes
    ----------
    a, b : str
        The two parameters; ``gap = value_a - scale * value_b``.
    points : int
    concepts : int or None
        The number of rows asked for (None: any).
    matrix : numpy.ndarray or None
        The best class (bool, rows in increasing order, distinct), None when no class was evaluated: the first
        met with the largest gap and, among those, the largest ``value_a``.
    value_a, value_b : int or None
        Its two parameters, exact.
    witness_a, witness_b : dict
        Their witnesses, as :func:`solvers.params.compute` gives them (indices into ``matrix``); for ``opt``,
        ``{"tree_depth": Opt}`` (``littlestone opt --tree`` writes the mistake tree).
    gap : int or None
    examined : int
        Classes whose two parameters were computed.
    undecided : int
        Classes skipped because a time limit stopped one of their searches.
    classes : int or None
        The classes up to isomorphism the exhaustive search had to examine (None for local search).
    exhaustive : bool
        True when every class on ``points`` points (with ``concepts`` rows) up to isomorphism was examined:
        ``gap`` is then the largest there is.
    method : str
        ``"exhaustive"`` or ``"local search"``.
    stopped : str or None
        Why the search ended early: ``"time limit"``, ``"steps"``, ``"interrupted"`` (None: it finished; a
        local search always ends by one of the first two).
    seconds : float
    seed : int
    scale : Fraction
        The factor of B in the gap (1 unless asked).
    """

    a: str
    b: str
    points: int
    concepts: Optional[int]
    matrix: Optional[np.ndarray]
    value_a: Optional[int]
    value_b: Optional[int]
    witness_a: dict = field(default_factory=dict)
    witness_b: dict = field(default_factory=dict)
    gap: Optional[int] = None
    examined: int = 0
    undecided: int = 0
    classes: Optional[int] = None
    exhaustive: bool = False
    method: str = "exhaustive"
    stopped: Optional[str] = None
    seconds: float = 0.0
    seed: int = 0
    scale: Fraction = Fraction(1)

    @property
    def concept_class(self):
        """The best class as a :class:`~solvers.classes.finite.ConceptClass` (its rows in the order of ``matrix``)."""
        from ..classes.finite import ConceptClass

        return None if self.matrix is None else ConceptClass.from_matrix(self.matrix)

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "points": self.points, "concepts": self.concepts, "gap": self.gap,
                "values": {self.a: {"value": self.value_a, "witness": self.witness_a},
                           self.b: {"value": self.value_b, "witness": self.witness_b}},
                "matrix": None if self.matrix is None else self.matrix.astype(int).tolist(),
                "examined": self.examined, "undecided": self.undecided, "classes": self.classes,
                "exhaustive": self.exhaustive, "method": self.method, "stopped": self.stopped,
                "seconds": round(self.seconds, 4), "seed": self.seed,
                **({"scale": str(self.scale)} if self.scale != 1 else {})}


# ---------------------------------------------------------------------------------------- classes as numbers
def _row_matrix(rows, m: int) -> np.ndarray:
    """The bool matrix of the rows (m-bit numbers, point 0 the highest bit), in the order given."""
    r = np.asarray(list(rows), dtype=np.int64).reshape(-1, 1)
    return ((r >> np.arange(m - 1, -1, -1)) & 1).astype(bool)


def _rows_of(mask: int, m: int) -> list:
    """The rows of the class whose 2^m-bit number is ``mask``, increasing."""
    return [v for v in range(1 << m) if mask >> v & 1]


def _renaming_tables(m: int) -> np.ndarray:
    """For each of the m! renamings of the points, the byte tables that apply it to a class's 2^m-bit number:
    ``T[p, b, x]`` is the image of the rows 8b..8b+7 that byte value x holds (shape (m!, bytes, 256), uint64)."""
    N = 1 << m
    nbytes = (N + 7) // 8
    values = np.arange(N)
    bits = (np.arange(256, dtype=np.uint64)[:, None] >> np.arange(8, dtype=np.uint64)) & np.uint64(1)  # x's bit i
    tables = []
    for perm in itertools.permutations(range(m)):
        image = np.zeros(N, dtype=np.int64)  # the row v becomes: bit i of v moved to bit perm[i]
        for i, p in enumerate(perm):
            image |= ((values >> i) & 1) << p
        powers = np.zeros(8 * nbytes, dtype=np.uint64)
        powers[:N] = np.uint64(1) << image.astype(np.uint64)
        tables.append((bits @ powers.reshape(nbytes, 8).T).T)  # distinct powers of 2: the sum is their OR
    return np.stack(tables)


def _canonical_masks(masks: np.ndarray, m: int, tables: np.ndarray) -> np.ndarray:
    """The canonical form of each class (uint64 2^m-bit numbers): the least image over every renaming."""
    nbytes = tables.shape[1]
    parts = [((masks >> np.uint64(8 * b)) & np.uint64(255)).astype(np.intp) for b in range(nbytes)]
    best = masks.copy()
    for T in tables:  # hot loop: one table lookup per byte per renaming over the whole batch
        image = T[0][parts[0]]
        for b in range(1, nbytes):
            image |= T[b][parts[b]]
        np.minimum(best, image, out=best)
    return best


def canonical_form(matrix) -> int:
    """The canonical form of a class on m <= :data:`MAX_CANONICAL_POINTS` points: the least, over all m! renamings
    of the points, of the set of its rows read as a 2^m-bit number (row r, as an m-bit number with point 0 the
    highest bit, is bit r). Two classes get the same form exactly when one is the other with its points renamed
    and its rows reordered (duplicate rows count once).

    Examples
    --------
    >>> canonical_form([[0, 1], [1, 1]]) == canonical_form([[1, 0], [1, 1]]), canonical_form([[0, 1]]) == canonical_form([[1, 1]])
    (True, False)
    """
    M = np.asarray(matrix)
    if M.ndim != 2 or M.shape[0] == 0:
        raise ValueError("give a class as a nonempty 2-d 0/1 matrix (concepts x points)")
    m = M.shape[1]
    if not 1 <= m <= MAX_CANONICAL_POINTS:
        raise ValueError(f"canonical forms here cover 1 to {MAX_CANONICAL_POINTS} points, not {m}")
    weights = 1 << np.arange(m - 1, -1, -1)
    mask = 0
    for r in (M.astype(np.int64) @ weights).tolist():
        mask |= 1 << r
    return int(_canonical_masks(np.array([mask], dtype=np.uint64), m, _renaming_tables(m))[0])


def _class_count(m: int, n: Optional[int]) -> int:
    """The number of classes on m points (with n rows), before isomorphism."""
    N = 1 << m
    return (1 << N) - 1 if n is None else math.comb(N, n)


def _all_masks(m: int, n: Optional[int]) -> np.ndarray:
    """Every class on m <= 6 points (with n rows) as its 2^m-bit number (uint64), increasing."""
    N = 1 << m
    if n is None:
        return np.arange(1, 1 << N, dtype=np.uint64)
    k = min(n, N - n)  # n rows, or the complement of N - n rows, whichever is fewer
    if k == 0:
        masks = np.zeros(1, dtype=np.uint64)
    else:
        combos = np.array(list(itertools.combinations(range(N), k)), dtype=np.uint64)
        masks = np.bitwise_or.reduce(np.uint64(1) << combos, axis=1)
    if k != n:
        masks = np.uint64((1 << N) - 1) ^ masks
    return np.sort(masks)


def _orbit_representatives(m: int, n: Optional[int]) -> list:
    """One class of each isomorphism type on m points (with n rows): those equal to their canonical form."""
    masks = _all_masks(m, n)
    canon = _canonical_masks(masks, m, _renaming_tables(m))
    return [int(v) for v in masks[canon == masks]]


# ---------------------------------------------------------------------------------------- the parameters
class _Stop(Exception):
    """The deadline passed (between two classes)."""


def _value(C, key: str, time_limit: Optional[float]) -> tuple:
    """(value or None when the time limit stopped its search, witness) of one parameter of C."""
    if key == "opt":
        from ..opt import opt

        r = opt(C, time_limit=time_limit)
        return r.value, {"tree_depth": r.lower}
    from . import compute

    p = compute(C, [key], time_limit=time_limit)[key]
    return p.value, dict(p.witness)


@dataclass
class _Best:
    gap: Optional[int] = None
    rows: Optional[list] = None
    value_a: Optional[int] = None
    value_b: Optional[int] = None
    witness_a: dict = field(default_factory=dict)
    witness_b: dict = field(default_factory=dict)


class _Evaluator:
    """Computes the gap of classes given by their rows, keeps the best and the counts (the search's state)."""

    def __init__(self, a: str, b: str, m: int, deadline: Optional[float], progress, total: Optional[int],
                 scale: Fraction = Fraction(1)):
        from ..classes.finite import ConceptClass

        self.a, self.b, self.m, self.deadline, self.scale = a, b, m, deadline, scale
        self.progress, self.total = progress, total
        self.ConceptClass = ConceptClass
        self.best = _Best()
        self.examined = self.undecided = 0
        self.t0 = time.monotonic()

    def _left(self) -> Optional[float]:
        """The seconds left (None: no limit); raises _Stop past the deadline, KeyboardInterrupt after a recorded
        Ctrl-C (one a parameter's search swallowed included)."""
        if interrupts.requested():
            raise KeyboardInterrupt
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Stop
        return left

    def gap(self, rows: list) -> Optional[int]:
        """The gap of the class of ``rows`` (increasing), None when a time limit stopped a search."""
        C = self.ConceptClass.from_matrix(_row_matrix(rows, self.m))
        va, wa = _value(C, self.a, self._left())
        vb, wb = (None, {}) if va is None else _value(C, self.b, self._left())
        if va is None or vb is None:
            self.undecided += 1
            return None
        self.examined += 1
        g = va - vb if self.scale == 1 else va - self.scale * vb
        if isinstance(g, Fraction) and g.denominator == 1:
            g = int(g)
        if self.best.gap is None or (g, va) > (self.best.gap, self.best.value_a):  # ties: the larger value(A)
            self.best = _Best(g, list(rows), va, vb, wa, wb)
        if self.progress is not None:
            self.progress({"examined": self.examined, "undecided": self.undecided, "classes": self.total,
                           "gap": self.best.gap, "seconds": time.monotonic() - self.t0})
        return g


# ---------------------------------------------------------------------------------------- the searches
def _exhaustive(ev: _Evaluator, representatives: list) -> None:
    for mask in representatives:
        ev.gap(_rows_of(mask, ev.m))


def _local(ev: _Evaluator, n: Optional[int], rng: np.random.Generator, max_steps: Optional[int]) -> str:
    """Hill-climbing with random restarts until the deadline or ``max_steps`` (raises _Stop at the deadline);
    returns ``"steps"`` when the steps ran out."""
    m = ev.m
    N = 1 << m
    cache: dict = {}

    def gap(S: frozenset) -> Optional[int]:
        if S not in cache:
            if len(cache) >= CACHE:
                cache.clear()
            cache[S] = ev.gap(sorted(S))
        return cache[S]

    def fresh() -> frozenset:
        size = n if n is not None else int(rng.integers(1, min(N, START_ROWS * m) + 1))
        return frozenset(int(v) for v in rng.choice(N, size=size, replace=False))

    def absent(S: frozenset) -> int:
        if len(S) > N // 2:
            return int(rng.choice([v for v in range(N) if v not in S]))
        while True:
            v = int(rng.integers(N))
            if v not in S:
                return v

    def neighbour(S: frozenset) -> frozenset:
        rows = sorted(S)
        moves = (["flip"] if len(S) < N else []) + (["add"] if n is None and len(S) < N else []) + (["remove"] if n is None and len(S) > 1 else [])
        move = moves[int(rng.integers(len(moves)))]
        if move == "remove":
            return S - {rows[int(rng.integers(len(rows)))]}
        if move == "add":
            return S | {absent(S)}
        r = rows[int(rng.integers(len(rows)))]
        flipped = r ^ (1 << int(rng.integers(m)))  # one label of r flipped
        if flipped in S:
            flipped = absent(S)  # taken: r replaced by a random row instead
        return (S - {r}) | {flipped}

    steps = 0
    current, here, stale = None, None, 0
    while max_steps is None or steps < max_steps:
        steps += 1
        if current is None or here is None or stale >= PATIENCE:
            current, stale = fresh(), 0
            here = gap(current)
            continue
        T = neighbour(current)
        g = gap(T)
        if g is not None and (g >= here or rng.random() < NOISE):
            stale = 0 if g > here else stale + 1
            current, here = T, g
        else:
            stale += 1
    return "steps"


def separate(a: str, b: str, points: int, concepts: Optional[int] = None, *, time_limit: Optional[float] = None,
             seed: int = 0, progress: Optional[Callable[[dict], None]] = None, max_steps: Optional[int] = None,
             budget: int = EXHAUSTIVE_CLASSES, scale=1) -> Separation:
    """The class on ``points`` points (with ``concepts`` rows) with the largest gap value(A) - value(B) found.

    Parameters
    ----------
    a, b : str
        Two different parameters among ``"opt"`` and :data:`solvers.params.KEYS` (read at each call).
    points : int
        m, from 1 to :data:`MAX_POINTS`.
    concepts : int, optional
        The number of rows, from 1 to 2^m (default: any).
    time_limit : float, optional
        Seconds for the whole search (default: none for the exhaustive search, :data:`LOCAL_SECONDS` for local
        search unless ``max_steps`` is given). Each parameter's search gets what is left.
    seed : int
        The seed of the local search's random choices (same seed and ``max_steps``: same result).
    progress : callable, optional
        Called after each class with ``{"examined", "undecided", "classes", "gap", "seconds"}``.
    max_steps : int, optional
        The most steps of local search (a restart or a neighbour tried, remembered ones included).
    budget : int
        The most classes (before isomorphism) the exhaustive search may enumerate (0: local search always).
    scale : int or Fraction
        The gap is value(A) - scale * value(B) (a claim A <= scale * B fails where it is positive).

    Returns
    -------
    Separation

    Raises
    ------
    ValueError
        An unknown parameter, A equal to B, or ``points`` or ``concepts`` out of range.
    """
    keys = parameter_keys()
    for key in (a, b):
        if key not in keys:
            raise ValueError(f"unknown parameter {key!r}; choose from: {', '.join(keys)}")
    if a == b:
        raise ValueError(f"the two parameters are both {a!r}; give two different ones")
    if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_POINTS:
        raise ValueError(f"{points!r} points is out of range; give from 1 to {MAX_POINTS} points")
    N = 1 << points
    if concepts is not None and (isinstance(concepts, bool) or not isinstance(concepts, int) or not 1 <= concepts <= N):
        raise ValueError(f"{concepts!r} concepts is not possible on {points} points; give from 1 to {N} (2^{points})")
    t0 = time.monotonic()
    exhaustive = concepts == N or (points <= MAX_CANONICAL_POINTS and _class_count(points, concepts) <= budget)
    if exhaustive:
        representatives = [(1 << N) - 1] if concepts == N else _orbit_representatives(points, concepts)
        total = len(representatives)
    elif time_limit is None and max_steps is None:
        time_limit = LOCAL_SECONDS
    deadline = None if time_limit is None else t0 + time_limit
    scale = Fraction(scale)
    if scale <= 0:
        raise ValueError(f"the factor of {b} must be positive, not {scale}")
    ev = _Evaluator(a, b, points, deadline, progress, total if exhaustive else None, scale)
    stopped = None
    try:
        if exhaustive:
            _exhaustive(ev, representatives)
        else:
            stopped = _local(ev, concepts, np.random.default_rng(seed), max_steps)
    except _Stop:
        stopped = "time limit"
    except KeyboardInterrupt:
        stopped = "interrupted"
    best = ev.best
    return Separation(a, b, points, concepts, None if best.rows is None else _row_matrix(best.rows, points),
                      best.value_a, best.value_b, best.witness_a, best.witness_b, best.gap, ev.examined,
                      ev.undecided, total if exhaustive else None,
                      exhaustive and stopped is None and ev.undecided == 0,
                      "exhaustive" if exhaustive else "local search", stopped, time.monotonic() - t0, seed, scale)
