"""Random classes: m iid Bernoulli(p) rows over N points, the test bed with no structure."""

from __future__ import annotations

import numpy as np

from ._common import Family, Param, _at_least, _N

__all__ = ["FAMILIES", "random_class"]


def random_class(m: int, N: int, p: float = 0.5, seed: int = 0):
    """m rows of N iid Bernoulli(p) labels from numpy.random.default_rng(seed), duplicates merged.

    Points (j,), j = 0..N-1. Size at most m (a single concept if all rows coincide, e.g. p = 0).
    """
    rng = np.random.default_rng(seed)
    return rng.random((m, N)) < p, [(j,) for j in range(N)]



def _check_random(q):
    _at_least("random", q, "m", 1)
    _at_least("random", q, "N", 1)
    if not 0.0 <= q["p"] <= 1.0:
        raise ValueError(f"random: p must be in [0, 1], got {q['p']}; give 0 <= p <= 1")
    _at_least("random", q, "seed", 0)



#: The families of this module, in the order of the registry.
FAMILIES = [
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
