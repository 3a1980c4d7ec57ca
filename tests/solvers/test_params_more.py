"""The parameters of issue 38, part 1 (co-VC, extended / no-clash / minimum teaching, minimum star, the catalogue's
threshold dimension, path, eluder, the query games, majority, dual Opt): each against a brute force written here
from its definition on random small classes (hypothesis), against the values the catalogue
obousquet/Combinatorial-Parameters asserts at small sizes, and against the relations between them; every witness
replayed by the checker, and tampered ones refused."""

import copy
import itertools
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.certificates.params import check, check_bounds
from solvers.certificates.params_more import _partial_by_threshold
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.params import DEFAULT_KEYS, KEYS, compute

NEW = tuple(k for k in KEYS if k not in DEFAULT_KEYS + ("req", "rpeq"))  # (those two: test_random_queries.py)


# ------------------------------------------------------------------------------------- brute forces, from the definitions
def traces(M, S) -> set:
    return {tuple(int(v) for v in M[c, list(S)]) for c in range(M.shape[0])}


def chain_brute(M) -> int:
    """The largest d: points x_1..x_d with {x_1..x_k} a trace for every k = 0..d."""
    n = M.shape[1]
    best = 0
    for d in range(1, n + 1):
        for xs in itertools.permutations(range(n), d):
            T = traces(M, xs)
            if all(tuple(int(j < k) for j in range(d)) in T for k in range(d + 1)):
                best = d
                break
    return best


def path_brute(M) -> int:
    n = M.shape[1]
    best = 0
    for d in range(1, n + 1):
        for xs in itertools.permutations(range(n), d):
            T = traces(M, xs)
            if any(all(tuple(t[j] ^ int(j < k) for j in range(d)) in T for k in range(d + 1))
                   for t in itertools.product((0, 1), repeat=d)):
                best = d
                break
    return best


def eluder_brute(M) -> int:
    m, n = M.shape
    best = 0
    for b in range(m):
        for d in range(best + 1, n + 1):
            if any(all(any(M[h, xs[i]] != M[b, xs[i]] and all(M[h, xs[j]] == M[b, xs[j]] for j in range(i))
                           for h in range(m)) for i in range(d))
                   for xs in itertools.permutations(range(n), d)):
                best = d
    return best


def covc_brute(M) -> int:
    n = M.shape[1]
    best = 0
    for d in range(1, n + 1):
        for S in itertools.combinations(range(n), d):
            T = traces(M, S)
            for t in itertools.product((0, 1), repeat=d):
                if t not in T and all(tuple(v ^ int(j == i) for j, v in enumerate(t)) in T for i in range(d)):
                    best = d
    return best


def star_at(M, g, S) -> bool:
    agree = [[int(M[c, x]) == g[x] for x in S] for c in range(M.shape[0])]
    return any(all(a) for a in agree) and all(
        any(not a[i] and all(a[j] for j in range(len(S)) if j != i) for a in agree) for i in range(len(S)))


def min_star_brute(M) -> int:
    n = M.shape[1]
    return min(max([len(S) for d in range(n + 1) for S in itertools.combinations(range(n), d) if star_at(M, g, S)])
               for g in itertools.product((0, 1), repeat=n))


def teaches(M, c, S) -> bool:
    return all(any(M[h, x] != M[c, x] for x in S) for h in range(M.shape[0]) if h != c)


def min_td_brute(M) -> int:
    m, n = M.shape
    return min(next(k for k in range(n + 1) for S in itertools.combinations(range(n), k) if teaches(M, c, S))
               for c in range(m))


def xtd_brute(M) -> int:
    m, n = M.shape
    return max(next(k for k in range(n + 1) for S in itertools.combinations(range(n), k)
                    if sum(all(M[h, x] == f[x] for x in S) for h in range(m)) <= 1)
               for f in itertools.product((0, 1), repeat=n))


def nctd_brute(M) -> int:
    m, n = M.shape
    for k in range(n + 1):
        sets = [S for d in range(k + 1) for S in itertools.combinations(range(n), d)]
        for A in itertools.product(sets, repeat=m):
            if all(any(M[c, x] != M[h, x] for x in set(A[c]) | set(A[h])) for c in range(m) for h in range(c + 1, m)):
                return k
    raise AssertionError


