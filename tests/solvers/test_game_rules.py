"""solvers/game_rules.py: the rules (step, counts), the one-round values f and g, and the bounds the solvers
prune with -- E(n), U(n, d) and the volume bound -- against brute force (tests/oracles.py) and by
enumerating trees."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.game_rules import (Game, budgets, counts, f, g, rank_rl_bound, start, step, universal_rl, value_text,
                                volume_bound)
from tests.oracles import dk_brute, experts_matrix, matrices, opt_brute, rl_brute


# ---------------------------------------------------------------------------------------- trees
@lru_cache(maxsize=None)
def _trees(leaves: int) -> tuple:
    """Every binary tree with exactly ``leaves`` leaves, as (rank, total depth weight sum_leaves 2^-depth * depth,
    ...) summaries: (rank, half the random-walk average depth)."""
    if leaves == 1:
        return ((0, Fraction(0)),)
    out = set()
    for left in range(1, leaves):
        for r0, v0 in _trees(left):
            for r1, v1 in _trees(leaves - left):
                rank = max(r0, r1) if r0 != r1 else r0 + 1
                out.add((rank, (1 + v0 + v1) / 2))  # half the average depth: (1 + (D0 + D1)/2)/2
    return tuple(out)


def test_rank_bound_is_the_best_tree_of_bounded_rank():
    for n in range(1, 12):
        for d in range(0, 5):
            best = max((v for m in range(1, n + 1) for r, v in _trees(m) if r <= d), default=Fraction(0))
            assert rank_rl_bound(n, d) == best, (n, d)
    for n in range(1, 12):
        assert universal_rl(n) == max(v for m in range(1, n + 1) for _, v in _trees(m))


@settings(max_examples=80, deadline=None)
@given(matrices(max_rows=9, max_cols=5))
def test_rl_is_below_the_rank_bound_of_its_opt(rows):
    C = ConceptClass.from_matrix(rows)
    rows = C.matrix.astype(int).tolist()
    rl, o = rl_brute(rows), opt_brute(rows)
    assert rl <= rank_rl_bound(len(rows), o) <= universal_rl(len(rows))


def test_rank_bound_past_the_table_is_e():
    assert rank_rl_bound(1000, 3) == universal_rl(1000)
    assert rank_rl_bound(1000, 1) == 1 - Fraction(1, 2 ** 999)


# ---------------------------------------------------------------------------------------- the volume bound
@settings(max_examples=40, deadline=None)
@given(matrices(max_rows=5, max_cols=3), st.integers(0, 2))
def test_volume_bound_bounds_the_deterministic_value(rows, k):
    C = ConceptClass.from_matrix(rows)
    rows = C.matrix.astype(int).tolist()
    assert dk_brute(rows, k) <= volume_bound([0] * k + [len(rows)])


def test_volume_bound_of_experts():
    # max{q : 2^q <= n sum_{i <= k} C(q, i)}
    for n in range(1, 9):
        for k in range(0, 4):
            q = max(q for q in range(0, 60) if 2 ** q <= n * sum(math.comb(q, i) for i in range(k + 1)))
            assert volume_bound([0] * k + [n]) == q
    assert volume_bound([0, 0, 3]) == 6 and dk_brute(experts_matrix(3), 2) == 5  # where they differ


# ---------------------------------------------------------------------------------------- rules and values
def test_step_and_budgets():
    s = start(0b111, 2)
    s = step(s, 0b011, 1)              # concept 2 disagrees
    assert budgets(s, 3) == [2, 2, 1] and counts(s) == (0, 1, 2)
    s = step(step(s, 0b011, 1), 0b011, 1)
    assert budgets(s, 3) == [2, 2, -1]
    assert step(start(0b1, 0), 0b1, 0) is None          # no budget: the label is illegal


def test_one_round_values():
    for a, b in itertools.product([Fraction(x, 4) for x in range(0, 9)], repeat=2):
        v = f(a, b)
        # the learner's best p against the adversary's label
        p = min(Fraction(1), max(Fraction(0), (1 + b - a) / 2))
        assert v == max(p + a, 1 - p + b)
        assert v >= (1 + a + b) / 2 and v >= max(a, b)
    for a, b in itertools.product(range(4), repeat=2):
        assert g(a, b) == min(max(a, 1 + b), max(1 + a, b))


def test_game_names_and_errors():
    assert Game().standard and Game().symbol == "Opt"
    assert Game(True).symbol == "RL" and Game(False, 2).symbol == "D_2" and Game(True, 1, 5).symbol == "R_1[T=5]"
    assert Game.of("randomized", 1).describe() == "the randomized optimum with 1 label error, R_1(C)"
    for bad in (dict(errors=-1), dict(errors=1.5), dict(horizon=-2), dict(randomized=1)):
        with pytest.raises(ValueError):
            Game(**bad)
    assert value_text(Fraction(7, 8)) == "7/8 (0.875)" and value_text(3) == "3"


def test_label_errors_are_bounded():
    """The games' searches recurse once per mistake (2K + Opt(C) deep): past MAX_ERRORS they would exhaust the
    recursion limit (K = 1000 did, after 72 s) or the memory (K = 100000 took 23 GB)."""
    from solvers.game_rules import MAX_ERRORS

    assert Game(errors=MAX_ERRORS).errors == MAX_ERRORS
    with pytest.raises(ValueError, match=f"at most {MAX_ERRORS} label errors"):
        Game(errors=MAX_ERRORS + 1)
    with pytest.raises(ValueError, match=f"at most {MAX_ERRORS}"):
        Game(errors=10**20)
