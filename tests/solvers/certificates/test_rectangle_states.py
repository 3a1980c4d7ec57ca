"""The rectangles' state certificates (solvers.certificates.rectangles): the checker's counts against the matrix
of the class, the B-state lemma it rests on against the generic solver, the engine's certificates, and tampered
and forged ones refused."""

import copy
import itertools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import ProofTooLarge, TreeError, verify_upper
from solvers.certificates.rectangles import _a_key, _b_key, _down_set, _Grid, _trim, _vectors, check_rectangles
from solvers.certificates.rules import verify
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.classes.finite import ConceptClass
from solvers.opt import opt
from solvers.opt import rectangles as engine

SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _rects(N):
    """The rectangles (a1, b1, a2, b2) of the N x N grid, by their definition."""
    sides = [(a, b) for a in range(1, N + 1) for b in range(a, N + 1)]
    return [(a1, b1, a2, b2) for a1, b1 in sides for a2, b2 in sides]


def _holds(r, p) -> bool:
    return r[0] <= p[0] <= r[1] and r[2] <= p[1] <= r[3]


@SETTINGS
@given(N=st.integers(1, 6), data=st.data())
def test_counts_follow_the_definition(N, data):
    """The checker's rectangles avoiding Q, their counts per point, and the extensions around a point, against a
    plain enumeration of the rectangles."""
    points = st.tuples(st.integers(1, N), st.integers(1, N))
    Q = frozenset(data.draw(st.sets(points, max_size=4)))
    p = data.draw(points)
    grid = _Grid(N)
    A = grid.avoiding(Q)
    left = [r for r in _rects(N) if not any(_holds(r, q) for q in Q)]
    assert {tuple(int(c) + 1 for c in e) for e in np.argwhere(A)} == set(left)
    H = grid.holding(A)
    for i, j in itertools.product(range(1, N + 1), repeat=2):
        assert H[i - 1, j - 1] == sum(_holds(r, (i, j)) for r in left)
    E = grid.extensions(Q, p)
    i, j = p
    around = {(i - e[0], i + e[1], j - e[2], j + e[3]) for e in np.argwhere(E)}
    assert around == {r for r in left if _holds(r, p)}


def _down_set_game(B):
    """The down-set B as a class: its cells the concepts, every vector beyond the box a point (1 iff e >= v)."""
    cells = [tuple(e) for e in np.argwhere(B)]
    vectors = list(_vectors(B.shape))
    return np.array([[all(e[k] >= v[k] for k in range(4)) for v in vectors] for e in cells], dtype=bool)


def _opt_of(matrix) -> int:
    if matrix.shape[1] == 0:
        return 0
    return opt(ConceptClass(matrix), engine="search").value


@SETTINGS
@given(N=st.integers(1, 5), data=st.data())
def test_b_states_have_the_version_spaces_value(N, data):
    """The lemma the checker rests on: after positives spanning a box and some negatives, Opt of the version space
    is Opt of its down-set of extensions with the vectors as points (the generic solver on both)."""
    points = st.tuples(st.integers(1, N), st.integers(1, N))
    positives = data.draw(st.lists(points, min_size=1, max_size=2))
    negatives = data.draw(st.sets(points, max_size=4))
    D = make("rectangles", N=N)
    keep = np.ones(D.n_concepts, dtype=bool)
    for (i, j), y in [(p, 1) for p in positives] + [(q, 0) for q in negatives]:
        keep &= D.matrix[:, (i - 1) * N + (j - 1)] == bool(y)
    if not keep.any():
        return
    rows = [p[0] for p in positives]
    cols = [p[1] for p in positives]
    l1, r1, l2, r2 = min(rows), max(rows), min(cols), max(cols)
    B = np.zeros((l1, N - r1 + 1, l2, N - r2 + 1), dtype=bool)
    for e in itertools.product(*(range(s) for s in B.shape)):
        r = (l1 - e[0], r1 + e[1], l2 - e[2], r2 + e[3])
        B[e] = not any(_holds(r, q) for q in negatives)
    B = _trim(B)
    assert B.sum() == keep.sum()
    assert _opt_of(_down_set_game(B)) == _opt_of(D.matrix[keep])


