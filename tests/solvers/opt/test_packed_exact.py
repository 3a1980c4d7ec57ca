"""The exact search over truth tables (solvers/opt/packed_exact.py) and its certificate's checker
(solvers/certificates/packed.py): "Opt(C) >= d?" against the brute force on random classes, with and without the
cube's group; the canonical keys against the orbits listed by hand; the published values; tampered certificates."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates import MistakeTree, TreeError, verify_tree, verify_upper
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt.packed import pack
from solvers.opt.packed_exact import CubeGroup, ExactSearch, Trivial, cube_group_of

from ...oracles import matrices, opt_brute, tree_ok_brute


def _exact(C, leaf, symmetry=True, widths=(1, 3)):
    """Opt by the exact search (deciding d = 1, 2, ... until no), the last tree, and the certificate."""
    S = ExactSearch(pack(C.matrix), C.n_points, leaf=leaf, symmetry=symmetry)
    d, tree = 0, None
    while True:
        ok, t = S.decide(d + 1, widths=widths)
        if not ok:
            return S, d, tree, S.certificate(d)
        d, tree = d + 1, t


def _cube_closed(n: int, seeds: list, complement: bool) -> ConceptClass:
    """The class of the orbits of ``seeds`` (truth tables over {0,1}^n) under every signed permutation of the cube
    (and complementing the labels when ``complement``), built by listing the group by hand."""
    m = 1 << n
    rows = set()
    for sigma in itertools.permutations(range(n)):
        for f in range(m):
            image = [sum(((x >> i) & 1) << sigma[i] for i in range(n)) ^ f for x in range(m)]
            for s in seeds:
                t = [0] * m
                for x in range(m):
                    t[image[x]] = (s >> x) & 1
                rows.add(tuple(t))
                if complement:
                    rows.add(tuple(1 - v for v in t))
    return ConceptClass.from_matrix(np.array(sorted(rows), dtype=bool))


@settings(max_examples=80, deadline=None)
@given(matrices(max_rows=40, max_cols=7), st.integers(2, 12), st.booleans(),
       st.lists(st.integers(1, 4), max_size=3))
def test_decide_is_the_brute_force_and_its_certificates_check(rows, leaf, symmetry, widths):
    """With any narrow searches first (``widths``: splits per version space), or none."""
    C = ConceptClass.from_matrix(np.array(rows, dtype=bool))
    true = opt_brute(C.matrix.astype(int).tolist())
    S, d, tree, cert = _exact(C, leaf, symmetry, tuple(widths))
    assert d == true
    if d:
        assert tree_ok_brute(tree, d, C.matrix)
    assert verify_upper(cert, C) == d
    if cert["entries"] and d >= 1:  # a claim one lower is caught
        bad = copy.deepcopy(cert)
        bad["bound"] = d - 1
        for e in bad["entries"]:
            if e["path"] == []:
                e["bound"] = d - 1
        with pytest.raises(TreeError):
            verify_upper(bad, C)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3), st.lists(st.integers(0, 255), min_size=1, max_size=4), st.booleans(), st.integers(2, 10))
def test_cube_closed_classes_use_the_group_and_equal_the_brute_force(n, seeds, complement, leaf):
    C = _cube_closed(n, [s % (1 << (1 << n)) for s in seeds], complement)
    S, d, tree, cert = _exact(C, leaf)
    assert isinstance(S.group, CubeGroup)
    assert S.group.complement == (complement or _closed_under_complement(C))
    assert d == opt_brute(C.matrix.astype(int).tolist())
    assert verify_upper(cert, C) == d
    if d:
        assert verify_tree(MistakeTree(d, tree, C).to_json(), C) == d


def _closed_under_complement(C) -> bool:
    rows = {tuple(r) for r in C.matrix.tolist()}
    return all(tuple(not v for v in r) in rows for r in rows)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.data())
def test_keys_are_equal_exactly_on_orbits(n, data):
    """Two closures get one key iff some signed permutation (and complement) maps one to the other, the group
    listed by hand."""
    m = 1 << n
    G = CubeGroup(n, complement=True)

    def closure():
        labels = data.draw(st.lists(st.sampled_from([0, 1, None]), min_size=m, max_size=m))
        ones = sum(1 << x for x, v in enumerate(labels) if v == 1)
        zeros = sum(1 << x for x, v in enumerate(labels) if v == 0)
        return ones, zeros

    a, b = closure(), closure()
    orbit = set()
    for sigma in itertools.permutations(range(n)):
        for f in range(m):
            image = [sum(((x >> i) & 1) << sigma[i] for i in range(n)) ^ f for x in range(m)]
            o = sum(1 << image[x] for x in range(m) if (a[0] >> x) & 1)
            z = sum(1 << image[x] for x in range(m) if (a[1] >> x) & 1)
            orbit |= {(o, z), (z, o)}
    ka, ea, ca = G.key(*a)
    kb = G.key(*b)[0]
    assert (ka == kb) == (b in orbit)
    # the element returned maps the closure to its key
    h = G.point_map(ea)
    o = sum(1 << int(h[x]) for x in range(m) if (a[0] >> x) & 1)
    z = sum(1 << int(h[x]) for x in range(m) if (a[1] >> x) & 1)
    assert ((z, o) if ca else (o, z)) == ka


@pytest.mark.parametrize("family, n, value", [("halfspaces", 3, 6), ("halfspaces", 4, 9), ("decision-lists", 3, 5),
                                              ("decision-lists", 4, 9), ("decision-lists", 5, 12)])
def test_published_values(family, n, value):
    """Opt of halfspaces n = 3, 4 and decision lists n = 3..5, as the exact solver and the README give them; the
    cube's group with the complement is found on both."""
    C = make(family, n=n)
    S, d, tree, cert = _exact(C, leaf=2000)
    assert (d, S.group.order) == (value, 2 * 2**n * [1, 1, 2, 6, 24, 120][n])
    assert verify_upper(cert, C) == d
    assert verify_tree(MistakeTree(d, tree, C).to_json(), C) == d


