"""The compiled kernel of the search (solvers/opt/kernel.py) against the Python search it replaces: the same
values, memo, moves, mistake trees and upper-bound certificates on random classes; a small memo budget
(the kernel's table drops its older half) still correct; a deadline and a Ctrl-C stop a search running in
the kernel; the mode's one-line error."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.classes.symmetry import Symmetry
from solvers.opt import Solver, Tuning, opt
from solvers.opt import kernel as kernel_module
from solvers.opt.search import python_seconds

from ...oracles import matrices, opt_brute

pytestmark = pytest.mark.skipif(not kernel_module.available(), reason="numba is not installed")

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def solved(rows, kernel: str, **kw):
    """(the result of opt with the search engine, its Solver) for the class ``rows`` under ``kernel``."""
    C = ConceptClass.from_matrix(rows)
    S = Solver(C, symmetry=False, kernel=kernel, **kw)
    r = opt(C, solver=S, engine="search", anytime=False, symmetry=False)
    return r, S


def valued(rows, kernel: str, **kw):
    """Solver.value of the class (no warm-up: every query in the kernel under "numba"), with the mistake
    tree and the upper-bound certificate built from the memo."""
    S = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel=kernel, **kw)
    v = S.value()
    tree = S.mistake_tree(S.full, v) if v >= 0 else None
    return S, v, tree, S.upper_proof(v) if v >= 0 else None


def same_search(rows, brute: bool = True, **kw):
    """Both paths agree on everything the certificates are built from (and with the brute force); ``kw`` for both
    solvers."""
    Sa, va, ta, ua = valued(rows, "python", **kw)
    Sb, vb, tb, ub = valued(rows, "numba", **kw)
    assert va == vb
    if brute:
        assert vb == opt_brute(rows)
    assert Sa.kernel_nodes == 0 and Sb.kernel_nodes == Sb.nodes
    assert (Sa.memo, Sa.moves, Sa.nodes) == (Sb.memo, Sb.moves, Sb.nodes)
    assert (ta, ua) == (tb, ub)
    if vb >= 0:
        assert verify_upper(ub, Sb.C) == vb
    # and through opt (a warm-up in Python, then the root loop in the kernel)
    a, Pa = solved(rows, "python", **kw)
    b, Pb = solved(rows, "numba", **kw)
    assert a.value == b.value == vb
    assert (Pa.memo, Pa.moves, Pa.nodes) == (Pb.memo, Pb.moves, Pb.nodes)
    if vb >= 0:
        assert a.tree.root == b.tree.root
        assert Pa.upper_proof(vb) == Pb.upper_proof(vb)
    return Sb


@SETTINGS
@given(matrices(max_rows=24, max_cols=9))
def test_kernel_and_python_search_agree(rows):
    same_search(rows)


@pytest.mark.parametrize("family,params", [
    ("halfspaces", {"n": 3}), ("monotone-disjunctions", {"n": 6, "k": 3}), ("random", {"m": 200, "N": 12, "seed": 3}),
    ("intervals", {"N": 30}), ("decision-lists", {"n": 3}),
])
def test_kernel_and_python_search_agree_on_families(family, params):
    """Larger classes as matrices: several words per version space, deeper searches."""
    S = same_search(np.asarray(make(family, **params).matrix, dtype=bool), brute=False)
    assert S.kernel_nodes > 0


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(200, 900), st.integers(6, 11), st.integers(0, 2**32 - 1), st.floats(0.2, 0.8))
def test_kernel_and_python_agree_where_the_kernel_compacts(m, n, seed, p):
    """Classes of hundreds of concepts: the kernel searches deep version spaces over their own concepts (levels;
    here made from a quarter of the words, where the default waits for a sixteenth) and must still make the memo,
    moves, trees and certificates of the Python search."""
    rows = np.random.default_rng(seed).random((m, n)) < p
    old = kernel_module.Kernel.LEVEL_RATIO
    kernel_module.Kernel.LEVEL_RATIO = 4
    try:
        same_search(rows, brute=False)
    finally:
        kernel_module.Kernel.LEVEL_RATIO = old


@pytest.fixture
def narrow_keys():
    """Narrow keys (a version space's concept indices) from one word on: in use on classes of two words or more,
    for version spaces of at most 4 concepts (the default waits for 16 words and keys up to 32 concepts)."""
    old = kernel_module.Kernel.NARROW_WORDS
    kernel_module.Kernel.NARROW_WORDS = 1
    yield
    kernel_module.Kernel.NARROW_WORDS = old


def _narrow(kernel_words: int = 2, wide_indices: bool = False):
    """Set narrow keys of ``kernel_words`` words on every class (a context: the old settings back after)."""
    import contextlib

    @contextlib.contextmanager
    def cm():
        K = kernel_module.Kernel
        old = K.NARROW_WORDS, K.NARROW_FROM, K.WIDE_INDICES
        K.NARROW_WORDS, K.NARROW_FROM, K.WIDE_INDICES = kernel_words, 0, wide_indices
        try:
            yield
        finally:
            K.NARROW_WORDS, K.NARROW_FROM, K.WIDE_INDICES = old
    return cm()


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=24, max_cols=9), st.booleans())
def test_narrow_keys_against_the_brute_force(rows, wide_indices):
    """Version spaces of at most 8 concepts (4 with 32-bit indices) keyed in the narrow table: the value of the brute
    force, and the same memo (written back as version spaces), moves, trees and certificates as the Python search."""
    with _narrow(2, wide_indices):
        same_search(rows)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(65, 300), st.integers(4, 10), st.integers(0, 2**32 - 1), st.floats(0.2, 0.8), st.booleans())
def test_narrow_keys_make_the_same_search(m, n, seed, p, wide_indices):
    """Classes of several words, version spaces of at most 8 (or 4) concepts keyed in the narrow table: the same search
    as Python's, and where the kernel searched, entries in the narrow table."""
    rows = np.random.default_rng(seed).random((m, n)) < p
    with _narrow(2, wide_indices):
        same_search(rows, brute=False)
        S = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel="numba")
        S.value()
        K = S._kept
        if K is not None and K.kwords >= 2:  # (a key row of one word has no room for a narrow row of two)
            assert K.narrow_max == (4 if wide_indices else 8)


