"""Families on a line of points: thresholds, intervals and singletons on {1..N}, and all the functions on
n abstract points (j,), j = 0..n-1.

Thresholds are the class on which the Halving bound Opt(C) <= lg |C| is met ([Rivest94], section 2.3.2).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import numpy as np

from ..symmetry import line_generators, symmetric_group_generators

from ._common import Family, _at_least, _check_n, _flag, _n, _N, _empty, _pow

__all__ = ["FAMILIES", "WORDS", "thresholds", "intervals", "singletons", "all_functions"]


def _line_points(N: int) -> list[tuple[int]]:
    return [(x,) for x in range(1, N + 1)]


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
    width = 4 if n <= 32 else 8  # bytes a row number takes; big-endian, they unpack to its bits from the highest down
    f = np.arange(1 << n, dtype=f">u{width}")
    m = np.unpackbits(f.view(np.uint8).reshape(-1, width), axis=1)[:, 8 * width - n:].view(bool)
    return m, [(j,) for j in range(n)]



def _check_thresholds(q):
    _at_least("thresholds", q, "N", 1)


def _check_line(name):
    def check(q):
        _at_least(name, q, "N", 1)
        _flag(name, q, "empty")
    return check



def _line_n(q):
    return q["N"]



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



def _all_functions_words(q, c):
    n = q["n"]
    ones = [j for j in range(n) if c >> (n - 1 - j) & 1]
    return "false" if not ones else "true" if len(ones) == n else f"x in {{{', '.join(map(str, ones))}}}"



#: family -> (params, index) -> the concept in words.
WORDS = {
    "thresholds": lambda q, c: f"x >= {c + 1}" if c < q["N"] else "false",
    "intervals": _interval_words,
    "singletons": lambda q, c: f"x = {c + 1}" if c < q["N"] else "false",
    "all-functions": _all_functions_words,
}

#: The families of this module, in the order of the registry.
FAMILIES = [
        Family(
            name="thresholds", params=(_N,), domain="{1..N}",
            description="thresholds x >= t on {1..N}, t = 1..N+1",
            size="N + 1",
            known="Opt = floor(log2(N+1)) (Halving bound, Rivest's notes; bisecting adversary); VC = 1",
            builder=thresholds, check=_check_thresholds,
            count=lambda q: q["N"] + 1, n_points=_line_n, main=("N",),
            opt=lambda q: (q["N"] + 1).bit_length() - 1, vc=lambda q: 1,
            known_opt="floor(log2(N+1))",
            symmetry=lambda q: line_generators(q["N"], complement=True),
        ),
        Family(
            name="intervals", params=(_N, _empty), domain="{1..N}",
            description="intervals [a, b] on {1..N} (plus the empty concept if empty=1)",
            size="N(N+1)/2 + empty",
            known="VC = min(N, 2) (min(N - 1, 2) without the empty concept)",
            builder=intervals, check=_check_line("intervals"),
            count=lambda q: q["N"] * (q["N"] + 1) // 2 + q["empty"], n_points=_line_n, main=("N",),
            vc=lambda q: min(q["N"] - 1 + q["empty"], 2),
            symmetry=lambda q: line_generators(q["N"]),
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
            symmetry=lambda q: symmetric_group_generators(q["N"]),
        ),
        Family(
            name="all-functions", params=(_n,), domain="n points (j,)",
            description="all 2^n functions on n points",
            size="2^n",
            known="Opt = VC = n (shattered; Opt <= lg |C|, Rivest's notes)",
            builder=all_functions, check=_check_n("all-functions"),
            count=lambda q: _pow(2, q["n"]), n_points=lambda q: q["n"], main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
            symmetry=lambda q: symmetric_group_generators(q["n"]) + [(tuple(range(q["n"])), True)],
        ),
]
