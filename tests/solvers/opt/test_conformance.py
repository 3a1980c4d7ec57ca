"""The engine conformance suite (:mod:`solvers.opt.conformance`): every registered engine passes every check; the
brute force agrees with published values and with second brute forces written another way; and the suite
rejects engines broken on purpose (it can fail).

Published values:

* thresholds N: Opt = floor(log2(N + 1)); all-functions, monotone conjunctions and parities on n variables:
  Opt = n; conjunctions n with the constant false: n + 1; monotone disjunctions: n when k = n, floor(log2(n+1))
  when k = 1; singletons: 1 (the families' table, :mod:`solvers.classes.families`, with its sources); intervals
  N = 2, 4, 6, 8, 10: 2, 3, 4, 4, 5 (the values tests/solvers/opt/test_intervals.py records);
* RL of the universal class of n experts is (d + n/2^d - 1)/2, d = floor(log2 n), and RL of all functions on n
  points is n/2 [FHMM23]; with a horizon T <= n, T/2;
* two experts with k label errors: D_k = 2k + 1 [CFHHSW97]; one concept with k label errors: D_k = R_k = k (each
  error is a loop the learner must answer with the concept's label: solvers.game_rules).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
.. [CFHHSW97] Cesa-Bianchi, Freund, Haussler, Helmbold, Schapire and Warmuth, "How to use expert advice",
   JACM 44(3), 1997.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import conformance
from solvers.opt.conformance import CASES, CHECKS, HARD_CASES, Case, Failure, brute_force, check_engine, checks
from tests.oracles import experts_matrix, game_value_brute, matrices, opt_brute

try:
    from solvers.opt.engines import REGISTRY
except ModuleNotFoundError as e:  # (before the engines had one contract; any other import error fails)
    if e.name not in ("solvers.opt.engines", "solvers.opt.control"):
        raise
    REGISTRY = None

SETTINGS = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

needs_registry = pytest.mark.skipif(REGISTRY is None, reason="solvers.opt.engines.REGISTRY does not exist yet")


# ------------------------------------------------------------------------------------ every engine, every check
@needs_registry
@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("name", sorted(REGISTRY or ()))
def test_engine_conforms(name, check):
    failures = check_engine(REGISTRY[name], only=[check])
    assert not failures, "\n".join(map(str, failures))


@needs_registry
@pytest.mark.parametrize("name", sorted(REGISTRY or ()))
@settings(max_examples=25, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(M=matrices(max_rows=6, max_cols=4), T=st.integers(0, 3))
def test_engine_on_random_classes(name, M, T):
    """Beyond the shared list: random small classes, in every game the engine takes of Opt, RL, D_1, R_1, D_2
    and their horizon T."""
    from solvers.classes import ConceptClass

    G = [Game(r, k, h) for r in (False, True) for k in (0, 1, 2) for h in (None, T) if not (r and k == 2)]
    case = Case("random", lambda: ConceptClass.from_matrix(M), tuple(G))
    failures = check_engine(REGISTRY[name], cases=[case], only=["value", "tree", "upper"])
    assert not failures, "\n".join(map(str, failures))


@needs_registry
def test_every_engine_takes_some_case():
    """A registered engine that takes none of the shared cases would pass the answers' checks vacuously."""
    for name, engine in REGISTRY.items():
        taken = [(c.name, g.symbol) for c, _, g in conformance.taken(engine, CASES)]
        assert taken, f"engine {name} takes none of the cases of solvers.opt.conformance.CASES"
        assert engine.NAME == name


# ------------------------------------------------------------------------------------ the brute force
def _opt_published():
    for N in (1, 2, 3, 6, 7, 8, 15, 16, 30):
        yield make("thresholds", N=N), (N + 1).bit_length() - 1
    for n in (1, 2, 3, 4):
        yield make("all-functions", n=n), n
        yield make("monotone-conjunctions", n=n), n
        yield make("parities", n=n), n
    for n in (1, 2, 3):
        yield make("conjunctions", n=n, false=1), n + 1
        yield make("monotone-disjunctions", n=n, k=n), n
        yield make("disjunctions", n=n, k=n), n + 1
    for n in (3, 5, 7, 8):
        yield make("monotone-disjunctions", n=n, k=1), (n + 1).bit_length() - 1
    for N in (2, 5):
        yield make("singletons", N=N), 1
    for N, value in {2: 2, 4: 3, 6: 4, 8: 4, 10: 5}.items():  # as tests/solvers/opt/test_intervals.py records them
        yield make("intervals", N=N), value


