"""The search with canonical version spaces under a symmetry group, against brute force.

Random classes closed under a random group of symmetries of {0,1}^3 (renaming and negating variables,
complementing labels): canonical keys agree exactly when some group element maps one version space
onto the other (checked element by element), Opt with and without the group equals the recurrence,
and the symmetric upper-bound certificate verifies, and fails when tampered with.
"""

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import TreeError, verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.classes.symmetry import Symmetry, cube_generators
from solvers.opt import opt
from solvers.opt.canonical import Canonical
from solvers.opt.search import Solver
from tests.oracles import opt_brute

N_VARS = 3
GENS = cube_generators(N_VARS, negate=True, complement=True)


def image(row, perm, flip):
    out = [0] * len(row)
    for x, v in enumerate(row):
        out[perm[x]] = v ^ int(flip)
    return tuple(out)


def symmetric_class(seed: int):
    """Random rows closed under a random subset of the generators: (class with its group, rows)."""
    rng = random.Random(seed)
    gens = [g for g in GENS if rng.random() < 0.6] or [GENS[0]]
    G = Symmetry(gens, 2**N_VARS)
    perms, flips = G.elements()
    rows = set()
    for _ in range(rng.randint(1, 6)):
        r = tuple(rng.randint(0, 1) for _ in range(2**N_VARS))
        rows |= {image(r, p, f) for p, f in zip(perms, flips)}
    rows = sorted(rows)
    return ConceptClass(rows, symmetry=G), rows


def reached(C, rng, steps):
    """A version space reached by random examples labelled by random concepts."""
    V = C.full
    for _ in range(steps):
        x = rng.randrange(C.n_points)
        c = rng.choice(C.concepts_of(V))
        V = V & C.columns[x] if C.matrix[c, x] else V & ~C.columns[x]
    return V


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.integers(0, 10**9))
def test_keys_agree_exactly_on_orbits(seed):
    C, rows = symmetric_class(seed)
    K = Canonical.of(C)
    assert K is not None
    perms, flips = C.symmetry.elements()
    rng = random.Random(seed)
    spaces = [reached(C, rng, rng.randint(0, 3)) for _ in range(8)]
    for V in spaces:
        for W in spaces:
            A = {rows[c] for c in C.concepts_of(V)}
            B = {rows[c] for c in C.concepts_of(W)}
            related = any({image(r, p, f) for r in A} == B for p, f in zip(perms, flips))
            assert (K.key(V) == K.key(W)) == related
            assert K.key(V) < 0


@SETTINGS
@given(st.integers(0, 10**9))
def test_opt_with_the_group_equals_the_recurrence(seed):
    C, rows = symmetric_class(seed)
    plain = Solver(C, symmetry=False)
    sym = Solver(C, symmetry_min=2, symmetry_after=0)
    assert sym.canonical is not None
    assert sym.value() == plain.value() == opt_brute(rows)
    rng = random.Random(seed)
    for _ in range(5):
        V = reached(C, rng, rng.randint(1, 3))
        assert sym.value(V) == plain.value(V) == opt_brute([rows[c] for c in C.concepts_of(V)])
        # any subset, reached by examples or not
        U = rng.getrandbits(C.n_concepts) & C.full or 1
        assert sym.value(U) == opt_brute([rows[c] for c in C.concepts_of(U)])


@SETTINGS
@given(st.integers(0, 10**9))
def test_symmetric_certificates_verify(seed):
    C, rows = symmetric_class(seed)
    S = Solver(C, symmetry_min=2, symmetry_after=0)
    r = opt(C, solver=S)
    assert verify_tree(r.tree.to_json(), C) == r.value
    P = r.upper_certificate()
    assert verify_upper(P, C) == r.value


