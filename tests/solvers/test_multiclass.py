"""Multiclass classes and the two multiclass games (:mod:`solvers.multiclass`), against deliberately naive
brute forces written here from the definitions: the multiclass Littlestone dimension by explicit mistake trees
and by the full-information game with the learner's predictions; the bandit value by game-tree minimax over
histories (no memo) and by Daniely and Helbertal's shattered trees. Then the closed forms, the k = 2 case
against :func:`solvers.opt.opt`, the trees and learners replayed by :mod:`solvers.certificates.multiclass`,
corrupted trees rejected, time limits, files and their one-line errors, and the table script."""

import copy
import json
import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates.multiclass import check_tree, check_upper
from solvers.multiclass import (MulticlassClass, MulticlassSolver, OptimalLearner, bandit_upper_bound, make, opt_bandit,
                                opt_full)
from solvers.multiclass.games import bandit_from_full


# ---------------------------------------------------------------------------------------- naive twins
# A class is a tuple of rows (tuples of labels); a version space a frozenset of row indices.
def cell(M, S, x, y):
    return frozenset(c for c in S if M[c][x] == y)


def splitting(M, S):
    return [x for x in range(len(M[0])) if len({M[c][x] for c in S}) > 1] if M and M[0] else []


def has_mistake_tree(M, k, S, d) -> bool:
    """A complete binary tree of depth d, nodes (x, y != y'), every path realised by a concept of S."""
    if d == 0:
        return bool(S)
    return any(has_mistake_tree(M, k, cell(M, S, x, y), d - 1) and has_mistake_tree(M, k, cell(M, S, x, y2), d - 1)
               for x in range(len(M[0])) for y in range(k) for y2 in range(y + 1, k))


def ldim_naive(M, k) -> int:
    S = frozenset(range(len(M)))
    d = 0
    while has_mistake_tree(M, k, S, d + 1):
        d += 1
    return d


def full_game_naive(M, k, S=None) -> int:
    """The full-information game: the adversary shows a splitting x, the learner predicts any of the k labels,
    the adversary answers any realised label, which the learner sees."""
    S = frozenset(range(len(M))) if S is None else S
    best = 0
    for x in splitting(M, S):
        realised = {M[c][x] for c in S}
        best = max(best, min(max((y != yhat) + full_game_naive(M, k, cell(M, S, x, y)) for y in realised)
                             for yhat in range(k)))
    return best


def bandit_naive(M, k, history=()) -> int:
    """Game-tree minimax over histories ((x, yhat, "right"/"wrong"), ...), no memo: the version space is
    recomputed from the history each time. A prediction no consistent concept makes is a sure mistake that
    changes nothing, so the learner never makes it; the others shrink the version space, so this ends."""
    S = frozenset(c for c in range(len(M))
                  if all((M[c][x] == yhat) == (fb == "right") for x, yhat, fb in history))
    best = 0
    for x in splitting(M, S):
        values = []
        for yhat in sorted({M[c][x] for c in S}):
            outcomes = []
            if any(M[c][x] == yhat for c in S):
                outcomes.append(bandit_naive(M, k, history + ((x, yhat, "right"),)))
            if any(M[c][x] != yhat for c in S):
                outcomes.append(1 + bandit_naive(M, k, history + ((x, yhat, "wrong"),)))
            values.append(max(outcomes))
        best = max(best, min(values))
    return best


def has_dh_tree(M, k, S, d) -> bool:
    """Daniely and Helbertal's shattered tree: a point x with, for every prediction yhat in 0..k-1, a tree of
    depth d - 1 on the concepts of S that are not yhat at x (every path "x_i and not yhat_i" realised)."""
    if d == 0:
        return bool(S)
    return any(all(has_dh_tree(M, k, frozenset(c for c in S if M[c][x] != yhat), d - 1) for yhat in range(k))
               for x in range(len(M[0])))


def bldim_naive(M, k) -> int:
    S = frozenset(range(len(M)))
    d = 0
    while has_dh_tree(M, k, S, d + 1):
        d += 1
    return d


def rows_of(C):
    return tuple(map(tuple, C.matrix.tolist()))