@pytest.mark.parametrize("C, value", list(_opt_published()), ids=str)
def test_brute_force_published_opt(C, value):
    assert brute_force(C) == value


def test_brute_force_conventions():
    assert brute_force([]) == -1                       # no concept: Opt(empty) = -1
    assert brute_force(np.zeros((0, 3), dtype=bool)) == -1
    for G in (Game(randomized=True), Game(errors=2), Game(horizon=3), Game(randomized=True, errors=1, horizon=2)):
        assert brute_force([], G) == -1
    assert brute_force([[0, 1, 1]]) == 0               # one concept: no point splits it
    assert brute_force([[0], [1]]) == 1
    assert isinstance(brute_force([[0], [1]], Game(randomized=True)), Fraction)
    with pytest.raises(ValueError, match="2-D"):
        brute_force(np.zeros((2, 2, 2)))
    from solvers.classes.evaluated import EvaluatedClass

    with pytest.raises(ValueError, match="has no matrix"):
        brute_force(EvaluatedClass("thresholds", {"N": 5}))


def _rl_experts(n: int) -> Fraction:
    d = n.bit_length() - 1
    return (d + Fraction(n, 2**d) - 1) / 2


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_brute_force_rl_of_experts(n):
    assert brute_force(experts_matrix(n), Game(randomized=True)) == _rl_experts(n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_brute_force_rl_of_all_functions(n):
    C = make("all-functions", n=n)
    assert brute_force(C, Game(randomized=True)) == Fraction(n, 2)
    for T in range(n + 1):
        assert brute_force(C, Game(randomized=True, horizon=T)) == Fraction(T, 2)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_brute_force_errors_published(k):
    assert brute_force(experts_matrix(2), Game(errors=k)) == 2 * k + 1
    assert brute_force([[0, 1, 1]], Game(errors=k)) == k
    assert brute_force([[0, 1, 1]], Game(randomized=True, errors=k)) == k


@pytest.mark.parametrize("T", [0, 1, 2, 3, 4])
def test_brute_force_horizon_is_capped_opt(T):
    for N in (3, 7):
        C = make("thresholds", N=N)
        assert brute_force(C, Game(horizon=T)) == min(T, brute_force(C))


def opt_by_samples(M) -> int:
    """Opt(C) a second way: bottom-up over every sample (a partial labelling of the points, 3^n of them), from
    the fully labelled ones up, each valued by the recurrence on its one-point extensions."""
    rows = {tuple(int(v) for v in r) for r in M}
    n = len(next(iter(rows))) if rows else 0
    value = {}
    for fixed in range(n, -1, -1):
        for where in itertools.combinations(range(n), fixed):
            for labels in itertools.product((0, 1), repeat=fixed):
                S = [None] * n
                for j, y in zip(where, labels):
                    S[j] = y
                S = tuple(S)
                if not any(all(s is None or r[j] == s for j, s in enumerate(S)) for r in rows):
                    value[S] = -1
                    continue
                best = 0
                for j in range(n):
                    if S[j] is None:
                        a = value[S[:j] + (0,) + S[j + 1:]]
                        b = value[S[:j] + (1,) + S[j + 1:]]
                        if a >= 0 and b >= 0:
                            best = max(best, 1 + min(a, b))
                value[S] = best
    return value[(None,) * n] if rows else -1


@SETTINGS
@given(matrices(max_rows=12, max_cols=5))
def test_brute_force_opt_against_samples(M):
    assert brute_force(M) == opt_by_samples(M) == opt_brute(M)


games = st.builds(Game, randomized=st.booleans(), errors=st.integers(0, 2),
                  horizon=st.one_of(st.none(), st.integers(0, 3)))


@SETTINGS
@given(matrices(max_rows=5, max_cols=3), games)
def test_brute_force_games_against_value_iteration(M, G):
    """tests.oracles.game_value_brute values the games by iterating the Bellman operator over every reachable
    state (the deterministic game without a horizon as its least fixed point), not by the loop rule."""
    want = game_value_brute(M, randomized=G.randomized, errors=G.errors, horizon=G.horizon)
    assert brute_force(M, G) == want


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cases_are_small(case):
    """Every case and game of the shared list: the brute force answers (each well under a second on CI)."""
    C = case.make()
    for G in case.games:
        v = brute_force(C, G)
        assert v >= 0
        if G.errors == 0:
            assert v <= brute_force(C)  # RL <= Opt, and a horizon only lowers the value


# ------------------------------------------------------------------------------------ the experts game
def test_brute_force_of_described_experts_is_the_listed_ones():
    """The universal class of n experts described by n is listed from its definition: the same values as its
    matrix (tests.oracles.experts_matrix); D_k of two experts is 2k + 1 [CFHHSW97], RL of n experts E(n)
    [FHMM23]."""
    from solvers.opt.experts import UniversalExperts

    for n in (1, 2, 3):
        for G in (Game(), Game(randomized=True), Game(errors=1), Game(randomized=True, errors=1)):
            assert brute_force(UniversalExperts(n), G) == brute_force(experts_matrix(n), G)
    assert [brute_force(UniversalExperts(2), Game(errors=k)) for k in range(3)] == [1, 3, 5]
    assert brute_force(UniversalExperts(4), Game(randomized=True)) == _rl_experts(4)
    with pytest.raises(ValueError, match="at most 12 experts"):
        brute_force(UniversalExperts(13))


@SETTINGS
@given(n=st.integers(1, 4), data=st.data())
def test_the_universal_class_of_experts_is_read_off_the_class(n, data):
    """Its points in any order, any of them repeated: n experts (and the engine reads the same); a point
    missing, or a concept more: not the universal class."""
    from solvers.classes import ConceptClass

    M = np.array(experts_matrix(n), dtype=bool)
    order = data.draw(st.permutations(range(M.shape[1])))
    extra = data.draw(st.lists(st.integers(0, M.shape[1] - 1), max_size=4))
    C = ConceptClass.from_matrix(M[:, list(order) + extra])
    assert conformance.universal_experts(C) == n
    missing = ConceptClass.from_matrix(np.delete(M, data.draw(st.integers(0, M.shape[1] - 1)), axis=1))
    more = ConceptClass.from_matrix(np.vstack([M, ~M[:1]]))
    assert conformance.universal_experts(missing) is None and conformance.universal_experts(more) is None
    if REGISTRY is not None and "experts" in REGISTRY:
        for D in (C, missing, more):
            assert REGISTRY["experts"].experts_of(D) == conformance.universal_experts(D)


@needs_registry
def test_experts_certificates_are_bound_to_the_universal_class():
    """The experts game's certificates name their number of experts, not their class: the suite accepts them for
    the universal class of that many experts only."""
    from solvers.classes import ConceptClass
    from solvers.opt.control import Control

    eng = REGISTRY["experts"]
    C3, C4 = (ConceptClass.from_matrix(experts_matrix(n)) for n in (3, 4))
    G = Game(errors=1)
    r = eng.solve(C3, G, Control())
    assert r.value == brute_force(C3, G) == 3
    for cert, bound in ((r.tree.to_json(), "lower"), (r.upper_certificate(), "upper")):
        assert conformance._proves(cert, C3, G, bound) == (3, None)
        got, why = conformance._proves(cert, C4, G, bound)
        assert got is None and "the universal class of 4" in why
        got, why = conformance._proves(cert, make("thresholds", N=7), G, bound)
        assert got is None and "not the universal class" in why


@needs_registry
def test_rejects_experts_certificates_of_another_number_of_experts():
    """Opt of 4 and of 5 experts are both 2: an engine that hands in the certificates of 5 for 4 keeps its
    value and depth, and the suite still refuses its tree and its upper bound."""
    from solvers.opt.experts import UniversalExperts

    inner = REGISTRY["experts"]

    def five(r, C, game, control):
        other = inner.solve(UniversalExperts(5), game, control)
        assert (other.value, other.tree.depth) == (r.value, r.tree.depth) == (2, 2)
        return dataclasses.replace(r, tree=other.tree, solver=other.solver)

    from solvers.classes import ConceptClass

    cases = [Case("experts n=4", lambda: ConceptClass.from_matrix(experts_matrix(4)), (Game(),))]
    engine = Wrapped(inner, five)
    assert not _failed(engine, "value", cases)
    for check in ("tree", "upper"):
        failures = _failed(engine, check, cases)
        assert len(failures) == 1 and "game of 5 experts" in failures[0].message, check


# ------------------------------------------------------------------------------------ a new engine
class ToyEngine:
    """A complete engine of Opt(C) for classes of at most 64 concepts, written from the recurrence of [Rivest94]
    with no code of solvers.opt: what a newcomer writes, and what the suite must accept. Its tree follows, at
    each node, a point whose both sides keep Opt(V) - 1; its upper-bound certificate claims Opt(V) for every
    version space that the Halving bound does not settle, refuted by the side of each split with the smaller
    Opt."""

    NAME = "toy"

    @staticmethod
    def takes(C, game):
        if not game.standard:
            return "the toy engine computes Opt(C) only"
        if getattr(C, "matrix", None) is None or C.n_concepts > 64:
            return "the toy engine takes listed classes of at most 64 concepts"
        return None

    @classmethod
    def solve(cls, C, game, control, tuning=None):
        from solvers.certificates import MistakeTree
        from solvers.opt import OptResult

        why = cls.takes(C, game)
        if why is not None:
            raise ValueError(why)
        M = np.asarray(C.matrix, dtype=bool)
        memo = {}

        def opt(V):  # V: a frozenset of row indices
            if V not in memo:
                best = 0
                for x in range(M.shape[1]):
                    V1 = frozenset(c for c in V if M[c, x])
                    if V1 and V1 != V:
                        best = max(best, 1 + min(opt(V - V1), opt(V1)))
                memo[V] = best
            return memo[V]

        def split(V, x):
            V1 = frozenset(c for c in V if M[c, x])
            return V - V1, V1

        def tree(V, d):
            if d == 0:
                return None
            for x in range(M.shape[1]):
                V0, V1 = split(V, x)
                if V0 and V1 and min(opt(V0), opt(V1)) >= d - 1:
                    return {"point": x, "0": tree(V0, d - 1), "1": tree(V1, d - 1)}
            raise AssertionError("no split keeps the depth")

        entries, claimed = [], {}

        def refute(V, path, h):
            if len(V) < 2 ** (h + 1) or claimed.get(V, h + 1) <= h:
                return  # the Halving bound, or claimed already
            claimed[V] = h
            entries.append({"path": [list(step) for step in path], "bound": h})
            for x in range(M.shape[1]):
                V0, V1 = split(V, x)
                if V0 and V1:
                    b = 0 if opt(V0) <= opt(V1) else 1
                    refute((V0, V1)[b], path + ((x, b),), h - 1)

        everyone = frozenset(range(M.shape[0]))
        d = opt(everyone)

        def proof(limit):
            entries.clear()
            claimed.clear()
            refute(everyone, (), d)
            return {"kind": "upper-bound", "bound": d, "entries": entries}

        stats = {"engine": cls.NAME, "nodes": len(memo), "memo": len(memo), "seconds": 0.0, "stopped": None}
        return OptResult(d, d, d, MistakeTree(d, tree(everyone, d), C), stats, None, game, proof=proof)


def test_a_new_engine_written_from_the_definition_passes():
    engine = ToyEngine()
    assert sum(1 for _ in conformance.taken(engine, CASES)) >= 20
    assert not check_engine(engine, only=["value", "tree", "upper", "refuses"])
    failures = check_engine(engine, only=["deadline"])  # it never looks at the clock, and takes no hard case
    assert [f.message for f in failures] == ["it takes none of the cases given, so this check did not run; pass "
                                             "cases= with a class it takes that needs a search"]


# ------------------------------------------------------------------------------------ the suite can fail
class Wrapped:
    """An engine made of another, its answer altered by ``alter(result, C, game, control)``."""

    def __init__(self, inner, alter=None, takes=None, solve=None):
        self.NAME = f"broken {inner.NAME}"
        self._inner, self._alter, self._takes, self._solve = inner, alter, takes, solve

    def takes(self, C, game):
        return self._takes(C, game) if self._takes else self._inner.takes(C, game)

    def solve(self, C, game, control, tuning=None):
        if self._solve:
            return self._solve(C, game, control)
        r = self._inner.solve(C, game, control, tuning)
        return self._alter(r, C, game, control) if self._alter else r


def _search():
    if REGISTRY is None:
        pytest.skip("solvers.opt.engines.REGISTRY does not exist yet")
    return REGISTRY["search"]


SMALL = [c for c in CASES if c.name in ("thresholds N=7", "random 12x6 seed=1", "one concept")]
HARD = [c for c in HARD_CASES if c.name in ("conjunctions n=6", "thresholds N=4095")]


def _pairs(engine, cases) -> int:
    """How many (case, game) pairs of ``cases`` the engine takes."""
    return sum(1 for _ in conformance.taken(engine, cases))


def _failed(engine, check, cases):
    failures = check_engine(engine, cases=cases, only=[check])
    assert all(isinstance(f, Failure) for f in failures)
    return failures


def test_a_faithful_wrapper_passes():
    engine = Wrapped(_search())
    for check in CHECKS:
        cases = HARD if check in ("deadline", "cancel") else SMALL
        assert not _failed(engine, check, cases), check


def test_rejects_value_plus_one():
    def plus_one(r, C, game, control):
        return dataclasses.replace(r, value=r.value + 1, lower=r.lower + 1, upper=r.upper + 1)

    engine = Wrapped(_search(), plus_one)
    failures = _failed(engine, "value", SMALL)
    assert len(failures) == _pairs(engine, SMALL) and all("the brute force gives" in f.message for f in failures)


def test_rejects_a_result_of_another_game_or_without_its_stats():
    def other(r, C, game, control):
        stats = {k: v for k, v in r.stats.items() if k != "stopped"}
        return dataclasses.replace(r, game=Game(randomized=True), stats=stats)

    failures = _failed(Wrapped(_search(), other), "value", SMALL[:1])
    messages = {f.message for f in failures}
    assert messages == {"its result names the game RL", "its stats have no 'stopped'"}


def test_rejects_a_tree_of_the_wrong_depth():
    from solvers.certificates import MistakeTree

    def deeper(r, C, game, control):
        return dataclasses.replace(r, tree=MistakeTree(r.tree.depth + 1, r.tree.root, r.tree.C))

    engine = Wrapped(_search(), deeper)
    failures = _failed(engine, "tree", SMALL)
    assert len(failures) == _pairs(engine, SMALL) and all("its tree proves nothing" in f.message for f in failures)


def test_rejects_a_tree_below_lower():
    from solvers.certificates import MistakeTree
    from solvers.certificates.opt import cut_tree

    def shallower(r, C, game, control):
        d = max(0, r.lower - 1)
        return dataclasses.replace(r, tree=MistakeTree(d, cut_tree(r.tree.root, d), r.tree.C))

    failures = _failed(Wrapped(_search(), shallower), "tree", SMALL[:2])  # (Opt = 3 on both)
    assert {f.case for f in failures} == {c.name for c in SMALL[:2]}
    assert all("its tree proves" in f.message for f in failures)


def test_rejects_a_tree_of_another_game():
    """A mistake tree of Opt(C) handed in for the horizon game names the wrong game."""
    from solvers.certificates import MistakeTree

    def plain(r, C, game, control):
        return dataclasses.replace(r, tree=MistakeTree(r.tree.depth, r.tree.root, r.tree.C))

    cases = [Case("thresholds N=7, two rounds", SMALL[0].make, (Game(horizon=2),))]
    failures = _failed(Wrapped(_search(), plain), "tree", cases)
    assert len(failures) == 1 and "a certificate of Opt, not of Opt[T=2]" in failures[0].message


def test_the_checkers_by_kind_agree_with_the_one_verify():
    """The suite checks certificates by solvers.certificates.verify, or by each kind's checker where there is no
    verify: both say the same of every certificate of the search and the games engines on the shared cases."""
    pytest.importorskip("solvers.certificates.rules")
    if REGISTRY is None:
        pytest.skip("solvers.opt.engines.REGISTRY does not exist yet")
    from solvers.opt.control import Control

    seen = 0
    for name in ("search", "games"):
        for case, C, G in conformance.taken(REGISTRY[name], CASES):
            r = REGISTRY[name].solve(C, G, Control())
            for cert, bound in ((r.tree.to_json(), "lower"), (r.upper_certificate(), "upper")):
                assert conformance._proves(cert, C, G, bound) == (conformance._proves_by_kind(cert, C, G, bound), None)
                seen += 1
    assert seen > 40


def test_rejects_an_upper_bound_its_certificate_does_not_prove():
    def lower_upper(r, C, game, control):
        return dataclasses.replace(r, upper=r.upper - 1)

    assert _failed(Wrapped(_search(), lower_upper), "upper", SMALL[:2])


def test_rejects_an_engine_that_ignores_the_deadline():
    inner = _search()
    from solvers.opt.control import Control

    engine = Wrapped(inner, solve=lambda C, game, control: inner.solve(C, game, Control()))
    failures = _failed(engine, "deadline", HARD)
    assert failures and "settled every case" in failures[-1].message


def test_rejects_an_engine_that_ignores_the_cancel():
    inner = _search()
    from solvers.opt.control import Control

    engine = Wrapped(inner, solve=lambda C, game, control: inner.solve(C, game, Control(deadline=control.deadline)))
    failures = _failed(engine, "cancel", HARD)
    assert failures and "cancelled" in failures[-1].message


def test_rejects_bounds_claimed_when_stopped():
    def claims_solved(r, C, game, control):
        return dataclasses.replace(r, value=r.lower, upper=r.lower)

    failures = _failed(Wrapped(_search(), claims_solved), "deadline", HARD)
    assert any("do not hold the value" in f.message for f in failures)


def test_rejects_takes_and_solve_that_disagree():
    inner = _search()
    refuses_nothing = Wrapped(inner, takes=lambda C, game: None)  # solve still refuses the games it cannot play
    failures = _failed(refuses_nothing, "value", [c for c in CASES if c.name == "one concept"])
    assert failures and "solve raised ValueError" in failures[0].message
    two_lines = Wrapped(inner, takes=lambda C, game: None if game.standard else "no\nreason")
    assert _failed(two_lines, "refuses", SMALL)
    def raises(C, game):
        raise KeyError("empty")

    for check in ("value", "refuses"):
        failures = _failed(Wrapped(inner, takes=raises), check, SMALL[:1])
        assert failures and all("takes raised KeyError" in f.message for f in failures)
    returns = Wrapped(inner, takes=lambda C, game: None if game.standard else "not this game",
                      solve=lambda C, game, control: inner.solve(C, Game(), control))
    failures = _failed(returns, "refuses", SMALL)
    assert failures and "returned instead of raising ValueError" in failures[0].message


def test_check_engine_kernel_mode(monkeypatch):
    """``kernel=`` sets $LITTLESTONE_KERNEL while the engine runs, and puts it back."""
    import os

    monkeypatch.setenv("LITTLESTONE_KERNEL", "auto")
    seen = []
    inner = _search()
    engine = Wrapped(inner, solve=lambda C, game, control: seen.append(os.environ["LITTLESTONE_KERNEL"])
                     or inner.solve(C, game, control))
    assert not check_engine(engine, cases=SMALL, kernel="python", only=["value"])
    assert seen and set(seen) == {"python"} and os.environ["LITTLESTONE_KERNEL"] == "auto"


def test_check_engine_arguments():
    with pytest.raises(ValueError, match="not an engine"):
        check_engine(object())
    engine = Wrapped(_search())
    with pytest.raises(ValueError, match="unknown check 'speed'"):
        check_engine(engine, only=["speed"])
    names = [name for name, _ in checks(engine, cases=SMALL)]
    assert names == list(CHECKS)
    nothing = [Case("no case", SMALL[0].make, ())]
    failures = check_engine(engine, cases=nothing, only=["deadline"])
    assert failures and "takes none of the cases" in failures[0].message
