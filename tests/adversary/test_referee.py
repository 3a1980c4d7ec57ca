"""The referee (adversary/referee.py): witnesses that hold verify; every kind of tampering is caught with
a one-line message that says what is wrong.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

import copy
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from adversary.referee import (
    WitnessError,
    check_realizable,
    witness_class,
    make_witness,
    parse_sequence,
    replay,
    verify_witness,
)
from solvers.classes import ConceptClass
from solvers.classes.families import make

MATRIX = {"matrix": [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 1]]}  # last row repeats row 1
MD = {"family": "monotone-disjunctions", "params": {"n": 4, "k": 2}}
MARGIN = {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.1, "R": 1}}
W_STAR = [0.6, 0.8]


def ok(result):
    assert result.ok, result.message
    return result


def failed(w, *needles, exact=False):
    """verify_witness(w) fails with a one-line message containing every needle."""
    r = verify_witness(w, exact=exact)
    assert not r.ok, r.message
    assert "\n" not in r.message and r.message.strip() == r.message
    for needle in needles:
        assert needle in r.message, (needle, r.message)
    return r.message


def perceptron_mistakes(sequence):
    """[Mehta]'s Perceptron written out again (w_0 = 0, predict 1 iff <w, x> >= 0, add y x on a mistake)."""
    w = [Fraction(0)] * 2
    mistakes = 0
    for ex in sequence:
        x = [Fraction(v) for v in ex["x"]]
        s = 1 if ex["y"] else -1
        pred = 1 if sum(a * b for a, b in zip(w, x)) >= 0 else -1
        if pred != s:
            mistakes += 1
            w = [a + s * b for a, b in zip(w, x)]
    return mistakes


# ------------------------------------------------------------------------------------------ witnesses that hold
@pytest.fixture
def halving_witness():
    # Concepts (after merging the duplicate row): 000, 001, 011, 111. Target 2 = 011.
    seq = [{"x": [1], "y": 1}, {"x": [0], "y": 0}, {"x": [2], "y": 1}]
    return make_witness("halving", {}, MATRIX, seq, target=2)


@pytest.fixture
def md_class():
    return make("monotone-disjunctions", n=4, k=2)


def or_index(C, variables):
    row = [int(any(p[i] for i in variables)) for p in C.points]
    matches = [c for c in range(len(C)) if C.matrix[c].astype(int).tolist() == row]
    assert len(matches) == 1
    return matches[0]


@pytest.fixture
def winnow_witness(md_class):
    target = or_index(md_class, [0, 2])
    points = [(1, 1, 1, 1), (0, 1, 0, 1), (1, 0, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0), (1, 1, 0, 1),
              (0, 0, 0, 1), (0, 1, 1, 1), (1, 0, 1, 0)]
    seq = [{"x": list(p), "y": int(p[0] or p[2])} for p in points]
    return make_witness("winnow2", {"n": 4}, MD, seq, target=target)


@pytest.fixture
def perceptron_seq():
    # Unit target w* = (0.6, 0.8); every point has |x| <= 1 and margin y<w*, x> >= 0.1.
    pts = [((0.0, -1.0), 0), ((1.0, 0.0), 1), ((-0.8, 0.6), None), ((0.8, -0.3), 1), ((-1.0, 0.0), 0),
           ((-0.5, 0.5), 1), ((0.6, -0.35), 1), ((-0.3, 0.3), None)]
    seq = []
    for x, y in pts:
        m = W_STAR[0] * x[0] + W_STAR[1] * x[1]
        if y is None:
            y = int(m > 0)
        seq.append({"x": list(x), "y": y})
    return seq


@pytest.fixture
def perceptron_witness(perceptron_seq):
    # drop the points inside the margin band (|<w*, x>| < 0.1): (-0.8, 0.6) has margin 0
    seq = [e for e in perceptron_seq if abs(W_STAR[0] * e["x"][0] + W_STAR[1] * e["x"][1]) >= 0.1]
    return make_witness("perceptron", {"d": 2}, MARGIN, seq, target={"w": W_STAR})