def test_narrow_keys_with_levels_two_deep():
    """Some 2,150 concepts (34 words), levels from a quarter of a level's words: version spaces keyed by their
    concepts from level 2 (two maps of concepts chained), 16- and 32-bit indices, the same search as Python's.
    (Without keys up to isomorphism: the Python search takes them up after 2,000 nodes where they pay, which it
    judges by the clock, so that on a loaded machine its memo differed from the kernel's by a node.)"""
    rows = np.random.default_rng(11).random((3000, 12)) < 0.5
    old = kernel_module.Kernel.LEVEL_RATIO
    kernel_module.Kernel.LEVEL_RATIO = 4
    try:
        for wide_indices in (False, True):
            with _narrow(2, wide_indices):
                same_search(rows, brute=False, isomorphism=False)
                S = Solver(ConceptClass.from_matrix(rows), symmetry=False, isomorphism=False, kernel="numba")
                S.value()
                assert S._kept.levels[2, 0] > 0 and S._kept.narrow.count > 0  # level 2 made, narrow keys used
    finally:
        kernel_module.Kernel.LEVEL_RATIO = old


@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=24, max_cols=9))
def test_narrow_keys_with_a_small_memo_budget(rows):
    """Both tables dropping their older halves: values and certificates still right."""
    with _narrow(2):
        r, S = solved(rows, "numba", memo_bytes=3000)
    assert r.value == opt_brute(rows)
    if r.value >= 0:
        assert verify_tree(r.tree.to_json(), S.C) == r.value
        assert verify_upper(S.upper_proof(r.value), S.C) == r.value


@pytest.mark.parametrize("family,params", [("intervals", {"N": 40}), ("rectangles", {"N": 5}), ("decision-lists", {"n": 3}),
                                           ("random", {"m": 900, "N": 11, "seed": 4})])
def test_narrow_keys_fill_both_tables(narrow_keys, family, params):
    """On classes of several words, the narrow table holds the small version spaces and the wide one the others;
    each entry written back is the version space it was stored for (its bounds are those the Python search
    proves for it)."""
    rows = np.asarray(make(family, **params).matrix, dtype=bool)
    same_search(rows, brute=False)
    K = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel="numba")
    K.value()
    T = K._kept
    assert T.narrow_max == 4 and T.narrow.count > 0 and T.wide.count > 0
    P = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel="python")
    for V, (lo, hi) in list(K.memo.items())[:200]:
        v = P.value(V)
        assert lo <= v <= hi


def test_narrow_rows_round_trip(narrow_keys):
    """A narrow key row (concept indices, 16 bits, padded with ones) and back, for sets of 1 to 4 concepts, and
    with 32-bit indices."""
    rows = np.random.default_rng(1).random((300, 9)) < 0.5
    S = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel="numba")
    S.value()
    K = S._kept
    rng = random.Random(3)
    Vs = [sum(1 << c for c in rng.sample(range(K.S.C.n_concepts), rng.randint(1, 4))) for _ in range(50)]
    rows16 = K._narrow_rows(Vs)
    assert rows16.shape == (50, 1)
    assert K._narrow_versions(rows16) == Vs
    first = sorted(c for c in range(300) if Vs[0] >> c & 1)
    assert rows16[0].view(np.uint16).tolist() == first + [0xFFFF] * (4 - len(first))
    K.b16 = False  # (two 32-bit indices to a word)
    pairs = [V for V in Vs if V.bit_count() <= 2]
    assert K._narrow_versions(K._narrow_rows(pairs)) == pairs


