"""The parameters beside Opt (issue 22, part 1), each against a brute force written here from its definition on
random small classes (hypothesis), on families whose values are known in closed form, and on Warmuth's
ten-concept class on five points (VC 2, RTD 3, Opt 3, RL 13/8); every witness replayed by the checker, and a
tampered one refused."""

import copy
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates.params import check
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import DEFAULT_KEYS, KEYS, compute
from tests.oracles import matrices, vc_brute

from ..adversary.cli.checks import assert_usage_error, run

WARMUTH = ["11000", "01100", "00110", "00011", "10001", "11010", "01101", "10110", "01011", "10101"]


def threshold_brute(M) -> int:
    m, n = M.shape
    best = 0
    for t in range(1, n + 1):
        for xs in itertools.permutations(range(n), t):
            if all(any(all(M[c, x] == (i <= j) for j, x in enumerate(xs)) for c in range(m)) for i in range(t)):
                best = t
                break
    return best


def star_brute(M) -> int:
    m, n = M.shape
    best = 0
    for c in range(m):
        for k in range(best + 1, n + 1):
            if any(all(any(M[h, x] != M[c, x] and all(M[h, y] == M[c, y] for y in S if y != x) for h in range(m))
                       for x in S) for S in itertools.combinations(range(n), k)):
                best = k
    return best


def td_in(M, alive, c) -> int:
    n = M.shape[1]
    for k in range(n + 1):
        if any(all(any(M[h, x] != M[c, x] for x in S) for h in alive if h != c)
               for S in itertools.combinations(range(n), k)):
            return k


def rtd_brute(M) -> int:
    alive, value = list(range(M.shape[0])), 0
    while alive:
        tds = {c: td_in(M, alive, c) for c in alive}
        low = min(tds.values())
        value = max(value, low)
        alive = [c for c in alive if tds[c] != low]
    return value


def offline_brute(M, order) -> int:
    """The offline game along ``order`` by minimax over the labels, with no memo and no shortcut."""
    def game(S, i):
        if i == len(order):
            return 0
        x = order[i]
        out = {y: [c for c in S if M[c, x] == y] for y in (0, 1)}
        return min(max(int(y != guess) + game(T, i + 1) for y, T in out.items() if T) for guess in (0, 1))
    return game(list(range(M.shape[0])), 0)


def orders_brute(M) -> tuple:
    values = [offline_brute(M, order) for order in itertools.permutations(range(M.shape[1]))]
    return min(values), max(values)


def proper_brute(M) -> int:
    """The proper game by minimax over T = |C| rounds: the learner names any concept of C (an inconsistent one
    included), the adversary any point and any label some concept left gives (one that is no mistake included)."""
    from functools import lru_cache

    m, n = M.shape

    @lru_cache(maxsize=None)
    def game(S, t):
        if t == 0:
            return 0
        moves = [(x, y, frozenset(c for c in S if M[c, x] == y)) for x in range(n) for y in (0, 1)]
        moves = [mv for mv in moves if mv[2]]
        return min(max(int(M[h, x] != y) + game(T, t - 1) for x, y, T in moves) for h in range(m))
    return game(frozenset(range(m)), m)


@st.composite
def classes(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(1, 9))
    rows = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=m, max_size=m))
    return ConceptClass.from_matrix(np.array(rows, dtype=bool))


@settings(max_examples=60, deadline=None)
@given(classes())
def test_every_parameter_against_its_definition(C):
    M = C.matrix
    r = compute(C)
    assert r["vc"].value == vc_brute(M)
    assert r["dual_vc"].value == vc_brute(M.T)
    assert r["threshold"].value == threshold_brute(M)
    assert r["star"].value == star_brute(M)
    assert r["td"].value == max(td_in(M, range(C.n_concepts), c) for c in range(C.n_concepts))
    assert r["rtd"].value == rtd_brute(M)
    if M.shape[1] <= 4:  # the brute forces of the orders and the proper game are exponential in the points
        assert (r["best_order"].value, r["worst_order"].value) == orders_brute(M)
        assert r["proper"].value == proper_brute(M)
    for k, p in r.items():
        ok, why = check(C, k, p.to_json())
        assert ok, (k, why)