@st.composite
def classes(draw, max_points=3, max_rows=6, max_k=4):
    k = draw(st.integers(2, max_k))
    n = draw(st.integers(1, max_points))
    m = draw(st.integers(1, max_rows))
    rows = draw(st.lists(st.lists(st.integers(0, k - 1), min_size=n, max_size=n), min_size=m, max_size=m))
    return MulticlassClass(rows, k)


# ---------------------------------------------------------------------------------------- values
@settings(max_examples=80, deadline=None)
@given(classes())
def test_both_values_against_the_naive_twins(C):
    M, k = rows_of(C), C.k
    S = MulticlassSolver(C)
    full, bandit = S.solve("full"), S.solve("bandit")
    assert full.value == ldim_naive(M, k) == full_game_naive(M, k)
    assert bandit.value == bandit_naive(M, k) == bldim_naive(M, k)
    assert (full.lower, full.upper, bandit.lower, bandit.upper) == (full.value, full.value, bandit.value, bandit.value)
    assert full.value <= bandit.value <= bandit_upper_bound(len(C), k)
    assert full.value <= (len(C)).bit_length() - 1
    for r in (full, bandit):
        ok, why = check_tree(C, r.tree)
        assert ok, why
        ok, why = check_upper(C, r.game, OptimalLearner(C, r.game, S).predict, r.value)
        assert ok, why
        if r.value:
            assert check_upper(C, r.game, OptimalLearner(C, r.game).predict, r.value - 1)[0] is False
    # opt_bandit >= opt_full, with the tree the full one gives
    root, nodes = bandit_from_full(C, full.tree["root"])
    converted = {**bandit.tree, "mistakes": full.value, "root": root, "nodes": nodes}
    mistakes = f"{full.value} mistake{'s' if full.value != 1 else ''}"
    assert check_tree(C, converted) == (True, (f"bandit tree OK: every branch is realised; it forces {mistakes} "
                                               f"(claimed {full.value})"))


@settings(max_examples=60, deadline=None)
@given(classes(max_points=5, max_rows=10), st.data())
def test_values_do_not_change_under_renamings(C, data):
    """Permuting the points, the rows, and the labels at each point (a bijection per point) changes neither game."""
    M = C.matrix
    m, n = M.shape
    rows = data.draw(st.permutations(range(m)))
    cols = data.draw(st.permutations(range(n)))
    maps = [data.draw(st.permutations(range(C.k))) for _ in range(n)]
    N = np.array([[maps[j][M[r, j]] for j in cols] for r in rows]).reshape(m, n)
    D = MulticlassClass(N, C.k)
    assert (opt_full(C).value, opt_bandit(C).value) == (opt_full(D).value, opt_bandit(D).value)


@settings(max_examples=60, deadline=None)
@given(classes(max_points=5, max_rows=10, max_k=2))
def test_two_labels_is_the_binary_game(C):
    """k = 2: the full game is Opt(C) of solvers.opt; under bandit feedback "wrong" tells the label, so the same."""
    from solvers.classes.finite import ConceptClass
    from solvers.opt import opt

    value = opt(ConceptClass.from_matrix(C.matrix.astype(bool))).value
    assert opt_full(C).value == value == opt_bandit(C).value


@pytest.mark.parametrize("N", [1, 2, 3, 4])
@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_multiclass_singletons_closed_forms(N, k):
    """Full information 1 (N >= 1, k >= 2), bandit k - 1; by brute force too where it is quick."""
    C = make("multiclass-singletons", N=N, k=k)
    assert len(C) == 1 + N * (k - 1)
    assert opt_full(C).value == 1
    assert opt_bandit(C).value == k - 1
    if len(C) <= 9:
        M = rows_of(C)
        assert ldim_naive(M, k) == 1 and bldim_naive(M, k) == k - 1
    if len(C) <= 7:
        assert bandit_naive(rows_of(C), k) == k - 1


@pytest.mark.parametrize("N", range(1, 9))
def test_two_label_thresholds_are_the_thresholds(N):
    C = make("k-label-thresholds", N=N, k=2)
    assert len(C) == N + 1
    assert opt_full(C).value == opt_bandit(C).value == (N + 1).bit_length() - 1


