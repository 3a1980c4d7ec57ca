"""The states engine on thresholds and intervals (solvers.opt.intervals) against the generic solver and the
brute force, its lemmas checked on their own, and its certificates (solvers.certificates.states)."""

import copy
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import ProofTooLarge, TreeError, verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.opt import opt
from solvers.opt.intervals import IntervalSolver, chains_value
from solvers.certificates.states import verify_state_upper

from ...oracles import matrices, opt_brute, tree_ok_brute

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
MEMO = 2**24


def _upper_ok(proof, C) -> int:
    check = verify_state_upper if proof["kind"] == "upper-bound-states" else verify_upper
    return check(json.loads(json.dumps(proof)), C)


def _consistent(D: ConceptClass, examples) -> ConceptClass:
    """The subclass of D consistent with examples [(x, label)] (points x = 1..N)."""
    keep = np.ones(D.n_concepts, dtype=bool)
    for x, y in examples:
        keep &= D.matrix[:, x - 1] == bool(y)
    return D.restrict(np.flatnonzero(keep))


# ---------------------------------------------------------------------------------------- whole classes
@pytest.mark.parametrize("family,params", [("thresholds", {"N": N}) for N in range(1, 40)]
                         + [("intervals", {"N": N, "empty": e}) for N in range(1, 41) for e in (0, 1)])
def test_equals_the_generic_solver_with_certificates(family, params):
    D = make(family, **params)
    C = EvaluatedClass(family, params)
    r = opt(C)
    g = opt(D, engine="search")
    assert r.solved and r.value == g.value and r.stats["engine"] == "states"
    t = r.tree.to_json()
    assert verify_tree(t, C) == verify_tree(t, D) == r.value
    proof = r.upper_certificate()
    assert _upper_ok(proof, C) == _upper_ok(proof, D) == r.value
    assert opt(D, engine="states").value == r.value  # a class make built reads the same


@pytest.mark.parametrize("family,params", [("thresholds", {"N": N}) for N in range(1, 9)]
                         + [("intervals", {"N": N, "empty": e}) for N in range(1, 7) for e in (0, 1)])
def test_equals_the_brute_force(family, params):
    D = make(family, **params)
    r = opt(EvaluatedClass(family, params))
    assert r.value == opt_brute(D.matrix.astype(int).tolist())
    assert tree_ok_brute(r.tree.root, r.value, D.matrix)


def test_known_values():
    assert [opt(EvaluatedClass("thresholds", {"N": N})).value for N in (1, 2, 3, 7, 8, 10**5)] == [1, 1, 2, 3, 3, 16]
    # intervals (empty=1): the generic solver's values up to N = 128 (N = 1000 is the target)
    expect = {2: 2, 4: 3, 6: 4, 8: 4, 10: 5, 16: 6, 20: 7, 32: 8, 64: 10, 100: 11, 128: 12, 150: 12, 1000: 18}
    assert {N: opt(EvaluatedClass("intervals", {"N": N})).value for N in expect} == expect


# ---------------------------------------------------------------------------------------- states and lemmas
@SETTINGS
@given(N=st.integers(1, 16), empty=st.integers(0, 1), data=st.data())
def test_free_segments_state_equals_generic(N, empty, data):
    """Negatives anywhere: F(multiset of free segments) = the generic Opt of the consistent concepts (Lemma 3)."""
    negatives = data.draw(st.sets(st.integers(1, N), max_size=N))
    D = _consistent(make("intervals", N=N, empty=empty), [(x, 0) for x in negatives]) if (
        empty or len(negatives) < N) else None
    if D is None:
        return
    free, run = [], 0
    for x in range(1, N + 2):
        if x <= N and x not in negatives:
            run += 1
        elif run:
            free.append(run)
            run = 0
    S = IntervalSolver(EvaluatedClass("intervals", {"N": N, "empty": empty}), memo_bytes=MEMO)
    state = tuple(sorted(free, reverse=True))
    assert S.size(state) == D.n_concepts
    assert S.value(state) == opt(D, engine="search").value
    if D.n_concepts <= 12:
        assert S.value(state) == opt_brute(D.matrix.astype(int).tolist())


@SETTINGS
@given(N=st.integers(1, 16), data=st.data())
def test_after_a_positive_two_chains(N, data):
    """A positive seen: the consistent intervals are two chains, worth floor(log2 alpha) + floor(log2 beta)."""
    x = data.draw(st.integers(1, N))
    w = data.draw(st.integers(0, N - x))
    negatives = data.draw(st.sets(st.integers(1, N).filter(lambda z: not x <= z <= x + w), max_size=4))
    D = _consistent(make("intervals", N=N), [(x, 1), (x + w, 1)] + [(z, 0) for z in negatives])
    a0 = max([z for z in negatives if z < x], default=0) + 1
    b0 = min([z for z in negatives if z > x + w], default=N + 1) - 1
    alpha, beta = x - a0 + 1, b0 - (x + w) + 1
    assert D.n_concepts == alpha * beta
    assert opt(D, engine="search").value == chains_value(alpha, beta)


@SETTINGS
@given(P=matrices(max_rows=5, max_cols=3), R=matrices(max_rows=5, max_cols=3))
def test_product_lemma(P, R):
    """Lemma 2 on arbitrary classes: Opt(P x R) on disjoint points = Opt(P) + Opt(R) (brute force)."""
    P, R = np.unique(np.array(P, dtype=bool), axis=0), np.unique(np.array(R, dtype=bool), axis=0)
    prod = [list(p) + list(q) for p in P.astype(int).tolist() for q in R.astype(int).tolist()]
    assert opt_brute(prod) == opt_brute(P.astype(int).tolist()) + opt_brute(R.astype(int).tolist())


