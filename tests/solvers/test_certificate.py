"""Mistake trees: verify_tree accepts the solver's trees and rejects tampered ones; export and reload."""

from __future__ import annotations

import copy
import json

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import MistakeTree, TreeError, load_tree, verify_tree
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import opt

from tests.oracles import matrices, opt_brute, tree_ok_brute

SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

CUBE3 = ConceptClass.from_matrix([[(i >> b) & 1 for b in range(3)] for i in range(8)])  # Opt = 3


def solved_tree(C):
    r = opt(C)
    return r.tree.to_json(), r.value


def internal_paths(root, prefix=()):
    """Paths (tuples of "0"/"1") to every internal node."""
    if root is None:
        return []
    out = [prefix]
    for b in ("0", "1"):
        out += internal_paths(root[b], prefix + (b,))
    return out


def node_at(root, path):
    for b in path:
        root = root[b]
    return root


def set_at(tree, path, value):
    """Replace the node at ``path`` (a non-empty path) in the JSON tree."""
    parent = node_at(tree["root"], path[:-1])
    parent[path[-1]] = value


# ---------------------------------------------------------------------------------------- acceptance
def test_verify_accepts_solver_tree():
    t, v = solved_tree(CUBE3)
    assert v == 3
    assert verify_tree(t, CUBE3) == 3


def test_treeerror_is_valueerror():
    assert issubclass(TreeError, ValueError)


def test_depth_zero_tree():
    C = ConceptClass.from_matrix([[0, 1]])
    assert verify_tree({"depth": 0, "root": None}, C) == 0


def test_hand_built_tree():
    C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 0], [1, 1]])
    t = {"depth": 2, "root": {"point": 0, "0": {"point": 1, "0": None, "1": None},
                              "1": {"point": 1, "0": None, "1": None}}}
    assert verify_tree(t, C) == 2
    # the same tree from a JSON string round trip
    assert verify_tree(json.loads(json.dumps(t)), C) == 2


@SETTINGS
@given(matrices())
def test_verify_accepts_random_solver_trees(rows):
    C = ConceptClass.from_matrix(rows)
    t, v = solved_tree(C)
    assert verify_tree(t, C) == v == opt_brute(rows)
    # a smaller-depth tree (the top levels, cut to leaves) is also a valid certificate
    if v >= 1:
        cut = copy.deepcopy(t)

        def trim(node, level):
            if level == v - 1:
                return None
            return {"point": node["point"], "0": trim(node["0"], level + 1), "1": trim(node["1"], level + 1)}

        cut = {"depth": v - 1, "root": trim(t["root"], 0)}
        assert verify_tree(cut, C) == v - 1


@st.composite
def random_trees(draw, n_points, depth):
    def build(level):
        if level == depth:
            return None
        j = draw(st.integers(0, n_points - 1))
        return {"point": j, "0": build(level + 1), "1": build(level + 1)}

    return {"depth": depth, "root": build(0)}


@SETTINGS
@given(matrices(max_rows=10, max_cols=5), st.data())
def test_verify_agrees_with_brute_on_random_trees(rows, data):
    """verify_tree accepts a random complete tree exactly when every path is realised (brute check)."""
    C = ConceptClass.from_matrix(rows)
    depth = data.draw(st.integers(0, 4), label="depth")
    t = data.draw(random_trees(C.n_points, depth), label="tree")
    ok = tree_ok_brute(t["root"], depth, C.matrix)
    if ok:
        assert verify_tree(t, C) == depth
        assert depth <= opt_brute(rows)
    else:
        with pytest.raises(TreeError):
            verify_tree(t, C)


# ---------------------------------------------------------------------------------------- rejection
def _rejects(t, C):
    with pytest.raises(TreeError) as ei:
        verify_tree(t, C)
    assert "\n" not in str(ei.value)
    return str(ei.value)


def test_leaf_at_wrong_depth():
    t, v = solved_tree(CUBE3)
    bad = copy.deepcopy(t)
    bad["root"]["0"] = None  # a leaf at depth 1
    _rejects(bad, CUBE3)
    bad = copy.deepcopy(t)
    bad["root"]["1"]["0"]["1"] = {"point": 0, "0": None, "1": None}  # one level too deep
    _rejects(bad, CUBE3)


@pytest.mark.parametrize("j", [3, 99, -1, True, False, "0", 1.0, None, [0]])
def test_point_out_of_range_or_not_int(j):
    t, _ = solved_tree(CUBE3)
    bad = copy.deepcopy(t)
    bad["root"]["point"] = j
    _rejects(bad, CUBE3)
    bad = copy.deepcopy(t)
    bad["root"]["1"]["1"]["point"] = j
    _rejects(bad, CUBE3)