@pytest.mark.parametrize("N, k", [(2, 3), (3, 3), (2, 4), (3, 4)])
def test_k_label_thresholds_by_brute_force(N, k):
    C = make("k-label-thresholds", N=N, k=k)
    assert len(C) == math.comb(N + k - 1, k - 1)
    assert all(list(r) == sorted(r) for r in C.matrix.tolist())
    M = rows_of(C)
    assert opt_full(C).value == ldim_naive(M, k)
    assert opt_bandit(C).value == bldim_naive(M, k)


def test_labels_beyond_those_used_change_nothing_but_k():
    C, D = MulticlassClass([[0, 1], [1, 2], [2, 0]]), MulticlassClass([[0, 1], [1, 2], [2, 0]], k=7)
    assert (C.k, D.k) == (3, 7)
    assert (opt_full(C).value, opt_bandit(C).value) == (opt_full(D).value, opt_bandit(D).value)
    tree = opt_bandit(D).tree
    root = tree["nodes"][tree["root"]]
    assert len(root["predictions"]) == 7 and check_tree(D, tree)[0]
    # a label no concept gives: answered "wrong" (a mistake, nothing learnt), never "right"
    assert root["predictions"][5]["answer"] == "wrong"
    bad = copy.deepcopy(tree)
    bad["nodes"][bad["root"]]["predictions"][5]["answer"] = "right"
    ok, why = check_tree(D, bad)
    assert not ok and "no concept realises the answer right" in why


def test_trivial_classes():
    for C in (MulticlassClass([[0, 1, 2]]), MulticlassClass([[]]), MulticlassClass([[1], [1]])):
        for r in (opt_full(C), opt_bandit(C)):
            assert r.value == 0 and r.tree["root"] is None and check_tree(C, r.tree)[0]


# ---------------------------------------------------------------------------------------- trees
def _trees():
    C = make("k-label-thresholds", N=3, k=3)
    return C, opt_full(C).tree, opt_bandit(C).tree


def _first(node, key):
    return node[key][0]


def test_corrupted_full_trees_are_rejected():
    C, full, _ = _trees()
    assert check_tree(C, full)[0]
    bad = []
    t = copy.deepcopy(full); t["depth"] += 1; bad.append(t)
    t = copy.deepcopy(full); t["root"]["children"][1]["label"] = t["root"]["children"][0]["label"]; bad.append(t)
    t = copy.deepcopy(full); t["root"]["children"].pop(); bad.append(t)
    t = copy.deepcopy(full); t["root"]["point"] = C.n_points; bad.append(t)
    t = copy.deepcopy(full); t["k"] = 9; bad.append(t)
    t = copy.deepcopy(full); t["root"]["children"][0]["tree"] = None; bad.append(t)  # a path one short
    # a label no concept gives below: concepts are nondecreasing, so after x0 = 2 no point is 0
    t = copy.deepcopy(full)
    t["root"] = {"point": 0, "children": [{"label": 2, "tree": {"point": 2, "children": [
        {"label": 0, "tree": None}, {"label": 2, "tree": None}]}}, {"label": 0, "tree": None}]}
    t["depth"] = 1
    bad.append(t)
    for t in bad:
        ok, why = check_tree(C, t)
        assert not ok and "\n" not in why, why
    assert check_tree(C, {"game": "chess"})[0] is False and check_tree(C, [1, 2])[0] is False