# ---------------------------------------------------------------------------------------- certificates
def _state_proof(N=150):
    C = EvaluatedClass("intervals", {"N": N})
    r = opt(C)
    proof = r.upper_certificate()
    assert proof["kind"] == "upper-bound-states" and proof["entries"]
    return C, r, proof


def test_state_certificate_of_a_large_class():
    C = EvaluatedClass("intervals", {"N": 3000})
    r = opt(C)
    proof = r.upper_certificate()
    assert (r.value, C.log2_size(), proof["kind"]) == (21, 22, "upper-bound-states")
    assert verify_state_upper(proof, C) == 21


@pytest.mark.parametrize("tamper, message", [
    (lambda p: p.update(bound=p["bound"] - 1), "the whole line"),
    (lambda p: p["entries"][0].update(bound=p["entries"][0]["bound"] - 1), "neither is shown"),
    (lambda p: p["entries"].pop(), "neither is shown"),
    (lambda p: [e.update(bound=e["bound"] - 1) for e in p["entries"][1:]], "neither is shown"),
    (lambda p: p["entries"][1].update(segments=[151]), "do not fit"),
    (lambda p: p["entries"][1].update(segments=[0, 3]), "lengths >= 1"),
    (lambda p: p["entries"][1].update(bound=True), "not a whole number"),
    (lambda p: p["entries"].append([3]), "entry"),
    (lambda p: p.update(entries={}), "must be a list"),
    (lambda p: p.update(params={"N": 151, "empty": 1}), "the class given is intervals N=150"),
    (lambda p: p.update(family="rectangles"), "the class given is intervals"),
    (lambda p: p.update(kind="upper"), "a state certificate is"),
])
def test_tampered_state_certificate_fails(tamper, message):
    C, r, proof = _state_proof()
    bad = copy.deepcopy(proof)
    tamper(bad)
    with pytest.raises(TreeError, match=message):
        verify_state_upper(bad, C)


def test_state_certificate_needs_the_intervals_class():
    C, r, proof = _state_proof()
    with pytest.raises(TreeError, match=r"^this certificate was made for intervals N=150 empty=1 \(.*\), not thresholds"):
        verify_state_upper(proof, EvaluatedClass("thresholds", {"N": 150}))
    proof = {k: v for k, v in proof.items() if k != "made_for"}  # a file from before: the checker's own test
    with pytest.raises(TreeError, match="the class given is thresholds"):
        verify_state_upper(proof, EvaluatedClass("thresholds", {"N": 150}))
    with pytest.raises(TreeError, match="not made by a family"):
        verify_state_upper(proof, ConceptClass.from_matrix([[0, 1], [1, 0]]))


@SETTINGS
@given(N=st.integers(2, 12), empty=st.integers(0, 1), data=st.data())
def test_false_state_claims_never_verify(N, empty, data):
    """Random entries (any multisets, any bounds) never prove a bound below Opt (the brute force's value)."""
    D = make("intervals", N=N, empty=empty)
    true = opt_brute(D.matrix.astype(int).tolist())
    u = data.draw(st.integers(0, true - 1))
    seg = st.lists(st.integers(1, N), max_size=3)
    entries = data.draw(st.lists(st.fixed_dictionaries({"segments": seg, "bound": st.integers(0, 4)}), max_size=25))
    entries.append({"segments": [N], "bound": u})
    proof = {"kind": "upper-bound-states", "family": "intervals", "params": dict(D.params), "bound": u,
             "entries": entries}
    with pytest.raises(TreeError):
        verify_state_upper(proof, D)


def test_proof_limit_and_false_claims():
    C, r, proof = _state_proof()
    with pytest.raises(ProofTooLarge):
        r.solver.upper_proof(r.value, limit=1)
    with pytest.raises(RuntimeError):
        r.solver.upper_proof(r.value - 1)


def test_tampered_trees_fail():
    C = EvaluatedClass("intervals", {"N": 1000})
    t = opt(C).tree.to_json()
    bad = copy.deepcopy(t)
    bad["root"]["1"]["1"]["point"] = bad["root"]["point"] + 600  # a point the path's intervals all miss
    with pytest.raises(TreeError, match="realised by no concept"):
        verify_tree(bad, C)
    with pytest.raises(TreeError, match="depth"):
        verify_tree({**t, "depth": 19}, C)
    with pytest.raises(TreeError, match="not a column index"):
        verify_tree({"depth": 1, "root": {"point": 1000, "0": None, "1": None}}, C)


# ---------------------------------------------------------------------------------------- limits
@pytest.mark.parametrize("tl", [1e-9, 1e-3])
def test_time_limit_gives_valid_bounds(tl):
    C = EvaluatedClass("intervals", {"N": 800})
    r = opt(C, time_limit=tl)
    assert r.lower <= 17 <= r.upper and verify_tree(r.tree.to_json(), C) == r.lower
    if not r.solved:
        assert r.stats["stopped"] == "time limit"


def test_bad_input():
    with pytest.raises(ValueError, match="Opt\\(C\\) only"):
        opt(EvaluatedClass("thresholds", {"N": 5}), game="randomized")
    with pytest.raises(ValueError, match="made by its family"):
        opt(ConceptClass.from_matrix([[0, 1], [1, 0]]), engine="states")
    with pytest.raises(ValueError, match="needs the class's matrix"):
        opt(EvaluatedClass("thresholds", {"N": 5}), engine="table")


def test_a_small_memo_gives_the_same_answers():
    C = EvaluatedClass("intervals", {"N": 800})
    r = opt(C, memo_bytes=2_000)
    assert r.value == 17 and r.solver.evictions > 0
    assert verify_tree(r.tree.to_json(), C) == 17 and verify_state_upper(r.upper_certificate(), C) == 17