def test_levels_are_made_and_change_nothing():
    """A class of some 2,600 concepts: the kernel's search makes levels (default ratio) and agrees with the
    Python search on everything."""
    rows = np.random.default_rng(5).random((2600, 11)) < 0.5
    same_search(rows, brute=False)
    K = Solver(ConceptClass.from_matrix(rows), symmetry=False, kernel="numba")
    K.value()
    assert K._kept.levels[1, 0] > 0  # a level was made


def test_wide_class_agrees():
    """More than 64 concepts and more distinct splits than the Python search filters with numpy (_WIDE)."""
    rng = np.random.default_rng(7)
    rows = rng.random((150, 2100)) < 0.5
    same_search(rows, brute=False)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=24, max_cols=9))
def test_small_memo_budget_still_correct(rows):
    """A budget of a few entries: the kernel's table drops its older half (evictions), values and
    certificates stay right."""
    r, S = solved(rows, "numba", memo_bytes=3000)
    assert r.value == opt_brute(rows)
    if r.value >= 0:
        assert verify_tree(r.tree.to_json(), S.C) == r.value
        assert verify_upper(S.upper_proof(r.value), S.C) == r.value


def test_evictions_happen_and_values_hold():
    """Some 40,000 nodes under a budget of a few hundred entries: Opt = k + floor(log2 C(n, k)) = 6
    (monotone disjunctions of at most k of n variables)."""
    rows = np.asarray(make("monotone-disjunctions", n=10, k=3).matrix, dtype=bool)
    C = ConceptClass.from_matrix(rows)
    S = Solver(C, symmetry=False, kernel="numba", memo_bytes=200_000)
    r = opt(C, solver=S, engine="search", anytime=False, symmetry=False)
    assert r.value == 6
    assert S.evictions > 0
    assert verify_tree(r.tree.to_json(), C) == 6


def test_value_of_sub_version_spaces():
    """Solver.value(V) on subsets (what SOA asks) in the kernel, against the Python search."""
    C = make("random", m=60, N=10, seed=2)
    P = Solver(C, symmetry=False, kernel="python")
    K = Solver(C, symmetry=False, kernel="numba")
    rng = np.random.default_rng(0)
    for _ in range(20):
        V = int(rng.integers(0, 2**62)) & C.full
        assert K.value(V) == P.value(V)


def sym_class(seed: int):
    """Random rows over 2-8 points closed under the group of one or two random point permutations (each
    perhaps complementing every label): the class with that group declared."""
    rng = random.Random(seed)
    m = rng.randint(2, 8)
    gens = []
    for _ in range(rng.randint(1, 2)):
        perm = list(range(m))
        rng.shuffle(perm)
        gens.append((perm, rng.random() < 0.3))
    G = Symmetry(gens, m)
    perms, flips = G.elements()
    rows = set()
    for _ in range(rng.randint(1, 5)):
        r = [rng.randint(0, 1) for _ in range(m)]
        for perm, flip in zip(perms, flips):
            out = [0] * m
            for x, v in enumerate(r):
                out[perm[x]] = v ^ int(flip)
            rows.add(tuple(out))
    return ConceptClass(sorted(rows), symmetry=G), sorted(rows)


def valued_with_group(C, kernel: str, **kw):
    """Solver.value of C with its group's orbit keys in use from the first node, the tree and the
    upper-bound certificate (which carries the group)."""
    S = Solver(C, kernel=kernel, symmetry_after=0, **kw)
    S._use_symmetry()
    v = S.value()
    S.searched = (S.nodes, S.kernel_nodes)  # (building the certificates may search more, in Python)
    tree = S.mistake_tree(S.full, v) if v >= 0 else None
    return S, v, tree, S.upper_proof(v) if v >= 0 else None


def same_search_with_group(C, brute_rows=None, **kw):
    """Both paths key version spaces by their orbits and agree on the memo (orbit keys and plain ones), the
    moves (under an orbit key: (hash of the version space, point)), the trees and certificates, which verify."""
    Sa, va, ta, ua = valued_with_group(C, "python", **kw)
    Sb, vb, tb, ub = valued_with_group(C, "numba", **kw)
    assert va == vb
    if brute_rows is not None:
        assert vb == opt_brute(brute_rows)
    assert Sa.searched[1] == 0 and Sb.searched[1] == Sb.searched[0]
    assert (Sa.memo, Sa.moves, Sa.nodes) == (Sb.memo, Sb.moves, Sb.nodes)
    assert (ta, ua) == (tb, ub)
    if vb >= 0:
        assert verify_tree({"depth": vb, "root": tb}, Sb.C) == vb
        assert verify_upper(ub, Sb.C) == vb
        if Sb.canonical is not None:
            assert "symmetry" in ub
    return Sb


