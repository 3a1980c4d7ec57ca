"""The symmetric solver of monotone-disjunctions (solvers/opt/disjunctions.py) and its certificates
(solvers/certificates/disjunctions.py): equal to the generic search and to the brute-force recurrence,
on the whole class and on version spaces after random examples; the canonical form is a renaming and
does not change under one; the certificates verify, JSON and all, and tampered ones fail."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import TreeError, verify_tree, verify_upper
from solvers.classes import ImplicitFamily
from solvers.classes.families import make
from solvers.opt import Solver, opt
from solvers.opt import Tuning
from solvers.opt.disjunctions import DisjunctionSolver, canonical_form, canonical_form_refined, handles

from ...oracles import opt_brute, tree_ok_brute

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
FAMILY = "monotone-disjunctions"


def cells(most_n: int):
    return st.integers(1, most_n).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))


# ---------------------------------------------------------------------------------------- the value
@SETTINGS
@given(cell=cells(4))
def test_equals_brute_force_on_tiny_classes(cell):
    n, k = cell
    C = make(FAMILY, n=n, k=k)
    assert DisjunctionSolver(n, k).value() == opt_brute(C.matrix.astype(int).tolist())


@settings(max_examples=30, deadline=None, database=None)
@given(cell=cells(9))
def test_equals_the_generic_search(cell):
    n, k = cell
    C = make(FAMILY, n=n, k=k)
    r = opt(C, tuning=Tuning(disjunctions_from=0))  # the family's class (small listed ones too): the symmetric search
    assert r.stats["engine"] == "disjunctions" and r.solved
    assert r.value == opt(C, engine="search").value
    assert verify_tree(r.tree.to_json(), C) == r.value
    assert tree_ok_brute(r.tree.root, r.value, C.matrix)
    assert verify_upper(json.loads(json.dumps(r.upper_certificate())), C) == r.value


@pytest.mark.parametrize("n,k,value", [(12, 2, 6), (12, 3, 7), (12, 5, 8), (10, 3, 6), (11, 2, 5)])
def test_matches_the_generic_search_on_larger_cells(n, k, value):
    # values of opt(make(...), engine="search"), which takes up to a few seconds on these
    assert DisjunctionSolver(n, k).value() == value


@st.composite
def version_spaces(draw):
    """(n, k, examples): labelled points of {0,1}^n, labelled by a concept of the class."""
    n, k = draw(cells(6))
    C = make(FAMILY, n=n, k=k)
    target = draw(st.integers(0, len(C) - 1))
    points = draw(st.lists(st.integers(0, 2**n - 1), max_size=6))
    return n, k, [(C.points[j], int(C.matrix[target, j])) for j in points]


@SETTINGS
@given(case=version_spaces())
def test_equals_the_generic_search_after_examples(case):
    n, k, examples = case
    C = make(FAMILY, n=n, k=k)
    S = DisjunctionSolver(n, k)
    s = S.state(examples)
    V = C.consistent(examples)
    assert s.size == V.bit_count()
    assert S.value(s) == Solver(C).value(V)


@pytest.mark.parametrize("examples", [
    [((1, 0, 0, 0, 0), 1), ((1, 1, 0, 0, 0), 1)],          # x0 forced; then a point with x0 says nothing
    [((1, 0, 0, 0, 0), 1), ((1, 1, 0, 0, 0), 0)],          # ... and its label 0 leaves nothing
    [((0, 0, 1, 1, 0), 0), ((1, 0, 1, 0, 0), 1), ((1, 1, 1, 1, 1), 1)],
])
def test_examples_beyond_the_reduced_state(examples):
    C = make(FAMILY, n=5, k=2)
    S = DisjunctionSolver(5, 2)
    s, V = S.state(examples), C.consistent(examples)
    assert s.size == V.bit_count() and S.value(s) == Solver(C).value(V)


def test_a_point_with_a_forced_variable_adds_no_edge():
    S = DisjunctionSolver(5, 2)
    forced = [((1, 0, 0, 0, 0), 1)]
    assert S.state(forced + [((1, 1, 0, 0, 0), 1)]).key == S.state(forced).key


def test_handles_only_the_family_own_class():
    C = make(FAMILY, n=3, k=2)
    assert handles(C) and handles(ImplicitFamily(FAMILY, {"n": 20, "k": 3}))
    from solvers.classes import ConceptClass

    claimed = ConceptClass(C.matrix, C.points, family=FAMILY, params=dict(C.params))  # not made by make
    assert not handles(claimed) and opt(claimed).stats["engine"] != "disjunctions"
    assert not handles(make("disjunctions", n=3, k=2))


# ---------------------------------------------------------------------------------------- canonical form
@st.composite
def states(draw):
    n = draw(st.integers(1, 9))
    R = draw(st.integers(0, 2**n - 1))
    edges = draw(st.lists(st.integers(1, 2**n - 1), max_size=5))
    edges = sorted({e & R for e in edges if e & R})
    edges = [e for e in edges if not any(f != e and f & e == f for f in edges)]
    return n, draw(st.integers(0, 5)), R, edges, draw(st.permutations(list(range(n))))


def _renamed(mask: int, pi) -> int:
    return sum(1 << pi[i] for i in range(len(pi)) if mask >> i & 1)


@settings(max_examples=200, deadline=None, database=None)
@given(case=states())
def test_canonical_form_is_a_renaming_and_invariant(case):
    n, k, R, edges, pi = case
    form, order = canonical_form(k, R, edges)
    # renaming order[i] -> i gives the state the form describes
    to = {v: i for i, v in enumerate(order)}
    assert sorted(order) == [i for i in range(n) if R >> i & 1]
    got = sorted(sum(1 << to[i] for i in range(n) if e >> i & 1) for e in edges)
    blocks, at, want = form[2], 0, [0] * form[1]
    for pattern, size in blocks:
        for j in range(form[1]):
            if pattern >> j & 1:
                want[j] |= ((1 << size) - 1) << at
        at += size
    assert got == sorted(want)
    # and renaming the state first gives the same form
    assert canonical_form(k, _renamed(R, pi), sorted(_renamed(e, pi) for e in edges))[0] == form


@settings(max_examples=300, deadline=None, database=None)
@given(a=states(), b=states(), rename=st.booleans())
def test_bliss_form_and_its_python_twin_name_the_same_states_alike(a, b, rename):
    """canonical_form (bliss) and canonical_form_refined (pure Python) agree on which states are one up to
    renaming: on a state and a renaming of it (both say so), and on two random states."""
    n, k, R, edges, pi = a
    if rename:
        n2, R2, edges2 = n, _renamed(R, pi), sorted(_renamed(e, pi) for e in edges)
    else:
        n2, _, R2, edges2, _ = b
    same = canonical_form(k, R, edges)[0] == canonical_form(k, R2, edges2)[0]
    twin = canonical_form_refined(k, R, edges)[0] == canonical_form_refined(k, R2, edges2)[0]
    assert same == twin
    assert same or not rename


# ---------------------------------------------------------------------------------------- certificates
def _solved(n, k):
    C = ImplicitFamily(FAMILY, {"n": n, "k": k}) if n > 12 else make(FAMILY, n=n, k=k)
    r = opt(C)
    return C, r, json.loads(json.dumps(r.tree.to_json())), json.loads(json.dumps(r.upper_certificate()))


@pytest.mark.parametrize("n,k", [(13, 3), (14, 2), (15, 3), (10, 3)])
def test_certificates_verify(n, k):
    C, r, tree, proof = _solved(n, k)
    assert r.solved and verify_tree(tree, C) == r.value and verify_upper(proof, C) == r.value


@pytest.mark.slow
@pytest.mark.parametrize("n,k,value", [(20, 5, 12), (20, 4, 11), (19, 3, 9)])
def test_largest_cells(n, k, value):
    C, r, tree, proof = _solved(n, k)
    assert r.value == value and verify_tree(tree, C) == value and verify_upper(proof, C) == value


def _children(proof):
    return [(i, c) for i, e in enumerate(proof["entries"]) for c in e["children"]]


TAMPER = {
    "bound lowered": lambda p: [p.update(bound=p["bound"] - 1), p["entries"][0].update(bound=p["bound"])],
    "every claim lowered": lambda p: [p.update(bound=p["bound"] - 1)] + [e.update(bound=max(0, e["bound"] - 1))
                                                                      for e in p["entries"]],
    "a child dropped": lambda p: p["entries"][_children(p)[0][0]]["children"].pop(),
    "a renaming swapped": lambda p: _swap_renaming(p),
    "a child's side flipped": lambda p: _children(p)[0][1].update(label=1 - _children(p)[0][1]["label"]),
    "a child's entry too weak": lambda p: p["entries"][_children(p)[0][1]["entry"]].update(
        bound=p["entries"][_children(p)[0][0]]["bound"]),
    "an edge dropped": lambda p: next(e for e in p["entries"] if e["edges"])["edges"].pop(),
    "not the whole class": lambda p: p["entries"][0]["R"].pop(),
    "another class": lambda p: p["params"].update(k=p["params"]["k"] - 1),
}


def _swap_renaming(p):
    """Swap, in a child's renaming, a variable sent into its entry's R with one sent outside it."""
    for _, c in _children(p):
        R, pi = set(p["entries"][c["entry"]]["R"]), c["renaming"]
        inside = [i for i in range(len(pi)) if pi[i] in R]
        outside = [i for i in range(len(pi)) if pi[i] not in R]
        if inside and outside:
            i, j = inside[0], outside[0]
            pi[i], pi[j] = pi[j], pi[i]
            return
    raise AssertionError("no child to tamper with")


@pytest.mark.parametrize("how", list(TAMPER))
def test_tampered_upper_certificates_fail(how):
    C, r, _, proof = _solved(16, 3)  # Opt 8 < floor(log2 |C|) = 9: entries with children, and with edges
    bad = copy.deepcopy(proof)
    TAMPER[how](bad)
    with pytest.raises(TreeError):
        verify_upper(bad, C)


def test_tampered_point_trees_fail():
    C, r, tree, _ = _solved(13, 3)
    deeper = {**tree, "depth": tree["depth"] + 1}
    with pytest.raises(TreeError):
        verify_point_tree_of(deeper, C)
    bad = copy.deepcopy(tree)
    node = bad["root"]
    while node["1"] is not None:
        node = node["1"]
    node["point"] = [0] * 13  # a point every concept of that path labels 0: the 1-branch is unrealised
    with pytest.raises(TreeError):
        verify_point_tree_of(bad, C)
    short = copy.deepcopy(tree)
    short["root"]["point"] = [0, 1]
    with pytest.raises(TreeError):
        verify_point_tree_of(short, C)


def verify_point_tree_of(tree, C):
    return verify_tree(tree, C)  # an implicit class: verify_tree hands it to verify_point_tree


def test_certificate_for_a_listed_class_checks_the_class():
    C, r, _, proof = _solved(8, 3)
    from solvers.classes import ConceptClass

    with pytest.raises(TreeError):
        verify_upper(proof, ConceptClass(C.matrix, C.points, family=FAMILY, params=dict(C.params)))
    with pytest.raises(TreeError):
        verify_upper(proof, make(FAMILY, n=8, k=2))


def test_time_limit_keeps_proven_bounds():
    r = opt(ImplicitFamily(FAMILY, {"n": 20, "k": 5}), time_limit=0.05)
    assert r.lower <= 12 <= r.upper and r.tree.depth == r.lower
    assert verify_tree(json.loads(json.dumps(r.tree.to_json())), r.tree.C) == r.lower


def test_renamed_versions_spaces_have_one_value():
    rng = random.Random(3)
    S = DisjunctionSolver(9, 3)
    for _ in range(20):
        pts = [rng.getrandbits(9) for _ in range(3)]
        ys = [rng.randint(0, 1) for _ in pts]
        pi = list(range(9))
        rng.shuffle(pi)
        a = S.state([(x, y) for x, y in zip(pts, ys)])
        b = S.state([(_renamed(x, pi), y) for x, y in zip(pts, ys)])
        assert a.size == b.size and S.value(a) == S.value(b)
        assert np.array_equal(np.sort(b.V), np.sort(np.array([_renamed(int(v), pi) for v in a.V], dtype=np.uint32)))


def test_a_time_limit_keeps_a_deep_tree():
    """The root loop is the states' (issue 19): up from the lower bound for a moment, then down, so a run
    stopped by its time limit keeps a mistake tree deeper than 1 (going down only, n = 32 k = 5 stopped at
    1 <= Opt <= 17)."""
    C = ImplicitFamily(FAMILY, {"n": 32, "k": 5})
    r = opt(C, time_limit=1.0, anytime=False)
    assert r.stats["stopped"] == "time limit" and r.stats["engine"] == "disjunctions"
    assert 2 <= r.lower < r.upper
    assert verify_tree(json.loads(json.dumps(r.tree.to_json())), C) == r.lower


def test_the_certificate_walk_keeps_the_deadline():
    """Writing the upper-bound certificate looks at the clock at every point it splits (at n = 26, k = 5 the walk
    outlasted the search by far, and a time limit or Ctrl-C went unseen): past the deadline it stops."""
    import time

    from solvers.opt import SearchStop

    S = DisjunctionSolver(12, 3)
    v = S.value()
    assert len(S.upper_proof(v)["entries"]) > 1  # (a walk with points to split)
    with pytest.raises(SearchStop):
        with S.limits(deadline=time.monotonic() - 1.0):
            S.upper_proof(v)


@pytest.mark.parametrize("n, k", [(14, 4), (18, 5)])
def test_the_certificate_walk_follows_the_search(n, k):
    """At each point the walk names a side the memo already bounds, as the search did, before it asks the other:
    so it searches nothing the search did not (n = 25, k = 5: asking the smaller side first searched 30,878 more
    nodes and wrote 10,985 entries in 341 s; now none, 306 entries, 0.3 s), and the certificate verifies."""
    S = DisjunctionSolver(n, k)
    v = S.value()
    nodes = S.nodes
    proof = S.upper_proof(v)
    assert S.nodes == nodes
    C = ImplicitFamily(FAMILY, {"n": n, "k": k})
    assert verify_upper(json.loads(json.dumps(proof)), C) == v


def test_the_root_alternates_when_one_direction_never_ends():
    """Without a time limit the root loop alternates (down, up, down, ...; each phase twice as long): a
    direction whose query would run for hours (down at n = 26, k = 5 did not refute 16 in 600 s) costs only
    the phases given to it. Here every query d > Opt + 1 runs until its phase ends; the loop still settles Opt."""
    from solvers.opt.states import StateSearch

    class Stuck(StateSearch):
        def __init__(self, opt_value, halving):
            self.opt, self.root = opt_value, "root"
            self.n = 1 << halving
            self._init_search(1 << 20, 100)

        def size(self, s):
            return self.n

        def at_least(self, s, d):
            while d > self.opt + 1:
                self._tick()  # (the phase's deadline ends it)
            return d <= self.opt

    S = Stuck(5, 12)
    assert S.alternate_root is False
    S.alternate_root = True
    queries = []
    assert S.solve_root(queries, warmup_seconds=0.01) == (5, 5)
    assert [q["d"] for q in queries] == [1, 2, 3, 4, 5, 6]  # only the finished queries are recorded
    assert DisjunctionSolver.alternate_root


# ---------------------------------------------------------------------------------------- the compiled points
def _compiled_or_skip():
    from solvers.opt import kernel

    if not kernel.available():
        pytest.skip("numba is not installed")
    from solvers.opt._disjunctions_jit import balanced_points

    return balanced_points


def _compiled_points(fn, s, need):
    variables = np.array([i for b in s.blocks for i in b], np.int64)
    starts = np.cumsum([0] + [len(b) for b in s.blocks]).astype(np.int64)
    sides, masks = fn(variables, starts, s.V, s.size, need)
    return list(zip(sides.tolist(), masks.tolist()))


@pytest.mark.slow  # (numba compiles the twin once per process, seconds: the kernel-mode runs of CI run these)
@settings(max_examples=150, deadline=None, database=None)
@given(n=st.integers(1, 14), k=st.integers(0, 5), data=st.data())
def test_the_compiled_points_are_the_python_ones(n, k, data):
    """The compiled enumeration of the points (solvers.opt._disjunctions_jit) returns Python's list, in its
    order, for every version space and bound: the search cannot tell which one ran."""
    from solvers.opt.disjunctions import _balanced_points

    fn = _compiled_or_skip()
    S = DisjunctionSolver(n, k)
    examples = data.draw(st.lists(st.tuples(st.integers(0, 2**n - 1), st.integers(0, 1)), max_size=5))
    s = S.state(examples)
    for need in (1, 2, 3, 8, 1 << data.draw(st.integers(0, 6))):
        assert _compiled_points(fn, s, need) == _balanced_points(s.blocks, s.V, s.size, need)


@pytest.mark.slow
def test_the_compiled_points_use_all_32_bits():
    """Variable 31 is the top bit of the uint32 masks: the compiled walk keeps it (no sign, no overflow)."""
    from solvers.opt.disjunctions import _balanced_points

    fn = _compiled_or_skip()
    S = DisjunctionSolver(32, 2)
    for examples in ([((1 << 31) | (1 << 30) | 1, 1), (1 << 5, 0)], [(1 << 5, 0)]):
        s = S.state(examples)
        for need in (1, 64, 300):
            assert _compiled_points(fn, s, need) == _balanced_points(s.blocks, s.V, s.size, need)
    assert any(A >> 31 & 1 for _, A in _compiled_points(fn, s, 1))  # (every variable but 5: bit 31 too)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["numba", "python"])
def test_both_kernel_modes_give_one_search(mode, monkeypatch):
    """The whole search, its tree and its certificate are the same whichever enumeration ran."""
    if mode == "numba":
        _compiled_or_skip()
    monkeypatch.setenv("LITTLESTONE_KERNEL", mode)
    S = DisjunctionSolver(13, 3)
    v = S.value()
    assert (S._fast is not False) == (mode == "numba")
    monkeypatch.setenv("LITTLESTONE_KERNEL", "python")
    P = DisjunctionSolver(13, 3)
    assert P.value() == v == 7 and P.nodes == S.nodes
    assert S.mistake_tree(v) == P.mistake_tree(v)
    assert S.upper_proof(v) == P.upper_proof(v)


@settings(max_examples=200, deadline=None, database=None)
@given(edges=st.lists(st.integers(0, 2**8 - 1), max_size=9))
def test_minimal_edges_are_the_brute_force_ones(edges):
    from solvers.opt.disjunctions import _minimal

    want = sorted({e for e in edges if not any(f != e and f & e == f for f in edges)})
    assert _minimal(edges) == tuple(want)