def game_brute(M, key: str) -> int:
    """The query games over version spaces as frozensets, every move the definition allows."""
    m, n = M.shape
    concepts = [tuple(int(v) for v in M[c]) for c in range(m)]

    def eq_value(V, g, value):
        replies = []
        for x in range(n):
            r = frozenset(h for h in V if concepts[h][x] != g[x])
            if r == V:
                return None
            if r:
                replies.append(r)
        return 1 + max([value(r) for r in replies], default=0)

    @lru_cache(maxsize=None)
    def value(V) -> int:
        if len(V) <= 1:
            return 0
        out = []
        for x in range(n):
            V0 = frozenset(h for h in V if concepts[h][x] == 0)
            V1 = V - V0
            if V0 and V1:
                if key == "self_directed":
                    out.append(min(max(value((V0, V1)[p]), 1 + value((V1, V0)[p])) for p in (0, 1)))
                elif key in ("mq", "mpeq", "meq"):
                    out.append(1 + max(value(V0), value(V1)))
        if key in ("peq", "mpeq"):
            out += [v for g in concepts if (v := eq_value(V, g, value)) is not None]
        if key == "meq":
            out += [v for g in itertools.product((0, 1), repeat=n) if (v := eq_value(V, g, value)) is not None]
        return min(out)

    return value(frozenset(range(m)))


def partial_brute(M) -> int:
    """Partial equivalence queries: labels on a set D of points; "yes" or a counterexample in D."""
    m, n = M.shape

    @lru_cache(maxsize=None)
    def value(V) -> int:
        if len(V) <= 1:
            return 0
        out = []
        for q in itertools.product((None, 0, 1), repeat=n):
            if all(y is None for y in q):
                continue
            replies = [frozenset(h for h in V if all(y is None or M[h, x] == y for x, y in enumerate(q)))]
            replies += [frozenset(h for h in V if M[h, x] != y) for x, y in enumerate(q) if y is not None]
            if V not in replies:
                out.append(1 + max(value(r) for r in replies if r))
        return min(out)

    return value(frozenset(range(m)))


def rtd_brute(M) -> int:
    """Peel, step by step, every concept whose smallest teaching set among those left is the smallest there."""
    alive, value = list(range(M.shape[0])), 0
    n = M.shape[1]
    while alive:
        sizes = {c: next(k for k in range(n + 1) for S in itertools.combinations(range(n), k)
                         if all(any(M[h, x] != M[c, x] for x in S) for h in alive if h != c)) for c in alive}
        low = min(sizes.values())
        value = max(value, low)
        alive = [c for c in alive if sizes[c] != low]
    return value


def rtd_p_brute(M) -> int:
    n = M.shape[1]
    return max(rtd_brute(np.unique(M[:, list(S)], axis=0)) for d in range(n + 1)
               for S in itertools.combinations(range(n), d))


def littlestone(M, V) -> int:
    n = M.shape[1]
    return max([1 + min(littlestone(M, a), littlestone(M, V - a)) for x in range(n)
                if (a := frozenset(h for h in V if M[h, x] == 0)) and V - a], default=0)


def prefix_brute(M, k) -> int:
    """The deepest shattered tree whose first min(k, d) levels each ask one point."""
    m, n = M.shape
    best = 0
    for j in range(1, k + 1):
        for xs in itertools.permutations(range(n), j):
            parts = [frozenset(h for h in range(m) if tuple(M[h, list(xs)]) == b)
                     for b in itertools.product((0, 1), repeat=j)]
            if all(parts):
                best = max(best, j + (min(littlestone(M, W) for W in parts) if j == k else 0))
    return best


def block_brute(M) -> int:
    m, n = M.shape

    @lru_cache(maxsize=None)
    def value(V) -> int:
        best = 0
        for x in range(n):
            sides = [frozenset(h for h in V if M[h, x] == b) for b in (0, 1)]
            if all(sides):
                best = max(best, 1)
                for y in range(n):
                    four = [frozenset(h for h in side if M[h, y] == b) for side in sides for b in (0, 1)]
                    if all(four):
                        best = max(best, 2 + min(value(W) for W in four))
        return best

    return value(frozenset(range(m)))


def majority_brute(M) -> int:
    m, n = M.shape

    @lru_cache(maxsize=None)
    def value(V) -> int:
        if len(V) <= 1:
            return 0
        g = [int(2 * sum(M[h, x] for h in V) > len(V)) for x in range(n)]
        return max([1 + value(r) for x in range(n) if (r := frozenset(h for h in V if M[h, x] != g[x]))], default=0)

    return value(frozenset(range(m)))


