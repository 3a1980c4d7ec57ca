"""The proof format (solvers.certificates.rules): one verify, named rules, versions.

For every rule: a certificate a solver writes verifies, the same certificate in version 1's dialect (no
"format", the rule told by "form" / "symmetry" / "game" / "kind", as littlestone wrote it before) verifies to
the same value through verify and through the old entry points, and a certificate tampered where the rule's
reduction is checked is refused, in both versions. Versions newer than this littlestone reads are refused in one
line naming them. And, on random classes and random tampering, version 1 and version 2 accept exactly the same
certificates (the format added no permissiveness).
"""

from __future__ import annotations

import copy
import functools
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates import FORMAT, RULES, MistakeTree, TreeError, rule_of, verify, verify_tree, verify_upper
from solvers.certificates.experts import verify_experts_tree, verify_experts_upper
from solvers.certificates.games import verify_error_tree, verify_game_upper, verify_randomized_tree
from solvers.certificates.rules import GAME_UPPER, OPT_UPPER, version_of
from solvers.certificates.states import verify_state_upper
from solvers.classes import ConceptClass
from solvers.classes.evaluated import EvaluatedClass
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import opt
from solvers.opt.experts import experts
from solvers.opt.games import GameSolver
from solvers.opt.packed import pack
from solvers.opt.packed_exact import ExactSearch
from solvers.opt.search import Solver

from ...oracles import matrices, opt_brute


def _json(x):
    return json.loads(json.dumps(x))


def _listed(name, **params) -> ConceptClass:
    return ConceptClass.from_matrix(make(name, **params).matrix)


def _tagged(n: int) -> ConceptClass:
    """The class of :func:`tests.oracles.tagged_rows`: n! renamings of its pairs of points."""
    from tests.oracles import tagged_rows

    return ConceptClass.from_matrix(tagged_rows(n))


def _packed(C):
    """The packed engine's certificate (entries with covers up to the cube's group, and leaves with their own)."""
    S = ExactSearch(pack(C.matrix), C.n_points, leaf=4, symmetry=True)
    d = 0
    while S.decide(d + 1, widths=(1, 3))[0]:
        d += 1
    return d, S.certificate(d)


# ------------------------------------------------------------------------------------ one certificate per rule
def _make(rule):
    """(C, the value, the certificate of that rule as its writer writes it)."""
    if rule in ("paths", "isomorphism"):
        C = _listed("decision-lists", n=3)
        S = Solver(C, isomorphism="always", iso_min=3, iso_after=0, symmetry=False) if rule == "isomorphism" else \
            Solver(C, symmetry=False, isomorphism=False)
        v = S.value()
        return C, v, S.upper_proof(v)
    if rule == "split":
        C = _listed("intervals", N=12)
        r = opt(C)
        return C, r.value, r.upper_certificate()
    if rule == "orbit":
        C = _listed("halfspaces", n=4)
        r = opt(C, solver=Solver(C, symmetry_after=0))
        return C, r.value, r.upper_certificate()
    if rule == "packed":
        C = make("decision-lists", n=3)
        d, cert = _packed(C)
        return C, d, cert
    if rule == "renaming":
        C = make("monotone-disjunctions", n=10, k=3)
        r = opt(C)
        return C, r.value, r.upper_certificate()
    if rule == "states":
        C = EvaluatedClass("intervals", {"N": 150})
        r = opt(C)
        return C, r.value, r.upper_certificate()
    if rule == "game-paths":
        C = _listed("intervals", N=6)
        r = opt(C, errors=1)
        return C, r.value, r.upper_certificate()
    if rule == "game-orbit":
        C = _tagged(4)
        S = GameSolver(C, Game(randomized=True, errors=1), symmetry_after=0)
        v = S.value()
        return C, v, S.upper_proof()
    if rule == "experts":
        e = experts(3, 1, randomized=True)
        return None, e.value, e.upper_certificate()
    if rule == "mistake-tree":
        C = _listed("intervals", N=12)
        r = opt(C)
        return C, r.value, r.tree.to_json()
    if rule == "error-tree":
        C = _listed("intervals", N=6)
        r = opt(C, errors=1)
        return C, r.value, r.tree.to_json()
    if rule == "randomized-tree":
        C = _listed("intervals", N=6)
        r = opt(C, game="randomized")
        return C, r.value, r.tree.to_json()
    if rule == "experts-tree":
        e = experts(3, 1, randomized=True)
        return None, e.value, e.lower_certificate()
    raise AssertionError(rule)


