"""solvers.vc: the VC dimension against a brute force over all point subsets, and known values."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers import opt
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.vc import is_shattered, shattered_set, vc_dimension, vc_search


def shatters(rows, S) -> bool:
    return len({tuple(r[j] for j in S) for r in rows}) == 2 ** len(S)


def vc_brute(matrix) -> int:
    """The largest d such that some d points (itertools.combinations) are shattered."""
    rows = [tuple(int(v) for v in r) for r in matrix]
    n_points = len(rows[0])
    best = 0
    for d in range(1, n_points + 1):
        if any(shatters(rows, S) for S in itertools.combinations(range(n_points), d)):
            best = d
        else:
            break  # shattering is hereditary: no d-set means no larger set
    return best


matrices = st.integers(1, 10).flatmap(
    lambda rows: st.integers(1, 8).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(0, 1), min_size=cols, max_size=cols), min_size=rows, max_size=rows
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(matrices)
def test_vc_matches_brute_force(matrix):
    C = ConceptClass(matrix)
    d = vc_brute(C.matrix)
    assert vc_dimension(C) == (d, d)
    r = vc_search(C)
    assert len(r.witness) == d
    assert shatters([tuple(int(v) for v in row) for row in C.matrix], r.witness)
    assert is_shattered(C, list(r.witness))


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_vc_at_most_opt_and_log(matrix):
    C = ConceptClass(matrix)
    lo, hi = vc_dimension(C)
    assert lo == hi <= opt(C).value <= C.log2_size()


@settings(max_examples=40, deadline=None)
@given(matrices, st.permutations(range(8)), st.lists(st.booleans(), min_size=8, max_size=8))
def test_vc_invariant_under_permuting_and_complementing_points(matrix, perm, flips):
    M = np.array(matrix, dtype=bool)
    cols = [j for j in perm if j < M.shape[1]]
    M2 = M[:, cols] ^ np.array(flips[: M.shape[1]], dtype=bool)
    assert vc_dimension(ConceptClass(M)) == vc_dimension(ConceptClass(M2))


@pytest.mark.parametrize("n", range(1, 7))
def test_known_values_equal_n(n):
    for name in ("all-functions", "parities", "monotone-conjunctions"):
        assert vc_dimension(make(name, n=n)) == (n, n), name


@pytest.mark.parametrize("N", [1, 2, 3, 10, 60])
def test_thresholds_and_intervals(N):
    assert vc_dimension(make("thresholds", N=N)) == (1, 1)
    d = min(N, 2)
    assert vc_dimension(make("intervals", N=N)) == (d, d)
    d = min(N - 1, 2)  # without the empty concept two points need an interval missing both
    assert vc_dimension(make("intervals", N=N, empty=0)) == (d, d)


def test_rectangles_and_halfspaces():
    assert vc_dimension(make("rectangles", N=4)) == (4, 4)
    for n in (1, 2, 3, 4):
        assert vc_dimension(make("halfspaces", n=n)) == (n + 1, n + 1)


def test_trivial_classes():
    assert vc_dimension(ConceptClass([[0, 1, 1]])) == (0, 0)
    assert vc_dimension(ConceptClass([[0, 1], [1, 0]])) == (1, 1)  # the two columns are complementary
    assert vc_dimension(ConceptClass([[0, 0], [1, 1], [0, 1], [1, 0]])) == (2, 2)
    assert shattered_set(ConceptClass([[0, 1, 1]])) == ()


def test_shattered_set_returns_points():
    C = make("parities", n=3)
    S = shattered_set(C)
    assert len(S) == 3 and all(p in C.points for p in S)
    assert is_shattered(C, S)
    assert not is_shattered(make("thresholds", N=4), [(1,), (3,)])


def test_time_limit_returns_valid_bounds():
    C = make("random", m=2000, N=40, seed=1)
    r = vc_search(C, time_limit=0.0)
    assert 0 <= r.lower <= r.upper <= C.log2_size()
    assert is_shattered(C, list(r.witness)) and len(r.witness) == r.lower
    lo, hi = vc_dimension(make("parities", n=5), time_limit=5)
    assert lo == hi == 5


def test_bad_arguments():
    with pytest.raises(TypeError):
        vc_dimension([[0, 1]])
    with pytest.raises(ValueError):
        vc_dimension(make("thresholds", N=3), time_limit=-1)