@SETTINGS
@given(st.integers(0, 10**9))
def test_kernel_and_python_agree_with_orbit_keys(seed):
    """Random classes closed under random point permutations (with or without complementing labels); orbit
    keys for version spaces of 2 concepts or more."""
    C, rows = sym_class(seed)
    S = same_search_with_group(C, rows if len(rows) <= 40 else None, symmetry_min=2)
    if S.canonical is not None and S.searched[1]:
        assert any(type(k) is int and k < 0 for k in S.memo)  # orbit keys written back


@pytest.mark.parametrize("family,params", [
    ("halfspaces", {"n": 3}),       # 104 concepts: two words per version space; 8 points: narrow keys
    ("decision-lists", {"n": 3}),
    ("thresholds", {"N": 40}),      # 41 points: orbit keys of two words
    ("parities", {"n": 6}),         # 64 points
    ("monotone-conjunctions", {"n": 5}),
])
def test_kernel_and_python_agree_with_orbit_keys_on_families(family, params):
    C = make(family, **params)
    S = same_search_with_group(ConceptClass(C.matrix, C.points, symmetry=C.symmetry))
    assert S.canonical is not None and S.searched[1] > 0
    assert any(type(k) is int and k < 0 for k in S.memo)


@pytest.mark.parametrize("family,params,least", [("halfspaces", {"n": 3}, 2), ("decision-lists", {"n": 3}, 3),
                                                 ("rectangles", {"N": 4}, 4)])
@pytest.mark.parametrize("words", [1, 3])
def test_orbit_keys_and_narrow_keys_together(family, params, least, words):
    """Orbit keys from ``least`` concepts (symmetry_min), narrow keys of version spaces up to 4 concepts (1 word) or 12
    (3 words, orbit keys in the narrow table too): the same search as Python's; and with a group adopted after 30
    nodes (entries made before it stay where they are, and are found there) the same value, a mistake tree walked
    in the kernel from its tables, and the certificates."""
    C = make(family, **params)
    C = ConceptClass(C.matrix, C.points, symmetry=C.symmetry)
    with _narrow(words):
        S = same_search_with_group(C, symmetry_min=least)
        assert S.canonical is not None and S.searched[1] > 0
        late = Solver(C, kernel="numba", symmetry_after=30, symmetry_min=least)
        v = late.value()
        assert v == S.value() and late._kept is not None
        tree = late.mistake_tree(late.full, v)  # (walked in the kernel: its tables not yet written back)
        assert verify_tree({"depth": v, "root": tree}, C) == v
        assert verify_upper(late.upper_proof(v), C) == v


@pytest.mark.parametrize("family,params", [("rectangles", {"N": 6}), ("decision-lists", {"n": 4}),
                                           ("halfspaces", {"n": 4})])
def test_orbit_keys_in_the_narrow_table(family, params, monkeypatch):
    """Narrow keys of 3 words: orbit keys are kept in the narrow table too (a row of all ones, then the key), and the
    search is the same as Python's (the memo written back, orbit keys included, the moves with their hashes, the
    trees and certificates)."""
    monkeypatch.setattr(kernel_module.Kernel, "NARROW_WORDS", 3)
    C = make(family, **params)
    C = ConceptClass(C.matrix, C.points, symmetry=C.symmetry)
    S = same_search_with_group(C)
    assert S.canonical is not None and S.searched[1] > 0
    K = Solver(C, kernel="numba", symmetry_after=0)
    K._use_symmetry()
    K.value()
    T = K._kept
    assert T.orbits_narrow
    rows = T.narrow.keys[T.narrow.seqs != -1, 1:]
    assert (rows[:, 0] == np.uint64((1 << 64) - 1)).any()  # orbit keys there
    assert any(type(k) is int and k < 0 for k in K.memo)