#: The rule a certificate of each test case follows (the entry rules live in a "paths" certificate).
CERTIFICATE_RULE = {"split": "paths", "isomorphism": "paths"}
CASES = [name for name in RULES]


@pytest.fixture(scope="module", params=CASES)
def case(request):
    C, v, cert = _make(request.param)
    return request.param, C, v, _json(cert)


def test_every_rule_has_a_case_and_a_checker():
    assert set(CASES) == set(RULES)
    for rule in RULES.values():
        module, _, name = rule.checker.partition(":")
        assert callable(getattr(__import__(f"solvers.certificates.{module}", fromlist=[name]), name))


def test_each_writer_writes_its_rule_and_it_verifies(case):
    name, C, v, cert = case
    want = CERTIFICATE_RULE.get(name, name)
    assert rule_of(cert).name == want
    if want != "experts-tree":  # every certificate is written in version 2, the trees too
        assert cert["format"] == FORMAT and cert["rule"] == want
    else:  # (the experts game's tree is written by solvers.opt.experts, in version 1 still)
        assert "format" not in cert
    if name in ("paths", "isomorphism"):  # the entry rule isomorphism is used exactly where it is meant
        assert any("isomorphic" in e for e in cert["entries"]) == (name == "isomorphism")
    assert verify(cert, C) == v


def _v1(cert: dict) -> dict:
    """The certificate as littlestone wrote it before the format had versions: no "format" or "rule", its dialect
    marked as it was ("form": "packed", "symmetry": "renaming")."""
    rule = cert.get("rule")
    out = {k: val for k, val in cert.items() if k not in ("format", "rule")}
    if rule == "packed":
        out = {**out, "form": "packed"}
    elif rule == "renaming":
        out = {**out, "symmetry": "renaming"}
    return out


#: The entry point each rule had before verify (a certificate of version 1 goes through it as it did).
OLD = {"paths": verify_upper, "orbit": verify_upper, "packed": verify_upper, "renaming": verify_upper,
       "states": verify_state_upper, "game-paths": verify_game_upper, "game-orbit": verify_game_upper,
       "experts": lambda c, C: verify_experts_upper(c), "mistake-tree": verify_tree,
       "error-tree": lambda t, C: verify_error_tree(t, C, t["game"]["errors"], t["game"].get("horizon")),
       "randomized-tree": verify_randomized_tree, "experts-tree": lambda c, C: verify_experts_tree(c)}


def test_a_version_1_certificate_from_the_old_writer_still_verifies(case):
    name, C, v, cert = case
    old = _v1(cert)
    assert version_of(old) == 1 and rule_of(old).name == CERTIFICATE_RULE.get(name, name)
    assert verify(old, C) == v
    rule = CERTIFICATE_RULE.get(name, name)
    assert OLD[rule](copy.deepcopy(old), C) == v
    assert OLD[rule](copy.deepcopy(cert), C) == v  # and the old entry points read version 2


# ------------------------------------------------------------------------------------ tampering, rule by rule
def _lower_root(cert, by=1):
    """The claim at the root lowered (the certificate's bound with it)."""
    from fractions import Fraction

    out = copy.deepcopy(cert)
    u = Fraction(out["bound"]) - by
    out["bound"] = int(u) if u.denominator == 1 else f"{u.numerator}/{u.denominator}"
    for e in out["entries"]:
        if e.get("path") == [] or e.get("segments") == [150]:
            e["bound"] = out["bound"]
    return out