@pytest.mark.parametrize("node", [[], [0, None, None], 5, "leaf", {"point": 0}, {"point": 0, "0": None},
                                  {"point": 0, "0": None, "1": None, "extra": 1}, {"0": None, "1": None}])
def test_non_dict_or_malformed_node(node):
    t, _ = solved_tree(CUBE3)
    bad = copy.deepcopy(t)
    bad["root"]["0"]["1"] = node
    _rejects(bad, CUBE3)


def test_same_point_twice_on_a_path():
    t, _ = solved_tree(CUBE3)
    bad = copy.deepcopy(t)
    j = bad["root"]["point"]
    bad["root"]["1"]["point"] = j  # x_j = 1 then x_j asked again: the "0" child is realised by none
    msg = _rejects(bad, CUBE3)
    assert "realised" in msg or "realized" in msg


def test_unrealised_path_in_thresholds():
    # points 1..3, concepts x >= t for t = 1..4 (built here, independent of the families registry)
    C = ConceptClass.from_matrix([[int(x >= t) for x in (1, 2, 3)] for t in range(1, 5)], points=[1, 2, 3])
    # x=3 labelled 0 then x=1 labelled 1 is realised by no threshold
    t = {"depth": 2, "root": {"point": 2, "0": {"point": 0, "0": None, "1": None},
                              "1": {"point": 0, "0": None, "1": None}}}
    _rejects(t, C)
    ok = {"depth": 2, "root": {"point": 1, "0": {"point": 2, "0": None, "1": None},
                               "1": {"point": 0, "0": None, "1": None}}}
    assert verify_tree(ok, C) == 2


def test_depth_claim_larger_than_tree():
    t, v = solved_tree(CUBE3)
    _rejects({"depth": v + 1, "root": t["root"]}, CUBE3)
    _rejects({"depth": 1, "root": None}, CUBE3)


def test_depth_claim_smaller_than_tree():
    t, v = solved_tree(CUBE3)
    _rejects({"depth": v - 1, "root": t["root"]}, CUBE3)


@pytest.mark.parametrize("tree", [None, [], "tree", {"root": None}, {"depth": 0},
                                  {"depth": -1, "root": None}, {"depth": True, "root": None},
                                  {"depth": "0", "root": None}, {"depth": 0.0, "root": None}])
def test_malformed_top_level(tree):
    _rejects(tree, CUBE3)


@SETTINGS
@given(matrices(min_rows=2), st.data())
def test_random_tampering_rejected(rows, data):
    C = ConceptClass.from_matrix(rows)
    t, v = solved_tree(C)
    if v < 1:
        return
    paths = internal_paths(t["root"])
    path = data.draw(st.sampled_from(paths), label="path")
    kind = data.draw(st.sampled_from(["leaf", "range", "nondict", "repeat", "deeper", "claim"]), label="kind")
    bad = copy.deepcopy(t)
    if kind == "leaf":
        if not path:
            bad["root"] = None
        else:
            set_at(bad, path, None)
    elif kind == "range":
        node_at(bad["root"], path)["point"] = data.draw(st.sampled_from([C.n_points, C.n_points + 5, -1]))
    elif kind == "nondict":
        if not path:
            bad["root"] = [bad["root"]]
        else:
            set_at(bad, path, data.draw(st.sampled_from([[], 0, "x", (None, None)])))
    elif kind == "repeat":
        if not path:
            return
        parent = node_at(bad["root"], path[:-1])
        node_at(bad["root"], path)["point"] = parent["point"]
    elif kind == "deeper":
        leaf_parent = node_at(bad["root"], path)
        # extend one leaf below this node by one level
        b = "0" if leaf_parent["0"] is None else None
        if b is None:
            return
        leaf_parent[b] = {"point": 0, "0": None, "1": None}
    elif kind == "claim":
        bad["depth"] = v + data.draw(st.integers(1, 3))
    with pytest.raises(TreeError):
        verify_tree(bad, C)


# ---------------------------------------------------------------------------------------- export
@pytest.mark.parametrize("d", [0, 1, 2, 3, 4])
def test_to_networkx_size(d):
    C = ConceptClass.from_matrix([[(i >> b) & 1 for b in range(max(d, 1))] for i in range(2 ** max(d, 1))])
    r = opt(C)
    assert r.value == max(d, 1)
    tree = r.tree if d == r.value else MistakeTree(0, None, C)
    G = tree.to_networkx()
    depth = tree.depth
    assert G.number_of_nodes() == 2 ** (depth + 1) - 1
    assert G.number_of_edges() == 2 ** (depth + 1) - 2
    assert nx.is_arborescence(G)
    leaves = [k for k in G if G.out_degree(k) == 0]
    assert len(leaves) == 2 ** depth
    for u, v, a in G.edges(data=True):
        assert a["label"] in (0, 1)


