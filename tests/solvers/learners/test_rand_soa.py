"""RandSOA (:mod:`solvers.learners.rand_soa`) on any version-space oracle: one written here from the
brute-force RL of tests/oracles.py gives the probabilities of the library's, and what is not an oracle of
the randomized game is refused in one line.

References
----------
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

import contextlib
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.learners import SOA, RandSOA
from solvers.opt import oracle_for

from ...oracles import matrices, rl_brute

SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


class BruteRL:
    """The randomized game without label errors as a version-space oracle: states are ``(V,)``, values RL(V)
    by the brute force ([FHMM23]'s randomized optimum, tests/oracles.py), -1 for an empty V."""

    def __init__(self, C):
        self.C, self.game, self.deadline = C, Game(randomized=True), None
        self.rows = [tuple(int(b) for b in C.matrix[c]) for c in range(len(C))]

    def root(self):
        return (sum(1 << c for c in range(len(self.rows))),)

    def child(self, state, j, y):
        W = sum(1 << c for c, r in enumerate(self.rows) if (state[0] >> c) & 1 and r[j] == y)
        return (W,) if W else None

    def value(self, state=None):
        V = (self.root() if state is None else state)[0]
        rows = [r for c, r in enumerate(self.rows) if (V >> c) & 1]
        return rl_brute(rows) if rows else Fraction(-1)

    def bounds(self, state=None):
        return Fraction(0), Fraction(len(self.rows))

    def record(self, state, lower, upper):
        pass

    def limits(self, *, deadline=None):
        return contextlib.nullcontext(self)


@SETTINGS
@given(matrices(max_rows=6, max_cols=4), st.data())
def test_rand_soa_on_a_brute_force_oracle_has_the_library_probabilities(rows, data):
    C = ConceptClass.from_matrix(rows)
    A, B = RandSOA(C, seed=3, solver=BruteRL(C)), RandSOA(C, seed=3)
    assert A.mistake_bound().value == B.mistake_bound().value == rl_brute(rows)
    target = data.draw(st.integers(0, len(C) - 1), label="target")
    for j in data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=6), label="points"):
        assert [A.probability(x) for x in C.points] == [B.probability(x) for x in C.points]
        assert A.predict_one(C.points[j]) == B.predict_one(C.points[j])  # the same seed: the same draws
        y = int(C.matrix[target, j])
        A.learn_one(C.points[j], y)
        B.learn_one(C.points[j], y)
        assert A.state_key() == B.state_key()
        assert A.remaining_bound(A.levels) == B.remaining_bound(B.levels)


@pytest.mark.parametrize("bad", [object(), 3])
def test_what_is_not_an_oracle_is_refused_in_one_line(bad):
    with pytest.raises(ValueError) as e:
        RandSOA(make("thresholds", N=3), solver=bad)
    assert "\n" not in str(e.value) and "rand-soa" in str(e.value) and "VersionSpaceOracle" in str(e.value)


def test_an_oracle_of_another_game_is_refused_in_one_line():
    C = make("thresholds", N=4)
    cases = [(SOA(C).oracle, 0, "is for Opt(C)"), (oracle_for(C, Game(randomized=True)), 1, "not the randomized "
                                                                                            "optimum with 1 label")]
    for oracle, errors, says in cases:
        with pytest.raises(ValueError) as e:
            RandSOA(C, errors=errors, solver=oracle)
        assert "\n" not in str(e.value) and says in str(e.value)
    shared = oracle_for(C, Game(randomized=True, errors=1))
    assert RandSOA(C, errors=1, solver=shared).oracle is shared