def _first(entries, test):
    return next(i for i, e in enumerate(entries) if test(e))


def _tamper(name, cert, C):
    """The certificate changed where the rule ``name`` does its work (each change leaves it well formed)."""
    bad = copy.deepcopy(cert)
    if name == "paths":  # a claim below the value, everything else as written
        return _lower_root(cert)
    if name == "split":  # an entry another one's split rests on claims one more: that split is not refuted
        i = _first(bad["entries"], lambda e: e["path"] and e["bound"] >= 1)
        bad["entries"][i]["bound"] += 1
        return bad
    if name == "isomorphism":  # one point of an isomorphism mapped with the complement flag flipped
        i = _first(bad["entries"], lambda e: "isomorphic" in e)
        bad["entries"][i]["isomorphic"]["points"][0][2] ^= True
        return bad
    if name in ("orbit", "game-orbit"):  # a generator that is no symmetry of the class: two points swapped
        swap = list(range(C.n_points))
        swap[0], swap[1] = 1, 0
        bad["symmetry"]["generators"] = [{"permutation": swap, "complement": False}]
        return bad
    if name == "packed":  # a cover that names another entry's version space
        i = _first(bad["entries"], lambda e: e.get("covers"))
        j = _first(bad["entries"], lambda e: e is not bad["entries"][i] and e["bound"] < bad["entries"][i]["bound"]
                   and bad["entries"].index(e) != bad["entries"][i]["covers"][0][2])
        bad["entries"][i]["covers"][0][2] = j
        return bad
    if name == "renaming":  # a child's renaming of the variables changed: two variables swapped
        pi = next(e for e in bad["entries"] if e["children"])["children"][0]["renaming"]
        pi[0], pi[-1] = pi[-1], pi[0]
        return bad
    if name in ("states", "game-paths", "experts"):  # a claim below the value
        return _lower_root(cert)
    if name == "mistake-tree":  # a node asks a point already labelled on its path: that path is not realised
        bad["root"]["0"]["point"] = bad["root"]["point"]
        return bad
    if name == "error-tree":
        bad["depth"] += 1
        return bad
    if name in ("randomized-tree", "experts-tree"):  # a claimed value above the tree's
        from fractions import Fraction

        v = Fraction(bad["value"]) + Fraction(1, 4)
        bad["value"] = f"{v.numerator}/{v.denominator}"
        return bad
    raise AssertionError(name)


def test_each_rules_checker_refuses_a_certificate_tampered_where_it_checks(case):
    name, C, v, cert = case
    bad = _tamper(name, cert, C)
    assert bad != cert
    with pytest.raises(TreeError):
        verify(bad, C)
    with pytest.raises(TreeError):  # and in version 1, through the old entry point
        OLD[CERTIFICATE_RULE.get(name, name)](_v1(bad), C)


# ------------------------------------------------------------------------------------ the shared parts
#: The rules whose entries name version spaces or states by labelled paths, and a step of each that is malformed.
PATH_RULES = {"paths": [0, True], "orbit": [0, 2], "packed": [99, 0], "game-paths": [-1, 0], "game-orbit": [0],
              "experts": [[1, 2], True]}