@pytest.mark.parametrize("family, params, expected", [
    ("thresholds", {"N": 6}, {"vc": 1, "threshold": 6, "star": 2, "td": 2, "rtd": 1, "best_order": 1,
                              "worst_order": 2, "proper": 2}),
    ("thresholds", {"N": 15}, {"best_order": 1, "worst_order": 4, "proper": 4}),
    ("singletons", {"N": 5}, {"vc": 1, "threshold": 1, "star": 5, "td": 5, "rtd": 1, "best_order": 1,
                              "worst_order": 1, "proper": 1}),
    ("all-functions", {"n": 3}, {"vc": 3, "dual_vc": 1, "star": 3, "td": 3, "rtd": 3, "best_order": 3,
                                 "worst_order": 3, "proper": 3}),
])
def test_closed_forms(family, params, expected):
    r = compute(make(family, **params), list(expected))
    assert {k: p.value for k, p in r.items()} == expected


def test_warmuths_class():
    from solvers.opt import opt

    C = ConceptClass.from_matrix([[int(c) for c in row] for row in WARMUTH])
    r = compute(C, ["vc", "rtd", "best_order", "worst_order", "proper"])
    assert (r["vc"].value, r["rtd"].value) == (2, 3)
    assert opt(C).value == 3 and str(opt(C, game="randomized").value) == "13/8"
    # every order forces Opt's 3 mistakes, and so does the proper game (the brute forces agree)
    assert (r["best_order"].value, r["worst_order"].value, r["proper"].value) == (3, 3, 3)
    assert orders_brute(C.matrix) == (3, 3) and proper_brute(C.matrix) == 3


def test_tampered_witnesses_are_refused():
    C = make("intervals", N=5)
    r = compute(C)
    for key in DEFAULT_KEYS:
        good = r[key].to_json()
        assert check(C, key, good)[0]
        bad = copy.deepcopy(good)
        w = bad["witness"]
        if key == "vc":
            w["points"] = [w["points"][0]] * len(w["points"])  # one point twice is never shattered
        elif key == "threshold":
            w["points"][:2] = w["points"][1::-1]  # two points swapped: the half graph breaks
        elif key == "dual_vc":
            w["concepts"] = [w["concepts"][0]] * len(w["concepts"])
        elif key == "star":
            w["neighbours"][0] = w["centre"]
        elif key == "td":
            w["teaching_set"] = w["teaching_set"][:-1]
        elif key == "rtd":
            w["steps"][0]["sets"][0] = []
        elif key in ("best_order", "worst_order"):
            w["order"] = w["order"][:-1]  # a point left out
            also = copy.deepcopy(good)
            also["value"] += 1 if key == "worst_order" else -1  # a claim the order does not reach
            assert not check(C, key, also)[0], key
            also = copy.deepcopy(good)
            also["witness"]["tree"]["0"], also["witness"]["tree"]["1"] = good["witness"]["tree"]["1"], good["witness"]["tree"]["0"]
            assert not check(C, key, also)[0], key
        else:
            w["tree"]["replies"] = w["tree"]["replies"][:1]  # one reply cannot catch every hypothesis
            also = copy.deepcopy(good)
            also["value"] -= 1  # the learner given errs more than that
            also["witness"]["tree"] = None
            assert not check(C, key, also)[0], key
        assert not check(C, key, bad)[0], key


def test_proper_against_opt():
    """Singletons without the empty concept: Opt is 1 (predict 0 until the one 1), but a learner predicting with
    a singleton errs N - 1 times (the adversary labels its hypothesis's point 0 each round)."""
    from solvers.opt import opt

    for N in range(2, 9):
        C = ConceptClass.from_matrix(np.eye(N, dtype=bool))
        r = compute(C, ["proper", "best_order", "worst_order"])
        assert (opt(C).value, r["proper"].value, r["best_order"].value, r["worst_order"].value) == (1, N - 1, 1, 1)
        assert check(C, "proper", r["proper"].to_json())[0]


def test_params_command(capsys):
    code, out, err = run(capsys, "params", "thresholds", "N=5", "--json", "--quiet")
    assert code == 0, err
    import json

    r = json.loads(out)
    assert {k: r[k]["value"] for k in ("opt", "vc", "threshold", "star", "td", "rtd")} == {
        "opt": 2, "vc": 1, "threshold": 5, "star": 2, "td": 2, "rtd": 1}
    code, out, err = run(capsys, "params", "thresholds", "N=5", "--only", "vc,nope", "--quiet")
    assert_usage_error(code, out, err)


