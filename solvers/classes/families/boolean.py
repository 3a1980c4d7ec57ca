"""Families on {0,1}^n: conjunctions, disjunctions (monotone or of literals), parities, halfspaces,
k-of-r functions and decision lists.

Variable ``x_i`` is coordinate ``i`` of a point; the points are the bit tuples in the order of
``itertools.product([0, 1], repeat=n)``. Elimination learns monotone conjunctions ([Mehta]), ELIM ORs of
literals ([OnlineAlgs]), Winnow monotone disjunctions and k-of-r functions ([Rivest94], [15-859B]); each
family's facts say which of these it is.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Optional

import numpy as np

from ..symmetry import cube_generators

from ._common import (MAX_CELLS, Family, Param, _at_least, _at_most, _by_rows, _check_n, _cube_codes, _cube_facts,
                      _cube_n, _cube_points, _flag, _k, _kron_power, _masks, _n, _popcount, _pow, _words)

__all__ = ["FAMILIES", "monotone_conjunctions", "conjunctions", "monotone_disjunctions", "disjunctions", "parities",
           "halfspaces", "halfspace_tables", "k_of_r", "decision_lists"]

# The largest weight any threshold function on n <= 6 variables needs with sorted nonnegative integer weights;
# checked by the exact counts of A000609 in tests/solvers/classes/families/test_registry.py.
_HALFSPACE_WEIGHTS = {1: 1, 2: 1, 3: 2, 4: 3, 5: 5, 6: 9}
_HALFSPACE_COUNTS = {1: 4, 2: 14, 3: 104, 4: 1882, 5: 94572, 6: 15028134}  # OEIS A000609, n = 1..6

# OEIS A005612: the 1-decision-list ("unate cascade") functions of exactly j variables, j = 1..7;
# j = 0 has the two constants. The functions of n variables number sum_j C(n, j) A005612(j).
_A005612 = (2, 2, 8, 64, 736, 10624, 183936, 3715072)


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


@functools.lru_cache(maxsize=1)
def halfspace_tables(n: int) -> np.ndarray:
    """The truth tables of every linear threshold function x -> [w.x >= t] on {0,1}^n (constants included),
    n <= 6, as sorted unsigned 64-bit integers with point j (in ``itertools.product`` order) at bit j.

    Flipping variables (x_i -> 1 - x_i) and permuting them maps threshold functions onto threshold functions,
    and every threshold function is the image of one with weights 0 <= w_1 <= ... <= w_n under that group
    (the hyperoctahedral group, of order 2^n n!: flip the variables of negative weight, then sort). So the
    functions are enumerated as those with sorted nonnegative integer weights w_i <= W, every threshold
    between or around the distinct values of w.x, then their images under the permutations and the flips.
    W = 1, 1, 2, 3, 5, 9 for n = 1..6 is as large as any function needs: the counts are 4, 14, 104, 1882,
    94572 and 15,028,134, those of OEIS A000609 (checked in the tests, and n = 6 gives the same count with
    W = 13). A flip is a swap of bit blocks of the table, so n = 6's 15 million tables take seconds. The last
    result is kept (read-only: 120 MB for n = 6) for the next call.
    """
    if not 1 <= n <= 6:
        raise ValueError(f"halfspaces: n={n}: the truth tables are enumerated for n = 1..6")
    W = _HALFSPACE_WEIGHTS[n]
    P = 1 << n
    pts = _cube_points(n)
    X = np.array(pts, dtype=np.int64)                                                 # (2^n, n)
    w = np.array(list(itertools.combinations_with_replacement(range(W + 1), n)), dtype=np.int64)
    values = w @ X.T                                                                  # (weights, 2^n)
    order = np.argsort(-values, axis=1, kind="stable")                                # points by decreasing w.x
    sorted_values = np.take_along_axis(values, order, axis=1)
    # prefix[i] = the points with the i+1 largest values; a cut after i is a threshold when the next value is
    # strictly smaller (or i is the last point: the constant 1). The constant 0 is added.
    prefix = np.bitwise_or.accumulate(np.left_shift(np.uint64(1), order.astype(np.uint64)), axis=1)
    cut = np.ones_like(values, dtype=bool)
    cut[:, :-1] = sorted_values[:, :-1] > sorted_values[:, 1:]
    tables = _distinct(np.concatenate([prefix[cut], np.zeros(1, dtype=np.uint64)]))
    index = {p: j for j, p in enumerate(pts)}
    perms = np.array([[index[tuple(p[s[i]] for i in range(n))] for p in pts]
                      for s in itertools.permutations(range(n))], dtype=np.intp)
    tables = _permuted_tables(tables, perms, P)
    for k in range(n):  # flip the variable read at bit k of a point's index: swap the blocks of 2^k bits
        shift = np.uint64(1 << k)
        low = np.uint64(sum(1 << j for j in range(P) if not j >> k & 1))
        tables = _distinct(np.concatenate([tables, ((tables & low) << shift) | ((tables >> shift) & low)]))
    tables.flags.writeable = False
    return tables


def _distinct(x: np.ndarray) -> np.ndarray:
    """The sorted distinct values of ``x`` (np.unique, by sorting: numpy 2's np.unique on 10^7 integers is
    ten times slower)."""
    x = np.sort(x)
    return x[np.concatenate([[True], x[1:] != x[:-1]])] if len(x) else x


def _permuted_tables(tables: np.ndarray, perms: np.ndarray, P: int) -> np.ndarray:
    """Every image of the truth tables (P bits each) under the point permutations ``perms``, distinct and
    sorted."""
    out = []
    step = max(1, 4_000_000 // (len(perms) * P))
    for a in range(0, len(tables), step):
        bits = ((tables[a:a + step, None] >> np.arange(P, dtype=np.uint64)) & np.uint64(1)).astype(np.uint8)
        packed = np.packbits(bits[:, perms], axis=-1, bitorder="little")             # (k, |perms|, P/8 bytes)
        packed = np.concatenate([packed, np.zeros(packed.shape[:-1] + (8 - packed.shape[-1],), np.uint8)], axis=-1)
        out.append(_distinct(packed.reshape(-1, 8).view("<u8").ravel()))
    return _distinct(np.concatenate(out))


def halfspaces(n: int):
    """All linear threshold functions on {0,1}^n: x -> [w.x >= t], constants included (n <= 5).

    The truth tables of :func:`halfspace_tables`, rows sorted by truth table read as an integer (point j at
    bit j). Size 4, 14, 104, 1882, 94572 for n = 1..5 (OEIS A000609); n = 6 has 15,028,134, past a matrix
    (:class:`~solvers.classes.evaluated.EvaluatedClass` holds its tables). VC = n + 1 (the points 0, e_1,
    ..., e_n are affinely independent; Radon's theorem bounds it above).
    """
    tables = halfspace_tables(n)
    m = ((tables[:, None] >> np.arange(1 << n, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    return m, _cube_points(n)


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
    if q["n"] >= 7:
        raise ValueError(
            f"halfspaces: n={q['n']} is not supported (n = 7 has 8378070864 threshold functions); give n <= 6"
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


def _dl_count(n: int) -> int:
    return sum(math.comb(n, j) * _A005612[j] for j in range(n + 1)) if n < len(_A005612) else math.inf


def _monotone_disjunctions_opt(q) -> Optional[int]:
    k, n = _k(q), q["n"]
    if k == n:
        return n  # the points e_i are shattered, and Opt <= lg 2^n
    if k <= 1:
        return (n + 1).bit_length() - 1 if k == 1 else 0  # k = 1: n + 1 concepts, halved by any subset query
    return None



def _monotone_disjunctions_facts(q) -> dict:
    """An OR of at most k variables is an OR of at most k literals."""
    return {"n": q["n"], "monotone_or": _k(q), "or_of_literals": _k(q)}


def _disjunctions_facts(q) -> dict:
    """ORs of literals over at most k variables; the constant 1 row is x0 v ~x0 (2 literals)."""
    k = _k(q)
    return {"n": q["n"], "or_of_literals": max(k, 2) if k >= 1 else 0}


def _k_of_r_facts(q) -> dict:
    """At least k of r variables: for k = 1 an OR of the r variables, for k = r their AND."""
    facts = {"n": q["n"], "k_of_r": (q["k"], q["r"])}
    if q["k"] == 1:
        facts.update(monotone_or=q["r"], or_of_literals=q["r"])
    if q["k"] == q["r"]:
        facts["monotone_and"] = q["r"]
    return facts


#: The families of this module, in the order of the registry.
FAMILIES = [
        Family(
            name="monotone-conjunctions", params=(_n,), domain="{0,1}^n",
            description="conjunctions of variables (the empty one is constant 1)",
            size="2^n",
            known="Opt = VC = n (elimination, Mehta's notes: <= n mistakes; 1 - e_i shattered)",
            builder=monotone_conjunctions, check=_check_n("monotone-conjunctions"),
            count=lambda q: _pow(2, q["n"]), n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
            facts=lambda q: {"n": q["n"], "monotone_and": q["n"]},
            symmetry=lambda q: cube_generators(q["n"], negate=False),
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
            facts=_cube_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=True),
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
            facts=_monotone_disjunctions_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=False),
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
            facts=_disjunctions_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=True),
        ),
        Family(
            name="parities", params=(_n,), domain="{0,1}^n",
            description="parities of subsets of variables (the empty one is constant 0)",
            size="2^n",
            known="Opt = VC = n (e_i shattered; Opt <= lg |C|, Rivest's notes)",
            builder=parities, check=_check_n("parities"),
            count=lambda q: _pow(2, q["n"]), n_points=_cube_n, main=("n",),
            opt=lambda q: q["n"], vc=lambda q: q["n"], known_opt="n",
            facts=_cube_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=False),
        ),
        Family(
            name="halfspaces", params=(_n,), domain="{0,1}^n",
            description="all linear threshold functions on {0,1}^n, constants included (n <= 6)",
            size="4, 14, 104, 1882, 94572, 15028134 for n = 1..6 (OEIS A000609)",
            known="VC = n + 1",
            builder=halfspaces, check=_check_halfspaces,
            count=lambda q: _HALFSPACE_COUNTS.get(q["n"], 0), n_points=_cube_n, main=("n",),
            vc=lambda q: q["n"] + 1,
            facts=_cube_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=True, complement=True),
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
            facts=_k_of_r_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=False),
        ),
        Family(
            name="decision-lists", params=(_n,), domain="{0,1}^n",
            description="1-decision lists over n variables (n <= 6)",
            size="sum_j C(n, j) A005612(j): 4, 14, 96, 1050, 15036, 260134 for n = 1..6",
            known="",
            builder=decision_lists, check=_check_decision_lists,
            count=lambda q: _dl_count(q["n"]), n_points=_cube_n, main=("n",),
            facts=_cube_facts,
            symmetry=lambda q: cube_generators(q["n"], negate=True, complement=True),
        ),
]