@pytest.mark.parametrize("name", list(PATH_RULES))
def test_every_rule_over_paths_walks_its_entries_alike(name):
    """One walker (solvers.certificates._reading.path_entries) reads the entries of every rule over paths: the same
    malformed entry is refused, in both versions, with the same words whichever rule reads it."""
    C, v, cert = _make(name)
    cert = _json(cert)
    form = "[[a_0, ..., a_k], 0 or 1]" if name == "experts" else "[point index, 0 or 1]"
    bad_step = PATH_RULES[name]
    for entries, says in (({}, '^"entries" must be a list of'),
                          ([7], "^entry 0 is not {"),
                          ([{"path": "x", "bound": 1}], "^entry 0 is not {"),
                          ([{"path": [], "bound": -1}], "^entry 0 (claims|'s bound)"),
                          ([{"path": [bad_step], "bound": 1}], rf"^entry 0 has the path step .*; give {re.escape(form)}$")):
        bad = {**cert, "entries": entries if not isinstance(entries, list) else entries + cert["entries"]}
        for c in (bad, _v1(bad)):
            with pytest.raises(TreeError, match=says):
                verify(c, C)


def test_the_trees_are_read_alike():
    """One reader of a tree (solvers.certificates._reading.read_tree) for the rules mistake-tree and error-tree, and
    for the trees over points of an implicit class."""
    C = _listed("intervals", N=6)
    for tree in ({"depth": 1}, {"depth": -1, "root": None}, {"depth": 9, "root": None}, [1]):
        for check in (verify_tree, lambda t, C: verify_error_tree(t, C, 1)):
            with pytest.raises(TreeError, match=r"^(a tree is a JSON object \{\"depth\": d, \"root\": node\}|depth -1 "
                                                r"is not a whole number|the tree claims depth 9)"):
                check(tree, C)


# ------------------------------------------------------------------------------------ versions and rules
@pytest.fixture(scope="module")
def plain():
    C = _listed("intervals", N=12)
    return C, opt(C).upper_certificate()


def test_a_newer_version_is_refused_in_one_line_naming_it(plain):
    C, cert = plain
    with pytest.raises(TreeError, match=r"^certificate format 3 \("
                                        r"\"littlestone-proof/3\"\) is newer than this littlestone reads \(2\); upgrade"):
        verify({**cert, "format": "littlestone-proof/3"}, C)
    for f in ("littlestone-proof/two", "littlestone-proof/02", "other/2", 2, None, ""):
        with pytest.raises(TreeError, match='"format" .* is not a littlestone proof format'):
            verify({**cert, "format": f}, C)


@pytest.mark.parametrize("name", ["mistake-tree", "error-tree", "randomized-tree"])
def test_a_tree_of_a_newer_version_is_refused_in_one_line_and_an_old_one_read(name):
    C, v, tree = _make(name)
    tree = _json(tree)
    assert (tree["format"], tree["rule"]) == (FORMAT, name)
    newer = {**tree, "format": "littlestone-proof/3"}
    for check in (verify, OLD[name]):  # through verify and through the tree's own entry point
        with pytest.raises(TreeError, match=r'^certificate format 3 \("littlestone-proof/3"\) is newer than this '
                                            r"littlestone reads \(2\); upgrade littlestone$"):
            check(newer, C)
        assert check(_v1(tree), C) == v  # a tree written before the format: no "format", read as it was
    with pytest.raises(TreeError, match='"rule" .* is not a rule of littlestone-proof/2'):
        verify({**tree, "rule": "bogus"}, C)


def test_a_tree_by_levels_names_its_format():
    C = _listed("all-functions", n=3)
    tree = _json(MistakeTree.shattered([2, 0, 1], C).to_json())
    assert "levels" in tree and (tree["format"], tree["rule"]) == (FORMAT, "mistake-tree")
    assert verify(tree, C) == verify_tree(_v1(tree), C) == 3
    with pytest.raises(TreeError, match="newer than this littlestone reads"):
        verify_tree({**tree, "format": "littlestone-proof/9"}, C)


def test_an_unknown_rule_or_a_rule_of_another_kind_is_refused(plain):
    C, cert = plain
    for rule in ("bogus", None, 3, "split", "isomorphism"):  # (the entry rules are not a certificate's)
        with pytest.raises(TreeError, match='"rule" .* is not a rule of littlestone-proof/2'):
            verify({**cert, "rule": rule}, C)
    with pytest.raises(TreeError, match='checks certificates of kind "upper-bound-states"'):
        verify({**cert, "rule": "states"}, C)
    no_rule = {k: v for k, v in cert.items() if k != "rule"}
    with pytest.raises(TreeError, match='"rule"'):
        verify(no_rule, C)