def test_a_class_off_the_cube_has_no_group():
    C = make("thresholds", N=8)  # 8 points, not closed under the cube's maps
    assert isinstance(cube_group_of(np.sort(pack(C.matrix)), 8), Trivial)
    S, d, tree, cert = _exact(C, leaf=2)
    assert d == 3 and cert["group"] is None and verify_upper(cert, C) == 3


@pytest.fixture(scope="module")
def hs4():
    C = make("halfspaces", n=4)
    S, d, tree, cert = _exact(C, leaf=40)
    assert d == 9 and any("covers" in e for e in cert["entries"]) and any("proof" in e for e in cert["entries"])
    return C, cert


def _first(cert, what):
    return next(i for i, e in enumerate(cert["entries"]) if what in e and e.get(what))


def test_tampered_certificates_fail(hs4):
    C, cert = hs4
    assert verify_upper(cert, C) == 9
    i = _first(cert, "covers")

    def fails(change, match):
        bad = copy.deepcopy(cert)
        change(bad)
        with pytest.raises(TreeError, match=match):
            verify_upper(bad, C)

    fails(lambda c: c["entries"][i]["covers"].pop(), "no cover says")
    fails(lambda c: c["entries"][i]["covers"][0].__setitem__(1, 1 - c["entries"][i]["covers"][0][1]),
          "not mapped onto|claims")
    fails(lambda c: c["entries"][i]["covers"][0].__setitem__(4, c["entries"][i]["covers"][0][4] ^ 5), "not mapped onto")
    fails(lambda c: c["entries"][i]["covers"][0].__setitem__(3, [0, 0, 1, 2]), "does not rename")
    fails(lambda c: c["entries"][i]["covers"][0].__setitem__(3, [0, 1, 2, None]), "does not rename")
    fails(lambda c: c["entries"][0].__setitem__("path", [[0, 1.0]]), "path step")
    fails(lambda c: c["entries"][i]["covers"][0].__setitem__(2, 10**6), "one of the")
    fails(lambda c: c["entries"][i].pop("covers"), "neither")
    j = _first(cert, "proof")
    fails(lambda c: c["entries"][j]["proof"].__setitem__("bound", c["entries"][j]["bound"] + 1),
          "own certificate")
    fails(lambda c: c["entries"][0]["path"].append([99, 0]), "path step")


def test_a_group_the_class_does_not_have_is_refused():
    C = ConceptClass.from_matrix(np.eye(8, dtype=bool)[[0, 1, 2]].tolist() + [[False] * 8])  # Opt 1 < Halving's 2
    S, d, tree, cert = _exact(C, leaf=2)
    assert d == 1 and cert["entries"]
    bad = dict(cert, group={"n": 3, "complement": False})
    with pytest.raises(TreeError, match="not closed"):
        verify_upper(bad, C)
    C4 = make("halfspaces", n=2)  # closed under the cube's group: the group's n must match the points
    with pytest.raises(TreeError, match=r"acts on .*the class has 4 points: give n = 2$"):
        verify_upper(dict(_exact(C4, 2)[3], bound=1, group={"n": 3, "complement": True}, entries=[{"path": [], "bound": 1}]), C4)
    with pytest.raises(TreeError, match=r"\{0,1\}\^7 .*give n = 2$"):
        verify_upper(dict(_exact(C4, 2)[3], bound=1, group={"n": 7, "complement": True}, entries=[{"path": [], "bound": 1}]), C4)