def test_corrupted_bandit_trees_are_rejected():
    C, _, bandit = _trees()
    assert check_tree(C, bandit)[0]
    r = bandit["root"]
    bad = []

    def corrupt(change):
        t = copy.deepcopy(bandit)
        change(t, t["nodes"][r])
        bad.append(t)

    corrupt(lambda t, n: t.update(mistakes=t["mistakes"] + 1))
    corrupt(lambda t, n: n["predictions"].pop())
    corrupt(lambda t, n: n["predictions"][0].update(answer="maybe"))
    corrupt(lambda t, n: n["predictions"][1].update(prediction=0))
    corrupt(lambda t, n: n["predictions"][0].update(next=len(t["nodes"])))
    corrupt(lambda t, n: n["predictions"][0].pop("next"))
    corrupt(lambda t, n: t.pop("nodes"))
    corrupt(lambda t, n: n["predictions"][0].update(answer="right", next=r))  # a loop, or a right never realised
    corrupt(lambda t, n: n["predictions"][0].update(next=None))  # a path one mistake short
    # "right" for a label whose concepts were all ruled out: x0 answered "right" to 0, then to 1
    t = copy.deepcopy(bandit)
    t["nodes"] = [{"point": 0, "predictions": [{"prediction": yhat, "answer": "right", "next": 1} for yhat in range(3)]},
                  {"point": 0, "predictions": [{"prediction": z, "answer": "right", "next": None} for z in range(3)]}]
    t["root"], t["mistakes"] = 0, 0
    bad.append(t)
    # a loop through a point every concept left agrees on: the adversary would never reach a leaf
    C1 = MulticlassClass([[0, 0], [1, 0]], k=3)
    loop = {"game": "bandit", "mistakes": 0, "root": 0, "nodes": [{"point": 1, "predictions": [
        {"prediction": 0, "answer": "right", "next": 0}, {"prediction": 1, "answer": "wrong", "repeat": True},
        {"prediction": 2, "answer": "wrong", "repeat": True}]}]}
    ok, why = check_tree(C1, loop)
    assert not ok and "loop" in why, why
    for t in bad:
        ok, why = check_tree(C, t)
        assert not ok and "\n" not in why, why


def test_a_poor_learner_is_caught():
    C = make("k-label-thresholds", N=3, k=3)
    value = opt_full(C).value
    M = C.matrix.tolist()

    def zero_unless_forced(V, j):
        labels = {M[c][j] for c in range(len(M)) if V >> c & 1}
        return labels.pop() if len(labels) == 1 else 0

    ok, why = check_upper(C, "full", zero_unless_forced, value)
    assert ok is False and "forces 3 mistakes, more than the 2 claimed" in why
    ok, why = check_upper(C, "full", lambda V, j: 0, value)
    assert ok is False and "without end" in why  # 0 where every concept left says 2
    ok, why = check_upper(C, "bandit", lambda V, j: 0, opt_bandit(C).value)
    assert ok is False  # predicting 0 after x = 0 was ruled out: wrong forever
    assert check_upper(C, "full", OptimalLearner(C, "full").predict, value, budget=3)[0] is None


def test_trees_are_json():
    C, full, bandit = _trees()
    for t in (full, bandit):
        assert check_tree(C, json.loads(json.dumps(t)))[0]


# ---------------------------------------------------------------------------------------- time limits
def test_a_stopped_search_keeps_proven_bounds():
    C = make("k-label-thresholds", N=6, k=4)
    exact_full, exact_bandit = opt_full(C).value, opt_bandit(C).value
    for game, exact in (("full", exact_full), ("bandit", exact_bandit)):
        r = MulticlassSolver(C).solve(game, time_limit=1e-9)
        assert r.value is None and r.stopped == "time limit"
        assert r.lower <= exact <= r.upper
        assert check_tree(C, r.tree, r.lower)[0]
    S = MulticlassSolver(C)
    S.solve("full")
    r = S.solve("bandit", time_limit=1e-9)
    assert r.lower >= exact_full and check_tree(C, r.tree)[0]  # the full tree, as a bandit tree


class _StopsAfter(MulticlassSolver):
    """A solver whose search stops after ``budget`` version spaces expanded, as a time limit would stop it
    (a limit in seconds stops small classes never, or at a point that depends on the machine)."""

    def __init__(self, C, budget):
        super().__init__(C)
        self.budget = budget

    def solve(self, game, *, time_limit=None):
        return super().solve(game, time_limit=1e9)  # a deadline set: the search's ticks may stop it

    def _tick(self):
        from solvers.multiclass.games import _Stop

        self.nodes += 1
        if self.deadline is not None and self.nodes > self.budget:  # as a deadline: never in the tree's build
            raise _Stop


