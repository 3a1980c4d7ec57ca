"""The proofs' own counters: mistakes by kind (false negatives u, false positives v) as the referee replays them,
against a plain loop; the learners' lemmas (Winnow's u and v bounds, ELIM's single kind) held against them;
``maximize`` pointing the exact search at one kind, against a brute force over every sequence; and witnesses
whose counts were tampered with, refused by verify."""

import copy
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.attack import attack, lemmas_for
from adversary.referee import make_witness, verify_witness
from solvers.classes.families import make
from solvers.learners import make_learner

LEARNERS = ["winnow1", "winnow2", "winnow-r", "elim", "halving"]


def plain_kinds(name, C, seq):
    """u and v by a fresh learner predicting and learning, one example at a time."""
    L = make_learner(name, {}, C)
    u = v = 0
    for x, y in seq:
        p = L.predict_one(x)
        u += p == 0 and y == 1
        v += p == 1 and y == 0
        L.learn_one(x, y)
    return {"false_negative": u, "false_positive": v}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(LEARNERS), st.integers(2, 4), st.data())
def test_mistakes_by_kind_match_a_plain_loop(name, n, data):
    C = make("monotone-disjunctions", n=n, k=min(2, n))
    target = data.draw(st.integers(0, C.n_concepts - 1))
    idx = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=12))
    seq = [(C.points[j], int(C.matrix[target, j])) for j in idx]
    w = make_witness(name, {}, C, seq, target)
    assert w["mistakes_by_kind"] == plain_kinds(name, C, seq)
    assert verify_witness(w).ok


def brute_max(name, C, kind, depth):
    """The most mistakes of ``kind`` over every realizable sequence of at most ``depth`` examples, no memo."""
    def go(L, V, d):
        if d == 0:
            return 0
        best = 0
        for j, x in enumerate(C.points):
            p = L.predict_one(x)
            for y in (0, 1):
                V2 = [c for c in V if C.matrix[c, j] == y]
                if not V2 or p == y:  # a correct prediction changes nothing a conservative learner keeps
                    continue
                L2 = copy.deepcopy(L)
                L2.learn_one(x, y)
                gain = (y == 1) if kind == "false_negative" else (y == 0)
                best = max(best, gain + go(L2, V2, d - 1))
        return best
    return go(make_learner(name, {}, C), list(range(C.n_concepts)), depth)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["winnow1", "winnow2", "elim"]), st.integers(2, 3), st.integers(1, 2),
       st.sampled_from(["false_negative", "false_positive"]))
def test_maximize_one_kind_matches_brute_force(name, n, k, kind):
    C = make("monotone-disjunctions", n=n, k=min(k, n))
    r = attack(name, C, strategy="exact", maximize=kind)
    assert r.stats["maximize_exact"] and r.maximize == kind
    found = r.mistakes_by_kind[kind]
    # conservative learners: every move that counts is a mistake, and the bound caps the depth
    depth = math.floor(make_learner(name, {}, C).bound_on(C).value) + 1
    assert found == brute_max(name, C, kind, depth)
    assert r.mistakes_by_kind[kind] <= attack(name, C, strategy="exact").mistakes  # one kind is at most all


def test_lemmas_of_winnow2_and_elim():
    C = make("monotone-disjunctions", n=4, k=2)
    L = make_learner("winnow2", {}, C)
    lemmas = lemmas_for(L, C, {"false_negative": 6, "false_positive": 15})
    assert [(x["bound"], x["verdict"]) for x in lemmas] == [(6, "tight"), (14, "violated")]  # u <= 2(1 + 2), v <= 2 + 2u
    elim = lemmas_for(make_learner("elim", {}, C), C, {"false_negative": 0, "false_positive": 3})
    assert [(x["bound"], x["verdict"]) for x in elim] == [(0, "tight"), (5, "below")]
    assert lemmas_for(make_learner("halving", {}, C), C, {"false_negative": 0, "false_positive": 3}) == []
    assert lemmas_for(L, make("thresholds", N=3), {"false_negative": 0, "false_positive": 0}) == []  # not an OR


def test_the_seeds_lemmas_hold_on_every_attack():
    """Each kind within its lemma on the exact worst cases (the notes' proofs are right)."""
    for name in ("winnow1", "winnow2", "winnow-r", "elim"):
        for n, k in ((3, 1), (4, 2)):
            r = attack(name, make("monotone-disjunctions", n=n, k=k), strategy="exact")
            assert r.lemmas and all(L["verdict"] != "violated" for L in r.lemmas), (name, n, k, r.lemmas)


def test_tampered_counts_are_refused():
    C = make("monotone-disjunctions", n=3, k=1)
    r = attack("winnow2", C, strategy="exact")
    w = copy.deepcopy(r.witness)
    u, v = w["mistakes_by_kind"]["false_negative"], w["mistakes_by_kind"]["false_positive"]
    w["mistakes_by_kind"] = {"false_negative": v, "false_positive": u}
    res = verify_witness(w)
    assert u != v and not res.ok and "replay gives" in res.message
    w["mistakes_by_kind"] = {"false_negative": -1, "false_positive": 0}
    assert not verify_witness(w).ok
    w["mistakes_by_kind"] = [1, 2]
    assert "malformed" in verify_witness(w).message


def test_loose_only_for_a_lemma_on_its_kind_alone_and_bounds_exact():
    from fractions import Fraction

    from solvers.learners.base import Lemma, cite

    src = cite("15-859B", 'section "Winnow algorithm"')
    alone, linked = Lemma("false_negative", 6, 0, "u <= 6", src), Lemma("false_positive", 2, 2, "v <= 2 + 2u", src)
    counts = {"false_negative": 3, "false_positive": 1}
    assert alone.verdict(counts, proven=True) == "loose" and linked.verdict(counts, proven=True) == "below"
    # a rational coefficient stays exact: 233 against (1 + 1/12) 204 + 13 = 234 is below, not tight
    eps = Fraction(1, 12)
    L = Lemma("false_positive", (1 + eps) / eps, 1 + eps, "M_neg <= ...", src)
    assert L.value({"false_negative": 204, "false_positive": 233}) == 234
    assert L.verdict({"false_negative": 204, "false_positive": 233}) == "below"
