"""The search for separating classes (issue 22, section 3): the exhaustive search against a naive enumeration of
every subset of {0,1}^m (no isomorphism), its canonical form against a brute force over the renamings, the local
search's answers recomputed, and what a stopped or interrupted search returns."""

import itertools
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.opt import opt
from solvers.params import compute
from solvers.params import separate as sep
from solvers.params.separate import canonical_form, parameter_keys, separate

PAIRS = [("opt", "threshold"), ("threshold", "opt"), ("opt", "vc"), ("rtd", "vc"), ("star", "vc"), ("td", "rtd"),
         ("proper", "opt"), ("dual_vc", "vc")]


def pair(a, b):
    """The pair as a pytest param, skipped when solvers.params does not (yet) know one of its keys."""
    missing = [k for k in (a, b) if k not in parameter_keys()]
    return pytest.param(a, b, marks=pytest.mark.skipif(bool(missing), reason=f"no parameter {missing}"))


#: The parameters :func:`values` leaves out unless asked: exact but exponential past a few concepts.
SLOW = ("req", "rpeq")


@lru_cache(maxsize=None)
def values(rows: tuple, m: int, also: tuple = ()) -> dict:
    """Every parameter of the class of ``rows`` (tuples of 0/1), computed directly (those of :data:`SLOW` only when
    in ``also``)."""
    C = ConceptClass.from_matrix(np.array(rows, dtype=bool).reshape(len(rows), m))
    keys = [k for k in parameter_keys() if k != "opt" and (k not in SLOW or k in also)]
    out = {k: p.value for k, p in compute(C, keys).items()}
    out["opt"] = opt(C).value
    return out


def naive_best_gap(a, b, m, n=None) -> int:
    """The largest value(A) - value(B) over every nonempty subset of {0,1}^m (of n rows), one by one."""
    cube = list(itertools.product((0, 1), repeat=m))
    sizes = range(1, len(cube) + 1) if n is None else [n]
    return max(values(S, m, (a, b))[a] - values(S, m, (a, b))[b] for k in sizes
               for S in itertools.combinations(cube, k))


def naive_form(rows, m) -> tuple:
    """The least sorted tuple of rows over every renaming of the points: a brute-force canonical form."""
    rows = {tuple(r) for r in rows}
    return min(tuple(sorted(tuple(r[p[j]] for j in range(m)) for r in rows)) for p in itertools.permutations(range(m)))


def gap_of(s) -> int:
    """The gap of the class a Separation returns, recomputed."""
    v = values(tuple(map(tuple, s.matrix.astype(int).tolist())), s.points, (s.a, s.b))
    assert (v[s.a], v[s.b]) == (s.value_a, s.value_b)
    return v[s.a] - v[s.b]


# ---------------------------------------------------------------------------------------- exhaustive
@pytest.mark.parametrize("a, b", [pair(a, b) for a, b in PAIRS])
@pytest.mark.parametrize("m", [2, 3])
def test_exhaustive_against_every_subset(a, b, m):
    s = separate(a, b, m)
    assert s.exhaustive and s.method == "exhaustive" and s.stopped is None and s.undecided == 0
    assert s.gap == naive_best_gap(a, b, m)
    assert gap_of(s) == s.gap
    assert s.examined == s.classes == {2: 11, 3: 79}[m]


@pytest.mark.parametrize("a, b, n", [("opt", "vc", 4), ("threshold", "opt", 3), ("td", "rtd", 5), ("rtd", "vc", 7)])
def test_exhaustive_with_a_number_of_concepts(a, b, n):
    s = separate(a, b, 3, n)
    assert s.exhaustive and len(s.matrix) == n
    assert s.gap == naive_best_gap(a, b, 3, n) == gap_of(s)


def test_known_separations():
    s = separate("threshold", "opt", 3)  # three nested sets: threshold 3, Opt 1
    assert (s.gap, s.value_a, s.value_b) == (2, 3, 1)
    assert separate("opt", "vc", 3).gap == 1


def test_the_whole_cube_is_one_class():
    s = separate("opt", "vc", 3, 8)
    assert s.exhaustive and s.classes == 1 and s.matrix.shape == (8, 3) and s.gap == 0


# ---------------------------------------------------------------------------------------- canonical form
@st.composite
def permuted_classes(draw):
    m = draw(st.integers(1, 4))
    cube = list(itertools.product((0, 1), repeat=m))
    rows = draw(st.lists(st.sampled_from(cube), min_size=1, max_size=len(cube), unique=True))
    points = draw(st.permutations(range(m)))
    order = draw(st.permutations(range(len(rows))))
    M = np.array(rows, dtype=int)
    return M, M[list(order)][:, list(points)]