@SETTINGS
@given(matrices())
def test_to_networkx_size_random(rows):
    C = ConceptClass.from_matrix(rows)
    r = opt(C)
    G = r.tree.to_networkx()
    assert G.number_of_nodes() == 2 ** (r.value + 1) - 1
    assert nx.is_arborescence(G)
    # internal nodes carry the point index that the JSON tree names
    pts = sorted(a["point"] for _, a in G.nodes(data=True) if a["point"] >= 0)

    def collect(node):
        return [] if node is None else [node["point"]] + collect(node["0"]) + collect(node["1"])

    assert pts == sorted(collect(r.tree.root))


def test_to_dot():
    r = opt(make("thresholds", N=7))
    dot = r.tree.to_dot()
    assert isinstance(dot, str)
    assert dot.lstrip().startswith("digraph")
    assert dot.rstrip().endswith("}")
    assert dot.count("->") == 2 ** (r.value + 1) - 2


def test_write_and_reload(tmp_path):
    C = make("thresholds", N=15)
    r = opt(C)
    assert r.value == 4
    p = tmp_path / "t.json"
    r.tree.write(p)
    data = load_tree(p)
    assert data == r.tree.to_json()
    assert verify_tree(data, C) == 4
    q = tmp_path / "t.dot"
    r.tree.write(q)
    assert q.read_text().lstrip().startswith("digraph")
    g = tmp_path / "t.graphml"
    r.tree.write(g)
    H = nx.read_graphml(g)
    assert H.number_of_nodes() == 2 ** 5 - 1
    assert H.number_of_edges() == 2 ** 5 - 2
    gv = tmp_path / "t.gv"
    r.tree.write(gv)
    assert gv.read_text().startswith("digraph")


def test_save_dumps_consistent(tmp_path):
    r = opt(CUBE3)
    p = tmp_path / "s.json"
    r.tree.save(p)
    assert json.loads(p.read_text()) == r.tree.to_json() == json.loads(r.tree.dumps())


def test_write_unknown_extension(tmp_path):
    r = opt(CUBE3)
    with pytest.raises(ValueError):
        r.tree.write(tmp_path / "t.png")


def test_load_tree_errors(tmp_path):
    with pytest.raises(TreeError):
        load_tree(tmp_path / "missing.json")
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(TreeError) as ei:
        load_tree(p)
    assert "\n" not in str(ei.value)
    with pytest.raises(TreeError, match="is a directory"):
        load_tree(tmp_path)


# ---------------------------------------------------------------------------------------- deep files
def deep_tree_text(levels: int) -> str:
    """A tree JSON nested ``levels + 1`` levels deep (always point 0, the 0-branch goes down), built
    as text: ``json.dumps`` itself would hit the recursion limit."""
    return (f'{{"depth": {levels}, "root": ' + '{"point": 0, "0": ' * levels + "null"
            + ', "1": null}' * levels + "}")


def deep_tree(levels: int) -> dict:
    """The same tree as nested dicts, built without recursion."""
    root = None
    for _ in range(levels):
        root = {"point": 0, "0": root, "1": None}
    return root


@pytest.mark.parametrize("levels", [5000, 100000])
def test_load_tree_refuses_a_file_nested_too_deep(tmp_path, levels):
    p = tmp_path / "deep.json"
    p.write_text(deep_tree_text(levels))
    with pytest.raises(TreeError) as ei:
        load_tree(p)
    text = str(ei.value)
    assert "\n" not in text and len(text) < 400
    assert f"nested {levels + 1} levels deep" in text and "at most" in text
    p.write_text('{"depth": 0, "root": null, "note": "' + "[" * levels + '\\" {{{"}')  # brackets in a string
    assert load_tree(p)["note"] == "[" * levels + '" {{{'


@pytest.mark.parametrize("levels", [150, 3000])
def test_deep_tree_is_too_deep_for_the_class(levels):
    """A tree deeper than log2 |C| is refused up front, in a short message (not a path of 3000 labels)."""
    C = make("thresholds", N=7)
    with pytest.raises(TreeError) as ei:
        verify_tree({"depth": levels, "root": deep_tree(levels)}, C)
    assert "floor(log2 8) = 3" in str(ei.value) and len(str(ei.value)) < 200