def test_halving_on_a_matrix_class(halving_witness):
    w = halving_witness
    assert w["kind"] == "witness" and w["learner"] == {"name": "halving", "params": {}}
    assert w["class"]["matrix"] == [[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]]  # duplicates merged
    # Halving: x=1: V = all 4, two say 1 -> 1, right; x=0: V={011,111}: tie -> 1, wrong; x=2: right.
    assert w["mistakes"] == 1 and w["target"] == 2
    r = ok(verify_witness(w))
    assert r.mistakes == 1
    assert r.message == ("halving makes 1 mistake on 3 examples of the matrix class (4 concepts x 3 points) "
                         "(target concept 2)")
    assert ok(verify_witness(json.dumps(w))).mistakes == 1  # the JSON text too


def test_winnow2_on_monotone_disjunctions(winnow_witness, md_class):
    w = winnow_witness
    assert w["class"] == MD
    assert w["learner"]["name"] == "winnow2" and w["learner"]["params"]["n"] == 4
    r = ok(verify_witness(json.loads(json.dumps(w))))
    assert r.mistakes == w["mistakes"] >= 1
    assert f"target concept {w['target']}" in r.message
    # the learner, replayed by hand, agrees
    from solvers.learners import make_learner

    L = make_learner("winnow2", {"n": 4})
    mistakes = 0
    for e in w["sequence"]:
        mistakes += L.predict_one(tuple(e["x"])) != e["y"]
        L.learn_one(tuple(e["x"]), e["y"])
    assert mistakes == w["mistakes"]


def test_perceptron_on_margin_halfspaces(perceptron_witness):
    w = perceptron_witness
    assert w["target"] == {"w": W_STAR} and w["class"] == MARGIN
    assert w["mistakes"] == perceptron_mistakes(w["sequence"]) >= 2
    assert w["mistakes"] <= 1 / 0.1**2  # [Mehta]: R^2 / gamma^2
    r = ok(verify_witness(json.loads(json.dumps(w))))
    assert r.message.startswith(f"perceptron makes {w['mistakes']} mistakes on {len(w['sequence'])} examples of "
                                f"margin-halfspaces d=2 gamma=0.1 R=1 (target w = (0.6, 0.8)")
    assert ok(verify_witness(w, exact=True)).mistakes == w["mistakes"]


def test_rational_strings_are_exact(perceptron_witness):
    w = copy.deepcopy(perceptron_witness)
    w["target"] = {"w": ["3/5", "4/5"]}
    w["class"]["params"]["gamma"] = "1/10"
    ok(verify_witness(w, exact=True))
    w["sequence"].append({"x": ["1/10", "-1/2"], "y": 0})  # <w, x> = 3/50 - 2/5 = -17/50: margin 0.34
    w["mistakes"] = perceptron_mistakes(w["sequence"])
    w.pop("mistakes_by_kind", None)  # (the sequence is edited by hand: its counts by kind with it)
    ok(verify_witness(w, exact=True))
    assert ok(verify_witness(w)).mistakes == w["mistakes"]


def test_target_may_be_omitted_for_a_finite_class(halving_witness):
    w = dict(halving_witness)
    del w["target"]
    ok(verify_witness(w))
    w["target"] = None
    ok(verify_witness(w))
    made = make_witness("halving", {}, MATRIX, w["sequence"])
    assert made["target"] == 2  # the lowest concept consistent with every example


def test_extra_keys_are_allowed(halving_witness):
    w = dict(halving_witness, bound={"value": 2, "formula": "floor(log2 |C|)"}, verdict="below", note="hi")
    ok(verify_witness(w))
    made = make_witness("halving", {}, MATRIX, w["sequence"], extra={"note": "x"})
    assert made["note"] == "x"
    with pytest.raises(WitnessError, match="replace"):
        make_witness("halving", {}, MATRIX, w["sequence"], extra={"mistakes": 0})