@pytest.mark.parametrize("symmetry_after", [0, 30, 2_000])
def test_symmetric_search_runs_in_the_kernel(symmetry_after):
    """With canonical keys the queries run in the kernel, which keys version spaces by their orbits; a group
    found while the kernel runs is adopted at its next pause. The same values, and certificates (with the
    group) that verify."""
    for family, params in [("thresholds", {"N": 40}), ("parities", {"n": 5}), ("halfspaces", {"n": 3}),
                           ("monotone-disjunctions", {"n": 5, "k": 3})]:
        M = np.asarray(make(family, **params).matrix, dtype=bool)
        a = Solver(ConceptClass.from_matrix(M), kernel="python", symmetry_after=symmetry_after)
        b = Solver(ConceptClass.from_matrix(M), kernel="numba", symmetry_after=symmetry_after)
        v = a.value()
        assert b.value() == v
        assert b.kernel_nodes > 0
        assert verify_upper(b.upper_proof(v), b.C) == v
        assert verify_tree({"depth": v, "root": b.mistake_tree(b.full, v)}, b.C) == v


@pytest.mark.parametrize("cost", ["loaded", "shared object", "numba cache"])
def test_auto_mode_with_a_group_hands_over_only_where_the_kernel_is_cheap(monkeypatch, cost):
    """"auto": a search with a symmetry group (found or to come) hands over to the kernel only where loading it is
    cheap (loaded already, or its shared object there: 0.3 ms), not where numba would load it (0.5-0.7 s, more than
    the search left once the group is in use); the same value either way."""
    at_once = Tuning(kernel_after_seconds=0.0, kernel_after=0)
    seconds = {"loaded": 0.0, "shared object": kernel_module.SO_LOAD_SECONDS,
               "numba cache": kernel_module.NUMBA_LOAD_SECONDS}
    monkeypatch.setattr(kernel_module, "load_seconds", lambda: seconds[cost])
    monkeypatch.setattr(kernel_module, "loaded", lambda: cost == "loaded")
    kernel_module._load()
    M = np.asarray(make("decision-lists", n=4).matrix, dtype=bool)
    for after in (0, 2_000):
        S = Solver(ConceptClass.from_matrix(M), kernel="auto", symmetry_after=after, tuning=at_once)
        assert S.value() == 9
        assert (S.kernel_nodes > 0) == (cost != "numba cache")
        assert S.nodes > 64


def test_small_memo_budget_with_orbit_keys():
    """Orbit keys in a table that drops its older half: value, tree and certificate (with the group) still
    right."""
    C = make("decision-lists", n=4)
    S = Solver(C, kernel="numba", symmetry_after=0, memo_bytes=60_000)
    S._use_symmetry()
    r = opt(C, solver=S, engine="search", anytime=False)
    assert r.value == 9 and S.kernel_nodes > 0 and S.evictions > 0
    assert verify_tree(r.tree.to_json(), C) == 9
    assert verify_upper(S.upper_proof(9), C) == 9


def test_kernel_continues_from_orbit_entries_of_the_python_search():
    """The kernel loads the entries the Python search made under orbit keys (and their moves)."""
    C = make("halfspaces", n=3)
    want = opt(C, engine="search", anytime=False).value
    S = Solver(C, kernel="python", symmetry_after=0)
    S._use_symmetry()
    V = S.full & S.C.columns[S.root_points[0]]
    S.value(V)
    assert any(type(k) is int and k < 0 for k in S.memo)
    S.kernel_mode = "numba"
    r = opt(S.C, solver=S, engine="search", anytime=False)
    assert r.value == want and S.kernel_nodes > 0
    assert verify_tree(r.tree.to_json(), S.C) == want
    assert verify_upper(S.upper_proof(want), S.C) == want


@pytest.mark.parametrize("kernel", ["auto", "numba"])
@pytest.mark.parametrize("family,params", [("halfspaces", {"n": 3}), ("decision-lists", {"n": 3})])
def test_value_of_sets_no_examples_lead_to_with_a_group(family, params, kernel):
    """Solver.value(V) of arbitrary subsets (SOA asks such) with orbit keys in use: a set no examples lead to
    is searched with plain keys (its closure names another set), in the kernel or not, as without the group."""
    C = make(family, **params)
    P = Solver(C, symmetry=False, kernel="python")
    K = Solver(C, kernel=kernel, symmetry_after=0)
    K._use_symmetry()
    rng = np.random.default_rng(0)
    unreached = 0
    for _ in range(200):
        V = int.from_bytes(rng.bytes(32), "little") & C.full
        if rng.random() < 0.5:
            V &= int.from_bytes(rng.bytes(32), "little")
        unreached += not K.reached(V)
        assert K.value(V) == P.value(V)
    assert unreached > 0


def test_orbit_key_rows_round_trip():
    """The kernel's key rows of orbit keys (narrow: up to 32 points; wide: more) give back Canonical.key."""
    for family, params in [("halfspaces", {"n": 3}), ("thresholds", {"N": 40})]:
        S = Solver(make(family, **params), kernel="numba", symmetry_after=0)
        S._use_symmetry()
        K = kernel_module.Kernel(S, 1 << 20)
        rng = np.random.default_rng(1)
        for _ in range(20):
            V = S.full
            for x in rng.integers(0, S.C.n_points, 3):
                side = V & S.C.columns[x]
                V = side if side and rng.random() < 0.5 else (V ^ side or V)
            k = S.canonical.key(V)
            assert K._key(K._row(k)) == k
            assert K._key(K.orbit_row(V)) == k


