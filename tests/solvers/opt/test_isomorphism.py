"""Version spaces merged up to isomorphism (solvers.opt.isomorphism), against brute force.

The canonical key of a version space agrees exactly when the reduced matrices are isomorphic (rows
permuted, columns permuted and complemented, checked by trying every row order); the search keyed by it
gives the value of the recurrence; its upper-bound certificates, with entries used up to isomorphism,
verify; and every way of tampering with a recorded isomorphism fails verification with a message that
says what is wrong.
"""

import copy
import itertools
import json
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import TreeError, verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import opt
from solvers.opt.isomorphism import IsoForms
from solvers.opt.search import Solver
from tests.oracles import opt_brute
from tests.solvers.opt.test_canonical import symmetric_class


def reduced_brute(M, rows):
    """The canonical reduced matrix of a row set, by trying every row order (tiny sets only)."""
    S = M[rows]
    n = len(rows)
    cols = {tuple(S[:, j] ^ S[0, j]) for j in range(M.shape[1]) if 0 < S[:, j].sum() < n}
    best = None
    for order in itertools.permutations(range(n)):
        form = []
        for c in cols:
            v = tuple(int(c[r]) for r in order)
            form.append(min(v, tuple(1 - x for x in v)))
        form = tuple(sorted(form))
        if best is None or form < best:
            best = form
    return n, best


def random_class(seed, rows=9, points=(2, 7)):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(points[0], points[1] + 1))
    return ConceptClass.from_matrix(rng.integers(0, 2, (rows, m)).astype(bool))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_keys_agree_exactly_when_the_reduced_matrices_are_isomorphic(seed):
    C = random_class(seed)
    M = C.matrix
    F = IsoForms(C)
    rng = random.Random(seed)
    sets = [s for s in range(1, 1 << C.n_concepts) if 2 <= s.bit_count() <= 5]
    sets = rng.sample(sets, min(25, len(sets)))
    keys = {s: F.key(s) for s in sets}
    brute = {s: reduced_brute(M, [i for i in range(C.n_concepts) if s >> i & 1]) for s in sets}
    for a in sets:
        for b in sets:
            assert (keys[a] == keys[b]) == (brute[a] == brute[b])
            if keys[a] == keys[b]:
                iso = F.isomorphism(a, b)  # checked inside against the matrix
                assert len(iso["concepts"]) == a.bit_count()


def test_a_column_and_its_complement_are_one_split_and_multiplicities_do_not_count():
    base = np.array([[0, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 0]], dtype=bool)
    more = np.hstack([base, ~base[:, :1], base[:, 1:2], np.ones((4, 1), dtype=bool)])  # complement, copy, constant
    A, B = IsoForms(ConceptClass.from_matrix(base)), IsoForms(ConceptClass.from_matrix(more))
    full = 0b1111
    assert A.key(full) == B.key(full)


def forced(C, **kw):
    """A Solver that keys every version space of 3 concepts or more up to isomorphism, from the start."""
    return Solver(C, isomorphism="always", iso_min=3, iso_after=0, **kw)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.booleans())
def test_values_and_certificates_with_keys_up_to_isomorphism(seed, symmetry):
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(2, 24))
    C = random_class(seed, rows=rows, points=(3, 7))
    truth = opt_brute(C.matrix.astype(int).tolist())
    S = forced(C, symmetry=symmetry, symmetry_after=0)
    v = S.value()
    assert v == truth == Solver(C, isomorphism=False, symmetry=False).value()
    assert verify_upper(S.upper_proof(v), C) == v
    assert verify_tree({"depth": v, "root": S.mistake_tree(S.full, v)}, C) == v
    if v >= 1:
        with pytest.raises(TreeError):  # and no certificate of a false bound
            verify_upper(_claim(S.upper_proof(v), v - 1), C)


def _claim(proof, u):
    out = copy.deepcopy(proof)
    out["bound"] = u
    for e in out["entries"]:
        if not e["path"]:
            e["bound"] = u
    return out


def iso_certificate():
    """An upper-bound certificate with entries used up to isomorphism (decision lists n=3 as a raw matrix:
    26 entries, 17 of them up to isomorphism)."""
    C = ConceptClass.from_matrix(make("decision-lists", n=3).matrix)
    S = forced(C, symmetry=False)
    v = S.value()
    proof = S.upper_proof(v)
    isos = [i for i, e in enumerate(proof["entries"]) if "isomorphic" in e]
    assert isos, "the certificate should use isomorphism"
    return C, v, proof, isos