def test_check_claims_derives_bound_verdict_and_opt_again(halving_witness):
    """(issue 39) What a witness says of itself beyond its replay: the referee ignores it, check_claims (the CLI's
    verify) derives it again. Halving on 4 concepts: bound floor(log2 4) = 2, 1 mistake (below), Opt 2."""
    from adversary.claims import check_claims

    r = ok(verify_witness(halving_witness))
    assert check_claims(halving_witness, r).ok  # claims nothing beyond its replay
    bound = check_claims(dict(halving_witness, verdict="below"), r)
    assert bound.ok and any(line.startswith("verdict below: 1 mistake < the bound 2") for line in bound.lines), bound
    for extra, status, words in (({"verdict": "violates"}, "failed", "gives 'below'"),
                                 ({"bound": {"value": 2, "formula": "floor(log2 |C|)"}}, "failed", "bound source None"),
                                 ({"opt": 2}, "ok", ""), ({"opt": 1}, "failed", "Opt(C) = 1, and it is 2"),
                                 ({"note": "hi"}, "ok", ""), ({"note": 3}, "failed", '"note" must be a string'),
                                 ({"comment": "hi"}, "failed", 'the field "comment"')):
        w = dict(halving_witness, **extra)
        assert ok(verify_witness(w)).ok  # the referee ignores them
        c = check_claims(w, r)
        assert c.status == status and words in c.message, (extra, c)


def test_verify_is_deterministic_and_leaves_the_witness_alone(winnow_witness):
    before = json.dumps(winnow_witness, sort_keys=True)
    assert verify_witness(winnow_witness) == verify_witness(winnow_witness)
    assert json.dumps(winnow_witness, sort_keys=True) == before


# ------------------------------------------------------------------------------------------ tampered witnesses
def test_wrong_count(halving_witness, winnow_witness, perceptron_witness):
    for w in (halving_witness, winnow_witness, perceptron_witness):
        m = w["mistakes"]
        bad = dict(w, mistakes=m + 1)
        assert failed(bad) == f"claims {m + 1} mistakes, replay gives {m}"
        assert verify_witness(bad).mistakes == m
    assert failed(dict(halving_witness, mistakes=0)) == "claims 0 mistakes, replay gives 1"


def test_unrealizable_labels(halving_witness):
    w = copy.deepcopy(halving_witness)
    w["target"] = None
    w["sequence"][2]["y"] = 0  # x=1 -> 1 but x=2 -> 0: no threshold-like concept of MATRIX does that
    assert failed(w) == "no concept of the class labels examples 1..3"
    w["sequence"] = [{"x": [1], "y": 1}, {"x": [1], "y": 0}]
    assert failed(w) == "no concept of the class labels examples 1..2"


def test_target_mislabels_an_example(halving_witness, winnow_witness, md_class):
    w = dict(halving_witness, target=1)  # 001 labels x=1 with 0, the witness says 1
    assert failed(w) == "target concept 1 labels example 1 (x = (1,)) 0, not 1"
    w = dict(winnow_witness, target=or_index(md_class, [1]))
    failed(w, "target concept", "labels example")
    failed(dict(halving_witness, target=4), "target concept 4 is out of range", "4 concepts")
    failed(dict(halving_witness, target="2"), "concept index")


def test_margin_violated(perceptron_witness):
    w = copy.deepcopy(perceptron_witness)
    w["sequence"].insert(1, {"x": [-0.8, 0.6], "y": 1})  # <w*, x> = 0: on the separator
    w["mistakes"] = perceptron_mistakes(w["sequence"])
    w.pop("mistakes_by_kind", None)  # (the sequence is edited by hand: its counts by kind with it)
    assert failed(w) == "example 2 (y = 1) has margin y<w,x> = 0 < gamma = 0.1"
    w["sequence"][1] = {"x": [1.0, 0.0], "y": 0}  # the wrong side: margin -0.6
    failed(w, "example 2 (y = 0) has margin y<w,x> = -0.6")


def test_margin_tolerance_and_exact_mode(perceptron_witness):
    w = copy.deepcopy(perceptron_witness)
    w["target"] = {"w": [1, 0]}
    w["sequence"] = [{"x": [0.1 - 1e-12, 0.0], "y": 1}, {"x": [-0.5, 0.3], "y": 0}]
    w["mistakes"] = perceptron_mistakes(w["sequence"])
    w.pop("mistakes_by_kind", None)  # (the sequence is edited by hand: its counts by kind with it)
    ok(verify_witness(w))  # within the tolerance 1e-9
    failed(w, "example 1 (y = 1) has margin", "< gamma = 0.1", "exact", exact=True)
    w["sequence"][0]["x"] = [0.1 - 1e-6, 0.0]
    failed(w, "example 1 (y = 1) has margin")