@pytest.mark.parametrize("only", [",,,", "", " , "])
def test_params_only_naming_nothing_is_refused(capsys, only):
    """Issue 39: 'params ... --only ,,,' computed nothing and exited 0; it names the valid keys now."""
    line = assert_usage_error(*run(capsys, "params", "thresholds", "N=5", "--only", only, "--quiet"))
    assert "names no parameter" in line and "opt, vc" in line


def test_table_columns(capsys):
    import csv
    import io

    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=2..5", "--columns", "threshold,star,td,rtd",
                         "--format", "csv", "--no-store", "--quiet")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["N"], r["threshold"], r["star"], r["td"], r["rtd"]) for r in rows] == [
        (str(N), str(N), "2", "2", "1") for N in range(2, 6)]
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=2..3", "--columns", "nope", "--no-store")
    assert_usage_error(code, out, err)


def singletons_with_tags(n: int):
    """Singletons on n points, and ceil(log2 n) tag points where concept i says the binary digits of i."""
    t = max(1, (n - 1).bit_length())
    return ConceptClass.from_matrix([[int(i == j) for j in range(n)] + [(i >> b) & 1 for b in range(t)] for i in range(n)])


@pytest.mark.parametrize("n", range(2, 9))
def test_singletons_with_tag_points(n):
    """The catalogue's family where its star number and RTD are off (README, "Where littlestone disagrees"): each
    concept is taught by its own point (TD = RTD = 1); concept i is the centre of a star of the n - 1 other
    singleton points (concept j differs from it there alone; its own point would need a neighbour differing
    nowhere else); the tags shatter floor(log2 n) points (the catalogue's "log n")."""
    C = singletons_with_tags(n)
    r = compute(C, ["vc", "star", "td", "rtd"])
    assert {k: p.value for k, p in r.items()} == {"vc": n.bit_length() - 1, "star": n - 1, "td": 1, "rtd": 1}
    assert (star_brute(C.matrix), rtd_brute(C.matrix), vc_brute(C.matrix)) == (n - 1, 1, n.bit_length() - 1)


def test_a_false_order_claim_is_refused_where_every_order_is_played():
    """thresholds N=7 with its points in binary-search order: the identity order forces 3 mistakes there, yet
    best_order is 1; and on thresholds N=7 the identity order forces 1, yet worst_order is 3. The checker plays
    every order (7 distinct splits) and refuses both false claims."""
    C = make("thresholds", N=7)
    R = ConceptClass.from_matrix(C.matrix[:, [3, 1, 5, 0, 2, 4, 6]])  # binary search first
    assert offline_brute(C.matrix, range(7)) == 1 and offline_brute(R.matrix, range(7)) == 3
    assert not check(C, "worst_order", {"value": 1, "witness": {"order": list(range(7)), "tree": None}})[0]
    assert not check(R, "best_order", {"value": 3, "witness": {"order": list(range(7)), "tree": None}})[0]
    assert check(C, "worst_order", compute(C, ["worst_order"])["worst_order"].to_json())[0]