def opt_brute(M) -> int:
    m, n = M.shape

    @lru_cache(maxsize=None)
    def value(V) -> int:
        out = 0
        for x in range(n):
            V0 = frozenset(h for h in V if M[h, x] == 0)
            if V0 and V - V0:
                out = max(out, 1 + min(value(V0), value(V - V0)))
        return out

    return value(frozenset(range(m)))


def dual_opt_brute(M) -> int:
    D = np.unique(np.asarray(M).T, axis=0)
    return opt_brute(D)


BRUTE = {"threshold_chain": chain_brute, "path": path_brute, "eluder": eluder_brute, "covc": covc_brute,
         "min_star": min_star_brute, "min_td": min_td_brute, "xtd": xtd_brute, "nctd": nctd_brute,
         "majority": majority_brute, "dual_opt": dual_opt_brute, "partial_eq": partial_brute, "rtd_p": rtd_p_brute,
         "prefix_2": lambda M: prefix_brute(M, 2), "prefix_3": lambda M: prefix_brute(M, 3), "block_2": block_brute,
         **{k: (lambda M, k=k: game_brute(M, k)) for k in ("self_directed", "mq", "peq", "mpeq", "meq")}}


@st.composite
def classes(draw, max_points: int = 5, max_concepts: int = 8):
    n = draw(st.integers(1, max_points))
    m = draw(st.integers(1, min(max_concepts, 2 ** n)))
    rows = draw(st.lists(st.integers(0, 2 ** n - 1), min_size=m, max_size=m, unique=True))
    return ConceptClass.from_matrix(np.array([[(r >> j) & 1 for j in range(n)] for r in rows], dtype=np.uint8))


def test_every_new_key_has_a_brute_force():
    assert set(BRUTE) == set(NEW)


@settings(max_examples=50, deadline=None)
@given(classes())
def test_every_new_parameter_against_its_definition(C):
    M = np.asarray(C.matrix)
    r = compute(C, NEW)
    for k, p in r.items():
        if k == "nctd" and C.n_concepts > 5:
            continue  # (its brute force tries every assignment of sets)
        assert p.value == BRUTE[k](M), k
        ok, why, lo, hi = check_bounds(C, k, p.to_json())
        assert ok, (k, why)
        assert lo in (None, p.value) and hi in (None, p.value), (k, why)


@settings(max_examples=40, deadline=None)
@given(classes(max_concepts=12), st.booleans())
def test_partial_queries_by_threshold_against_every_query(C, twin):
    """partial_eq's search tries one query per threshold (its value is monotone), not the 3^s partial labellings:
    against every query of the definition, on classes with a duplicated and a complemented point too."""
    M = np.asarray(C.matrix)
    if twin:
        M = np.hstack([M, M[:, :1], 1 - M[:, -1:]])
    D = ConceptClass.from_matrix(M)
    p = compute(D, ["partial_eq"])["partial_eq"]
    assert p.value == partial_brute(M) == _partial_by_threshold(M, 10 ** 6)  # (the checker's, past 6 splits)
    ok, why, lo, hi = check_bounds(D, "partial_eq", p.to_json())
    assert ok and lo == hi == p.value, why


@settings(max_examples=40, deadline=None)
@given(classes(max_concepts=5, max_points=4))
def test_nctd_against_every_assignment(C):
    assert compute(C, ["nctd"])["nctd"].value == nctd_brute(np.asarray(C.matrix))


@settings(max_examples=40, deadline=None)
@given(classes(max_points=6, max_concepts=12))
def test_the_relations_between_them(C):
    r = {k: p.value for k, p in compute(C, ["vc", "threshold", "star", "td", "rtd", "best_order", *NEW]).items()}
    from solvers.opt import opt

    L = opt(C).value
    assert r["threshold"] - 1 <= r["threshold_chain"] <= r["threshold"] <= r["path"] + 1
    assert r["threshold_chain"] <= r["path"]
    assert r["star"] <= r["eluder"]
    assert r["vc"] <= r["min_star"] <= r["star"]
    assert r["min_td"] <= r["td"] and r["nctd"] <= r["td"]
    assert r["self_directed"] <= r["best_order"]
    assert r["meq"] <= min(L, r["mq"], r["mpeq"]) and r["mpeq"] <= min(r["mq"], r["peq"])
    assert L <= r["majority"] <= max(C.n_concepts.bit_length() - 1, 0)
    assert r["partial_eq"] <= min(r["mq"], r["meq"]) and r["rtd_p"] >= r["rtd"]
    assert min(r["vc"], 3) <= r["prefix_3"] and min(r["vc"], 2) <= r["prefix_2"] <= L and r["block_2"] <= L