def test_x_too_long(perceptron_witness):
    w = copy.deepcopy(perceptron_witness)
    w["sequence"].append({"x": [1.2, 1.6], "y": 1})  # |x| = 2
    w["mistakes"] = perceptron_mistakes(w["sequence"])
    w.pop("mistakes_by_kind", None)  # (the sequence is edited by hand: its counts by kind with it)
    n = len(w["sequence"])
    assert failed(w) == f"example {n} has |x| = 2 > R = 1"
    failed(w, f"example {n} has |x| = 2 > R = 1", exact=True)


def test_target_w_not_unit(perceptron_witness):
    failed(dict(perceptron_witness, target={"w": [1.2, 1.6]}), "|w| = 2", "unit vector")
    failed(dict(perceptron_witness, target={"w": [1.0]}), "d = 2")
    failed(dict(perceptron_witness, target=None), '"target"')
    failed(dict(perceptron_witness, target=3), '"w"')


def test_unknown_learner(halving_witness):
    w = dict(halving_witness, learner={"name": "halvin", "params": {}})
    failed(w, "unknown learner 'halvin'", "halving")
    failed(dict(halving_witness, learner="halving"), '"learner" must be')
    failed(dict(halving_witness, learner={"name": "winnow2", "params": {"n": -1}}), "n")


def test_class_based_learner_on_margin_halfspaces(perceptron_witness):
    failed(dict(perceptron_witness, learner={"name": "halving", "params": {}}), "needs a finite concept class")


def test_unknown_family(winnow_witness):
    w = dict(winnow_witness, **{"class": {"family": "monotone-disjunction", "params": {"n": 4}}})
    failed(w, "unknown family 'monotone-disjunction'", "monotone-disjunctions", "margin-halfspaces")
    failed(dict(winnow_witness, **{"class": {"family": "monotone-disjunctions", "params": {"n": 4, "k": 9}}}), "k")
    failed(dict(winnow_witness, **{"class": {"family": "margin-halfspaces", "params": {"d": 4, "gamma": 0}}}), "gamma")
    failed(dict(winnow_witness, **{"class": {"rows": [[0, 1]]}}), '"family"', '"matrix"')
    failed(dict(winnow_witness, **{"class": {"matrix": [[0, 2]]}}), "bad class matrix", "0 or 1")


@pytest.mark.parametrize("label", [2, -1, True, 0.5, "1", None])
def test_bad_label(halving_witness, label):
    w = copy.deepcopy(halving_witness)
    w["sequence"][1]["y"] = label
    assert failed(w) == f"example 2: label {label!r} is not 0 or 1"


@pytest.mark.parametrize("key", ["kind", "learner", "class", "sequence", "mistakes"])
def test_missing_keys(halving_witness, key):
    w = dict(halving_witness)
    del w[key]
    failed(w, "malformed witness", key)


@pytest.mark.parametrize("bad, needle", [
    ("[1, 2]", "expected a JSON object"),
    ('{"kind": "witness"', "malformed JSON"),
    ('{"kind": "tree", "learner": {}}', '"kind" must be "witness"'),
])
def test_malformed_json(bad, needle):
    failed(bad, needle)


def test_malformed_parts(halving_witness):
    failed(dict(halving_witness, mistakes=-1), '"mistakes" must be a whole number')
    failed(dict(halving_witness, mistakes="1"), '"mistakes"')
    failed(dict(halving_witness, sequence={"x": [0]}), '"sequence" must be a list')
    failed(dict(halving_witness, sequence=[{"x": [0]}]), 'example 1 needs "x" and "y"')
    failed(dict(halving_witness, sequence=[5]), "example 1 is not")


def test_point_not_in_the_domain(halving_witness, winnow_witness):
    w = copy.deepcopy(halving_witness)
    w["sequence"][1]["x"] = [7]
    assert failed(w) == "example 2: point (7,) is not in the domain of the matrix class (4 concepts x 3 points)"
    w = copy.deepcopy(winnow_witness)
    w["sequence"][0]["x"] = [1, 2, 0, 0]
    failed(w, "example 1: point (1, 2, 0, 0) is not in the domain of monotone-disjunctions n=4 k=2")
    w["sequence"][0]["x"] = [1, 0, 0]
    failed(w, "not in the domain")


