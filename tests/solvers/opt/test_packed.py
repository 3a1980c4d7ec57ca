"""The packed engine (solvers/opt/packed.py): with every split allowed its AND-OR search is exact against the
brute force (a tree of depth d exists iff d <= Opt); with one split per version space the trees it finds are
proofs all the same; the whole engine on halfspaces through opt() and an EvaluatedClass, stopped or not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates import verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.opt import opt
from solvers.opt.packed import PackedSearch, handles, pack

from ...oracles import matrices, opt_brute, tree_ok_brute


def _class(rows):
    C = ConceptClass.from_matrix(np.array(rows, dtype=bool))
    return C, pack(C.matrix)


@settings(max_examples=60, deadline=None)
@given(matrices(max_rows=40, max_cols=7), st.integers(2, 12))
def test_full_width_is_exact(rows, leaf):
    """Every split tried (width = the number of points): a tree of depth d is found iff d <= Opt(C), whether the
    version spaces go to the exact search at once or only below ``leaf`` concepts; each tree checks."""
    C, T = _class(rows)
    true = opt_brute(C.matrix.astype(int).tolist())
    S = PackedSearch(T, C.n_points, leaf=leaf, width=64)
    for d in range(1, true + 2):
        t = S.tree(d)
        assert (t is not None) == (d <= true)
        if t is not None:
            assert tree_ok_brute(t, d, C.matrix)


@settings(max_examples=40, deadline=None)
@given(matrices(max_rows=40, max_cols=7), st.integers(2, 12), st.integers(1, 3))
def test_narrow_search_finds_only_proofs(rows, leaf, width):
    C, T = _class(rows)
    true = opt_brute(C.matrix.astype(int).tolist())
    S = PackedSearch(T, C.n_points, leaf=leaf, width=width)
    for d in range(1, true + 2):
        t = S.tree(d)
        if t is not None:
            assert d <= true and tree_ok_brute(t, d, C.matrix)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 9), st.integers(1, 64), st.data())
def test_pack_is_the_sum_of_the_bits_by_the_definition(rows, cols, data):
    """(issue 39) pack works a byte at a time (its 64-column copy of an 8M-row matrix took 1.5 s of a --time-limit)."""
    M = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=cols, max_size=cols), min_size=rows,
                                    max_size=rows)), dtype=bool).reshape(rows, cols)
    T = pack(M)
    assert T.dtype == np.uint64 and T.shape == (rows,)
    assert [int(t) for t in T] == [sum(int(b) << j for j, b in enumerate(r)) for r in M]


def test_pack_reads_point_j_at_bit_j():
    assert pack([[1, 0, 1], [0, 0, 0]]).tolist() == [0b101, 0]
    with pytest.raises(ValueError, match="at most 64 points"):
        pack(np.zeros((2, 65)))
    with pytest.raises(ValueError, match="distinct"):
        PackedSearch([1, 1], 2)
    with pytest.raises(ValueError, match="a bit past point 1"):
        PackedSearch([0, 1 << 5], 2)
    strided = np.arange(512, dtype=np.uint64)[::2]  # (not contiguous: the counts view the tables as bytes)
    assert PackedSearch(strided, 9, leaf=4).tree(2) is not None


@pytest.mark.parametrize("n,true", [(3, 6), (4, 9)])
def test_solve_halfspaces(n, true):
    """Halfspaces on {0,1}^3 and {0,1}^4 as an EvaluatedClass (tables, not a matrix): opt() takes the packed
    engine, whose tree reaches Opt (the exact search's value) and checks against the class; its exact phase refutes
    Opt + 1 (n = 3: Halving's bound already), with a certificate that checks."""
    C = EvaluatedClass("halfspaces", {"n": n})
    assert handles(C) and not handles(make("halfspaces", n=n))
    assert opt(make("halfspaces", n=n)).value == true
    r = opt(C)
    assert r.stats["engine"] == "packed"
    assert r.value == r.lower == r.upper == true
    assert verify_tree(r.tree.to_json(), C) == true
    cert = r.upper_certificate()
    assert verify_upper(cert, C) == true and (cert.get("rule") == "packed") == (true < C.log2_size())


def test_solve_stopped_by_the_time_limit():
    """A time limit that stops the search at once still gives proven bounds and a tree that checks."""
    C = EvaluatedClass("halfspaces", {"n": 5})
    r = opt(C, time_limit=1e-3)
    assert r.stats["stopped"] == "time limit"
    assert 0 <= r.lower <= 15 <= r.upper == 16
    assert r.tree is not None and verify_tree(r.tree.to_json(), C) == r.lower


def test_auto_takes_large_listed_classes_over_64_points_to_the_packed_engine():
    """A listed class over at most 64 points past PACKED_FROM concepts goes to the packed engine (here decision lists
    n=4 with the threshold lowered): Opt exact, both certificates check; with --jobs 2 it stays with the search."""
    from solvers.opt import Tuning

    low = Tuning(packed_from=100)
    C = make("decision-lists", n=4)
    r = opt(C, tuning=low)
    assert r.stats["engine"] == "packed" and r.value == 9
    assert r.stats["symmetry"]["order"] == 768
    assert verify_tree(r.tree.to_json(), C) == 9 and verify_upper(r.upper_certificate(), C) == 9
    assert opt(make("decision-lists", n=3), tuning=low).stats["engine"] in ("search", "table")  # (96: under it)
    assert opt(C, jobs=2, tuning=low).stats["engine"] != "packed"


def test_the_exact_phase_stops_at_the_memory_given():
    """A memory budget the process is already past stops the exact phase at its first look: proven bounds, the
    reason in ``stopped``, and the tree found before it checks."""
    C = EvaluatedClass("halfspaces", {"n": 4})
    r = opt(C, memo_bytes=1)
    assert r.stats["stopped"].startswith("memory limit: the process holds ")
    assert "--memory" in r.stats["stopped"]
    assert r.value is None and r.upper == C.log2_size() and 1 <= r.lower <= 9
    assert verify_tree(r.tree.to_json(), C) == r.lower