@settings(max_examples=200, deadline=None)
@given(permuted_classes())
def test_canonical_form_ignores_the_order_of_points_and_rows(pair_):
    M, P = pair_
    assert canonical_form(M) == canonical_form(P)


@pytest.mark.parametrize("m", [1, 2, 3])
def test_canonical_form_separates_exactly_the_isomorphism_types(m):
    cube = list(itertools.product((0, 1), repeat=m))
    classes = [S for k in range(1, len(cube) + 1) for S in itertools.combinations(cube, k)]
    ours = [canonical_form(np.array(S)) for S in classes]
    brute = [naive_form(S, m) for S in classes]
    assert len(set(zip(ours, brute))) == len(set(ours)) == len(set(brute))  # the same partition
    assert len(sep._orbit_representatives(m, None)) == len(set(brute))


def test_orbits_with_a_number_of_concepts():
    cube = list(itertools.product((0, 1), repeat=4))
    brute = {naive_form(S, 4) for S in itertools.combinations(cube, 3)}
    assert len(sep._orbit_representatives(4, 3)) == len(brute)
    assert len(sep._orbit_representatives(4, 13)) == len(brute)  # complements: as many types


def test_complementing_a_point_is_not_an_isomorphism():
    thresholds = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]
    flipped = [[1 - r[0], r[1], r[2]] for r in thresholds]
    assert canonical_form(thresholds) != canonical_form(flipped)
    assert values(tuple(map(tuple, thresholds)), 3)["threshold"] == 3
    assert values(tuple(map(tuple, flipped)), 3)["threshold"] == 2


# ---------------------------------------------------------------------------------------- local search
@pytest.mark.parametrize("a, b, n", [("opt", "vc", None), ("threshold", "opt", None), ("rtd", "vc", 4),
                                     ("opt", "threshold", 5)])
def test_local_search_never_claims_more_than_its_class_has(a, b, n):
    s = separate(a, b, 3, n, budget=0, max_steps=150, seed=1)  # budget 0: local search on 3 points
    assert s.method == "local search" and not s.exhaustive and s.stopped == "steps" and s.classes is None
    assert gap_of(s) == s.gap <= naive_best_gap(a, b, 3, n)
    assert n is None or len(s.matrix) == n
    assert len({tuple(r) for r in s.matrix.tolist()}) == len(s.matrix)


def test_local_search_is_reproducible():
    runs = [separate("threshold", "opt", 5, budget=0, max_steps=80, seed=7) for _ in range(2)]
    assert runs[0].matrix.tolist() == runs[1].matrix.tolist() and runs[0].examined == runs[1].examined


def test_local_search_beyond_the_exhaustive_limit():
    s = separate("opt", "vc", 6, 5, max_steps=40)  # C(64, 5) classes: too many to enumerate
    assert s.method == "local search" and s.matrix.shape == (5, 6) and gap_of(s) == s.gap
    t = separate("vc", "opt", 7, time_limit=0.3)  # the clock only: the answer is checked, not its quality
    assert t.stopped == "time limit" and not t.exhaustive
    if t.matrix is not None:
        assert gap_of(t) == t.gap


# ---------------------------------------------------------------------------------------- stopped searches
def test_a_stopped_parameter_is_never_used(monkeypatch):
    real = sep._value

    def stopped_on_big_classes(C, key, time_limit):  # as if the time limit stopped every class of >= 5 rows
        return (None, {}) if C.n_concepts >= 5 and key == "threshold" else real(C, key, time_limit)

    monkeypatch.setattr(sep, "_value", stopped_on_big_classes)
    s = separate("threshold", "opt", 3)
    assert s.undecided > 0 and not s.exhaustive and s.examined + s.undecided == s.classes
    assert len(s.matrix) < 5 and gap_of(s) == s.gap


def test_ctrl_c_returns_the_best_so_far(monkeypatch):
    real, calls = sep._value, []

    def interrupted_later(C, key, time_limit):
        calls.append(key)
        if len(calls) > 60:
            raise KeyboardInterrupt
        return real(C, key, time_limit)

    monkeypatch.setattr(sep, "_value", interrupted_later)
    s = separate("opt", "vc", 3)
    assert s.stopped == "interrupted" and not s.exhaustive and s.examined == 30 and gap_of(s) == s.gap


@pytest.mark.parametrize("args, message", [
    (("opt", "nope", 3), "unknown parameter 'nope'"),
    (("vc", "vc", 3), "two different"),
    (("opt", "vc", 0), "1 to 12"),
    (("opt", "vc", 13), "1 to 12"),
    (("opt", "vc", 3, 0), "from 1 to 8"),
    (("opt", "vc", 3, 9), "from 1 to 8"),
])
def test_bad_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        separate(*args)