def test_margin_point_of_the_wrong_dimension(perceptron_witness):
    w = copy.deepcopy(perceptron_witness)
    w["sequence"][0]["x"] = [0.0, -1.0, 0.0]
    failed(w, "example 1: x has 3 coordinates", "needs 2")
    w["sequence"][0]["x"] = [0.0, "a"]
    failed(w, "example 1: coordinate must be a number")


# ------------------------------------------------------------------------------------------ replay
def test_replay_uses_a_fresh_learner(md_class, winnow_witness):
    from solvers.learners import make_learner

    seq = winnow_witness["sequence"]
    fresh = replay({"name": "winnow2", "params": {"n": 4}}, seq, md_class)
    trained = make_learner("winnow2", {"n": 4})
    for e in seq:  # a learner with a history: replay must ignore it
        trained.learn_one(tuple(e["x"]), e["y"])
    again = replay(trained, seq, md_class)
    assert again.predictions == fresh.predictions and again.mistakes == fresh.mistakes == winnow_witness["mistakes"]
    assert len(fresh.predictions) == len(seq)
    assert all(seq[t]["y"] != fresh.predictions[t] for t in fresh.rounds)
    assert replay(("winnow2", {"n": 4}), [(tuple(e["x"]), e["y"]) for e in seq]).mistakes == fresh.mistakes


def test_replay_rejects_bad_input(md_class):
    with pytest.raises(WitnessError, match="label 3 is not 0 or 1"):
        replay("halving", [((0, 0, 0, 0), 3)], md_class)
    with pytest.raises(WitnessError, match="unknown learner"):
        replay("nope", [], md_class)
    with pytest.raises(WitnessError, match="needs a finite concept class"):
        replay("halving", [])


def test_parse_sequence_gives_the_class_points():
    assert parse_sequence([{"x": 2, "y": 1}], make("thresholds", N=3)) == [((2,), 1)]


def test_check_realizable_returns_the_target():
    C = make("thresholds", N=3)  # rows: t = 1, 2, 3, 4 (x >= t)
    assert check_realizable(C, [((2,), 1), ((1,), 0)]) == 1
    assert check_realizable(C, []) == 0


# ------------------------------------------------------------------------------------------ properties
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_witness_replays(data):
    """STYLE.md: every witness replays. Random class, random target, random sequence, several learners."""
    rows = data.draw(st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=1, max_size=8))
    C = ConceptClass.from_matrix(rows)
    target = data.draw(st.integers(0, len(C) - 1))
    xs = data.draw(st.lists(st.integers(0, 3), max_size=10))
    seq = [{"x": [j], "y": int(C.matrix[target, j])} for j in xs]
    spec = {"matrix": C.matrix.astype(int).tolist()}
    for name in ("halving", "con", "soa"):
        w = make_witness(name, {}, spec, seq, target=target)
        r = ok(verify_witness(json.loads(json.dumps(w))))
        assert r.mistakes <= len(C) - 1  # CON's bound |C| - 1 holds for all three ([OnlineAlgs])
        if name == "halving":
            assert r.mistakes <= C.log2_size()
        assert failed(dict(w, mistakes=r.mistakes + 1)).startswith("claims")


def _every_learner():
    from solvers.learners import LEARNERS

    return list(dict.fromkeys(s.name for s in LEARNERS.values()))


@pytest.mark.parametrize("name", _every_learner())
def test_every_learner_replays_to_a_witness(name):
    """Each registered learner, rebuilt by name (randomized ones from their seed), replays to the same
    count on monotone disjunctions over {0,1}^3 (vector learners take n, or d, from the points)."""
    from solvers.learners import LEARNERS

    if LEARNERS[name].extra:  # an adapter of an optional library (solvers.learners.adapters)
        pytest.importorskip(LEARNERS[name].extra)
    spec = {"family": "monotone-disjunctions", "params": {"n": 3}}
    C = witness_class(spec)
    target = or_index(C, [0, 2])
    points = [p for p in C.points] * 2
    seq = [{"x": list(p), "y": int(C.matrix[target, C.index_of(p)])} for p in points]
    params = {"k": 1} if name == "winnow-k-of-r" else {}
    w = make_witness(name, params, spec, seq, target=target)
    assert w["learner"]["name"] == name
    r = ok(verify_witness(json.loads(json.dumps(w))))
    assert r.mistakes == w["mistakes"] == verify_witness(w).mistakes
    failed(dict(w, mistakes=r.mistakes + 1), "claims")