def test_halfspaces_certificate_is_one_entry_per_orbit():
    C = make("halfspaces", n=4)
    r = opt(C, solver=Solver(C, symmetry_after=0))
    P = r.upper_certificate()
    assert r.value == 9 and "symmetry" in P
    plain = opt(ConceptClass(C.matrix, C.points), symmetry=False).upper_certificate()  # (a bare matrix: its group would be found)
    assert len(P["entries"]) < len(plain["entries"]) / 10
    assert verify_upper(P, C) == 9 and verify_upper(plain, C) == 9
    # tampered: a bound too low, or a generator that is not a symmetry
    low = {**P, "bound": 8, "entries": [{**e, "bound": e["bound"] - 1} for e in P["entries"]]}
    with pytest.raises(TreeError):
        verify_upper(low, C)
    sym = P["symmetry"]
    g = sym["generators"][0]
    wrong = {**g, "permutation": [1, 0] + list(range(2, 16))}  # swaps two points only: not a symmetry
    bad = {**P, "symmetry": {**sym, "generators": [wrong] + sym["generators"][1:]}}
    with pytest.raises(TreeError, match="does not map the class onto itself"):
        verify_upper(bad, C)
    flipped = {**P, "symmetry": {**sym, "generators": [{**g, "complement": not g["complement"]}]}}
    with pytest.raises(TreeError):
        verify_upper(flipped, C)


def test_a_group_that_merges_too_much_is_caught_by_the_checker():
    """A certificate claiming a swap of two points as a symmetry of intervals (it is not one): the
    checker says so."""
    C = make("intervals", N=12)
    P = opt(C).upper_certificate()
    assert len(P["entries"]) > 1
    swap = [1, 0] + list(range(2, 12))
    P = {**P, "rule": "orbit", "symmetry": {"points": 12, "generators": [{"permutation": swap, "complement": False}]}}
    with pytest.raises(TreeError, match="does not map"):
        verify_upper(P, C)


@pytest.mark.parametrize("name,params,value", [("halfspaces", {"n": 3}, 6), ("halfspaces", {"n": 4}, 9),
                                               ("intervals", {"N": 12}, None), ("rectangles", {"N": 3}, None),
                                               ("decision-lists", {"n": 3}, None), ("parities", {"n": 5}, 5)])
def test_families_with_and_without_their_group(name, params, value):
    C = make(name, **params)
    a = Solver(C, symmetry_min=2, symmetry_after=0).value()
    b = Solver(C, symmetry=False).value()
    assert a == b and (value is None or a == value)


def test_memo_budget_is_respected_with_canonical_keys():
    C = make("halfspaces", n=4)
    S = Solver(C, memo_bytes=20_000, symmetry_after=0)
    assert S.value() == 9
    assert S.evictions > 0 and S._memo_used <= 20_000 + 1000
    assert np.isfinite(S._memo_used)


@pytest.mark.slow
def test_halfspaces_on_the_5_cube():
    """Opt(halfspaces on {0,1}^5) = 15, both certificates checked by the independent checkers (the value
    has no published source; the certificates are the proof)."""
    C = make("halfspaces", n=5)
    r = opt(C)
    assert r.value == 15
    assert verify_tree(r.tree.to_json(), C) == 15
    P = r.upper_certificate()
    assert "symmetry" in P and verify_upper(P, C) == 15


def test_a_declared_group_too_large_to_list_is_cut_to_a_subgroup():
    """The sets of at most two of 9 points, declared symmetric under all 9! renamings (more elements than the
    canonical keys list): the search keys its memo by a subgroup, finds Opt as without it, and its
    certificate names the subgroup, which verify checks."""
    import itertools

    from solvers.classes.symmetry import Symmetry

    n = 9
    rows = [[int(j in S) for j in range(n)] for k in range(3) for S in itertools.combinations(range(n), k)]
    swap = tuple([1, 0] + list(range(2, n)))
    cycle = tuple(list(range(1, n)) + [0])
    C = ConceptClass(rows, symmetry=Symmetry([(swap, False), (cycle, False)], n))
    S = Solver(C, symmetry_after=0)
    r = opt(C, solver=S, anytime=False)
    assert r.value == opt(ConceptClass(rows), symmetry=False).value
    assert r.stats["symmetry"]["source"].startswith("declared (a subgroup")
    cert = json.loads(json.dumps(r.upper_certificate()))
    assert verify_upper(cert, C) == r.value