def test_deep_tree_claiming_a_small_depth():
    C = make("thresholds", N=7)
    with pytest.raises(TreeError) as ei:
        verify_tree({"depth": 3, "root": deep_tree(3000)}, C)
    assert len(str(ei.value)) < 300


def test_long_paths_are_shortened_in_messages():
    from solvers.certificates.opt import _fmt

    text = _fmt(tuple((j, 0) for j in range(1000)))
    assert len(text) < 200 and "1000 labels" in text and text.startswith("x0=0") and text.endswith("x999=0")
    assert _fmt(((3, 1), (1, 0))) == "x3=1 x1=0"


def test_a_hand_built_deep_tree_exports_without_recursion(tmp_path):
    """Export walks the tree iteratively: any depth converts (reading it back is refused, in one line)."""
    levels = 3000
    t = MistakeTree(levels, deep_tree(levels))
    assert t.dumps() == '{"format":"littlestone-proof/2","rule":"mistake-tree",' + deep_tree_text(levels).replace(" ", "")[1:]
    G = t.to_networkx()
    assert G.number_of_nodes() == 2 * levels + 1 and G.number_of_edges() == 2 * levels
    assert nx.is_arborescence(G)
    assert t.to_dot().count("->") == 2 * levels
    for ext in (".json", ".dot", ".graphml"):
        t.write(tmp_path / f"t{ext}")
    with pytest.raises(TreeError, match="levels deep"):
        load_tree(tmp_path / "t.json")


def test_iterative_export_matches_the_recursive_one():
    r = opt(CUBE3)
    from solvers.certificates.opt import _dumps_node

    assert _dumps_node(r.tree.root) == json.dumps(r.tree.root, separators=(",", ":"))
    G = r.tree.to_networkx()
    assert [a["point"] for _, a in sorted(G.nodes(data=True))][:2] == [r.tree.root["point"], r.tree.root["0"]["point"]]


# ---------------------------------------------------------------------------------------- bound to the class
def test_every_checker_refuses_a_certificate_made_for_another_class():
    """(issue 18) The certificates opt writes record their class's fingerprint ("made_for"); each checker refuses
    them on another class, here one concept larger, where the lower bounds would hold as well."""
    import numpy as np

    from solvers.certificates import ClassMismatch, verify_tree, verify_upper
    from solvers.classes import ConceptClass
    from solvers.classes.families import make
    from solvers.certificates.games import verify_error_tree, verify_game_upper, verify_randomized_tree
    from solvers.opt import opt

    A = make("thresholds", N=7)
    B = ConceptClass.from_matrix(np.vstack([A.matrix, [[1, 0, 1, 0, 1, 0, 1]]]), A.points)
    cases = [(opt(A).tree.to_json(), verify_tree), (opt(A).upper_certificate(), verify_upper)]
    for game in ({"errors": 1}, {"game": "randomized"}):
        r = opt(A, **game)
        tree_check = verify_randomized_tree if "game" in game else (lambda t, C: verify_error_tree(t, C, 1))
        cases += [(r.tree.to_json(), tree_check), (r.upper_certificate(), verify_game_upper)]
    for cert, check in cases:
        assert cert["made_for"]["fingerprint"] == A.fingerprint()
        check(cert, A)
        with pytest.raises(ClassMismatch, match=r"^this (tree|certificate) was made for thresholds N=7 \(8 concepts, "
                                                r"7 points\), not the matrix class \(9 concepts x 7 points\)$"):
            check(cert, B)


@pytest.mark.parametrize("key, value, words", [
    ("class", "foo", 'names the class "foo"'),
    ("concepts", 99, "records 99 concepts"),
    ("points", 3, "records 3 points"),
    ("fingerprint", "00", "fingerprint 00"),
    ("family_fingerprint", "00", "family fingerprint 00"),
    ("zzz", 1, '"zzz"'),
    ("concepts", "8", "whole number"),
])
def test_every_field_of_made_for_is_checked(key, value, words):
    """(issue 39) A family class's certificate matched by its family fingerprint passed whatever its other fields
    said: each field of "made_for" is derived again from the class, and an unknown one is refused."""
    from solvers.certificates import check_made_for, verify_tree, verify_upper

    A = make("thresholds", N=7)
    r = opt(A)
    for cert, check in ((r.tree.to_json(), verify_tree), (r.upper_certificate(), verify_upper)):
        assert check_made_for(cert, A) is True
        bad = copy.deepcopy(cert)
        bad["made_for"][key] = value
        with pytest.raises(TreeError, match=words):
            check(bad, A)
    bad = r.upper_certificate()
    bad["concepts"] = 99  # the solver's certificates record |C| beside "made_for" too
    with pytest.raises(TreeError, match="99 concepts"):
        verify_upper(bad, A)