def test_witness_text_nested_too_deep_is_a_failed_check():
    r = verify_witness('{"kind": "witness", "sequence": [{"x": ' + "[" * 5000 + "]" * 5000 + "}]}")
    assert not r.ok and "nested 5003 levels deep" in r.message and len(r.message) < 300


# ------------------------------------------------------------------------------------------ label errors, expectations
THRESHOLDS = {"family": "thresholds", "params": {"N": 3}}


def test_witness_with_label_errors():
    seq = [{"x": [2], "y": 1}, {"x": [1], "y": 1}, {"x": [2], "y": 0}]  # no threshold gives these labels
    with pytest.raises(WitnessError, match="no concept of the class labels examples 1..3"):
        make_witness("winnow2", {}, {"matrix": [[0, 0, 0], [0, 1, 1]]}, seq)
    w = make_witness("soa", {"errors": 1}, THRESHOLDS, seq, errors=1)
    assert w["errors"] == 1 and ok(verify_witness(w)).message.startswith("soa makes")
    assert "within 1 label error" in verify_witness(w).message
    failed({**w, "errors": 0}, "labels example 3")
    failed({**w, "errors": -1}, '"errors" must be a whole number >= 0')
    failed({**w, "errors": True}, '"errors"')
    failed({**w, "target": 3}, "its 2nd disagreement, more than the 1 label error allowed")
    # the learner itself refuses more errors than it was built for
    w2 = make_witness("wm", {}, THRESHOLDS, seq + [{"x": [3], "y": 0}, {"x": [1], "y": 0}], errors=2)
    failed({**w2, "learner": {"name": "soa", "params": {"errors": 1}}}, "learner soa failed on example")
    # a witness without "errors" is one with 0 (old witnesses stay valid)
    plain = make_witness("halving", {}, THRESHOLDS, seq[:2])
    assert "errors" not in plain and ok(verify_witness(plain))
    # classes whose points are not listed refuse label errors
    mw = make_witness("perceptron", {"d": 2}, MARGIN, [{"x": [0.6, 0.8], "y": 1}], target={"w": W_STAR})
    failed({**mw, "errors": 1}, "not supported on margin-halfspaces")


def test_witness_of_a_randomized_learner_carries_its_exact_expectation():
    # Randomized halving on 4 thresholds, points 1, 2, 3 labelled 0: V shrinks 4 -> 3 -> 2 -> 1, and each
    # round one concept of V says 1: 1/4 + 1/3 + 1/2 = H_4 - 1.
    seq = [{"x": [1], "y": 0}, {"x": [2], "y": 0}, {"x": [3], "y": 0}]
    w = make_witness("randomized-halving", {"seed": 3}, THRESHOLDS, seq)
    assert w["expected_mistakes"] == "13/12"
    r = ok(verify_witness(json.loads(json.dumps(w))))
    assert r.expected == Fraction(13, 12) and "13/12 (1.083333) expected over its draws" in r.message
    failed({**w, "expected_mistakes": "1"}, "claims 1 expected mistakes, replay gives 13/12")
    failed({**w, "expected_mistakes": "x"}, '"expected_mistakes" must be an exact number')
    failed({**w, "expected_mistakes": 0.5}, '"expected_mistakes" must be an exact number')
    failed({**w, "expected_mistakes": "-1/2"}, "must be >= 0")
    old = {k: v for k, v in w.items() if k != "expected_mistakes"}
    assert ok(verify_witness(old)).mistakes == w["mistakes"]  # an old witness: the seeded count alone
    h = make_witness("halving", {}, THRESHOLDS, seq)
    assert "expected_mistakes" not in h
    failed({**h, "expected_mistakes": "1"}, "predicts deterministically")
