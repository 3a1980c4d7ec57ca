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

import numpy as np

from .base import Bound, VersionSpaceLearner, as_int, cite, rng_key

__all__ = ["RandomizedHalving", "harmonic"]

_EULER_GAMMA = 0.5772156649015329


def harmonic(r: int) -> float:
    """H_r = 1 + 1/2 + ... + 1/r (for r > 10^6, the upper bound ln r + gamma + 1/(2r))."""
    if r <= 1_000_000:
        return math.fsum(1.0 / i for i in range(1, r + 1))
    return math.log(r) + _EULER_GAMMA + 1.0 / (2 * r)


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
    >>> round(L.mistake_bound().value, 4)    # H_3 - 1 = 1/2 + 1/3
    0.8333
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

    def predict_one(self, x) -> int:
        return (self.C.columns[self._column(x)] >> self.h) & 1

    def state_key(self):
        """(V, h, the generator's state): what the next predictions and draws depend on."""
        return (self.V, self.h, rng_key(self.rng))

    def get_params(self) -> dict:
        return {"seed": self.seed}

    def mistake_bound(self) -> Bound:
        """E[mistakes] <= H_|C| - 1 against an oblivious adversary ([Rivest94])."""
        r = len(self.C)
        value = 0 if r == 1 else harmonic(r) - 1.0
        return Bound(value, "E[mistakes] <= H_|C| - 1 = 1/2 + ... + 1/|C| <= ln |C| (an expectation, for a "
                     "sequence fixed in advance)", self.bound_source)
