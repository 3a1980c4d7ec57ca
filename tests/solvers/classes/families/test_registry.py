"""solvers.classes.families (the registry): sizes against their formulas, semantics against brute-force enumerations written
from the definitions, the published counts, parameter handling and the one-line errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from solvers import opt
from solvers.classes import ConceptClass
from solvers.classes.families import FAMILIES, MAX_CELLS, describe, make, parse_params, resolve_params
from solvers.classes.families.boolean import halfspace_tables
from solvers.vc import vc_dimension


# ------------------------------------------------------------------ brute-force references
def cube(n):
    return list(itertools.product((0, 1), repeat=n))


def table(C: ConceptClass) -> set:
    """The class as a set of truth tables (tuples of 0/1)."""
    return {tuple(int(v) for v in row) for row in C.matrix}


def tables_of(functions, points) -> set:
    return {tuple(int(bool(f(x))) for x in points) for f in functions}


def literal_sets(n, max_vars):
    """Every set of literals (i, sign) over at most max_vars distinct variables."""
    literals = [(i, s) for i in range(n) for s in (1, 0)]
    for size in range(2 * n + 1):
        for L in itertools.combinations(literals, size):
            if len({i for i, _ in L}) <= max_vars:
                yield L


def holds(lit, x):
    i, s = lit
    return x[i] == s


def brute_decision_lists(n, repeat):
    """All functions of lists "if l1 then b1 ... else b" of length <= n, evaluated directly."""
    points = cube(n)
    literals = [(i, s) for i in range(n) for s in (1, 0)]
    out = set()
    for length in range(n + 1):
        if repeat:
            tests = itertools.product(literals, repeat=length)
        else:
            tests = (
                tuple(zip(vs, signs))
                for vs in itertools.permutations(range(n), length)
                for signs in itertools.product((1, 0), repeat=length)
            )
        for test in tests:
            for bits in itertools.product((0, 1), repeat=length + 1):
                row = []
                for x in points:
                    for lit, b in zip(test, bits):
                        if holds(lit, x):
                            row.append(b)
                            break
                    else:
                        row.append(bits[-1])
                out.add(tuple(row))
    return out


# A005612, 1-decision-list functions of exactly j variables (j = 0: the two constants).
A005612 = [2, 2, 8, 64, 736, 10624, 183936]


# ------------------------------------------------------------------ sizes
SIZE_CASES = (
    [("thresholds", dict(N=N), N + 1) for N in (1, 2, 7, 100)]
    + [("intervals", dict(N=N, empty=e), N * (N + 1) // 2 + e) for N in (1, 2, 5, 30) for e in (0, 1)]
    + [("singletons", dict(N=N, empty=e), N + e) for N in (1, 3, 9) for e in (0, 1)]
    + [("all-functions", dict(n=n), 2**n) for n in (1, 3, 8)]
    + [("monotone-conjunctions", dict(n=n), 2**n) for n in (1, 2, 5, 8)]
    + [("conjunctions", dict(n=n, false=f), 3**n + f) for n in (1, 2, 5) for f in (0, 1)]
    + [("monotone-disjunctions", dict(n=n, k=k), sum(math.comb(n, i) for i in range(k + 1)))
       for n in (1, 4, 7) for k in range(n + 1)]
    + [("monotone-disjunctions", dict(n=6), 2**6)]
    + [("disjunctions", dict(n=n, k=k), sum(math.comb(n, i) * 2**i for i in range(k + 1)) + (k >= 1))
       for n in (1, 3, 5) for k in range(n + 1)]
    + [("disjunctions", dict(n=n), 3**n + 1) for n in (1, 2, 6)]
    + [("parities", dict(n=n), 2**n) for n in (1, 4, 9)]
    + [("halfspaces", dict(n=n), c) for n, c in zip(range(1, 5), (4, 14, 104, 1882))]
    + [("rectangles", dict(N=N), (N * (N + 1) // 2) ** 2 + 1) for N in (1, 2, 4, 7)]
    + [("k-of-r", dict(n=n, r=r, k=k), math.comb(n, r)) for n, r, k in [(1, 1, 1), (5, 2, 1), (6, 3, 2), (7, 7, 4), (8, 4, 4)]]
    + [("decision-lists", dict(n=n), sum(math.comb(n, j) * A005612[j] for j in range(n + 1))) for n in range(1, 6)]
)


@pytest.mark.parametrize("name, params, size", SIZE_CASES, ids=lambda v: str(v))
def test_size_matches_formula(name, params, size):
    C = make(name, **params)
    assert len(C) == size
    assert FAMILIES[name].count(C.params) == size
    assert C.family == name
    assert set(C.params) == {p.name for p in FAMILIES[name].params}


def test_decision_list_sizes_documented():
    assert [len(make("decision-lists", n=n)) for n in range(1, 6)] == [4, 14, 96, 1050, 15036]


def test_halfspaces_published_counts():
    """OEIS A000609: 4, 14, 104, 1882, 94572 threshold functions of n = 1..5 variables, and 15,028,134 of 6. This
    is what shows the weight bound W used by the builder is large enough."""
    counts = [len(make("halfspaces", n=n)) for n in range(1, 6)]
    assert counts == [4, 14, 104, 1882, 94572]
    assert len(halfspace_tables(6)) == 15028134


def _all_weights_tables(n: int, W: int) -> set:
    """The brute force: every weight vector in [-W, W]^n (not only sorted nonnegative ones), every threshold."""
    pts = np.array(cube(n), dtype=np.int64)
    out = {0}
    for w in itertools.product(range(-W, W + 1), repeat=n):
        v = pts @ np.array(w, dtype=np.int64)
        for t in np.unique(v):
            out.add(sum(1 << j for j in np.flatnonzero(v >= t).tolist()))
    return out


@pytest.mark.parametrize("n,W", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_halfspace_tables_against_all_weights(n, W):
    """The enumeration by sorted nonnegative weights and the hyperoctahedral group finds exactly the functions of
    all integer weight vectors in a box larger than it needs."""
    assert set(halfspace_tables(n).tolist()) == _all_weights_tables(n, W)


def test_halfspace_tables_six_closed_under_the_cube_group():
    """n = 6: the tables are distinct and sorted, and a flip, a swap of two variables and complementing map them
    into the set (on a sample: with the count equal to A000609's, into is onto)."""
    T = halfspace_tables(6)
    assert T.dtype == np.uint64 and np.all(T[1:] > T[:-1])
    sample = T[np.random.default_rng(0).choice(len(T), 50_000, replace=False)]

    def within(x):  # (by binary search: numpy 2's np.isin takes 28 s against 15 million values)
        i = np.minimum(np.searchsorted(T, x), len(T) - 1)
        return bool(np.all(T[i] == x))

    pts = cube(6)
    index = {p: j for j, p in enumerate(pts)}
    for f in (lambda p: (1 - p[0],) + p[1:], lambda p: (p[3],) + p[1:3] + (p[0],) + p[4:]):
        perm = np.array([index[f(p)] for p in pts])
        bits = np.unpackbits(sample.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, perm]
        image = np.ascontiguousarray(np.packbits(bits, axis=1, bitorder="little")).view("<u8").ravel()
        assert within(image)
    assert within(~sample)
    assert not within(sample ^ np.uint64(1 << 63))  # (and a function that is not one is not found)


# ------------------------------------------------------------------ points and parameters
def test_points_and_params():
    assert make("parities", n=3).points == tuple(cube(3))
    assert make("intervals", N=3).points == ((1,), (2,), (3,))
    assert make("rectangles", N=2).points == ((1, 1), (1, 2), (2, 1), (2, 2))
    assert make("all-functions", n=3).points == ((0,), (1,), (2,))
    assert make("random", m=3, N=2).points == ((0,), (1,))
    assert make("monotone-disjunctions", n=5).params == {"n": 5, "k": 5}
    assert make("disjunctions", n=3, k=1).params == {"n": 3, "k": 1}
    assert make("random", m=4, N=3).params == {"m": 4, "N": 3, "p": 0.5, "seed": 0}
    assert make("conjunctions", n=2).params == {"n": 2, "false": 1}
    assert make("thresholds", N=np.int64(4)).params == {"N": 4}


def test_parse_params():
    assert parse_params("monotone-disjunctions", ["n=8", "k=2"]) == {"n": 8, "k": 2}
    assert parse_params("random", ["m=5", "N=3", "p=0.25", "seed=7"]) == {"m": 5, "N": 3, "p": 0.25, "seed": 7}
    assert parse_params("random", ["p=1"]) == {"p": 1.0}
    assert parse_params("thresholds", [" N = 4 "]) == {"N": 4}
    assert parse_params("thresholds", []) == {}
    p = parse_params("intervals", ["N=6", "empty=0"])
    assert make("intervals", **p) == make("intervals", N=6, empty=0)


def test_describe_lists_every_family():
    rows = describe()
    assert [r["name"] for r in rows] == list(FAMILIES)
    for r in rows:
        assert {"name", "params", "size", "opt", "known", "description"} <= set(r)
        assert "\n" not in r["description"]
    by_name = {r["name"]: r for r in rows}
    assert by_name["intervals"]["params"] == "N empty=1"
    assert by_name["monotone-disjunctions"]["params"] == "n k=n"
    assert by_name["random"]["params"] == "m N p=0.5 seed=0"
    assert by_name["thresholds"]["opt"] == "floor(log2(N+1))"


# ------------------------------------------------------------------ semantics by brute force
@pytest.mark.parametrize("N", [1, 2, 5])
def test_line_families(N):
    pts = range(1, N + 1)
    assert table(make("thresholds", N=N)) == tables_of([lambda x, t=t: x >= t for t in range(1, N + 2)], pts)
    ivs = [lambda x, a=a, b=b: a <= x <= b for a in pts for b in pts if a <= b]
    assert table(make("intervals", N=N, empty=0)) == tables_of(ivs, pts)
    assert table(make("intervals", N=N)) == tables_of(ivs + [lambda x: False], pts)
    sing = [lambda x, i=i: x == i for i in pts]
    assert table(make("singletons", N=N, empty=0)) == tables_of(sing, pts)
    assert table(make("singletons", N=N)) == tables_of(sing + [lambda x: False], pts)


def test_thresholds_order():
    assert make("thresholds", N=2).matrix.astype(int).tolist() == [[1, 1], [0, 1], [0, 0]]


@pytest.mark.parametrize("N", [1, 2, 3])
def test_rectangles(N):
    grid = [(i, j) for i in range(1, N + 1) for j in range(1, N + 1)]
    iv = [(a, b) for a in range(1, N + 1) for b in range(a, N + 1)]
    rects = [lambda p, r=r, s=s: r[0] <= p[0] <= r[1] and s[0] <= p[1] <= s[1] for r in iv for s in iv]
    assert table(make("rectangles", N=N)) == tables_of(rects + [lambda p: False], grid)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_all_functions(n):
    assert table(make("all-functions", n=n)) == set(itertools.product((0, 1), repeat=n))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_boolean_families(n):
    pts = cube(n)
    subsets = [S for r in range(n + 1) for S in itertools.combinations(range(n), r)]
    assert table(make("monotone-conjunctions", n=n)) == tables_of(
        [lambda x, S=S: all(x[i] for i in S) for S in subsets], pts)
    assert table(make("parities", n=n)) == tables_of(
        [lambda x, S=S: sum(x[i] for i in S) % 2 for S in subsets], pts)
    # Conjunctions: every set of literals over distinct variables, plus "false".
    conj = [lambda x, L=L: all(holds(l, x) for l in L) for L in literal_sets(n, n) if len({i for i, _ in L}) == len(L)]
    assert len(conj) == 3**n
    assert table(make("conjunctions", n=n, false=0)) == tables_of(conj, pts)
    assert table(make("conjunctions", n=n)) == tables_of(conj + [lambda x: False], pts)
    for k in range(n + 1):
        mono = [lambda x, S=S: any(x[i] for i in S) for S in subsets if len(S) <= k]
        assert table(make("monotone-disjunctions", n=n, k=k)) == tables_of(mono, pts)
        # ORs of any set of literals over <= k variables (x_i or not x_i is constant 1).
        ors = [lambda x, L=L: any(holds(l, x) for l in L) for L in literal_sets(n, k)]
        assert table(make("disjunctions", n=n, k=k)) == tables_of(ors, pts)
    for r in range(1, n + 1):
        for k in range(1, r + 1):
            kr = [lambda x, R=R: sum(x[i] for i in R) >= k for R in itertools.combinations(range(n), r)]
            assert table(make("k-of-r", n=n, r=r, k=k)) == tables_of(kr, pts)


def test_monotone_disjunctions_n3_k2_by_hand():
    # Points 000, 001, 010, 011, 100, 101, 110, 111 (x_0 x_1 x_2).
    expected = {
        (0, 0, 0, 0, 0, 0, 0, 0),  # empty OR
        (0, 0, 0, 0, 1, 1, 1, 1),  # x_0
        (0, 0, 1, 1, 0, 0, 1, 1),  # x_1
        (0, 1, 0, 1, 0, 1, 0, 1),  # x_2
        (0, 0, 1, 1, 1, 1, 1, 1),  # x_0 or x_1
        (0, 1, 0, 1, 1, 1, 1, 1),  # x_0 or x_2
        (0, 1, 1, 1, 0, 1, 1, 1),  # x_1 or x_2
    }
    assert table(make("monotone-disjunctions", n=3, k=2)) == expected


def test_disjunctions_k_equals_n_has_constant_one():
    C = make("disjunctions", n=2)
    assert len(C) == 10
    assert (1, 1, 1, 1) in table(C)
    assert (1, 1, 1, 1) not in table(make("disjunctions", n=2, k=0))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_decision_lists_against_all_lists_with_repeats(n):
    assert table(make("decision-lists", n=n)) == brute_decision_lists(n, repeat=True)


def test_decision_lists_n4_against_all_lists():
    assert table(make("decision-lists", n=4)) == brute_decision_lists(4, repeat=False)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_halfspaces_are_exactly_the_threshold_functions(n):
    """Independent check by linear programming: f is a threshold function iff some (w, t) has
    w.x - t >= 1 on f's ones and <= -1 on its zeros."""
    linprog = pytest.importorskip("scipy.optimize").linprog
    pts = np.array(cube(n), dtype=float)
    A = np.hstack([pts, -np.ones((len(pts), 1))])
    ltf = set()
    for f in itertools.product((0, 1), repeat=len(pts)):
        sign = np.where(np.array(f) == 1, -1.0, 1.0)[:, None]  # -(w.x - t) <= -1 on ones, w.x - t <= -1 on zeros
        res = linprog(np.zeros(n + 1), A_ub=sign * A, b_ub=-np.ones(len(pts)), bounds=[(None, None)] * (n + 1))
        if res.status == 0:
            ltf.add(f)
    assert table(make("halfspaces", n=n)) == ltf


def test_halfspaces_closed_under_symmetries():
    C = make("halfspaces", n=4)
    T = table(C)
    pts = cube(4)
    index = {p: j for j, p in enumerate(pts)}
    assert {tuple(1 - v for v in t) for t in T} == T  # complements
    flip0 = [index[(1 - p[0],) + p[1:]] for p in pts]  # negate x_0
    assert {tuple(t[j] for j in flip0) for t in T} == T


def test_random_class():
    C = make("random", m=50, N=6, p=0.3, seed=4)
    rows = np.random.default_rng(4).random((50, 6)) < 0.3
    assert table(C) == {tuple(int(v) for v in r) for r in rows}
    assert len(C) <= 50
    assert make("random", m=50, N=6, p=0.3, seed=4) == C
    assert make("random", m=50, N=6, p=0.3, seed=5) != C
    assert len(make("random", m=20, N=5, p=0.0)) == 1
    assert len(make("random", m=20, N=5, p=1)) == 1
    assert len(make("random", m=1, N=3)) == 1


# ------------------------------------------------------------------ known values
KNOWN_OPT_CASES = (
    [("thresholds", dict(N=N)) for N in (1, 2, 3, 6, 7, 8, 20)]
    + [("singletons", dict(N=N, empty=e)) for N in (1, 2, 6) for e in (0, 1)]
    + [("all-functions", dict(n=n)) for n in (1, 3, 4)]
    + [("monotone-conjunctions", dict(n=n)) for n in (1, 3, 4)]
    + [("conjunctions", dict(n=n)) for n in (1, 2, 3)]
    + [("monotone-disjunctions", dict(n=n, k=k)) for n in (1, 3, 4, 6) for k in (0, 1, n)]
    + [("disjunctions", dict(n=n)) for n in (1, 2, 3)]
    + [("parities", dict(n=n)) for n in (1, 3, 4)]
)


@pytest.mark.parametrize("name, params", KNOWN_OPT_CASES, ids=lambda v: str(v))
def test_known_opt(name, params):
    C = make(name, **params)
    known = FAMILIES[name].opt(C.params)
    assert known is not None
    assert opt(C).value == known


KNOWN_VC_CASES = (
    [("thresholds", dict(N=N)) for N in (1, 5)]
    + [("intervals", dict(N=N, empty=e)) for N in (1, 2, 3, 6) for e in (0, 1)]
    + [("singletons", dict(N=N, empty=e)) for N in (1, 4) for e in (0, 1)]
    + [("all-functions", dict(n=4)), ("monotone-conjunctions", dict(n=5)), ("parities", dict(n=5))]
    + [("conjunctions", dict(n=n, false=f)) for n in (1, 2, 4) for f in (0, 1)]
    + [("monotone-disjunctions", dict(n=5)), ("monotone-disjunctions", dict(n=4, k=0))]
    + [("halfspaces", dict(n=n)) for n in (1, 2, 3, 4)]
    + [("rectangles", dict(N=N)) for N in (3, 4)]
)


@pytest.mark.parametrize("name, params", KNOWN_VC_CASES, ids=lambda v: str(v))
def test_known_vc(name, params):
    C = make(name, **params)
    known = FAMILIES[name].vc(C.params)
    assert known is not None
    assert vc_dimension(C) == (known, known)


# ------------------------------------------------------------------ errors
BAD_CALLS = [
    ("nope", {}),
    ("Thresholds", {"N": 3}),
    ("thresholds", {}),
    ("thresholds", {"n": 3}),
    ("thresholds", {"N": 3, "k": 1}),
    ("thresholds", {"N": -3}),
    ("thresholds", {"N": 0}),
    ("thresholds", {"N": 2.5}),
    ("thresholds", {"N": "8"}),
    ("thresholds", {"N": True}),
    ("thresholds", {"N": 10**6}),
    ("intervals", {"N": 4, "empty": 2}),
    ("singletons", {"N": 0}),
    ("all-functions", {"n": 0}),
    ("all-functions", {"n": 40}),
    ("monotone-conjunctions", {"n": 0}),
    ("monotone-conjunctions", {"n": 15}),
    ("monotone-conjunctions", {"n": 10**9}),
    ("conjunctions", {"n": 3, "false": -1}),
    ("monotone-disjunctions", {"n": 3, "k": 4}),
    ("monotone-disjunctions", {"n": 3, "k": -1}),
    ("monotone-disjunctions", {"k": 2}),
    ("disjunctions", {"n": 2, "k": 3}),
    ("parities", {"n": -1}),
    ("parities", {"n": 15}),
    ("halfspaces", {"n": 6}),
    ("halfspaces", {"n": 7}),
    ("halfspaces", {"n": 0}),
    ("rectangles", {"N": 0}),
    ("rectangles", {"N": 100}),
    ("k-of-r", {"n": 4, "r": 2}),
    ("k-of-r", {"n": 4, "r": 5, "k": 1}),
    ("k-of-r", {"n": 4, "r": 2, "k": 3}),
    ("k-of-r", {"n": 4, "r": 2, "k": 0}),
    ("k-of-r", {"n": 4, "r": 0, "k": 0}),
    ("decision-lists", {"n": 7}),
    ("decision-lists", {"n": 0}),
    ("random", {"m": 0, "N": 4}),
    ("random", {"m": 4, "N": 0}),
    ("random", {"m": 4, "N": 4, "p": 1.5}),
    ("random", {"m": 4, "N": 4, "p": -0.1}),
    ("random", {"m": 4, "N": 4, "p": float("nan")}),
    ("random", {"m": 4, "N": 4, "p": "x"}),
    ("random", {"m": 4, "N": 4, "seed": -1}),
    ("random", {"m": 10**8, "N": 16}),
    ("random", {"m": 4.0, "N": 4}),
]


@pytest.mark.parametrize("name, params", BAD_CALLS, ids=lambda v: str(v))
def test_invalid_calls_raise_one_line(name, params):
    with pytest.raises(ValueError) as e:
        make(name, **params)
    msg = str(e.value)
    assert msg and "\n" not in msg


def test_error_messages_say_what_to_change():
    def msg(name, **params):
        with pytest.raises(ValueError) as e:
            make(name, **params)
        return str(e.value)

    assert "thresholds" in msg("nope") and "halfspaces" in msg("nope")
    assert "valid parameters: N" in msg("thresholds", n=3)
    assert "missing required parameter N" in msg("thresholds")
    assert "at least 1" in msg("thresholds", N=-3)
    assert "integer" in msg("thresholds", N=2.5)
    assert "k must be at most n" in msg("monotone-disjunctions", n=3, k=4)
    assert "k must be at most r" in msg("k-of-r", n=4, r=2, k=3)
    assert "r must be at most n" in msg("k-of-r", n=4, r=5, k=1)
    assert "[0, 1]" in msg("random", m=3, N=3, p=2.0)
    assert "at most 5" in msg("halfspaces", n=6)  # make: past its matrix (EvaluatedClass holds n = 6)
    assert "n <= 6" in msg("halfspaces", n=7)
    big = msg("parities", n=15)
    assert str(MAX_CELLS) in big and "lower n to at most 14" in big
    assert "lower N to at most" in msg("thresholds", N=10**6)


BAD_CLI = [
    ("thresholds", ["N"]),
    ("thresholds", ["=3"]),
    ("thresholds", ["n=3"]),
    ("thresholds", ["N=3", "N=4"]),
    ("thresholds", ["N=three"]),
    ("thresholds", ["N=2.5"]),
    ("random", ["p=abc"]),
    ("nope", ["N=3"]),
]


@pytest.mark.parametrize("name, items", BAD_CLI, ids=lambda v: str(v))
def test_parse_params_errors(name, items):
    with pytest.raises(ValueError) as e:
        parse_params(name, items)
    assert "\n" not in str(e.value)


def test_resolve_params_does_not_build():
    assert resolve_params("monotone-disjunctions", {"n": 4}) == {"n": 4, "k": 4}
    with pytest.raises(ValueError):
        resolve_params("parities", {"n": 20})


# ------------------------------------------------------------------ frontier sizes build
# (build times are measured by scripts/bench_opt.py, never asserted in a unit test)
@pytest.mark.parametrize("name, params", [
    ("thresholds", dict(N=10000)),
    ("intervals", dict(N=200)),
    ("rectangles", dict(N=20)),
    ("random", dict(m=49152, N=16)),
    ("halfspaces", dict(n=5)),
    ("conjunctions", dict(n=10)),
    ("monotone-disjunctions", dict(n=16, k=2)),
], ids=lambda v: str(v))
def test_frontier_builders_have_the_right_shape(name, params):
    spec = FAMILIES[name]
    matrix, points = spec.builder(**resolve_params(name, params))
    assert matrix.shape == (spec.count(resolve_params(name, params)), len(points)) or name == "random"


@pytest.mark.slow
def test_monotone_conjunctions_14_builds():
    C = make("monotone-conjunctions", n=14)
    assert C.matrix.shape == (16384, 16384)
    assert C.matrix.sum() == 3**14  # pairs S subset of x