def test_a_certificate_with_isomorphisms_verifies_and_survives_json():
    C, v, proof, _ = iso_certificate()
    assert verify_upper(json.loads(json.dumps(proof)), C) == v


def _tampered(change):
    C, v, proof, isos = iso_certificate()
    bad = copy.deepcopy(proof)
    i = isos[0]
    change(bad, i, C)
    with pytest.raises(TreeError) as err:
        verify_upper(bad, C)
    return str(err.value)


def test_wrong_point_permutation_fails():
    def change(p, i, C):
        pts = p["entries"][i]["isomorphic"]["points"]
        # send one point to a point whose labels on the image differ
        x, y, f = pts[0]
        for z in range(C.n_points):
            if z != y:
                pts[0] = [x, z, f]
                try:
                    verify_upper(p, C)
                except TreeError:
                    return
        raise AssertionError("no wrong target found")

    msg = _tampered(change)
    assert "isomorphism maps point" in msg and "labels point" in msg


def test_wrong_complement_flag_fails():
    def change(p, i, C):
        pts = p["entries"][i]["isomorphic"]["points"]
        pts[0][2] = not pts[0][2]

    msg = _tampered(change)
    assert "complement" in msg and "its image, concept" in msg


def test_wrong_concept_map_fails():
    def change(p, i, C):
        cs = p["entries"][i]["isomorphic"]["concepts"]
        for a, b in itertools.combinations(range(len(cs)), 2):
            cs[a][1], cs[b][1] = cs[b][1], cs[a][1]
            try:
                verify_upper(p, C)
            except TreeError:
                return
            cs[a][1], cs[b][1] = cs[b][1], cs[a][1]
        raise AssertionError("every swap still verified")

    assert "its image, concept" in _tampered(change)


def test_concept_map_outside_the_target_or_not_one_to_one_fails():
    def outside(p, i, C):
        iso = p["entries"][i]["isomorphic"]
        target = set(c for _, c in iso["concepts"])
        iso["concepts"][0][1] = next(c for c in range(C.n_concepts) if c not in target)

    assert "which is not in the version space of entry" in _tampered(outside)

    def twice(p, i, C):
        cs = p["entries"][i]["isomorphic"]["concepts"]
        cs[0][1] = cs[1][1]

    assert "one to one" in _tampered(twice)


def test_map_to_a_non_isomorphic_set_fails():
    def change(p, i, C):
        entries = p["entries"]
        r = entries[i]["isomorphic"]["entry"]
        # another refuted entry, of another size or another shape
        for j, e in enumerate(entries):
            if j != r and j != i and "isomorphic" not in e:
                entries[i]["isomorphic"]["entry"] = j
                try:
                    verify_upper(p, C)
                except TreeError:
                    return
        raise AssertionError("no other entry to point at")

    msg = _tampered(change)
    assert "entry" in msg and ("isomorphism" in msg or "isomorphic" in msg)


def test_a_point_left_unmapped_fails():
    def change(p, i, C):
        p["entries"][i]["isomorphic"]["points"].pop()

    assert "does not map it" in _tampered(change)


def test_isomorphic_to_an_entry_that_is_itself_isomorphic_or_claims_more_fails():
    C, v, proof, isos = iso_certificate()
    bad = copy.deepcopy(proof)
    i = isos[0]
    r = bad["entries"][i]["isomorphic"]["entry"]
    bad["entries"][i]["bound"] = bad["entries"][r]["bound"] - 1
    with pytest.raises(TreeError, match="claims only Opt <="):
        verify_upper(bad, C)
    if len(isos) > 1:
        bad = copy.deepcopy(proof)
        bad["entries"][isos[0]]["isomorphic"]["entry"] = isos[1]
        with pytest.raises(TreeError, match="itself used up to isomorphism"):
            verify_upper(bad, C)


@pytest.mark.parametrize("bad", [None, [], {"entry": 0}, {"entry": "x", "concepts": [], "points": []},
                                 {"entry": 0, "concepts": [[0, True]], "points": []},
                                 {"entry": 0, "concepts": [], "points": [[0, 1, 2]]}])