def test_deep_classes_do_not_exhaust_the_recursion():
    """The order searches, the proper search and their checks recurse once per split (as deep as the class): each
    raises the interpreter's recursion limit to what the class needs. Here the limit is lowered to 400 first, and
    two concepts on 1,000 points and 500 singletons must still work; a time limit holds."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        wide = ConceptClass.from_matrix(np.vstack([np.zeros(1000, bool), np.ones(1000, bool)]))
        for key in ("best_order", "worst_order", "proper"):
            p = compute(wide, [key])[key]
            assert p.value == 1 and check(wide, key, p.to_json())[0]
        eye = ConceptClass.from_matrix(np.eye(500, dtype=bool))
        for key in ("best_order", "worst_order", "proper"):
            p = compute(eye, [key], time_limit=0.3)[key]
            assert p.lower <= (1 if key != "proper" else 499) <= p.upper and check(eye, key, p.to_json())[0]
    finally:
        sys.setrecursionlimit(limit)


def test_bitsets_of_a_large_class_are_made_by_numpy_and_keep_the_deadline():
    """row_bits and column_bits give the bitsets the searches used to build entry by entry in Python (minutes on
    millions of concepts), and stop at the deadline."""
    import time

    import numpy as np

    from solvers.params import Stopped, column_bits, row_bits

    M = np.random.default_rng(39).random((300, 70)) < 0.5
    for A in (M, M[:, :23]):
        assert row_bits(A) == [sum(1 << j for j in range(A.shape[1]) if A[c, j]) for c in range(A.shape[0])]
        assert column_bits(A) == [sum(1 << c for c in range(A.shape[0]) if A[c, j]) for j in range(A.shape[1])]
    with pytest.raises(Stopped):
        row_bits(M, time.monotonic() - 1)
    with pytest.raises(Stopped):
        column_bits(M, time.monotonic() - 1)


@pytest.mark.parametrize("key", KEYS)
def test_a_search_stopped_at_once_reports_its_proven_bounds(key):
    C = make("all-functions", n=12)
    p = compute(C, [key], time_limit=1e-6)[key]
    assert 0 <= p.lower <= p.upper
    if p.witness:
        from solvers.certificates.params import check

        assert check(C, key, p.to_json())[0]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 7), st.data())
def test_the_shattered_set_check_agrees_with_the_definition(rows, cols, data):
    """(issue 39) the check counts patterns with numpy (a class of millions of concepts took 7 s a check, past a
    --time-limit); against the definition: the rows' patterns on the set are all 2^|S| of them."""
    M = np.array(data.draw(st.lists(st.lists(st.integers(0, 1), min_size=cols, max_size=cols), min_size=rows,
                                    max_size=rows)), dtype=bool)
    C = ConceptClass.from_matrix(M)
    S = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=C.n_points, unique=True))
    shattered = len({tuple(int(C.matrix[r, j]) for j in S) for r in range(C.n_concepts)}) == 2 ** len(S)
    assert check(C, "vc", {"value": len(S), "witness": {"points": S}})[0] == shattered
    T = data.draw(st.lists(st.integers(0, C.n_concepts - 1), max_size=C.n_concepts, unique=True))
    dual = len({tuple(int(C.matrix[c, j]) for c in T) for j in range(C.n_points)}) == 2 ** len(T)
    assert check(C, "dual_vc", {"value": len(T), "witness": {"concepts": T}})[0] == dual


def test_dual_vc_with_less_time_than_the_dual_takes_to_make_gives_its_bounds(monkeypatch):
    """(issue 39) making the dual of all-functions n=23 (a point per concept, 8M) took 8 s of a 5 s --time-limit:
    with less time than it takes, dual VC is left at its bounds, 0..floor(log2 |X|), without making it."""
    import solvers.params as params

    def never(C):
        raise AssertionError("the dual was made")

    monkeypatch.setattr(params, "_dual", never)
    C = make("all-functions", n=16)  # 65,536 concepts: about 0.07 s to make its dual
    p = compute(C, ["dual_vc"], time_limit=0.01)["dual_vc"]
    assert (p.lower, p.upper) == (0, 4) and p.value is None
    monkeypatch.undo()
    assert compute(C, ["dual_vc"], time_limit=60)["dual_vc"].value == 4  # (dual VC of all functions: floor(log2 n))


def _proper_tree_ok_brute(M, tree, d) -> bool:
    """The proper game's mistake tree checked by the definition, concept by concept (the check's own twin)."""
    def ok(S, node, d):
        if d == 0:
            return True
        good = [(x, y) for x, y, child in node["replies"]
                if (T := frozenset(c for c in S if M[c, x] == y)) and ok(T, child, d - 1)]
        return all(any(M[h, x] != y for x, y in good) for h in S)

    return ok(frozenset(range(M.shape[0])), tree, d)


@settings(max_examples=40, deadline=None)
@given(matrices(max_rows=8, max_cols=4), st.data())
def test_the_proper_check_agrees_with_the_definition(M, data):
    """(issue 39) the proper tree is checked with masks over the concepts (frozensets of 2^18 concepts took 2 s of
    a 1 s --time-limit); against the definition, on the search's tree and on the tree with replies dropped."""
    C = ConceptClass.from_matrix(M)
    p = compute(C, ["proper"])["proper"].to_json()
    tree = p["witness"].get("tree")
    if tree is None:
        return
    d = p.get("value", p.get("lower"))
    assert check(C, "proper", p)[0] == _proper_tree_ok_brute(C.matrix, tree, d)

    def drop(node):
        replies = [r for r in node["replies"] if not data.draw(st.booleans())]
        return {**node, "replies": [(x, y, drop(child)) for x, y, child in replies]}

    bad = copy.deepcopy(p)
    bad["witness"]["tree"] = drop(tree)
    assert check(C, "proper", bad)[0] == _proper_tree_ok_brute(C.matrix, bad["witness"]["tree"], d)
