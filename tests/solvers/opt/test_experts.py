"""The experts game in count space (solvers/opt/experts.py) and its certificates' checker
(solvers/certificates/experts.py): against the brute-force oracles of tests/oracles.py on the explicit class
of n dictators, against GameSolver on the same matrix, against two recursions over count states written
here from the rules (a Fraction recursion and a numpy table for D), published values, and the relations
the module docstring proves.

Published values used:

* k = 0: R_0(n) = (d + n/2^d - 1)/2 and D_0(n) = d = floor(log2 n) (Filmus, Hanneke, Mehalel and Moran,
  "Optimal prediction using expert advice and randomized Littlestone dimension", COLT 2023; the halving
  bound of Littlestone is tight for the n dictators).
* two experts: D_k(2) = 2k + 1 (Cesa-Bianchi, Freund, Haussler, Helmbold, Schapire and Warmuth, "How to use
  expert advice", JACM 1997).

The values for n = 3, 4, 5 and k = 1, 2 in :data:`COMPUTED` are not from a paper: they were computed here
by two independent brute forces (tests/oracles.py's game_value_brute on the 2^n points, and a recursion
over count states), before this solver existed.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

import solvers.opt.experts as E
from solvers.certificates import TreeError
from solvers.classes import ConceptClass
from solvers.certificates.experts import verify_experts_tree, verify_experts_upper
from solvers.game_rules import Game, universal_rl
from solvers.opt import opt
from solvers.opt.experts import (DeterministicExperts, RandomizedExperts, check_size, experts,
                                 volume_bound_experts)
from solvers.opt.games import GameSolver
from tests.oracles import experts_matrix, game_value_brute
from tests.oracles import volume_bound as oracle_volume_bound

#: (n, k) -> (D_k(n), volume bound, R_k(n)): computed by two independent brute forces (module docstring).
COMPUTED = {
    (3, 1): (3, 3, Fraction(67, 32)),
    (3, 2): (5, 6, Fraction(857, 256)),
    (4, 1): (4, 4, Fraction(19, 8)),
    (4, 2): (6, 6, Fraction(235, 64)),
    (5, 1): (4, 4, Fraction(165, 64)),
    (5, 2): (6, 7, Fraction(1999, 512)),
}


# ------------------------------------------------------------------------------------------ references from the rules
def _children(m, a):
    K = len(m)
    c1 = tuple(a[j] + (m[j + 1] - a[j + 1] if j + 1 < K else 0) for j in range(K))
    c0 = tuple(m[j] - a[j] + (a[j + 1] if j + 1 < K else 0) for j in range(K))
    return c0, c1


@lru_cache(maxsize=None)
def _ref(m, randomized):
    """The value of a count state by the plain recursion over every move, loops by the loop rule (Fractions)."""
    best = Fraction(0) if randomized else 0
    K = len(m)
    for a in itertools.product(*(range(x + 1) for x in m)):
        if a in ((0,) * K, m):
            continue
        c0, c1 = _children(m, a)
        x, y = _ref(c0, randomized), _ref(c1, randomized)
        best = max(best, max(x, y, (1 + x + y) / 2) if randomized else max(x, y, 1 + min(x, y)))
    if any(m[1:]):
        best = max(best, 1 + _ref(m[1:] + (0,), randomized))
    return best


def _det_table(n, k):
    """D of every count state with <= n experts by a numpy table, every move (flat index sum_j m_j (n+1)^j)."""
    K, N1 = k + 1, n + 1
    D = np.full((N1,) * K, -1, dtype=np.int64)
    states = sorted((m for m in itertools.product(range(N1), repeat=K) if 0 < sum(m) <= n),
                    key=lambda m: sum((j + 1) * x for j, x in enumerate(m)))
    for m in states:
        best = 1 + D[m[1:] + (0,)] if any(m[1:]) else 0
        grids = np.meshgrid(*(np.arange(x + 1) for x in m), indexing="ij")
        a = [g.ravel() for g in grids]
        c1 = [a[j] + (m[j + 1] - a[j + 1] if j + 1 < K else 0) for j in range(K)]
        c0 = [m[j] - a[j] + (a[j + 1] if j + 1 < K else 0) for j in range(K)]
        split = ~(np.all([x == 0 for x in a], axis=0) | np.all([x == mj for x, mj in zip(a, m)], axis=0))
        if split.any():
            v = 1 + np.minimum(D[tuple(x[split] for x in c0)], D[tuple(x[split] for x in c1)])
            best = max(best, int(v.max()))
        D[m] = best
    return D


def _states(n, k):
    return [m for m in itertools.product(range(n + 1), repeat=k + 1) if 0 < sum(m) <= n]


# ------------------------------------------------------------------------------------------ agreement
@pytest.mark.parametrize("n,k", [(n, k) for k in range(3) for n in range(1, 5)])
def test_brute_force_and_game_solver_on_the_matrix(n, k):
    rows = experts_matrix(n)
    C = ConceptClass.from_matrix(rows)
    for randomized in (False, True):
        v = experts(n, k, randomized=randomized).value
        assert v == game_value_brute(rows, randomized=randomized, errors=k)
        if not randomized and k == 0:
            assert v == opt(C).value
        else:
            assert v == GameSolver(C, Game(randomized=randomized, errors=k)).value()


@pytest.mark.parametrize("k,n", [(1, 8), (2, 6), (3, 4)])
def test_every_count_state_matches_the_recursion(k, n):
    S = DeterministicExperts(n, k)
    T = RandomizedExperts(n, k)
    T.fill()
    for m in _states(n, k):
        assert S.value(m) == _ref(m, False), m
        assert T.value(m) == _ref(m, True), m


@pytest.mark.parametrize("k,n", [(1, 40), (2, 18)])
def test_the_search_matches_a_table_of_every_move(k, n):
    D = _det_table(n, k)
    S = DeterministicExperts(n, k)
    for m in _states(n, k):
        assert S.value(m) == D[m], m


def test_published_and_computed_values():
    for n in range(1, 65):
        d = n.bit_length() - 1
        assert experts(n, 0, randomized=True).value == Fraction(d + Fraction(n, 2 ** d) - 1, 2)
        assert experts(n, 0).value == d
    for k in range(7):
        assert experts(2, k).value == 2 * k + 1
    for k in range(4):  # the two-experts randomized values of tests/solvers/opt/test_games.py
        assert experts(2, k, randomized=True).value == k + Fraction((2 * k + 1) * math.comb(2 * k, k), 2 ** (2 * k + 1))
    for (n, k), (d, vol, r) in COMPUTED.items():
        assert (experts(n, k).value, volume_bound_experts(n, k), experts(n, k, randomized=True).value) == (d, vol, r)
        assert experts(n, k).volume == vol


def test_relations():
    for k in range(4):
        prev_d, prev_r = None, None
        for n in range(1, 13 if k < 3 else 8):
            d, r = experts(n, k), experts(n, k, randomized=True)
            D, R = d.value, r.value
            assert Fraction(D, 2) <= R <= D <= d.volume == volume_bound_experts(n, k) == oracle_volume_bound(n, k)
            assert D >= k + n.bit_length() - 1 and R >= k + universal_rl(n)
            if prev_d is not None:
                assert prev_d <= D and prev_r <= R  # more experts never help the learner
            prev_d, prev_r = D, R
            if k:
                assert D >= experts(n, k - 1).value + 1 and R >= experts(n, k - 1, randomized=True).value + 1


def test_large_n_deterministic_is_the_volume_bound_quickly():
    for n, k in ((10**6, 1), (10**6, 2), (10**12, 2)):
        r = experts(n, k, time_limit=30)
        assert r.value == r.volume == volume_bound_experts(n, k)
        assert r.stats["seconds"] < 5


def test_where_the_volume_bound_is_not_reached():
    gaps = [n for n in range(1, 40) if experts(n, 2).value < volume_bound_experts(n, 2)]
    assert gaps == [3, 5, 7, 19, 31]
    assert [n for n in range(1, 200) if experts(n, 1).value < volume_bound_experts(n, 1)] == [29, 171]


# ------------------------------------------------------------------------------------------ certificates
@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("randomized", [False, True])
def test_certificates_verify(k, randomized):
    for n in range(1, 9 if k < 2 else 7):
        r = experts(n, k, randomized=randomized)
        lower = json.loads(json.dumps(r.lower_certificate()))
        upper = json.loads(json.dumps(r.upper_certificate()))
        assert verify_experts_tree(lower) == r.value
        assert verify_experts_upper(upper) == r.value


def test_certificates_with_loops_and_gaps():
    r = experts(3, 2)                      # D = 5 < 6: the upper certificate needs entries
    up = r.upper_certificate()
    assert up["entries"] and verify_experts_upper(up) == 5
    t = experts(1, 2, randomized=True).lower_certificate()
    assert t["root"]["repeat"] == 0 and verify_experts_tree(t) == 2   # one expert, two flips


def test_wrong_certificates_are_refused():
    r = experts(4, 2)
    tree = r.lower_certificate()
    deeper = {**tree, "value": tree["value"] + 1}
    with pytest.raises(TreeError, match="depth"):
        verify_experts_tree(deeper)
    bad = json.loads(json.dumps(tree))
    bad["root"]["move"] = [0, 0, 5]
    with pytest.raises(TreeError, match="not between 0"):
        verify_experts_tree(bad)
    one = {"kind": "experts-tree", "game": {"game": "deterministic", "errors": 0}, "experts": 2, "value": 1,
           "root": {"move": [0], "0": None, "1": None}}      # a loop with no budget to flip: label 1 kills both
    with pytest.raises(TreeError, match="not a legal label"):
        verify_experts_tree(one)
    one["root"]["move"] = [1]
    assert verify_experts_tree(one) == 1

    R = experts(4, 2, randomized=True)
    rt = R.lower_certificate()
    with pytest.raises(TreeError, match="less than the claimed"):
        verify_experts_tree({**rt, "value": str(R.value + Fraction(1, 1024))})
    flat = json.loads(json.dumps(rt))
    flat["root"] = {"move": [0, 0, 0], "0": None, "1": None}
    with pytest.raises(TreeError, match="repeat node"):
        verify_experts_tree(flat)

    for res in (experts(3, 2), R):         # D_2(3) = 5 < 6: both need entries
        up = res.upper_certificate()
        low = res.value - (1 if not res.randomized else Fraction(1, 512))
        with pytest.raises(TreeError):
            verify_experts_upper({**up, "bound": E._json_num(low)})
        claims = [dict(e) for e in up["entries"]]
        claims[0]["bound"] = E._json_num(Fraction(claims[0]["bound"]) - Fraction(1, 4))
        with pytest.raises(TreeError):
            verify_experts_upper({**up, "entries": claims, "bound": claims[0]["bound"]})
    up = experts(3, 2).upper_certificate()
    with pytest.raises(TreeError, match="< 0"):
        verify_experts_upper({**up, "entries": [{"path": [], "bound": -1}], "bound": -1})
    with pytest.raises(TreeError, match="not legal|not between"):
        verify_experts_upper({**up, "entries": [{"path": [[[0, 0, 9], 1]], "bound": 0}]})
    with pytest.raises(TreeError, match="experts"):
        verify_experts_upper({**up, "experts": 0})
    with pytest.raises(TreeError, match="kind"):
        verify_experts_tree(up)


# ------------------------------------------------------------------------------------------ limits and input
def test_time_limit_returns_proven_bounds():
    exact = experts(40, 2, randomized=True).value
    r = experts(40, 2, randomized=True, time_limit=0.02)
    assert r.stats["stopped"] == "time limit" and r.value is None
    assert r.lower <= exact <= r.upper and r.lower >= 2 + universal_rl(40)
    with pytest.raises(ValueError, match="not solved"):
        r.upper_certificate()


def test_small_memo_still_exact():
    S = DeterministicExperts(200, 2, memo_bytes=20_000)
    assert S.value() == experts(200, 2).value and S.evictions > 0


def test_precision_fallback_is_exact():
    # with 13 bits, P = 7, but R_2(7) = 1089/256 needs 2^-8: each integer table gives up, the next one takes over
    for precisions, kind in ((((np.int32, 13), (np.int64, 63)), np.int64), (((np.int64, 13),), None)):
        T = RandomizedExperts(7, 2)
        T.PRECISIONS = precisions
        T.fill()
        assert (T.exact is None and T.table.dtype == kind) if kind else T.exact is not None
        assert T.value() == _ref((0, 0, 7), True) == Fraction(1089, 256)
        for m in _states(7, 2):
            assert T.value(m) == _ref(m, True)
    T = RandomizedExperts(7, 2)
    T.fill()
    assert T.table.dtype == np.int32 and T.P >= 20


@pytest.mark.parametrize("randomized", [False, True])
def test_a_huge_k_is_refused_before_any_work(randomized):
    # issue 39: k = 10^9 listed a 10^9-tuple root and a volume bound cubic in k (killed for its memory)
    for k in (10**9, E.MAX_K + 1):
        with pytest.raises(ValueError, match=f"k={k}: the experts games take k <= {E.MAX_K}"):
            check_size(2, k, randomized=randomized)
        with pytest.raises(ValueError, match="give a smaller k"):
            experts(2, k, randomized=randomized, time_limit=1)
    check_size(2, E.MAX_K)  # the largest k is taken


def test_memo_entries_count_the_levels():
    # a memo entry's key is a (k + 1)-tuple: its budget counts it, or a large k overruns --memory many times
    assert DeterministicExperts(3, 100)._entry_bytes >= DeterministicExperts(3, 0)._entry_bytes + 8 * 100


@pytest.mark.parametrize("randomized", [False, True])
def test_memory_error_returns_proven_bounds(monkeypatch, randomized):
    # issue 39: past the process's memory limit the search stops with its bounds, as a time limit does
    exact = experts(40, 2, randomized=randomized).value
    cls, method = (RandomizedExperts, "fill") if randomized else (DeterministicExperts, "solve_root")

    def fail(self, *args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cls, method, fail)
    r = experts(40, 2, randomized=randomized)
    assert r.stats["stopped"] == "memory" and r.value is None
    assert r.lower <= exact <= r.upper == r.volume


def test_bad_input_is_refused():
    for n, k in ((0, 1), (-3, 1), (True, 1), (2.0, 1), (3, -1), (3, 1.5), (3, False)):
        with pytest.raises(ValueError, match="whole number"):
            experts(n, k)
    with pytest.raises(ValueError, match="time_limit"):
        experts(3, 1, time_limit=0)
    with pytest.raises(ValueError, match="GB"):
        check_size(1000, 2, randomized=True, memo_bytes=10**6)
    with pytest.raises(ValueError, match="a day"):
        check_size(10**5, 2, randomized=True, memo_bytes=10**30)
    with pytest.raises(ValueError, match="n <="):
        experts(10**20, 1)
    with pytest.raises(ValueError, match="closed form"):
        RandomizedExperts(5, 0)