@settings(max_examples=120, deadline=None)
@given(classes(max_rows=7), st.integers(0, 40), st.sampled_from(["full", "bandit", "full then bandit"]))
def test_stopped_bounds_hold_against_the_naive_twins(C, budget, order):
    """Stopped anywhere, the bounds hold: the trivial one <= lower <= the brute-force value <= upper, the tree
    certifies lower, and the bases say what the bounds rest on."""
    M = rows_of(C)
    exact = {"full": ldim_naive(M, C.k), "bandit": bldim_naive(M, C.k)}
    trivial = 1 if len(C) > 1 else 0
    S = _StopsAfter(C, budget)
    for game in (("full", "bandit") if order == "full then bandit" else (order,)):
        r = S.solve(game)
        assert trivial <= r.lower <= exact[game] <= r.upper
        assert check_tree(C, r.tree, r.lower)[0], check_tree(C, r.tree, r.lower)[1]
        if r.stopped is None:
            assert r.value == r.lower == r.upper == exact[game]
        else:
            assert r.stopped == "time limit" and r.value is None
            assert "counting bound" in r.upper_basis and "finished search" not in r.lower_basis
            assert r.to_json()["lower_basis"] == r.lower_basis
        S.budget += budget  # the next game gets as much again


def test_a_stop_before_any_root_move_gives_the_trivial_bound():
    C = make("k-label-thresholds", N=6, k=4)
    for game in ("full", "bandit"):
        r = _StopsAfter(C, 0).solve(game)
        assert (r.lower, r.stopped) == (1, "time limit") and "trivial bound" in r.lower_basis
        assert check_tree(C, r.tree, 1)[0]
    one = MulticlassClass([[2, 0, 1]])
    assert _StopsAfter(one, 0).solve("bandit").lower == 0  # one concept: nothing is forced (and nothing to stop)


def test_interrupts_are_looked_at(monkeypatch):
    from solvers import interrupts

    calls = []
    monkeypatch.setattr(interrupts, "check", lambda: calls.append(1))
    opt_bandit(make("k-label-thresholds", N=4, k=4))
    assert calls


def test_long_chains_of_version_spaces(monkeypatch):
    """The bandit search recurses once per round (here about N deep); the solver raises the recursion limit
    to what the class needs, and puts it back."""
    C = make("k-label-thresholds", N=60, k=2)
    monkeypatch.setattr(sys, "getrecursionlimit", lambda: 100)
    limits = []
    monkeypatch.setattr(sys, "setrecursionlimit", limits.append)
    assert opt_bandit(C).value == opt_full(C).value == 5
    assert limits[0] >= 4 * len(C) and limits[-1] == 100


# ---------------------------------------------------------------------------------------- classes and files
def test_duplicates_merge_keeping_the_first():
    C = MulticlassClass([[2, 0], [0, 1], [2, 0], [1, 1], [0, 1]])
    assert C.matrix.tolist() == [[2, 0], [0, 1], [1, 1]] and C.k == 3
    assert not C.matrix.flags.writeable
    assert MulticlassClass([[0, 1]], k=5).k == 5


def test_families():
    assert make("multiclass-singletons", N=2, k=3).matrix.tolist() == [[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]]
    assert len(make("k-label-thresholds", N=4, k=3)) == 15
    a, b = make("random-multiclass", m=9, N=3, k=4, seed=5), make("random-multiclass", m=9, N=3, k=4, seed=5)
    assert a == b and len(a) <= 9 and a.k == 4
    with pytest.raises(ValueError, match="unknown multiclass family 'thresholds'"):
        make("thresholds", N=3)
    with pytest.raises(ValueError, match="needs k="):
        make("multiclass-singletons", N=3)
    with pytest.raises(ValueError, match="more than 100000"):
        make("k-label-thresholds", N=40, k=8)
    with pytest.raises(ValueError, match="k >= 1"):
        make("multiclass-singletons", N=3, k=0)


