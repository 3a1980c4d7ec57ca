"""The states engine on rectangles (solvers.opt.rectangles) against the generic solver and the brute force,
on whole grids and on random version spaces, and its certificates checked against the family's labels."""

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import ProofTooLarge, TreeError, verify_tree, verify_upper
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.opt import opt
from solvers.opt.rectangles import RectangleSolver

from ...oracles import opt_brute, tree_ok_brute

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
MEMO = 2**26


def _solver(N):
    return RectangleSolver(EvaluatedClass("rectangles", {"N": N}), memo_bytes=MEMO)


@pytest.mark.parametrize("N", range(1, 11))
def test_equals_the_generic_solver_with_certificates(N):
    C, D = EvaluatedClass("rectangles", {"N": N}), make("rectangles", N=N)
    r = opt(C)
    assert r.solved and r.value == opt(D, engine="search").value and r.stats["engine"] == "states"
    t = r.tree.to_json()
    assert verify_tree(t, C) == verify_tree(t, D) == r.value
    proof = json.loads(json.dumps(r.upper_certificate()))
    assert verify_upper(proof, C) == verify_upper(proof, D) == r.value


@pytest.mark.parametrize("N", [1, 2, 3])
def test_equals_the_brute_force(N):
    D = make("rectangles", N=N)
    r = opt(D, engine="states")
    assert r.value == opt_brute(D.matrix.astype(int).tolist())
    assert tree_ok_brute(r.tree.root, r.value, D.matrix)


def test_known_values():
    """The generic solver's values (N <= 28, computed once: N = 28 takes it a minute)."""
    expect = {11: 11, 12: 11, 13: 11, 14: 12, 16: 13}
    assert {N: opt(EvaluatedClass("rectangles", {"N": N})).value for N in expect} == expect


def test_a_certificate_with_many_entries():
    """N = 13: Opt = 11 < floor(log2 |C|) = 13 - 1, refuted deep down (over a thousand entries)."""
    C, D = EvaluatedClass("rectangles", {"N": 13}), make("rectangles", N=13)
    r = opt(C)
    proof = r.upper_certificate()
    assert r.value == 11 and len(proof["entries"]) > 100
    assert verify_upper(proof, D) == 11
    bad = copy.deepcopy(proof)
    bad["entries"] = [e for e in bad["entries"] if len(e["path"]) != 3]
    with pytest.raises(TreeError, match="neither side is shown"):
        verify_upper(bad, D)
    with pytest.raises(ProofTooLarge):
        r.solver.upper_proof(11, limit=10)
    with pytest.raises(RuntimeError):
        r.solver.upper_proof(10)


@SETTINGS
@given(N=st.integers(1, 6), data=st.data())
def test_random_version_spaces_equal_generic(N, data):
    """Any labelled examples (negatives only: an A-state; with positives: a B-state) give the generic Opt
    of the consistent rectangles."""
    points = st.tuples(st.integers(1, N), st.integers(1, N))
    negatives = data.draw(st.sets(points, max_size=5))
    positives = data.draw(st.sets(points, max_size=2))
    examples = [(p, 0) for p in negatives] + [(p, 1) for p in positives]
    D = make("rectangles", N=N)
    keep = np.ones(D.n_concepts, dtype=bool)
    for (i, j), y in examples:
        keep &= D.matrix[:, (i - 1) * N + (j - 1)] == bool(y)
    expected = -1 if not keep.any() else opt(D.restrict(np.flatnonzero(keep)), engine="search").value
    assert _solver(N).value_after(examples) == expected
    if 1 <= keep.sum() <= 10:
        assert expected == opt_brute(D.matrix[keep].astype(int).tolist())


@SETTINGS
@given(N=st.integers(2, 6), data=st.data())
def test_a_state_refuted_at_once_is_below_d(N, data):
    """_a_quick (the 0-side asked first) says "fails at once" only of an A-state whose generic Opt is below d,
    and says it of every A-state no point splits into two sides of >= 2^(d-1) rectangles."""
    points = st.tuples(st.integers(1, N), st.integers(1, N))
    Q = frozenset(data.draw(st.sets(points, max_size=4)))
    d = data.draw(st.integers(1, 6))
    S = _solver(N)
    A = S._array(Q)
    n = 1 + int(A.sum())
    D = make("rectangles", N=N)
    keep = np.ones(D.n_concepts, dtype=bool)
    for i, j in Q:
        keep &= ~D.matrix[:, (i - 1) * N + (j - 1)]
    V = D.matrix[keep]
    assert V.shape[0] == n
    value = opt(D.restrict(np.flatnonzero(keep)), engine="search").value
    ones = V.sum(axis=0)
    no_split = not any(min(c, n - c) >= 1 << (d - 1) for c in ones) if d >= 1 else False
    refuted = S._a_quick(Q, A, n, d) is False
    assert not refuted or value < d
    assert refuted or not (no_split and d >= 2 and n >= 1 << d)


def test_a_full_box_is_not_a_product_of_chains():
    """Why B-states have no product upper bound: around the point (2, 2) of the 4 x 4 grid the extensions
    form a full box of extents 2, 3, 2, 3 (sum of floor(log2) = 4) and Opt is 5, through the points beyond
    its corners."""
    S = _solver(4)
    assert S.value_after([((2, 2), 1)]) == 5


def test_symmetric_states_share_the_memo():
    S = _solver(6)
    v = S.value(frozenset({(1, 2)}))
    entries = len(S.memo)
    assert S.value(frozenset({(2, 1)})) == S.value(frozenset({(6, 5)})) == v  # images under the square's symmetries
    assert len(S.memo) == entries


def test_tampered_tree_fails():
    C = EvaluatedClass("rectangles", {"N": 12})
    t = opt(C).tree.to_json()
    bad = copy.deepcopy(t)
    bad["root"]["1"]["point"] = bad["root"]["point"]  # the root's point again: its 0-side is empty there
    with pytest.raises(TreeError, match="realised by no concept"):
        verify_tree(bad, C)


@pytest.mark.slow
def test_grid_32_with_certificates():
    """The issue's target: N = 32 (278785 rectangles, no matrix), Opt = 17 < floor(log2 |C|) = 18."""
    C = EvaluatedClass("rectangles", {"N": 32})
    r = opt(C)
    assert (r.value, C.log2_size()) == (17, 18)
    assert verify_tree(r.tree.to_json(), C) == 17
    proof = r.upper_certificate()
    assert len(proof["entries"]) == 1 and verify_upper(proof, C) == 17
    with pytest.raises(TreeError):
        verify_upper({**proof, "bound": 16, "entries": [{"path": [], "bound": 16}]}, C)


def test_a_small_memo_gives_the_same_answers():
    """The memo drops its older half when full; the search and the tree then ask again."""
    C = EvaluatedClass("rectangles", {"N": 9})
    r = opt(C, memo_bytes=5_000)
    assert r.value == 10 and r.solver.evictions > 0
    assert verify_tree(r.tree.to_json(), C) == 10 and verify_upper(r.upper_certificate(), C) == 10


@pytest.mark.parametrize("tl", [1e-9, 0.05])
def test_time_limit_gives_valid_bounds(tl):
    C = EvaluatedClass("rectangles", {"N": 20})
    r = opt(C, time_limit=tl)
    assert r.lower <= 14 <= r.upper and verify_tree(r.tree.to_json(), C) == r.lower
    assert r.solved or r.stats["stopped"] == "time limit"