def test_made_for_accepts_every_honest_description_of_the_class(tmp_path):
    """The words of a class read from a file (its path when the certificate was made), a family's class listed in a
    file (no family fingerprint of its own), another form of the family (evaluated, implicit): all still match."""
    from solvers.certificates import check_made_for, made_for
    from solvers.classes.evaluated import EvaluatedClass
    from solvers.classes.implicit import ImplicitFamily

    A = make("thresholds", N=7)
    plain = ConceptClass.from_matrix(A.matrix, A.points)  # the same concepts, no family
    for words in ("matrix elsewhere/c.json", None):
        cert = {"made_for": made_for(plain, words), "depth": 0, "root": None}
        assert check_made_for(cert, plain) and check_made_for(cert, A)
    cert = {"made_for": made_for(A), "depth": 0, "root": None}
    assert check_made_for(cert, plain) and check_made_for(cert, A, "thresholds N=7")
    assert check_made_for(cert, EvaluatedClass("thresholds", {"N": 7}))
    assert check_made_for({"made_for": made_for(EvaluatedClass("thresholds", {"N": 7}))}, A)
    D = ImplicitFamily.from_spec({"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}})
    listed = make("monotone-disjunctions", n=4, k=2)
    assert check_made_for({"made_for": made_for(D)}, listed) and check_made_for({"made_for": made_for(listed)}, D)
    assert check_made_for({"made_for": made_for(D, "monotone-disjunctions n=4 k=2")}, D)


def test_the_fingerprint_is_of_the_concepts_as_a_set():
    import numpy as np

    from solvers.classes import ConceptClass

    A = ConceptClass.from_matrix([[0, 1], [1, 1], [0, 0]])
    assert A.fingerprint() == ConceptClass.from_matrix([[1, 1], [0, 0], [0, 1], [0, 0]]).fingerprint()
    assert A.listing_key() != ConceptClass.from_matrix([[1, 1], [0, 0], [0, 1]]).listing_key()
    assert A.fingerprint() != ConceptClass.from_matrix([[0, 1], [1, 1], [0, 0]], points=[5, 6]).fingerprint()
    assert A.fingerprint() != ConceptClass.from_matrix(np.array([[0, 1], [1, 1]])).fingerprint()


# ---------------------------------------------------------------------------------------- trees by levels
def _brute_shattered(M, pts) -> bool:
    return len({tuple(row[j] for j in pts) for row in M}) == 2 ** len(pts)


@settings(max_examples=80, deadline=None, database=None)
@given(matrices(max_rows=24, max_cols=6), st.data())
def test_a_tree_by_levels_checks_exactly_when_its_points_are_shattered(m, data):
    """{"depth": d, "levels": [...]} is the complete tree asking the levels' points in order: it verifies
    exactly when the class shatters them (brute force), and then proves what its expanded form proves."""
    C = ConceptClass.from_matrix(m)
    M = C.matrix.astype(int).tolist()
    pts = data.draw(st.lists(st.integers(0, C.n_points - 1), unique=True, max_size=min(4, C.n_points)))
    tree = MistakeTree.shattered(pts, C)
    if _brute_shattered(M, pts):
        assert verify_tree(tree.to_json(), C) == len(pts)
        expanded = {"depth": len(pts), "root": json.loads(json.dumps(tree.root))}
        assert verify_tree(expanded, C) == len(pts)
    else:
        with pytest.raises(TreeError, match="not shattered|no mistake tree deeper"):
            verify_tree(tree.to_json(), C)


def test_tampered_trees_by_levels_fail():
    C = make("all-functions", n=4)
    good = MistakeTree.shattered([0, 1, 2, 3], C).to_json()
    assert verify_tree(good, C) == 4
    assert MistakeTree.from_json(good, C).levels == [0, 1, 2, 3]
    for bad, message in (({**good, "levels": [0, 1, 2, 2]}, "repeats"), ({**good, "depth": 3}, "must list"),
                         ({**good, "levels": [0, 1, 2, 9]}, "must list"), ({**good, "depth": True}, "whole number")):
        with pytest.raises(TreeError, match=message):
            verify_tree(bad, C)
    with pytest.raises(TreeError, match="not shattered"):
        verify_tree(MistakeTree.shattered([0, 1], make("thresholds", N=5)).to_json(), make("thresholds", N=5))