def test_version_2_names_its_rule_only_in_rule(plain):
    C, cert = plain
    with pytest.raises(TreeError, match='names its rule in "rule", not "form"'):
        verify({**cert, "form": "packed"}, C)
    with pytest.raises(TreeError, match='not "symmetry"'):
        verify({**cert, "symmetry": "renaming"}, C)


def test_a_rule_must_match_its_group():
    C, v, cert = _make("orbit")
    cert = _json(cert)
    assert verify(cert, C) == v
    with pytest.raises(TreeError, match='gives none'):
        verify({k: x for k, x in cert.items() if k != "symmetry"}, C)
    with pytest.raises(TreeError, match='follows the rule "orbit", not "paths"'):
        verify({**cert, "rule": "paths"}, C)


def test_the_old_entry_points_check_only_their_own_rules():
    C, v, cert = _make("game-paths")
    cert = _json(cert)
    with pytest.raises(TreeError, match='does not bound Opt'):
        verify_upper(cert, C)
    C2, v2, opt_cert = _make("orbit")
    assert verify_game_upper(_json(opt_cert), C2) == v2  # an Opt(C) bound is the deterministic game's
    with pytest.raises(TreeError, match="bounds Opt"):  # but not the randomized game's
        verify_game_upper({**_json(opt_cert), "game": {"game": "randomized", "errors": 0}}, C2)
    assert GAME_UPPER > OPT_UPPER


def test_a_horizon_bound_on_an_opt_certificate():
    C = make("halfspaces", n=4)
    r = opt(C, horizon=6)
    cert = _json(r.upper_certificate())
    assert (cert["format"], cert["rule"]) == (FORMAT, "game-paths")  # written in the format, as the others
    assert verify(cert, C) == 6 == verify_game_upper(cert, C)
    assert verify(_v1(cert), C) == 6  # as littlestone wrote it before (no format): read as the rule game-paths
    # an Opt(C) certificate below the horizon proves its own bound only
    C2 = _listed("intervals", N=12)
    base = _json(opt(C2).upper_certificate())
    cert = {**base, "game": {"game": "deterministic", "errors": 0, "horizon": 9}}
    assert verify(cert, C2) == base["bound"]
    with pytest.raises(TreeError):
        verify(_lower_root(cert), C2)


# ------------------------------------------------------------------------------------ no new permissiveness
SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(check, cert, C):
    try:
        return check(cert, C)
    except TreeError:
        return "refused"


@SETTINGS
@given(matrices(max_rows=12, max_cols=6, min_rows=2), st.data())
def test_versions_1_and_2_accept_the_same_certificates(m, data):
    """A certificate the search writes, tampered at random (a claim changed, an entry dropped, a path step
    changed), is accepted by version 2 exactly when its version-1 form is, and never below the true value."""
    C = ConceptClass.from_matrix(m)
    S = Solver(C, symmetry=data.draw(st.booleans()))
    v = S.value()
    cert = _json(S.upper_proof(v))
    entries = cert["entries"]
    for _ in range(data.draw(st.integers(0, 3))):
        what = data.draw(st.sampled_from(["bound", "drop", "step", "root"]))
        if what == "root":
            cert["bound"] = data.draw(st.integers(0, v + 1))
        elif entries and what == "bound":
            entries[data.draw(st.integers(0, len(entries) - 1))]["bound"] = data.draw(st.integers(0, v + 1))
        elif entries and what == "drop":
            entries.pop(data.draw(st.integers(0, len(entries) - 1)))
        elif entries and what == "step":
            e = entries[data.draw(st.integers(0, len(entries) - 1))]
            if e["path"]:
                e["path"][data.draw(st.integers(0, len(e["path"]) - 1))] = [
                    data.draw(st.integers(0, C.n_points - 1)), data.draw(st.integers(0, 1))]
    two, one = _outcome(verify, cert, C), _outcome(verify, _v1(cert), C)
    assert two == one == _outcome(verify_upper, _v1(cert), C)
    if two != "refused":
        assert two >= opt_brute(m)