@pytest.mark.parametrize("budget,spent,waiting,expected", [
    (64, 0.0005, False, 128), (64, 0.004, False, 128), (64, 0.010, False, 64), (64, 0.030, False, 21),
    (64, 0.0005, True, 128), (64, 0.002, True, 64), (64, 0.004, True, 32), (4096, 0.008, True, 1024),
    (4096, 0.1, True, 512), (1, 0.5, False, 1), (1 << 22, 0.0001, False, 1 << 22), (64, 0.0, False, 128),
])
def test_next_budget_keeps_calls_short_while_a_group_is_awaited(budget, spent, waiting, expected):
    assert kernel_module.next_budget(budget, spent, waiting) == expected


def test_mode_from_argument_and_environment(monkeypatch):
    C = make("thresholds", N=4)
    monkeypatch.setenv("LITTLESTONE_KERNEL", "python")
    assert Solver(C).kernel_mode == "python"
    assert Solver(C, kernel="numba").kernel_mode == "numba"
    monkeypatch.delenv("LITTLESTONE_KERNEL")
    assert Solver(C).kernel_mode == "auto"
    with pytest.raises(ValueError, match="give one of auto, numba, python"):
        Solver(C, kernel="fast")


def test_unknown_mode_is_a_one_line_error():
    env = {**os.environ, "LITTLESTONE_KERNEL": "fast", "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "adversary", "opt", "random", "m=20", "N=6", "seed=1"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == ["littlestone: error: LITTLESTONE_KERNEL='fast': give one of auto, numba, python"]


def test_small_searches_do_not_import_numba():
    """In the default mode a small search stays in Python: numba is not even imported."""
    code = ("import sys; from solvers.opt import opt; from solvers.classes import ConceptClass;"
            "import numpy as np; rng = np.random.default_rng(0);"
            "r = opt(ConceptClass.from_matrix(rng.random((300, 12)) < 0.5));"
            "print(r.value, 'numba' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "LITTLESTONE_KERNEL"}
    env["PYTHONPATH"] = str(ROOT)
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[1] == "False"


@pytest.mark.slow
def test_deadline_stops_a_kernel_search():
    """A time limit stops a search running in the kernel, with proven bounds and the tree of the lower one."""
    C = make("decision-lists", n=5)  # minutes of search
    S = Solver(C, symmetry=False, kernel="numba")
    seen = []

    def progress(info):
        seen.append(S._kernel is not None)

    t0 = time.monotonic()
    r = opt(C, solver=S, engine="search", anytime=False, symmetry=False, time_limit=3.0, progress=progress)
    assert r.stats["stopped"] == "time limit"
    assert any(seen)  # the kernel was running when the progress came
    assert r.lower <= 12 <= r.upper and r.lower >= 1
    assert time.monotonic() - t0 < 60
    assert verify_tree(r.tree.to_json(), C) == r.lower


def test_a_table_that_keeps_dropping_entries_still_pauses():
    """A memo budget so small that a table fills and drops its older half every few hundred nodes: the search still
    reaches its pauses (where a cancel, a deadline, Ctrl-C are seen), and a cancel stops it. (A full table used to
    start the node budget of the next stretch again, so that such a search never paused.)"""
    from solvers.opt import distributed

    C = make("intervals", N=150)  # the root query at 13: refuted after some 60,000 nodes
    looks = []

    def cancelled():
        looks.append(1)
        return True

    out = distributed.solve_part(C, {"memo_bytes": 2**20, "symmetry": False, "isomorphism": False,
                                     "kernel": "numba"}, C.full, 13, None, cancelled)
    assert looks and out["answer"] is None


CTRL_C = textwrap.dedent("""
    from solvers.classes.families import make
    from solvers.opt import Solver, Tuning, opt
    C = make("decision-lists", n=5)
    S = Solver(C, symmetry=False, kernel="numba")
    def progress(info):
        if S._kernel is not None:
            print("kernel running", flush=True)
    r = opt(C, solver=S, engine="search", anytime=False, symmetry=False, progress=progress)
    print("stopped", r.stats["stopped"], r.lower, r.upper, flush=True)
""")


@pytest.mark.skipif(os.name != "posix", reason="sends signals")
def test_ctrl_c_stops_a_kernel_search():
    """SIGINT while the kernel runs: the search stops at the next pause with the bounds proven so far."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}  # (a crash would say where)
    p = subprocess.Popen([sys.executable, "-c", CTRL_C], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()  # blocks until the kernel reports (or the process ends)
        assert line.strip() == "kernel running", p.stderr.read() if p.poll() is not None else line
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    # (a Ctrl-C landing inside a print of "kernel running" can cut it before its newline: "stopped" is looked for
    # anywhere in the output)
    last = re.findall(r"stopped (\S+) (\d+) (\d+)", out)
    assert last, f"exit status {p.returncode}; stdout {out[-300:]!r}; stderr {err[-2000:]!r}"
    why, lo, hi = last[-1]
    assert why == "interrupted" and 1 <= int(lo) <= 12 <= int(hi)


@pytest.mark.parametrize("cost", ["shared object", "numba cache", "not built, no background build"])
def test_auto_mode_hands_over_after_its_time(monkeypatch, cost):
    """"auto": the Python search runs as long as loading the kernel takes (:func:`python_seconds`), then the kernel
    takes the query over: at once from its shared object (0.3 ms); where numba would load it from its own cache it
    waits KERNEL_NUMBA_AFTER_SECONDS, and where nothing is built and no background build can start,
    KERNEL_COMPILE_AFTER_SECONDS (15-25 s of compilation ahead)."""
    tuning = Tuning(kernel_after_seconds=0.0, kernel_after=0, kernel_numba_after_seconds=1e9,
                    kernel_compile_after_seconds=1e9)
    seconds = {"shared object": kernel_module.SO_LOAD_SECONDS, "numba cache": kernel_module.NUMBA_LOAD_SECONDS}.get(cost)
    monkeypatch.setattr(kernel_module, "load_seconds", lambda: seconds)
    monkeypatch.setattr(kernel_module, "start_build", lambda: False)
    monkeypatch.setattr(kernel_module, "loaded", lambda: False)  # as in a process that has not loaded it yet
    M = np.asarray(make("intervals", N=60).matrix, dtype=bool)  # (some 15 ms in Python: past 0.5 ms)
    S = Solver(ConceptClass.from_matrix(M), symmetry=False, kernel="auto", tuning=tuning)
    assert S.value() == Solver(ConceptClass.from_matrix(M), symmetry=False, kernel="python").value()
    assert S.nodes > 64  # past the first look at the clock
    assert (S.kernel_nodes > 0) == (cost == "shared object")


@pytest.mark.parametrize("cost, expected", [
    (0.0, 0.002),                             # loaded already: the least time (setting up the kernel's state)
    (kernel_module.SO_LOAD_SECONDS, 0.002),   # its shared object: 0.5 ms, less than that least time
    (0.01, 0.01),                             # a load of 10 ms: as long in Python first
    (kernel_module.LOAD_SECONDS, kernel_module.LOAD_SECONDS),  # its machine code through llvmlite
    (kernel_module.NUMBA_LOAD_SECONDS, 0.3),  # numba in this process: kernel_numba_after_seconds
    (None, 10.0),                             # not built, no build in the background: kernel_compile_after_seconds
])
def test_python_seconds_is_the_load_cost_at_least_the_least_time(cost, expected):
    T = Tuning(kernel_after_seconds=0.002, kernel_numba_after_seconds=0.3, kernel_compile_after_seconds=10.0)
    assert python_seconds(cost, T) == pytest.approx(expected)


def test_auto_mode_hands_over_when_the_background_build_lands(monkeypatch):
    """Nothing built yet: the search starts the build in the background, goes on in Python, and hands the query
    over at the first look at the clock after the machine code is there."""
    tuning = Tuning(kernel_after_seconds=0.0, kernel_after=0, kernel_build_poll=0.0)
    polls = []

    def load_seconds():  # not built for the first looks, then built
        polls.append(1)
        return None if len(polls) < 3 else kernel_module.LOAD_SECONDS

    monkeypatch.setattr(kernel_module, "load_seconds", load_seconds)
    monkeypatch.setattr(kernel_module, "start_build", lambda: True)
    monkeypatch.setattr(kernel_module, "loaded", lambda: False)
    M = np.asarray(make("intervals", N=60).matrix, dtype=bool)
    S = Solver(ConceptClass.from_matrix(M), symmetry=False, kernel="auto", tuning=tuning)
    assert S.value() == Solver(ConceptClass.from_matrix(M), symmetry=False, kernel="python").value()
    assert len(polls) >= 3 and S.kernel_nodes > 0


def test_auto_mode_in_a_process_that_loaded_the_kernel():
    """Once loaded, the kernel takes a search over after Tuning.kernel_after nodes, whatever the time."""
    kernel_module._load()
    M = np.asarray(make("intervals", N=30).matrix, dtype=bool)
    S = Solver(ConceptClass.from_matrix(M), symmetry=False, kernel="auto",
               tuning=Tuning(kernel_after_seconds=1e9, kernel_after=0))
    assert S.value() == 8
    assert S.kernel_nodes > 0


def test_opt_in_a_process_that_loaded_the_kernel():
    """opt() in "auto" once the kernel is loaded: the warm-up and the root loop run in it after Tuning.kernel_after
    nodes (plain keys: more than 64 points), with the value, tree and certificate of the Python search."""
    kernel_module._load()
    M = np.asarray(make("monotone-disjunctions", n=7, k=2).matrix, dtype=bool)  # 128 points
    a, Sa = solved(M, "python")
    C = ConceptClass.from_matrix(M)
    Sb = Solver(C, kernel="auto", tuning=Tuning(kernel_after=0))
    b = opt(C, solver=Sb, engine="search", anytime=False)
    assert Sb.kernel_nodes > 0
    assert a.value == b.value
    assert verify_tree(b.tree.to_json(), C) == b.value
    assert verify_upper(Sb.upper_proof(b.value), C) == b.value


def test_keys_up_to_isomorphism_give_way_to_the_kernel_and_their_entries_stay_valid(monkeypatch):
    """A class of more than 64 points (no orbit keys) whose search has keyed version spaces up to isomorphism
    hands over to the kernel all the same (its memo then holds bytes keys beside the bitsets, which the kernel
    leaves alone); with isomorphism="always" the search stays in Python. Values and certificates as without."""
    C = make("monotone-disjunctions", n=7, k=2)  # 29 concepts over 128 points: no orbit keys
    rows = np.asarray(C.matrix)
    want = opt(ConceptClass.from_matrix(rows), engine="search", anytime=False).value
    monkeypatch.setattr(Solver, "_iso_pays", lambda self, st, guess: True)  # every form is made (while allowed)
    for iso, kernel_runs in ((True, True), ("always", False)):
        S = Solver(ConceptClass.from_matrix(rows), symmetry=False, isomorphism=iso, iso_after=0, iso_min=4,
                   kernel="python")
        V = S.full & S.C.columns[S.root_points[0]]  # a version space one example deep
        S.value(V)  # fills the memo, up to isomorphism
        assert any(type(k) is bytes for k in S.memo), iso
        S.kernel_mode = "numba"  # from now on the kernel would run (if allowed)
        r = opt(S.C, solver=S, engine="search", anytime=False)
        assert r.value == want and r.stats["nodes"] > 0
        assert (S.kernel_nodes > 0) == kernel_runs
        assert verify_tree(r.tree.to_json(), S.C) == want
        assert verify_upper(S.upper_proof(want), S.C) == want


@pytest.mark.parametrize("mode", ["python", "auto"])
def test_python_mode_never_builds_waits_for_or_loads_the_kernel(monkeypatch, mode):
    """``LITTLESTONE_KERNEL=python`` (CI runs the search's tests so): no search looks at the kernel's build, its
    lock or its machine code, so that nothing a build left behind (a lock, a build still running) can hold it up;
    the values are the brute force's (random classes) and the kernel's (families, computed before). In "auto"
    the same searches ask for the kernel at once (the check that the trap springs)."""
    rng = np.random.default_rng(35)
    classes = [ConceptClass.from_matrix(rng.integers(0, 2, (int(rng.integers(6, 20)), 7)).tolist()) for _ in range(4)]
    truth = [opt_brute(C.matrix.astype(int).tolist()) for C in classes]
    for family, params in [("intervals", {"N": 40}), ("halfspaces", {"n": 3})]:
        classes.append(make(family, **params))
        truth.append(Solver(classes[-1], kernel="numba").value())

    def trap(*args, **kwargs):
        raise AssertionError("the kernel was asked for")

    for name in ("_load", "start_build", "load_seconds", "compiled"):
        monkeypatch.setattr(kernel_module, name, trap)
    for name in ("start_build", "building", "load", "path"):
        monkeypatch.setattr(kernel_module._kernel_cache, name, trap)
    at_once = Tuning(kernel_after_seconds=0.0, kernel_numba_after_seconds=0.0, kernel_compile_after_seconds=0.0,
                     kernel_after=0)
    monkeypatch.setenv("LITTLESTONE_KERNEL", mode)

    def values():
        return [(Solver(C, tuning=at_once).value(), opt(C, tuning=at_once).value,
                 opt(C, engine="search", anytime=False, tuning=at_once).value) for C in classes]

    if mode == "auto":
        with pytest.raises(AssertionError, match="the kernel was asked for"):
            values()
        return
    assert values() == [(t, t, t) for t in truth]
