"""solvers/certificates/games.py: the checkers accept the solver's certificates and are sound -- a random
or tampered certificate that verifies never claims more (lower trees) or less (upper bounds) than the
brute-force value of tests/oracles.py."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates import TreeError
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.certificates.games import (verify_error_tree, verify_game_upper, verify_randomized_tree)
from solvers.game_rules import Game
from solvers.opt import opt
from solvers.opt.games import GameSolver
from tests.oracles import game_value_brute, matrices

GAMES = st.builds(
    lambda rand, k, T: Game(randomized=rand, errors=k if (rand or k) else 1, horizon=T),
    st.booleans(), st.integers(0, 2), st.one_of(st.none(), st.integers(1, 3)))


def _brute(C, G):
    return game_value_brute(C.matrix.astype(int).tolist(), randomized=G.randomized, errors=G.errors, horizon=G.horizon)


@st.composite
def _random_node(draw, n_points: int, depth: int, repeat: bool):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return None
    j = draw(st.integers(0, n_points - 1))
    if repeat and draw(st.integers(0, 3)) == 0:
        return {"point": j, "repeat": draw(st.integers(0, 1)), "exit": draw(_random_node(n_points, depth - 1, repeat))}
    return {"point": j, "0": draw(_random_node(n_points, depth - 1, repeat)),
            "1": draw(_random_node(n_points, depth - 1, repeat))}


@settings(max_examples=150, deadline=None)
@given(st.data(), matrices(max_rows=5, max_cols=3), GAMES)
def test_a_random_tree_that_verifies_is_worth_at_most_the_value(data, rows, G):
    C = ConceptClass.from_matrix(rows)
    v = _brute(C, G)
    root = data.draw(_random_node(C.n_points, 4, G.randomized and G.horizon is None))
    if G.randomized:
        cert = {"kind": "randomized-tree", "game": G.to_json(), "value": "0", "root": root}
        try:
            worth = verify_randomized_tree(cert, C)
        except TreeError:
            return
        assert worth <= v
    else:
        d = data.draw(st.integers(0, 4))
        try:
            depth = verify_error_tree({"depth": d, "root": root}, C, G.errors, G.horizon)
        except TreeError:
            return
        assert depth <= v


@settings(max_examples=120, deadline=None)
@given(st.data(), matrices(max_rows=5, max_cols=3), GAMES)
def test_a_tampered_upper_certificate_that_verifies_still_bounds_the_value(data, rows, G):
    C = ConceptClass.from_matrix(rows)
    S = GameSolver(C, G)
    v = S.value()
    proof = S.upper_proof()
    assert verify_game_upper(proof, C) == v
    step = Fraction(1, 8) if G.randomized else 1
    # lower some claims (the root's among them, or not), or drop entries
    entries = [dict(e) for e in proof["entries"]]
    for e in entries:
        if data.draw(st.booleans()):
            e["bound"] = str(Fraction(e["bound"]) - step * data.draw(st.integers(1, 3)))
    if entries and data.draw(st.booleans()):
        entries.pop(data.draw(st.integers(0, len(entries) - 1)))
    bound = Fraction(proof["bound"]) - (step if data.draw(st.booleans()) else 0)
    tampered = {**proof, "entries": entries, "bound": str(bound)}
    try:
        u = verify_game_upper(json.loads(json.dumps(tampered)), C)
    except TreeError:
        return
    assert u >= v


def test_opt_bound_is_checked():
    C = make("singletons", N=8)
    r = opt(C, game="randomized")
    proof = r.upper_certificate()
    assert proof["opt_bound"]["bound"] == 1
    assert verify_game_upper(proof, C) == r.value
    bad = json.loads(json.dumps(proof))
    bad["opt_bound"]["bound"] = 0
    with pytest.raises(TreeError, match="opt_bound"):
        verify_game_upper(bad, C)
    worse = json.loads(json.dumps(proof))
    worse["opt_bound"]["proof"]["bound"] = 0
    with pytest.raises(TreeError):
        verify_game_upper(worse, C)


@pytest.mark.parametrize("cert, message", [
    ({"kind": "randomized-tree", "game": {"game": "randomized"}, "value": "x", "root": None}, "not a whole number"),
    ({"kind": "randomized-tree", "game": {"game": "deterministic"}, "value": "0", "root": None}, "randomized"),
    ({"kind": "randomized-tree", "game": {"game": "randomized", "foo": 1}, "value": "0", "root": None}, "unknown keys"),
    ({"kind": "randomized-tree", "game": {"game": "randomized"}, "value": "1/2", "root": {"point": 9, "0": None, "1": None}}, "column index"),
    ({"kind": "randomized-tree", "game": {"game": "randomized"}, "value": "1/2", "root": {"point": 0, "0": None}}, "not"),
])
def test_malformed_randomized_trees_are_one_line(cert, message):
    C = ConceptClass.from_matrix([[0, 1], [1, 0]])
    with pytest.raises(TreeError, match=message):
        verify_randomized_tree(cert, C)


def test_a_tree_deeper_than_the_horizon_proves_nothing():
    """(found by the test above) A mistake tree of depth 4 for the game of one round, with one label error, on a
    class whose value there is 1: the checker refuses it (it took the tree's depth as the value)."""
    C = ConceptClass.from_matrix([[0, 0], [1, 0], [0, 1], [1, 1]])
    leaf = {"point": 0, "0": None, "1": None}
    two = {"point": 0, "0": leaf, "1": leaf}
    three = {"point": 0, "0": two, "1": two}
    tree = {"depth": 4, "root": {"point": 1, "0": three, "1": three}}
    assert verify_error_tree(tree, C, 1) == 4  # in the game without a horizon it holds
    assert _brute(C, Game(errors=1, horizon=1)) == 1
    with pytest.raises(TreeError, match="1 rounds"):
        verify_error_tree(tree, C, 1, 1)


@pytest.mark.parametrize("name, params, T", [("halfspaces", {"n": 4}, 10), ("thresholds", {"N": 40}, 9),
                                            ("all-functions", {"n": 5}, 7)])
def test_a_horizon_certificate_keyed_by_orbits_verifies(name, params, T):
    """Opt[T](C) below T is Opt(C), and its certificate is Opt(C)'s: one entry per orbit of the class's group
    (its "symmetry"). The game's checker took its entries one by one and failed them (halfspaces n=4, T=10:
    "neither side is shown to be at most 8"); it checks them as Opt(C)'s. A tampered group still fails."""
    C = make(name, **params)
    r = opt(C, horizon=T)
    assert r.value == min(opt(C).value, T) and r.value < T
    cert = r.upper_certificate()
    assert verify_game_upper(json.loads(json.dumps(cert)), C) == r.value
    if "symmetry" in cert:  # a generator that is no symmetry of the class: two points swapped
        swap = list(range(C.n_points))
        swap[0], swap[1] = 1, 0
        bad = dict(cert, symmetry={**cert["symmetry"], "generators": [{"permutation": swap, "complement": False}]})
        with pytest.raises(TreeError, match="onto itself"):
            verify_game_upper(bad, C)


# ---------------------------------------------------------------------------------------- entries up to symmetry
def _tagged(n: int) -> ConceptClass:
    """The class of :func:`tests.oracles.tagged_rows`: n! renamings of its pairs of points."""
    from tests.oracles import tagged_rows

    return ConceptClass.from_matrix(tagged_rows(n))


@pytest.fixture(scope="module", params=[Game(randomized=True), Game(randomized=True, errors=1), Game(errors=1)],
                ids=str)
def symmetric_proof(request):
    C = _tagged(4)
    S = GameSolver(C, request.param, symmetry_after=0)
    v = S.value()
    proof = S.upper_proof()
    assert "symmetry" in proof and verify_game_upper(proof, C) == v
    return C, proof, v


def test_up_to_symmetry_fewer_entries_than_without():
    C = _tagged(4)
    keyed = GameSolver(C, Game(randomized=True), symmetry_after=0)
    plain = GameSolver(C, Game(randomized=True), symmetry=False)
    assert keyed.value() == plain.value()
    a, b = keyed.upper_proof(), plain.upper_proof()
    assert "symmetry" not in b and len(a["entries"]) < len(b["entries"])
    assert verify_game_upper(a, C) == verify_game_upper(b, C)


def _tampered(proof, change):
    bad = json.loads(json.dumps(proof))
    change(bad)
    return bad


def test_a_generator_that_is_not_a_symmetry_fails(symmetric_proof):
    C, proof, _ = symmetric_proof
    n = C.n_points

    def swap_b0_t0(p):  # b_0 <-> t_0 maps {b_0} to {t_0}, not a concept
        perm = list(range(n))
        perm[0], perm[4] = 4, 0
        p["symmetry"]["generators"][0]["permutation"] = perm

    with pytest.raises(TreeError, match="does not map the class onto itself"):
        verify_game_upper(_tampered(proof, swap_b0_t0), C)
    with pytest.raises(TreeError, match="not a permutation"):
        verify_game_upper(_tampered(proof, lambda p: p["symmetry"]["generators"][0]["permutation"].pop()), C)
    with pytest.raises(TreeError, match="renaming"):
        verify_game_upper(_tampered(proof, lambda p: p["symmetry"]["generators"][0].update(complement=True)), C)
    with pytest.raises(TreeError, match='"symmetry" must be'):
        verify_game_upper(_tampered(proof, lambda p: p.update(symmetry=[1, 2])), C)


def test_without_its_symmetry_the_entries_do_not_suffice(symmetric_proof):
    C, proof, _ = symmetric_proof
    with pytest.raises(TreeError):
        verify_game_upper(_tampered(proof, lambda p: p.pop("symmetry")), C)


def test_a_lowered_claim_fails(symmetric_proof):
    C, proof, v = symmetric_proof

    def lower_root(p):
        p["bound"] = str(v - Fraction(1, 4))
        for e in p["entries"]:
            if e["path"] == []:
                e["bound"] = str(v - Fraction(1, 4))

    with pytest.raises(TreeError):
        verify_game_upper(_tampered(proof, lower_root), C)


def test_a_merge_the_renaming_does_not_prove_fails(symmetric_proof, monkeypatch):
    # The checker does not trust the canonical form: were it to name two states alike that no renaming
    # relates (here: every state gets one name), the relabelling it reads off fails its check.
    import solvers.certificates.games as gc

    C, proof, _ = symmetric_proof
    real = gc._Orbits.name

    def one_name(self, b):
        _, labels = real(self, b)
        return (b"", b""), labels

    monkeypatch.setattr(gc._Orbits, "name", one_name)
    with pytest.raises(TreeError, match="is not a renaming of the points that maps the class and the one state"):
        verify_game_upper(proof, C)
