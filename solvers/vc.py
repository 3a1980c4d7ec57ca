"""The VC dimension of a finite concept class: the size of the largest set of points it shatters.

A set S of points is *shattered* by C when every one of the 2^|S| labellings of S is realised by some
concept of C. The VC dimension is a lower bound on Opt(C): a shattered set of d points is a mistake
tree of depth d, so the adversary of [Rivest94] can force d mistakes by
answering each of its points with the label the learner did not predict. It is at most
floor(log2 |C|), since 2^|S| distinct labellings need 2^|S| distinct concepts.

The search works on bitsets. ``C.columns[j]`` is the set of concepts that label point j with 1; a set
S cuts C into 2^|S| *pattern classes* (the concepts that agree on S), and S is shattered exactly when
none of them is empty. The search is depth-first over increasing point indices and keeps

* the pattern classes of the current S;
* the candidates: the later points that can still extend S to a set larger than the best one found,
  d = best + 1 points. Such a set has 2^d non-empty pattern classes, so every pattern class of S must
  hold at least 2^(d - |S|) concepts, and a useful point must leave at least 2^(d - |S| - 1) of them
  on either side, in every class (a point that does not split some class is never useful);
* the bound |S| + (number of useful points) > best.

Before the search, points that are constant on C are dropped, and of the points with equal or
complementary columns one is kept (two such points are never shattered together). Under a time limit
the best shattered set found so far gives the lower bound; the upper bound is then
min(floor(log2 |C|), number of distinct points).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)

Examples
--------
>>> from solvers.classes.families import make
>>> vc_dimension(make("intervals", N=5))
(2, 2)
>>> shattered_set(make("intervals", N=5))
((2,), (4,))
>>> vc_dimension(make("parities", n=3))
(3, 3)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

from . import interrupts
from .classes.finite import ConceptClass

__all__ = ["vc_dimension", "shattered_set", "vc_search", "VCResult", "is_shattered"]


@dataclass(frozen=True)
class VCResult:
    """The outcome of :func:`vc_search`.

    Attributes
    ----------
    lower, upper : int
        ``lower <= VC(C) <= upper``; equal when the search finished.
    witness : tuple of int
        Column indices of a shattered set of ``lower`` points.
    stats : dict
        ``nodes`` (sets tried), ``seconds``, ``stopped`` (None, "time limit" or "interrupted": Ctrl-C
        returns the bounds found so far, as :func:`solvers.opt.opt` does).
    """

    lower: int
    upper: int
    witness: tuple
    stats: dict = field(default_factory=dict)

    @property
    def value(self) -> Optional[int]:
        """The VC dimension when proven, else None."""
        return self.lower if self.lower == self.upper else None


class _Stop(Exception):
    pass


def vc_search(C: ConceptClass, *, time_limit: float | None = None, upper: int | None = None,
              known=()) -> VCResult:
    """Find the VC dimension of ``C`` with a shattered set as witness.

    Parameters
    ----------
    C : ConceptClass
    time_limit : float, optional
        Seconds after which the best bounds found so far are returned.
    upper : int, optional
        An upper bound proven elsewhere (e.g. Opt(C), since a shattered set is a mistake tree): the search stops as
        soon as it finds a shattered set that large.
    known : sequence of int, optional
        Column indices of a set known to be shattered: only larger sets are looked for.

    Returns
    -------
    VCResult
    """
    if not isinstance(C, ConceptClass):
        raise TypeError("vc_search needs a ConceptClass")
    if time_limit is not None and time_limit < 0:
        raise ValueError(f"time_limit must be >= 0 seconds, got {time_limit}")
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    full = C.full
    size = C.n_concepts
    log_bound = size.bit_length() - 1  # floor(log2 |C|)

    # One point per class of equal-or-complementary non-constant columns, most balanced first (a
    # balanced point leaves big pattern classes, so large shattered sets are met early).
    seen = set()
    points: list[int] = []
    for j, col in enumerate(C.columns):
        if j & 4095 == 4095 and deadline is not None and time.monotonic() >= deadline:  # millions of points
            return VCResult(lower=len(known), upper=min(log_bound, C.n_points, *(() if upper is None else (upper,))),
                            witness=tuple(sorted(int(j) for j in known)),
                            stats={"nodes": 0, "seconds": time.monotonic() - start, "stopped": "time limit"})
        if col == 0 or col == full:
            continue
        key = min(col, full ^ col)
        if key not in seen:
            seen.add(key)
            points.append(j)
    cols = C.columns
    points.sort(key=lambda j: abs(2 * cols[j].bit_count() - size))
    upper = min(log_bound, len(points), *(() if upper is None else (upper,)))

    best: list[int] = [int(j) for j in known]
    nodes = 0
    work = 0  # pattern classes examined since the last look at the clock, each counted by its size in words
    CHECK = 4096  # look at the clock after this many (a few milliseconds of work at most)
    unit = 1 + (size >> 12)  # an AND of two bitsets of |C| bits: millions of concepts make each one slow

    def extend(S: list[int], classes: list[int], sizes: list[int], candidates: list[int]) -> None:
        # Hot loop: written for speed. classes: the (non-empty) pattern classes of S; sizes: their sizes.
        nonlocal best, nodes, work
        nodes += 1
        work += len(classes) * unit
        if work >= CHECK:
            work = 0
            interrupts.check()  # a Ctrl-C that a library swallowed stops the search here
            if deadline is not None and time.monotonic() >= deadline:
                raise _Stop
        if len(S) > len(best):
            best = list(S)
            if len(best) >= upper:
                raise _Stop  # the search cannot do better
        # Only a set of len(best) + 1 points is worth finding: each of its 2^(len(best)+1) pattern
        # classes needs a concept, so every class of S must hold >= 2^(len(best)+1-len(S)) concepts and
        # a useful point must leave >= need of them on either side, in every class.
        need = 1 << max(0, len(best) - len(S))
        if min(sizes) < 2 * need:
            return
        useful = []
        for k in candidates:
            work += len(classes) * unit
            if work >= CHECK:
                work = 0
                interrupts.check()
                if deadline is not None and time.monotonic() >= deadline:
                    raise _Stop
            col = cols[k]
            for cls, n in zip(classes, sizes):
                one = (cls & col).bit_count()
                if one < need or n - one < need:
                    break
            else:
                useful.append(k)
        for i, k in enumerate(useful):
            if len(S) + len(useful) - i <= len(best):
                return  # too few points left to beat the best set
            col = cols[k]
            new: list[int] = []
            new_sizes: list[int] = []
            for cls, n in zip(classes, sizes):
                one = cls & col
                c1 = one.bit_count()
                new += (one, cls ^ one)
                new_sizes += (c1, n - c1)
            S.append(k)
            extend(S, new, new_sizes, useful[i + 1:])
            S.pop()

    stopped = None
    try:
        if len(best) >= upper:
            raise _Stop
        extend([], [full], [size], points)
        finished = True
    except _Stop:
        finished = len(best) >= upper
        if not finished:
            stopped = "time limit"
    except KeyboardInterrupt:  # Ctrl-C: the bounds proven so far, as opt returns them
        finished = len(best) >= upper
        if not finished:
            stopped = "interrupted"
    lower = len(best)
    return VCResult(
        lower=lower,
        upper=lower if finished else upper,
        witness=tuple(sorted(best)),
        stats={"nodes": nodes, "seconds": time.monotonic() - start, "stopped": stopped},
    )


def vc_dimension(C: ConceptClass, *, time_limit: float | None = None) -> tuple[int, int]:
    """``(lower, upper)`` bounds on the VC dimension of ``C``, equal when exact.

    Without a time limit the result is exact. See :func:`vc_search` for the witness.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> vc_dimension(make("thresholds", N=10))
    (1, 1)
    """
    r = vc_search(C, time_limit=time_limit)
    return r.lower, r.upper


def shattered_set(C: ConceptClass, *, time_limit: float | None = None) -> tuple:
    """A largest set of points shattered by ``C`` (the points themselves, in column order)."""
    r = vc_search(C, time_limit=time_limit)
    return tuple(C.points[j] for j in r.witness)


def is_shattered(C: ConceptClass, S) -> bool:
    """Whether ``C`` realises all 2^|S| labellings of the points ``S`` (given as points or indices).

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> C = make("intervals", N=3)
    >>> is_shattered(C, [(1,), (3,)]), is_shattered(C, [(1,), (2,), (3,)])
    (True, False)
    """
    idx = [j if isinstance(j, int) else C.index_of(j) for j in S]
    classes = [C.full]
    for j in idx:
        col = C.columns[j]
        classes = [part for cls in classes for part in (cls & col, cls & ~col)]
    return all(classes)