def test_malformed_isomorphisms_are_one_line_errors(bad):
    C, v, proof, isos = iso_certificate()
    p = copy.deepcopy(proof)
    p["entries"][isos[0]]["isomorphic"] = bad
    with pytest.raises(TreeError) as err:
        verify_upper(p, C)
    assert "\n" not in str(err.value) and f"entry {isos[0]}" in str(err.value)


def test_more_than_64_points_and_the_cache_in_the_memo_budget():
    # monotone disjunctions n=8 k=3 as a raw matrix: 93 concepts over 256 points (orbit keys stop at 64)
    C = ConceptClass.from_matrix(make("monotone-disjunctions", n=8, k=3).matrix)
    S = forced(C)
    v = S.value()
    assert v == Solver(C, isomorphism=False).value()
    info = S.isomorphism_info
    assert info["forms"] > 0 and info["merged"] > 0
    assert S.memo_used_bytes >= S._iso_cache_bytes > 0
    assert verify_upper(S.upper_proof(v), C) == v
    # a tiny budget: the memo and the cache are dropped over and over, the value stays right
    T = forced(C, memo_bytes=4000)
    assert T.value() == v and T.evictions > 0
    assert T.memo_used_bytes <= 4000 + 2000


def test_switched_off_and_reported():
    C = ConceptClass.from_matrix(make("halfspaces", n=3).matrix)
    off = opt(C, isomorphism=False)
    assert off.stats["isomorphism"]["on"] is False and off.stats["isomorphism"]["forms"] == 0
    on = opt(C)
    assert on.value == off.value and on.stats["isomorphism"]["on"] is True
    assert on.stats["isomorphism"]["forms"] == 0  # a search this small never pays for a form


def test_forms_are_declined_where_they_do_not_pay():
    # a random class: no two version spaces isomorphic, so no form saves anything
    C = ConceptClass.from_matrix(make("random", m=2000, N=12, seed=3).matrix)
    S = Solver(C, isomorphism=True, iso_after=0)
    S.value()
    info = S.isomorphism_info
    assert info["merged"] == 0 and info["declined"] > 0


def test_cli_option_and_json(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"matrix": make("halfspaces", n=3).matrix.astype(int).tolist()}))
    run = [sys.executable, "-m", "adversary", "opt", "--matrix", str(path), "--no-store", "--quiet"]
    out = subprocess.run(run + ["--json", "--no-isomorphism"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)["isomorphism"]
    assert info["on"] is False
    out = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "isomorphism:" in out.stdout


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_with_a_declared_group_orbit_and_isomorphism_keys_together(seed):
    C, rows = symmetric_class(seed)
    truth = opt_brute([list(r) for r in rows])
    S = forced(C, symmetry_after=0, iso_max=6)  # isomorphism for 3..6 concepts, orbits above
    v = S.value()
    assert v == truth
    proof = S.upper_proof(v)
    assert verify_upper(json.loads(json.dumps(proof)), C) == v


def test_verify_command_rejects_a_tampered_isomorphism(tmp_path):
    from solvers.certificates import bind

    C, v, proof, isos = iso_certificate()
    matrix = tmp_path / "c.json"
    matrix.write_text(json.dumps({"matrix": C.matrix.astype(int).tolist()}))
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(bind(proof, C)))
    tampered = copy.deepcopy(proof)
    pts = tampered["entries"][isos[0]]["isomorphic"]["points"]
    pts[0][2] = not pts[0][2]
    bad.write_text(json.dumps(bind(tampered, C)))
    run = [sys.executable, "-m", "adversary", "verify"]
    out = subprocess.run(run + [str(good), "--matrix", str(matrix)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    out = subprocess.run(run + [str(bad), "--matrix", str(matrix)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    text = out.stdout + out.stderr
    assert f"entry {isos[0]}" in text and "its isomorphism maps point" in text and "Traceback" not in text


def test_igraph_is_loaded_without_matplotlib_which_still_imports_afterwards():
    code = ("import importlib.util, sys\n"
            "from solvers.classes.automorphisms import load_igraph\n"
            "g = load_igraph().Graph(n=2, edges=[(0, 1)])\n"
            "assert 'matplotlib' not in sys.modules and len(g.canonical_permutation()) == 2\n"
            "if importlib.util.find_spec('matplotlib'):\n"
            "    import matplotlib.pyplot\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