GAMES = st.builds(lambda rand, k, T: Game(randomized=rand, errors=k if (rand or k) else 1, horizon=T),
                  st.booleans(), st.integers(0, 2), st.one_of(st.none(), st.integers(1, 3)))


@SETTINGS
@given(matrices(max_rows=6, max_cols=4, min_rows=2), GAMES, st.data())
def test_versions_1_and_2_accept_the_same_game_certificates(m, G, data):
    """The same for the games' certificates (claims lowered, entries dropped, the bound lowered), through verify
    and verify_game_upper, and never below the brute force's value."""
    from fractions import Fraction

    from ...oracles import game_value_brute

    C = ConceptClass.from_matrix(m)
    S = GameSolver(C, G)
    S.value()
    cert = _json(S.upper_proof())
    step = Fraction(1, 8) if G.randomized else 1
    for e in cert["entries"]:
        if data.draw(st.booleans()):
            e["bound"] = str(Fraction(e["bound"]) - step * data.draw(st.integers(0, 2)))
    if cert["entries"] and data.draw(st.booleans()):
        cert["entries"].pop(data.draw(st.integers(0, len(cert["entries"]) - 1)))
    if data.draw(st.booleans()):
        cert["bound"] = str(Fraction(cert["bound"]) - step)
    two, one = _outcome(verify, cert, C), _outcome(verify, _v1(cert), C)
    assert two == one == _outcome(verify_game_upper, _v1(cert), C) == _outcome(verify_game_upper, cert, C)
    if two != "refused":
        assert two >= game_value_brute(m, randomized=G.randomized, errors=G.errors, horizon=G.horizon)


@functools.lru_cache(maxsize=None)
def _packed_of(name: str, leaf: int):
    C = make(name, n=3 if name == "decision-lists" else 4)
    S = ExactSearch(pack(C.matrix), C.n_points, leaf=leaf, symmetry=True)
    d = 0
    while S.decide(d + 1, widths=(1, 3))[0]:
        d += 1
    return C, d, json.dumps(S.certificate(d))


@SETTINGS
@given(st.sampled_from([("decision-lists", 4), ("halfspaces", 40), ("halfspaces", 8)]), st.data())
def test_versions_1_and_2_accept_the_same_packed_certificates(which, data):
    """The same for the packed engine's certificates, on classes whose refutations go below the Halving bound (their
    entries with covers up to the cube's group, and leaves with certificates of their own): claims changed, covers
    dropped or pointed at another entry, the bound lowered."""
    C, d, text = _packed_of(*which)
    cert = json.loads(text)
    entries = cert["entries"]
    assert len(entries) > 1
    for _ in range(data.draw(st.integers(0, 3))):
        e = entries[data.draw(st.integers(0, len(entries) - 1))]
        what = data.draw(st.sampled_from(["bound", "cover", "target"]))
        if what == "bound":
            e["bound"] = data.draw(st.integers(0, d + 1))
        elif e.get("covers") and what == "cover":
            e["covers"].pop(data.draw(st.integers(0, len(e["covers"]) - 1)))
        elif e.get("covers"):
            e["covers"][0][2] = data.draw(st.integers(0, len(entries) - 1))
    if data.draw(st.booleans()):
        cert["bound"] = d - 1
    two, one = _outcome(verify, cert, C), _outcome(verify, _v1(cert), C)
    assert two == one == _outcome(verify_upper, _v1(cert), C)
    if two != "refused":
        assert two >= d
