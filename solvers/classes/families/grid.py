"""Families on the grid {1..N}^2: axis-aligned rectangles."""

from __future__ import annotations

import numpy as np

from ..symmetry import grid_generators

from ._common import Family, _at_least, _N
from .line import _interval, intervals

__all__ = ["FAMILIES", "WORDS", "rectangles"]


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



def _rectangle_words(q, c):
    M = q["N"] * (q["N"] + 1) // 2
    if c == M * M:
        return "false"
    (a1, b1), (a2, b2) = _interval(q["N"], c // M), _interval(q["N"], c % M)
    return f"[{a1}, {b1}] x [{a2}, {b2}]"



#: family -> (params, index) -> the concept in words.
WORDS = {"rectangles": _rectangle_words}

#: The families of this module, in the order of the registry.
FAMILIES = [
        Family(
            name="rectangles", params=(_N,), domain="{1..N}^2",
            description="axis-aligned rectangles on the N x N grid, plus the empty one",
            size="(N(N+1)/2)^2 + 1",
            known="VC = 4 for N >= 3",
            builder=rectangles, check=lambda q: _at_least("rectangles", q, "N", 1),
            count=lambda q: (q["N"] * (q["N"] + 1) // 2) ** 2 + 1, n_points=lambda q: q["N"] ** 2, main=("N",),
            vc=lambda q: 4 if q["N"] >= 3 else None,
            symmetry=lambda q: grid_generators(q["N"]),
        ),
]