def test_the_extended_teaching_dimension_is_not_the_star_number():
    """The catalogue records XTD = star number for finite classes. Six concepts on four points have star number 3
    (centre 0011, points 1..3) and XTD 2 (every labelling is specified by two points, each tried by the checker)."""
    C = rows("1111", "0010", "1101", "0011", "0000", "1001")
    r = compute(C, ["star", "xtd"])
    assert (r["star"].value, r["xtd"].value) == (3, 2)
    assert check_bounds(C, "star", r["star"].to_json())[2] == 3  # the star's witness proves >= 3
    assert check_bounds(C, "xtd", r["xtd"].to_json())[2:] == (2, 2)  # every labelling tried: = 2


# ------------------------------------------------------------------------------------------------ the catalogue's values
def rows(*words) -> ConceptClass:
    return ConceptClass.from_matrix(np.array([[int(ch) for ch in w] for w in words], dtype=np.uint8))


def singletons(n, empty=False):
    return make("singletons", N=n, empty=int(empty))


def halfintervals(n):  # I_n = {[i] : 1 <= i <= n}: n concepts, point 1 in all
    return ConceptClass.from_matrix(np.array([[int(j <= i) for j in range(n)] for i in range(n)], dtype=np.uint8))


def majority_class(n):  # all S of [n+1] with n+1 in S iff |S & [n]| > n/2
    return ConceptClass.from_matrix(np.array([[*bits, int(2 * sum(bits) > n)] for bits in
                                              itertools.product((0, 1), repeat=n)], dtype=np.uint8))


def warmuth():  # C5: 1,0,0,1 on four consecutive cyclic positions of Z/5, the fifth free (written out)
    return rows("10010", "10011", "01001", "11001", "10100", "11100", "01010", "01110", "00101", "00111")


