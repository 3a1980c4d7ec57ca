"""Randomized halving: predict with a concept of the version space drawn uniformly at random.

Source: [Rivest94], section 2.3.4 (due to Maass): "Predict according to c^(i) in V_i
selected at random"; against a sequence fixed in advance the expected number of mistakes is at most
M_|C| = sum_{i=2}^{|C|} 1/i = H_|C| - 1 <= ln |C|.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Hashable

import numpy as np

from .base import Bound, Point, VersionSpaceLearner, as_int, cite, rng_key

__all__ = ["RandomizedHalving", "harmonic", "harmonic_fraction", "EXACT_HARMONIC"]

_EULER_GAMMA = 0.5772156649015329
#: H_r is kept as an exact Fraction up to this r (its denominator, lcm(1..r), has about r / 2.3 digits).
EXACT_HARMONIC = 2000


def harmonic(r: int) -> float:
    """H_r = 1 + 1/2 + ... + 1/r (for r > 10^6, the upper bound ln r + gamma + 1/(2r))."""
    if r <= 1_000_000:
        return math.fsum(1.0 / i for i in range(1, r + 1))
    return math.log(r) + _EULER_GAMMA + 1.0 / (2 * r)


_H = [Fraction(0)]  # _H[r] = H_r, extended on demand


def _harmonic_exact(r: int) -> Fraction:
    while len(_H) <= r:
        _H.append(_H[-1] + Fraction(1, len(_H)))
    return _H[r]


def harmonic_fraction(r: int) -> Fraction:
    """H_r exactly (r <= :data:`EXACT_HARMONIC`).

    >>> harmonic_fraction(4)
    Fraction(25, 12)
    """
    if r > EXACT_HARMONIC:
        raise ValueError(f"H_{r} is kept exact only up to r = {EXACT_HARMONIC}; use harmonic(r)")
    return _harmonic_exact(r)


def expected_bound(r: int) -> int | float | Fraction:
    """H_r - 1: an exact Fraction (an int when whole) up to :data:`EXACT_HARMONIC`, a float beyond."""
    if r <= 1:
        return 0
    if r <= EXACT_HARMONIC:
        return harmonic_fraction(r) - 1
    return harmonic(r) - 1.0


class RandomizedHalving(VersionSpaceLearner):
    """Randomized halving: each round, predict with a uniformly random consistent concept.

    Rule: hold a hypothesis h drawn uniformly from the version space V; predict h(x). After every
    example, shrink V to the consistent concepts and draw a fresh h from the new V (one draw per round,
    from the learner's own ``numpy.random.Generator``; so ``predict_one`` may be called any number of
    times in a round). [Rivest94]'s recurrence M_r = M_{r-1} + 1/r gives E[mistakes] <= H_|C| - 1 for a
    sequence chosen independently of the learner's draws (an oblivious adversary). An adversary that
    sees h can make it err on every round until V is a single concept, i.e. up to |C| - 1 times.

    Source: [Rivest94] (randomized halving, E[mistakes] = H_r - 1 <= ln |C| + O(1)).

    Parameters
    ----------
    C : ConceptClass
    seed : int, default 0
        Seed of the generator. The state key includes the generator's state.

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> L = RandomizedHalving(C, seed=1)
    >>> L.predict_one((0,)) in (0, 1)
    True
    >>> L.learn_one((0,), 1)          # only concept [1, 1] is left, so h is it
    >>> L.predict_one((1,))
    1
    >>> L.mistake_bound().value              # H_3 - 1 = 1/2 + 1/3, exactly
    Fraction(5, 6)
    >>> L = RandomizedHalving(C)
    >>> L.probability((0,)), L.probability((1,))   # P(predict 1) = |V_x^1| / |V|
    (Fraction(1, 3), Fraction(2, 3))
    """

    name = "randomized-halving"
    randomized = True
    bound_formula = "E[mistakes] <= H_|C| - 1 <= ln |C| (sequence fixed in advance)"
    bound_source = cite("Rivest94", "section 2.3.4 Randomized halving algorithm")
    summary = "predict with a uniformly random consistent concept, drawn each round"
    _deep_copied = ("rng",)

    def __init__(self, C, seed=0):
        super().__init__(C)
        self.seed = as_int(seed, "seed", self.name, low=0)
        self.rng = np.random.default_rng(self.seed)
        self._nbytes = (len(C) + 7) // 8
        self._draw()

    def _draw(self) -> None:
        """h <- a uniformly random concept of V."""
        k = int(self.rng.integers(self.V.bit_count()))
        bits = np.unpackbits(np.frombuffer(self.V.to_bytes(self._nbytes, "little"), dtype=np.uint8), bitorder="little")
        self.h = int(np.flatnonzero(bits)[k])

    def _after_update(self) -> None:
        self._draw()

    def predict_one(self, x: Point) -> int:
        return (self.C.columns[self._column(x)] >> self.h) & 1

    def probability(self, x: Point) -> Fraction:
        """``P(predict 1) = |V_x^1| / |V|``: h is uniform on V."""
        return Fraction((self.V & self.C.columns[self._column(x)]).bit_count(), self.V.bit_count())

    def distribution_key(self) -> Hashable:
        """V: the draw is uniform on it."""
        return self.V

    def state_key(self) -> Hashable:
        """(V, h, the generator's state): what the next predictions and draws depend on."""
        return (self.V, self.h, rng_key(self.rng))

    def get_params(self) -> dict:
        return {"seed": self.seed}

    def mistake_bound(self) -> Bound:
        """E[mistakes] <= H_|C| - 1 against an oblivious adversary ([Rivest94]); exact (a Fraction) up to
        |C| = :data:`EXACT_HARMONIC`. The draw's distribution depends only on the examples, so an
        adversary that knows it (but not the coin) gains nothing by adapting: the bound holds for it too."""
        return Bound(expected_bound(len(self.C)), "E[mistakes] <= H_|C| - 1 = 1/2 + ... + 1/|C| <= ln |C| (an "
                     "expectation, for a sequence fixed in advance)", self.bound_source)

    def remaining_bound(self, V: int) -> int | float | Fraction:
        """H_|V| - 1 expected mistakes from version space V on ([Rivest94]'s recurrence M_r = M_(r-1) + 1/r,
        from this state on: a label that leaves s of the r concepts costs (r - s)/r <= 1/(s+1) + ... + 1/r)."""
        return expected_bound(V.bit_count())
