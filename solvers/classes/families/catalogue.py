"""Classes of the catalogue of combinatorial parameters (O. Bousquet's "Combinatorial Parameters" database,
github.com/obousquet/Combinatorial-Parameters), built from the definitions given there: its classes 9 and 41,
and the parametric classes its value records are stated for that littlestone's other families do not already give
(``littlestone catalogue import`` names them; :mod:`solvers.catalogue` maps the catalogue's classes to these).

* ``halfintervals n`` (its class 5): I_n = {[i] : 1 <= i <= n}, [i] = {1..i}: n concepts on n points, point 1 in
  all of them (``thresholds`` has the empty concept too).
* ``constants n`` (its class 1, "trivial concepts"): the two constant concepts on n points.
* ``majority-vote n`` (its class 7, "majority"): the sets S of [n+1] with n+1 in S exactly when
  |S & [n]| > n/2, the 2^n rows in binary order of their first n labels.
* ``addressing n`` (its class 8, after Maass and Turan): with r = ceil(log2 n), n concepts on n address points
  and r bit points: concept i (i = 1..n) is 1 at address point i alone, and on the bit points the r bits of
  i - 1, most significant first (the encoding the catalogue leaves open; its complete-code values are for n = 2^r).

* ``blockwise-addressing d``: Example 2 of Ben-David, Kushilevitz and Mansour, "Online learning versus offline
  learning" (Machine Learning 29, 1997). Put m = 2^d (d a power of two, so that d divides m). The domain is
  z, x_1..x_m, y_1..y_m, here the points (0,), (1,)..(m,), (m+1,)..(2m,). There are 2m concepts:
  f_i (i = 1..m) is 0 at z, the singleton {x_i} on the x's, and on each of the m/d blocks of d consecutive y's
  the d bits of i - 1 (most significant first, the same in every block); g_i is 1 at z, the singleton {y_i}
  on the y's, and the bits of i - 1 on each block of d consecutive x's. Rows: f_1..f_m, then g_1..g_m.
* ``qr-tournament p``: for a prime p = 3 (mod 4), the tournament on F_p with an arc a -> b exactly when a - b is a
  nonzero quadratic residue mod p (p = 3 mod 4 makes -1 a non-residue, so exactly one of a -> b, b -> a holds);
  the class has the out-neighbourhoods C_a = {b : a -> b}, a = 0..p-1 (row a), on the points (b,), b = 0..p-1.
  The catalogue cites Simon's work on tournament classes (2023) for it. Translation b -> b + 1 and multiplication
  by a quadratic residue map the class onto itself (declared as its symmetries).

Known values: the issue that added them (issue 37) measured the star numbers 16 (blockwise-addressing d=4: the
centre f_1, 0 on every y, with the neighbours g_1..g_m on the points y_1..y_m, so at least m = 2^d for every d)
and 5 (qr-tournament p=31); :mod:`solvers.params` proves both, by its search and by CP-SAT's refutation checked by
a second solver (tests/solvers/test_params_sat.py). The catalogue states, for blockwise-addressing, M_sd <= 2,
M_best = Omega(d) and RTD = 2 (from the direct teaching argument it records).

Examples
--------
>>> C, points = blockwise_addressing(2)
>>> C.shape, len(points)
((8, 9), 9)
>>> C.astype(int)[0].tolist()   # f_1: z = 0, x = {x_1}, y blocks (y_1 y_2) (y_3 y_4) = bits of 0
[0, 1, 0, 0, 0, 0, 0, 0, 0]
>>> qr_tournament(7)[0].astype(int).tolist()[0]   # C_0 = {b : -b a residue mod 7} = {3, 5, 6}
[0, 0, 0, 1, 0, 1, 1]
"""

from __future__ import annotations

import numpy as np

from ._common import Family, Param

__all__ = ["FAMILIES", "blockwise_addressing", "qr_tournament", "halfintervals", "constants", "majority_vote",
           "addressing"]