# (class, {key: value}) from the catalogue's value records, at the sizes shown. One differs: the catalogue gives the
# path dimension of the singletons S_n as 1, and for n >= 3 it is 2 by its own definition: on points x_1, x_2 the
# traces {x_1}, {} (a third singleton) and {x_2} are a path (the brute force above agrees).
CATALOGUE = [
    *[(f"S_{n}", lambda n=n: singletons(n), {"covc": n, "xtd": n - 1, "nctd": 1, "min_td": 1, "min_star": 1,
                                             "self_directed": 1, "mq": n - 1, "meq": 1, "mpeq": n - 1, "peq": n - 1,
                                             "path": 2, "eluder": n - 1, "majority": 1, "threshold_chain": 1,
                                             "dual_opt": 1, "rtd_p": 1, "partial_eq": 1, "prefix_2": 1,
                                             "prefix_3": 1, "block_2": 1}) for n in (3, 4, 5)],
    *[(f"cube_{n}", lambda n=n: make("all-functions", n=n),
       {"covc": 0, "xtd": n, "nctd": -(-n // 2), "min_td": n, "min_star": n, "self_directed": n, "mq": n, "peq": n,
        "path": n, "eluder": n, "majority": n, "threshold_chain": n, "dual_opt": max(n.bit_length() - 1, 0),
        "rtd_p": n, "prefix_2": n, "prefix_3": n, "block_2": n})
      for n in (2, 3, 4)],
    *[(f"S0_{n}", lambda n=n: singletons(n, empty=True),
       {"covc": 2, "xtd": n, "nctd": 1, "min_td": 1, "min_star": 1, "self_directed": 1, "mq": n, "meq": 1, "mpeq": 1,
        "peq": 1, "path": 2, "eluder": n, "majority": 1, "threshold_chain": 1, "rtd_p": 1, "partial_eq": 1,
        "prefix_2": 1, "prefix_3": 1, "block_2": 1}) for n in (2, 3, 5)],
    *[(f"I_{n}", lambda n=n: halfintervals(n),
       {"covc": 2, "xtd": 2, "nctd": 1, "min_td": 1, "min_star": 1, "self_directed": 1, "mq": (n - 1).bit_length(),
        "path": n - 1, "eluder": n - 1, "threshold_chain": n - 1, "rtd_p": 1, "prefix_2": 1, "prefix_3": 1,
        "block_2": 1}) for n in (3, 5, 8)],
    *[(f"trivial_{n}", lambda n=n: rows("0" * n, "1" * n),
       {"covc": 2, "xtd": 1, "nctd": 1, "min_td": 1, "min_star": 1, "self_directed": 1, "mq": 1, "meq": 1, "mpeq": 1,
        "peq": 1, "path": 1, "eluder": 1, "majority": 1, "threshold_chain": 1, "rtd_p": 1, "partial_eq": 1,
        "prefix_2": 1, "prefix_3": 1, "block_2": 1}) for n in (2, 4)],
    ("C5", warmuth, {"covc": 4, "xtd": 3, "nctd": 2, "min_td": 3, "min_star": 3, "mq": 4, "path": 4, "eluder": 4,
                     "threshold_chain": 2, "rtd_p": 3, "prefix_2": 3, "prefix_3": 2, "block_2": 3}),
    *[(f"Maj_{n}", lambda n=n: majority_class(n),
       {"covc": n // 2 + 2, "xtd": n, "min_star": n, "mq": n, "eluder": n + 1, "majority": n, "threshold_chain": n,
        "prefix_2": n, "block_2": n})
      for n in (2, 3, 4)],
    ("three-code", lambda: rows("000", "011", "101"),
     {"peq": 2, "mpeq": 2, "mq": 2, "path": 2, "eluder": 2, "threshold_chain": 2}),
    ("majority_gap", lambda: rows("0000", "0001", "0010", "0011", "0100", "0101", "0111", "1000"), {"majority": 3}),
    ("membership-projection", lambda: rows("0001", "0011", "0100", "1000"), {"mq": 2}),
    ("membership-projected", lambda: rows("000", "001", "010", "100"), {"mq": 3}),
    ("proper-eq-three", lambda: rows("001", "010", "100"), {"peq": 2}),
    ("projected_rtd_gap", lambda: rows("001", "010", "011", "100"), {"rtd_p": 2}),
]


@pytest.mark.parametrize("name, build, expected", CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_the_catalogues_values(name, build, expected):
    C = build()
    r = compute(C, list(expected))
    assert {k: p.value for k, p in r.items()} == expected
    for k, p in r.items():
        assert check(C, k, p.to_json())[0], k


# --------------------------------------------------------------------------------------------------------- witnesses
def _tamper(key: str, w: dict, M) -> None:
    if key in ("threshold_chain", "path"):
        w["concepts"][0], w["concepts"][-1] = w["concepts"][-1], w["concepts"][0]
    elif key == "eluder":
        w["concepts"][0] = w["base"]
    elif key == "covc":
        w["labels"][0] ^= 1
    elif key == "min_star":
        w["labelling"] = [int(v) for v in M[0]]  # a concept: the star around it is larger than the minimum
        w["lower"]["points"] = w["lower"]["points"][:1] * 2
    elif key == "min_td":
        w["teaching_set"] = w["teaching_set"][:-1]
    elif key == "xtd":
        w["labelling"] = [int(v) for v in M[0]]
    elif key == "nctd":
        for c in w["sets"]:
            w["sets"][c] = []
    elif key == "majority":
        w["run"] = w["run"] + w["run"][-1:]
    elif key == "rtd_p":
        w["steps"][0]["sets"][0] = []
    elif key in ("prefix_2", "prefix_3", "block_2"):
        w["tree"]["0"], w["tree"]["1"] = w["tree"]["1"], w["tree"]["0"]  # each leaf's concept off its path
    elif key == "dual_opt":
        w["tree"]["depth"] += 1
    else:
        k = next(iter(w["strategy"]))
        move = w["strategy"][k]
        w["strategy"][k] = ["mq", move[1]] if move[0] == "sd" else ["sd", 0, 0]  # a move the game does not allow


@pytest.mark.parametrize("key", NEW)
def test_tampered_witnesses_are_refused(key):
    C = make("intervals", N=4)
    p = compute(C, [key])[key].to_json()
    assert check(C, key, p)[0]
    bad = copy.deepcopy(p)
    _tamper(key, bad["witness"], np.asarray(C.matrix))
    assert not check(C, key, bad)[0], key
    wrong = copy.deepcopy(p)
    wrong["value"] += 1
    assert not check(C, key, wrong)[0], key


@pytest.mark.parametrize("key", NEW)
def test_a_large_class_stopped_at_once_gives_bounds(key):
    C = make("all-functions", n=12)
    p = compute(C, [key], time_limit=1e-3)[key]
    assert 0 <= p.lower <= p.upper
    assert check(C, key, p.to_json())[0]


# ------------------------------------------------------------------------------------------------ the command line
def test_params_only_all_and_the_store(capsys, tmp_path):
    import json

    from tests.adversary.cli.checks import run

    store = tmp_path / "s.db"
    code, out, err = run(capsys, "params", "intervals", "N=4", "--only", "all", "--json", "--store", store, "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert set(KEYS) <= set(data) and all("value" in data[k] for k in KEYS)
    assert all(data[k]["check"] for k in NEW)  # each witness replayed (a failed one exits 1)
    code, out, err = run(capsys, "params", "intervals", "N=4", "--only", "path,mq", "--store", store)
    assert code == 0 and "served from the store (witnesses replayed): path, mq" in out
    assert [line.split()[:2] for line in out.splitlines() if line.startswith("  path") or line.startswith("  mq")] == [
        ["path", "4"], ["mq", "4"]]


def test_table_columns_of_the_new_keys(capsys, tmp_path):
    from tests.adversary.cli.checks import run

    code, out, err = run(capsys, "table", "intervals", "--grid", "N=3..4", "--columns", "threshold_chain,path,mq",
                         "--no-store", "--quiet")
    assert code == 0, err
    head, rule, *body = [line for line in out.splitlines() if line.startswith("|")]
    assert [c.strip() for c in head.strip("|").split("|")][-4:-1] == ["threshold_chain", "path", "mq"]
    assert [c.strip() for c in body[0].strip("|").split("|")][-4:-1] == ["3", "3", "3"]  # N=3: 7 concepts


# ------------------------------------------------------------------------------- forged witnesses (found in review)
FORGED = [  # (class, key, JSON a checker must refuse): each would otherwise prove a wrong value
    (lambda: make("all-functions", n=3), "min_star", {"value": 0, "witness": {  # a label 2 agrees with no concept
        "labelling": [2, 2, 2], "points": [], "neighbours": [], "lower": {"by": "vc", "points": []}}}),
    (lambda: make("all-functions", n=2), "covc", {"value": 2, "witness": {  # -2 is point 0 again, read by numpy
        "points": [0, -2], "labels": [0, 1], "neighbours": [3, 0], "upper": {"by": "bound"}}}),
    (lambda: make("singletons", N=16, empty=0), "peq", {"value": 1, "witness": {  # a proposal outside C
        "strategy": {"ffff": ["eq", "0" * 16]}}}),
    (lambda: make("singletons", N=16, empty=0), "meq", {"value": 1, "witness": {  # a labelling of one point of 16
        "strategy": {"ffff": ["eq", "0"]}}}),
    (lambda: rows("0", "1"), "min_td", {"value": 3, "witness": {"concept": 0, "teaching_set": [0, 0, 0]}}),
    (lambda: rows("0", "1"), "xtd", {"lower": 3, "upper": 3, "witness": {"labelling": [0]}}),
    (lambda: rows("0", "1"), "td", {"value": 3, "witness": {"concept": 0, "teaching_set": [0, 0, 0],
                                                            "sets": {"0": [0, 0, 0], "1": [0]}}}),
    (lambda: rows("0", "1"), "rtd", {"value": 3, "witness": {"steps": [{"size": 3, "concepts": [0, 1],
                                                                        "sets": [[0, 0, 0], [0, 0, 0]]}]}}),
]


@pytest.mark.parametrize("build, key, forged", FORGED, ids=[f[1] + str(i) for i, f in enumerate(FORGED)])
def test_forged_witnesses_are_refused(build, key, forged):
    assert not check(build(), key, forged)[0]


def test_covc_past_62_points():
    """Patterns of more than 62 points do not fit an int64: the wide path (66 singletons: the empty trace is the
    hole, its 66 flips the concepts)."""
    C = make("singletons", N=66, empty=0)
    p = compute(C, ["covc"], time_limit=60)["covc"]
    assert p.value == 66 and check(C, "covc", p.to_json())[0]


def test_no_points_gives_zero_for_the_duals():
    C = ConceptClass.from_matrix(np.zeros((1, 0), dtype=np.uint8))
    r = compute(C, ["dual_vc", "dual_opt"])
    assert (r["dual_vc"].value, r["dual_opt"].value) == (0, 0)
    assert all(check(C, k, p.to_json())[0] for k, p in r.items())