@SETTINGS
@given(data=st.data())
def test_keys_are_the_symmetries_of_the_square(data):
    """Two states have one key exactly when a symmetry of the square maps one onto the other."""
    N = 5
    Q = frozenset(data.draw(st.sets(st.tuples(st.integers(1, N), st.integers(1, N)), max_size=4)))
    flip = frozenset((N + 1 - i, j) for i, j in Q)
    turn = frozenset((j, N + 1 - i) for i, j in Q)
    assert _a_key(Q, N) == _a_key(flip, N) == _a_key(turn, N)
    cells = st.lists(st.integers(0, 3), min_size=4, max_size=4)
    B = _down_set(data.draw(st.lists(cells, min_size=1, max_size=3)))
    assert _b_key(B) == _b_key(np.transpose(B, (2, 3, 1, 0)))
    other = _down_set(data.draw(st.lists(cells, min_size=1, max_size=3)))
    images = {np.transpose(_trim(other), p).tobytes() + bytes(np.transpose(_trim(other), p).shape)
              for p in engine._AXES}
    same = np.asarray(_trim(B)).tobytes() + bytes(_trim(B).shape) in images
    assert (_b_key(B) == _b_key(other)) == same


@pytest.fixture(scope="module")
def grid13():
    """Rectangles N = 13: Opt = 11 < floor(log2 |C|) = 13, and its certificate over states."""
    C = EvaluatedClass("rectangles", {"N": 13})
    r = opt(C)
    return C, r, json.loads(json.dumps(r.solver.state_proof(r.value)))


def test_the_engines_certificates_check(grid13):
    C, r, proof = grid13
    assert r.value == 11 and proof["rule"] == "states" and proof["family"] == "rectangles"
    kinds = {next(k for k in e if k != "bound") for e in proof["entries"]}
    assert kinds == {"negatives", "extensions"}
    assert verify(proof, C) == check_rectangles(proof, C) == verify_upper(proof, C) == 11  # a bound of Opt(C)
    assert verify(proof, make("rectangles", N=13)) == 11  # the listed class too
    for N in range(1, 11):
        D = EvaluatedClass("rectangles", {"N": N})
        s = opt(D)
        assert verify(s.solver.state_proof(s.value), D) == s.value


def test_upper_proof_writes_states_past_the_path_forms_limit(grid13, monkeypatch):
    C, r, _ = grid13
    assert "path" in r.solver.upper_proof(11)["entries"][0]
    monkeypatch.setattr(engine, "PATH_ENTRIES", 100)
    proof = r.solver.upper_proof(11)
    assert proof["kind"] == "upper-bound-states" and verify(proof, C) == 11
    with pytest.raises(ProofTooLarge):
        r.solver.upper_proof(11, limit=50)
    with pytest.raises(RuntimeError):
        r.solver.state_proof(10)


def test_tampered_certificates_fail(grid13):
    C, _, proof = grid13
    for kind in ("negatives", "extensions"):
        bad = copy.deepcopy(proof)
        k = next(k for k, e in enumerate(bad["entries"]) if k and kind in e)
        del bad["entries"][k]
        with pytest.raises(TreeError, match="neither is shown"):
            verify(bad, C)
    bad = copy.deepcopy(proof)
    bad["bound"] = bad["entries"][0]["bound"] = 10
    with pytest.raises(TreeError):
        verify(bad, C)
    with pytest.raises(TreeError, match="no entry with no negatives"):
        verify({**proof, "entries": proof["entries"][1:]}, C)
    with pytest.raises(TreeError, match="rectangles"):
        verify(proof, EvaluatedClass("rectangles", {"N": 12}))
    with pytest.raises(TreeError, match="rectangles"):
        verify(proof, EvaluatedClass("intervals", {"N": 13}))
    for e, said in (({"negatives": [[0, 1]], "bound": 3}, "grid points"),
                    ({"extensions": [], "bound": 3}, "non-empty"),
                    ({"extensions": [[1, 2, 3]], "bound": 3}, "eL, eR, eD, eU"),
                    ({"negatives": [], "bound": -1}, "whole number"),
                    ({"negatives": [], "bound": 1, "x": 1}, "neither")):
        with pytest.raises(TreeError, match=said):
            verify({**proof, "entries": proof["entries"] + [e]}, C)


@SETTINGS
@given(data=st.data())
def test_a_certificate_that_passes_claims_only_true_bounds(grid13, data):
    """Forgeries: the engine's entries, some dropped and some claims lowered. Whatever passes claims no bound
    below the value of its state (the engine's values, tested against the generic solver elsewhere)."""
    C, r, proof = grid13
    S = r.solver
    bad = copy.deepcopy(proof)
    entries = bad["entries"]
    for e in entries[1:]:
        if data.draw(st.integers(0, 9)) == 0:
            e["bound"] = max(0, e["bound"] - data.draw(st.integers(1, 2)))
    bad["entries"] = [entries[0]] + [e for e in entries[1:] if data.draw(st.integers(0, 19)) != 0]
    try:
        verify(bad, C)
    except TreeError:
        return
    for e in bad["entries"]:
        if "negatives" in e:
            assert S.value(frozenset(tuple(q) for q in e["negatives"])) <= e["bound"]
        else:
            B = _trim(_down_set(e["extensions"]))
            assert not S._at_least_b(B, int(B.sum()), e["bound"] + 1)