def blockwise_addressing(d: int):
    """The 2^(d+1) concepts f_i, g_i of the blockwise addressing class on its 2^(d+1) + 1 points (see the module)."""
    m = 1 << d
    i = np.arange(m)
    # bits[i, k]: bit k (most significant first) of i, for the d positions of a block, tiled over the m/d blocks
    bits = ((i[:, None] >> (d - 1 - np.arange(d))[None, :]) & 1).astype(bool)
    blocks = np.tile(bits, (1, m // d))
    eye = np.eye(m, dtype=bool)
    f = np.hstack([np.zeros((m, 1), dtype=bool), eye, blocks])
    g = np.hstack([np.ones((m, 1), dtype=bool), blocks, eye])
    return np.vstack([f, g]), [(j,) for j in range(2 * m + 1)]


def halfintervals(n: int):
    """I_n: concept i (i = 1..n) is 1 on the points 1..i."""
    return np.tri(n, dtype=bool), [(j,) for j in range(1, n + 1)]


def constants(n: int):
    """The two constant concepts on n points."""
    return np.array([[False] * n, [True] * n], dtype=bool).reshape(2, n), [(j,) for j in range(1, n + 1)]


def majority_vote(n: int):
    """The 2^n sets S of [n+1] with n+1 in S exactly when |S & [n]| > n/2."""
    i = np.arange(1 << n)
    bits = ((i[:, None] >> (n - 1 - np.arange(n))[None, :]) & 1).astype(bool)
    return np.hstack([bits, (2 * bits.sum(axis=1) > n)[:, None]]), [(j,) for j in range(1, n + 2)]


def addressing(n: int):
    """n concepts on n address points and ceil(log2 n) bit points: {address i} and the bits of i - 1."""
    r = max((n - 1).bit_length(), 0)
    i = np.arange(n)
    bits = ((i[:, None] >> (r - 1 - np.arange(r))[None, :]) & 1).astype(bool)
    return np.hstack([np.eye(n, dtype=bool), bits]), [(j,) for j in range(1, n + r + 1)]


def _at_least(name: str, low: int):
    def check(q) -> None:
        if q["n"] < low:
            raise ValueError(f"{name}: n must be at least {low}, got {q['n']}")
    return check


def _residues(p: int) -> np.ndarray:
    """is_qr[r]: r is a nonzero square mod p."""
    is_qr = np.zeros(p, dtype=bool)
    is_qr[(np.arange(1, p) ** 2) % p] = True
    return is_qr


def qr_tournament(p: int):
    """The out-neighbourhoods C_a = {b : a - b a nonzero quadratic residue mod p} of the quadratic-residue
    tournament on F_p (see the module)."""
    a = np.arange(p)
    return _residues(p)[(a[:, None] - a[None, :]) % p], [(b,) for b in range(p)]


def _is_prime(p: int) -> bool:
    return p >= 2 and all(p % q for q in range(2, int(p ** 0.5) + 1))


def _check_blockwise(q) -> None:
    d = q["d"]
    if d < 2 or d & (d - 1):
        raise ValueError(f"blockwise-addressing: d must be a power of two >= 2 (so that d divides 2^d), got {d}; "
                         "give d=2, 4 or 8")


def _check_qr(q) -> None:
    p = q["p"]
    if not _is_prime(p) or p % 4 != 3:
        raise ValueError(f"qr-tournament: p must be a prime with p = 3 (mod 4), got {p}; give e.g. p=7, 11, 19, 23, "
                         "31 or 43")


def _qr_symmetry(q) -> list:
    p = q["p"]
    shift = (tuple((b + 1) % p for b in range(p)), False)
    if p <= 3:
        return [shift]
    r = next(r for r in range(2, p) if _residues(p)[r])  # multiplication by a residue: C_a -> C_{ra}
    return [shift, (tuple((r * b) % p for b in range(p)), False)]


_d = Param("d", int, None, "block length, a power of two (m = 2^d addresses)")
_size = Param("n", int, None, "the catalogue's n")
_p = Param("p", int, None, "a prime = 3 (mod 4)")

#: The families of this module, in the order of the registry.
FAMILIES = [
    Family(
        name="halfintervals", params=(_size,), domain="{1..n}", size="n",
        description="the catalogue's half-intervals I_n = {[i] : 1 <= i <= n} ([i] = {1..i}; no empty concept)",
        known="VC = 1; Opt = floor(log2 n)", builder=halfintervals, check=_at_least("halfintervals", 1),
        count=lambda q: q["n"], n_points=lambda q: q["n"], main=("n",),
    ),
    Family(
        name="constants", params=(_size,), domain="{1..n}", size="2",
        description="the two constant concepts on n points (the catalogue's trivial concepts)",
        known="Opt = VC = 1", builder=constants, check=_at_least("constants", 1),
        count=lambda q: 2, n_points=lambda q: q["n"], main=("n",),
    ),
    Family(
        name="majority-vote", params=(_size,), domain="{1..n+1}", size="2^n",
        description="the catalogue's majority class: S of [n+1] with n+1 in S iff |S & [n]| > n/2",
        known="VC = n (catalogue)", builder=majority_vote, check=_at_least("majority-vote", 1),
        count=lambda q: 1 << q["n"] if q["n"] <= 64 else float("inf"), n_points=lambda q: q["n"] + 1, main=("n",),
    ),
    Family(
        name="addressing", params=(_size,), domain="n address points, then ceil(log2 n) bit points",
        size="n", description="the catalogue's addressing class: {address i} and the ceil(log2 n) bits of i - 1",
        known="Opt = floor(log2 n) for n = 2^r (catalogue)", builder=addressing, check=_at_least("addressing", 2),
        count=lambda q: q["n"], n_points=lambda q: q["n"] + max((q["n"] - 1).bit_length(), 0), main=("n",),
    ),
    Family(
        name="blockwise-addressing", params=(_d,), domain="2^(d+1) + 1 points (j,): z, x_1..x_m, y_1..y_m",
        description="blockwise addressing (Ben-David, Kushilevitz and Mansour 1997, Example 2): f_i, g_i, m = 2^d",
        size="2^(d+1)",
        known="star >= 2^d (16 at d = 4, exact); RTD = 2 (catalogue of combinatorial parameters)",
        builder=blockwise_addressing, check=_check_blockwise,
        count=lambda q: 2 << q["d"] if q["d"] <= 64 else float("inf"),
        n_points=lambda q: (2 << q["d"]) + 1 if q["d"] <= 64 else float("inf"), main=("d",),
    ),
    Family(
        name="qr-tournament", params=(_p,), domain="F_p: p points (b,)",
        description="out-neighbourhoods of the quadratic-residue tournament on F_p, p = 3 (mod 4) prime",
        size="p",
        known="star = 5 at p = 31 (issue 37)",
        builder=qr_tournament, check=_check_qr,
        count=lambda q: q["p"], n_points=lambda q: q["p"], main=("p",),
        symmetry=_qr_symmetry,
    ),
]