@pytest.mark.parametrize("name, text", [
    ("list.json", "[[0, 2], [1, 1]]"),
    ("dict.json", '{"k": 4, "matrix": [[0, 2], [1, 1]]}'),
    ("rows.csv", "0,2\n\n1,1\n"),
])
def test_files(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    C = MulticlassClass.from_file(p)
    assert C.matrix.tolist() == [[0, 2], [1, 1]]
    assert C.k == (4 if name == "dict.json" else 3)


def test_npy(tmp_path):
    np.save(tmp_path / "a.npy", np.array([[0, 3], [2, 1]]))
    np.save(tmp_path / "f.npy", np.array([[0.0, 3.0], [2.0, 1.0]]))
    assert MulticlassClass.from_file(tmp_path / "a.npy").matrix.tolist() == [[0, 3], [2, 1]]
    assert MulticlassClass.from_file(tmp_path / "f.npy").k == 4


@pytest.mark.parametrize("name, text, words", [
    ("ragged.json", "[[0, 1], [1]]", "every row needs one label per point"),
    ("negative.json", "[[0, -1]]", "start at 0"),
    ("big.json", '{"k": 2, "matrix": [[0, 2]]}', "give k >= 3"),
    ("empty.json", "[]", "the class is empty"),
    ("float.json", "[[0, 1.5]]", "not a whole number"),
    ("bool.json", "[[0, true]]", "not a whole number"),
    ("text.json", '[[0, "a"]]', "not a whole number"),
    ("badk.json", '{"k": "three", "matrix": [[0]]}', "not a whole number"),
    ("nomatrix.json", '{"rows": [[0]]}', '"matrix"'),
    ("broken.json", "[[0, 1], ", "not valid JSON"),
    ("letters.csv", "0,1\n1,a\n", "not a whole number"),
    ("ragged.csv", "0,1\n1\n", "every row needs one label per point"),
    ("empty.csv", "", "the class is empty"),
    ("c.txt", "0,1\n", "unknown file type"),
    ("labels.json", "[[0, 99]]", "relabel"),
    ("params.json", '{"matrix": [[0, 1]], "params": 5}', '"params" must be an object'),  # issue 39: internal errors
    ("family.json", '{"matrix": [[0, 1]], "family": 3}', '"family" must be a family name'),
    ("bigint.json", '{"matrix": [[0, 1' + "0" * 400 + ']]}', "a label is too large"),  # was an OverflowError
    ("huge.json", '{"matrix": [[0, 1' + "0" * 5000 + ']]}', "more than 4300 digits"),
])
def test_bad_files_say_what_to_change(tmp_path, name, text, words):
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(ValueError) as e:
        MulticlassClass.from_file(p)
    msg = str(e.value)
    assert "\n" not in msg and words in msg and name in msg, msg
    assert msg.count(name) == 1, msg  # named once (a key given twice was "f.json: f.json: ...")


def test_a_key_given_twice_names_the_file_once(tmp_path):
    p = tmp_path / "twice.json"
    p.write_text('{"matrix": [[0, 1]], "matrix": [[1, 0]]}')
    with pytest.raises(ValueError) as e:
        MulticlassClass.from_file(p)
    assert str(e.value).count("twice.json") == 1 and "appears twice" in str(e.value)


def test_empty_and_truncated_npy(tmp_path):
    """Issue 39: an empty .npy was an EOFError (an internal error); one whose header names far more data than
    follows is refused before its array is allocated."""
    (tmp_path / "empty.npy").write_bytes(b"")
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (100000, 100000), }"
    header += " " * (118 - len(header)) + "\n"
    (tmp_path / "cut.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(72))
    for name, words in (("empty.npy", "the file is empty"), ("cut.npy", "truncated or corrupt")):
        with pytest.raises(ValueError, match=words) as e:
            MulticlassClass.from_file(tmp_path / name)
        assert name in str(e.value) and "\n" not in str(e.value)


def test_bad_npy_and_missing(tmp_path):
    np.save(tmp_path / "half.npy", np.array([[0, 0.5]]))
    np.save(tmp_path / "vec.npy", np.array([0, 1]))
    for name, words in (("half.npy", "not a whole number"), ("vec.npy", "2-d"), ("none.json", "does not exist")):
        with pytest.raises(ValueError, match=words):
            MulticlassClass.from_file(tmp_path / name)


# ---------------------------------------------------------------------------------------- the table script
def test_table_script_rows():
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "scripts"))
    try:
        import multiclass_table
    finally:
        sys.path.pop(0)
    rows = multiclass_table.rows(only=[("multiclass-singletons", {"N": 2, "k": 4}),
                                       ("k-label-thresholds", {"N": 3, "k": 3})])
    assert [(r["opt_full"], r["opt_bandit"], r["ratio"], r["trees"]) for r in rows] == [
        ("1", "3", "3.000", "OK"), ("2", "4", "2.000", "OK")]
    assert rows[0]["k ln k"] == f"{4 * math.log(4):.3f}" and rows[0]["opt_bandit <= k ln k opt_full"] == "yes"
    assert set(multiclass_table.HEAD) == set(rows[0])
