"""One conformance suite that every learner in the registry must pass (scikit-learn's check_estimator
idea), the registry's error messages, and the proven mistake bounds on random realizable streams.

References
----------
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import copy
import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from solvers.classes.spec import load_class
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.seeds import is_citation
from solvers.learners import (
    CON,
    ELIM,
    LEARNERS,
    SEEDS,
    SOA,
    Bound,
    ConjunctionElimination,
    Halving,
    Learner,
    Perceptron,
    RandomizedHalving,
    RandomizedWeightedMajority,
    WeightedMajority,
    Winnow,
    Winnow1,
    Winnow2,
    WinnowKofR,
    WinnowR,
    describe,
    make_learner,
)

from solvers.learners import conformance as suite
from solvers.learners.conformance import (check_conservative, check_distribution_key, check_max_errors,
                                          check_predict_many, check_symmetric)
from tests.oracles import matrices, opt_brute

SETTINGS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

SPECS = sorted({s.name: s for s in LEARNERS.values()}.values(), key=lambda s: s.name)
CLASS = make("monotone-disjunctions", n=4, k=2)  # 11 concepts on {0,1}^4
EXTRA = {"winnow-k-of-r": {"k": 2},              # required parameters besides n, which comes from the class
         "conservative": {"learner": "halving"}}  # (A' of Halving: Halving's bound, on its class)
BOUND_ARGS = {"k": 1, "r": 2, "R": 2, "gamma": "1/2", "m": 0}


def build(spec):
    return make_learner(spec.name, dict(EXTRA.get(spec.name, {})), CLASS)


def stream(seed: int, length: int = 40, target: int = 6):
    """A realizable stream over CLASS: random points labelled by concept ``target``."""
    rng = np.random.default_rng(seed)
    js = rng.integers(CLASS.n_points, size=length)
    return [(CLASS.points[j], int(CLASS.matrix[target, j])) for j in js]


def play(L, examples):
    preds = []
    for x, y in examples:
        preds.append(L.predict_one(x))
        L.learn_one(x, y)
    return preds


# ---------------------------------------------------------------------------------------- conformance
@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_conformance(spec):
    if spec.extra:  # an adapter of an optional library (solvers.learners.adapters)
        pytest.importorskip(spec.extra)
    check_protocol(spec)


def conformance(spec) -> None:
    """Every check of this suite that applies to any learner, for one registry entry (a learner added
    by ``register`` is checked by calling this): the protocol, and each declaration against behaviour."""
    check_protocol(spec)
    suite.check_learner(spec.cls, CLASS, params=dict(EXTRA.get(spec.name, {})))
    builder = lambda: build(spec)  # noqa: E731
    L = builder()
    if L.conservative:
        check_conservative(builder)
    if L.symmetric_variables:
        check_symmetric(builder)
    check_predict_many(builder)
    check_randomized(spec)
    check_probability(builder)
    check_distribution_key(builder)
    check_max_errors(builder)
    b = L.bound_on(CLASS)
    assert isinstance(b, Bound) and b.formula.strip() and is_citation(b.source)


def _seeded(spec):
    """A builder of the learner with seed s, for a randomized learner (its seed is a CLI parameter)."""
    if not any(p[0] == "seed" for p in spec.params):
        return None
    return lambda s: make_learner(spec.name, {**dict(EXTRA.get(spec.name, {})), "seed": s}, CLASS)


def check_randomized(spec):
    """``randomized`` iff the learner takes a seed and the predictions depend on it (the shipped suite)."""
    assert spec.cls.randomized == any(p[0] == "seed" for p in spec.params)
    suite.check_randomized(lambda: build(spec), CLASS, _seeded(spec))


def check_probability(builder, seeds: int = 300):
    """The shipped suite's check, with the registry's seeded learners for a randomized one."""
    L = builder()
    spec = LEARNERS[L.name]
    suite.check_probability(builder, CLASS, _seeded(spec) if L.randomized else None, seeds)


def check_protocol(spec):
    L = build(spec)
    assert isinstance(L, Learner)
    assert L.name == spec.name and type(L) is spec.cls

    # predictions are the ints 0 and 1, on every point
    for x in CLASS.points:
        p = L.predict_one(x)
        assert type(p) is int and p in (0, 1)
    # ... also for a point given as a numpy array
    assert L.predict_one(np.array(CLASS.points[5])) == L.predict_one(CLASS.points[5])

    # deterministic for given parameters (and seed): same stream, same predictions, same keys
    for seed in range(3):
        A, B = build(spec), build(spec)
        assert A.state_key() == B.state_key()
        hash(A.state_key())
        ex = stream(seed)
        assert play(A, ex) == play(B, ex)
        assert A.state_key() == B.state_key()
        hash(A.state_key())

    # a history that updates the state changes the key
    A = build(spec)
    k0 = A.state_key()
    changed = False
    for x, y in stream(7, 60):
        A.learn_one(x, y)
        changed |= A.state_key() != k0
    assert changed, "no update in 60 rounds"

    # deepcopy: the copy starts equal and is independent
    A = build(spec)
    play(A, stream(1, 5))
    key = A.state_key()
    preds = [A.predict_one(x) for x in CLASS.points]
    B = copy.deepcopy(A)
    assert B.state_key() == key
    later = stream(2, 30)
    pb = play(B, later)
    assert B.state_key() != key
    assert A.state_key() == key
    assert [A.predict_one(x) for x in CLASS.points] == preds
    assert play(A, later) == pb        # the copy carried its own copy of any random generator
    assert A.state_key() == B.state_key()

    # numpy labels (entries of a class's matrix) are 0/1; labels other than 0/1 are refused
    A, B = build(spec), build(spec)
    for x, y in stream(4, 10):
        A.learn_one(x, np.bool_(y))
        B.learn_one(x, np.int64(y))
    assert A.state_key() == B.state_key()
    for y in (2, -1, 0.5, "1", None, True):
        with pytest.raises(ValueError):
            build(spec).learn_one(CLASS.points[0], y)

    # a stated bound, from a seed
    args = {k: BOUND_ARGS[k] for k in spec.bound_params if k in BOUND_ARGS}
    b = L.mistake_bound(**args)
    assert isinstance(b, Bound)
    assert isinstance(b.value, (int, float, Fraction)) and not isinstance(b.value, bool)  # Fraction: an exact expectation
    assert b.value >= 0 and (math.isfinite(b.value) or b.value == math.inf)
    assert b.formula.strip() and is_citation(b.source)
    assert is_citation(spec.source) and spec.bound_formula and spec.source == spec.cls.bound_source

    # get_params round-trips, through JSON, to the same learner
    params = L.get_params()
    again = json.loads(json.dumps(params))
    M = make_learner(spec.name, again, CLASS)
    assert type(M) is type(L) and M.get_params() == params
    N = build(spec)
    assert M.state_key() == N.state_key()
    ex = stream(3)
    assert play(M, ex) == play(N, ex)


# ---------------------------------------------------------------------------------------- declarations
# The optional declarations the exact adversary relies on (solvers/learners/base.py) must be true of
# the learner's own behaviour; a false one would make the exact worst case wrong.
DECLARING = [s for s in SPECS if not s.extra]








@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_conservative_declaration(spec):
    if getattr(build(spec), "conservative", False):
        check_conservative(lambda: build(spec))


@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_symmetric_variables_declaration(spec):
    if getattr(build(spec), "symmetric_variables", False):
        check_symmetric(lambda: build(spec))


def test_false_declarations_are_caught():
    from solvers.learners.winnow import BalancedWinnow

    class Liar(BalancedWinnow):  # at (w+ - w-).x = theta it predicts 0 and, on label 0, still demotes
        conservative = True

    with pytest.raises(AssertionError, match="correct prediction"):
        check_conservative(lambda: Liar(4, theta=3))

    class Lopsided(Winnow2):  # one weight starts elsewhere: the variables are not alike
        def __init__(self, n):
            super().__init__(n)
            self.w = (Fraction(2),) + self.w[1:]

    with pytest.raises(AssertionError):
        check_symmetric(lambda: Lopsided(4))


@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_predict_many_equals_predict_one(spec):
    check_predict_many(lambda: build(spec))




@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_randomized_declaration(spec):
    check_randomized(spec)




@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_probability_declaration(spec):
    check_probability(lambda: build(spec))




@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_distribution_key_declaration(spec):
    check_distribution_key(lambda: build(spec))




@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_max_errors_declaration(spec):
    check_max_errors(lambda: build(spec))




# ---------------------------------------------------------------------------------------- bound_on
MARGIN = load_class({"family": "margin-halfspaces", "params": {"d": 4, "gamma": "1/2", "R": 2}})
ON = {  # the classes on which each learner's bound_on states a finite bound (besides its own class)
    "conjunction-elimination": ["monotone-conjunctions"],
    "elim": ["monotone-disjunctions", "disjunctions", "k-of-r-1"],
    "winnow": ["monotone-disjunctions", "k-of-r-1"],
    "winnow1": ["monotone-disjunctions", "k-of-r-1"],
    "winnow2": ["monotone-disjunctions", "k-of-r-1"],
    "winnow-r": ["monotone-disjunctions", "k-of-r-1"],
    "winnow-k-of-r": ["k-of-r-2"],
    "perceptron": ["margin"],
    "sklearn-perceptron": ["margin"],
}
CLASSES = {
    "monotone-conjunctions": make("monotone-conjunctions", n=4),
    "monotone-disjunctions": CLASS,
    "disjunctions": make("disjunctions", n=4, k=2),
    "k-of-r-1": make("k-of-r", n=4, r=2, k=1),
    "k-of-r-2": make("k-of-r", n=4, r=3, k=2),
    "matrix": ConceptClass.from_matrix([[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]]),
    "margin": MARGIN,
}


@pytest.mark.parametrize("spec", DECLARING, ids=[s.name for s in DECLARING])
def test_bound_on_declaration(spec):
    """bound_on: finite exactly where the learner's theorem covers the class (its own class for a
    deterministic class-based learner), never for a randomized one; a formula and a citation always."""
    for key, C in CLASSES.items():
        if key == "margin" and spec.needs_class:
            continue
        if spec.needs_class:
            L = make_learner(spec.name, dict(EXTRA.get(spec.name, {})), C)
        else:
            params = {"k": 2} if spec.name == "winnow-k-of-r" else {}
            params[spec.dim_param] = 4
            L = make_learner(spec.name, params)
        b = L.bound_on(C)
        assert isinstance(b, Bound) and b.formula.strip() and is_citation(b.source)
        expected = spec.needs_class or key in ON.get(spec.name, ())
        assert b.finite == expected, (spec.name, key, b.formula)
        if not b.finite:
            assert b.formula.startswith(f"no bound proven for {spec.name} on ")
            assert b.source == spec.source
        # with label errors: only the experts' learners state one (m = k, Littlestone-Warmuth)
        b = L.bound_on(C, errors=1)
        assert b.finite == (spec.needs_class and spec.name in EXPERTS), (spec.name, key, b.formula)
        if not b.finite:
            assert b.formula.startswith(f"no bound proven for {spec.name} on {C} with 1 label error: ")


EXPERTS = ("weighted-majority", "randomized-weighted-majority")


def test_bounds_with_label_errors():
    """Weighted majority: m = k in Littlestone-Warmuth; SOA and RandSOA built with errors=e: D_e, R_e for
    k <= e label errors, none beyond; randomized halving: H_|C| - 1 exactly, none with errors."""
    C = make("thresholds", N=3)
    wm, rwm = make_learner("wm", {}, C), make_learner("rwm", {}, C)
    assert wm.bound_on(C, errors=2).value == wm.mistake_bound(m=2).value
    assert rwm.bound_on(C, errors=1).value == rwm.mistake_bound(m=1).value
    soa = SOA(C, errors=1)
    assert soa.bound_on(C, errors=1).value == soa.bound_on(C).value == 4  # D_1 of 4 thresholds
    assert "within 1 too" in soa.bound_on(C).formula
    assert not soa.bound_on(C, errors=2).finite and "build it with errors=2" in soa.bound_on(C, errors=2).formula
    assert not SOA(C).bound_on(C, errors=1).finite
    r = make_learner("rand-soa", {"errors": 1}, C)
    assert r.bound_on(C, errors=1).value == r.mistake_bound().value and isinstance(r.mistake_bound().value, Fraction)
    b = RandomizedHalving(C).bound_on(C)
    assert b.value == Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 4) and b.to_json()["fraction"] == "13/12"
    assert not RandomizedHalving(C).bound_on(C, errors=1).finite
    from solvers.learners.randomized_halving import EXACT_HARMONIC, expected_bound
    assert isinstance(expected_bound(EXACT_HARMONIC + 1), float)
    assert abs(expected_bound(EXACT_HARMONIC) - expected_bound(EXACT_HARMONIC + 1)) < 1e-3


# ---------------------------------------------------------------------------------------- remaining_bound
def _worst_from(L, rows, V, points, depth=None):
    """The most mistakes an adversary can force on L from version space V (a frozenset of row indices);
    with ``depth``, within that many more examples (a lower bound on the worst case)."""
    memo = {}

    def rec(L, V, left):
        key = (L.state_key(), V, left)
        if key in memo:
            return memo[key]
        best = 0
        if left != 0:
            for j, x in enumerate(points):
                for y in (0, 1):
                    Vy = frozenset(c for c in V if rows[c][j] == y)
                    if not Vy or (Vy == V and L.conservative):
                        continue
                    M = copy.deepcopy(L)
                    m = int(M.predict_one(x) != y)
                    M.learn_one(x, y)
                    if Vy == V and not m and M.state_key() == L.state_key():
                        continue
                    best = max(best, m + rec(M, Vy, None if left is None else left - 1))
        memo[key] = best
        return best

    return rec(L, V, depth)


@SETTINGS
@given(matrices(max_rows=6, max_cols=4), st.data())
def test_remaining_bound_is_never_below_the_worst_case(rows, data):
    """From any (state, V) reached by a realizable prefix, the adversary's best (brute force) is at most
    remaining_bound(V): Halving floor(log2 |V|), CON |V| - 1, SOA Opt(V), weighted majority from its weights."""
    C = ConceptClass.from_matrix(rows)
    M = C.matrix.astype(int).tolist()
    target = data.draw(st.integers(0, len(C) - 1))
    prefix = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=3))
    for L in (Halving(C), CON(C), SOA(C), WeightedMajority(C, beta=data.draw(st.sampled_from(["1/2", "1/3"])))):
        V = frozenset(range(len(C)))
        for j in prefix:
            y = M[target][j]
            L.learn_one(C.points[j], y)
            V = frozenset(c for c in V if M[c][j] == y)
        bits = sum(1 << c for c in V)
        bound = L.remaining_bound(bits)
        assert isinstance(bound, int) and bound >= 0
        depth = 4 if isinstance(L, WeightedMajority) else None  # its states never repeat: a lower bound
        assert _worst_from(L, M, V, C.points, depth) <= bound, (L.name, rows, prefix)


@SETTINGS
@given(matrices(max_rows=4, max_cols=3), st.data())
def test_remaining_bound_in_the_games_beyond_opt(rows, data):
    """From a state reached by a prefix within k label errors, the (expected) worst case of the brute force
    of tests/oracles.py is at most remaining_bound of the game state: randomized halving H_|V| - 1, RandSOA
    R(s), SOA with errors D_k(s), weighted majority from its weights with the budgets (its states never
    repeat: a worst case within 3 examples, a lower bound), RWM's potential likewise."""
    from solvers.learners import RandSOA
    from tests.oracles import expected_adversary_brute

    C = ConceptClass.from_matrix(rows)
    M = C.matrix.astype(int).tolist()
    k = data.draw(st.integers(0, 1))
    beta = data.draw(st.sampled_from(["1/2", "1/3"]))
    learners = [(RandSOA(C, errors=k), None), (WeightedMajority(C, beta=beta), 3),
                (RandomizedWeightedMajority(C, beta=beta), 3)]
    if k:
        learners.append((SOA(C, errors=k), None))
    else:
        learners.append((RandomizedHalving(C), None))
    prefix = data.draw(st.lists(st.tuples(st.integers(0, C.n_points - 1), st.integers(0, 1)), max_size=2))
    levels = C.levels([], k)
    from solvers.game_rules import step

    legal = []
    for j, y in prefix:
        nxt = step(levels, C.columns[j], y)
        if nxt is not None:
            levels = nxt
            legal.append((j, y))
    state = levels[0] if k == 0 else levels
    for L, depth in learners:
        for j, y in legal:
            L.learn_one(C.points[j], y)
        bound = L.remaining_bound(state)
        assert bound is not None and bound >= 0
        worst = expected_adversary_brute(L, M, list(C.points), errors=k, horizon=depth, prefix=legal)
        assert worst <= bound, (L.name, rows, legal, k, worst, bound)


def test_remaining_bound_is_stated_where_expected():
    for spec in DECLARING:
        L = build(spec)
        has = L.remaining_bound(CLASS.full) is not None
        assert has == (spec.name in ("halving", "con", "soa", "weighted-majority", "randomized-halving",
                                     "rand-soa", "randomized-weighted-majority")), spec.name


def test_declarations_are_made_where_expected():
    # the exact adversary's speed on Winnow and the Perceptron rests on these
    for name in ("winnow1", "winnow2", "winnow-r", "winnow-k-of-r", "winnow", "perceptron"):
        L = make_learner(name, dict(EXTRA.get(name, {})), CLASS)
        assert L.conservative and L.symmetric_variables and L.predict_many is not None
    assert not make_learner("perceptron", {"margin": 1}, CLASS).conservative
    assert not make_learner("balanced-winnow", {}, CLASS).conservative
    assert not make_learner("halving", {}, CLASS).symmetric_variables


def test_registry_names_and_aliases():
    for key, spec in LEARNERS.items():
        assert spec.cls.name == spec.name
    assert LEARNERS["hal"] is LEARNERS["halving"] and LEARNERS["halving"].aliases == ("hal",)
    assert LEARNERS["rwm"].cls is RandomizedWeightedMajority
    rows = describe()
    assert len(rows) == len(SPECS) and {r["name"] for r in rows} == {s.name for s in SPECS}
    assert next(r for r in rows if r["name"] == "halving")["aliases"] == ["hal"]
    assert all(is_citation(r["source"]) for r in rows)


@pytest.mark.parametrize(
    "name, params, C, message",
    [
        ("winnow3", {}, None, "unknown learner 'winnow3'; known learners: halving, con"),
        ("winnow2", {"n": 4, "alpha": 3}, None, "winnow2: unknown parameter 'alpha'; its parameters are: n"),
        ("halving", {"seed": 1}, CLASS, "halving: unknown parameter 'seed'; it takes no parameters"),
        ("winnow2", {}, None, "winnow2: missing parameter n; give n=VALUE"),
        ("winnow-k-of-r", {"n": 4}, None, "winnow-k-of-r: missing parameter k"),
        ("winnow2", {"n": 0}, None, "winnow2: n must be at least 1, got 0; give n >= 1"),
        ("winnow2", {"n": "four"}, None, "winnow2: n must be an integer"),
        ("winnow", {"n": 4, "alpha": 1}, None, "winnow: alpha must be greater than 1"),
        ("winnow", {"n": 4, "theta": -1}, None, "winnow: theta must be positive"),
        ("winnow", {"n": 4, "demotion": "halve"}, None, "winnow: demotion must be 'divide' or 'zero'"),
        ("winnow", {"n": 4, "strict": "maybe"}, None, "winnow: strict must be true or false"),
        ("balanced-winnow", {"n": 4, "alpha": "1/2"}, None, "balanced-winnow: alpha must be greater than 1"),
        ("winnow-k-of-r", {"n": 4, "k": 5}, None, "winnow-k-of-r: k must be at most 4"),
        ("perceptron", {"d": 2, "margin": -1}, None, "perceptron: margin must be >= 0"),
        ("weighted-majority", {"beta": 1}, CLASS, "weighted-majority: beta must be strictly between 0 and 1"),
        ("wm", {"beta": "0"}, CLASS, "weighted-majority: beta must be strictly between 0 and 1"),
        ("randomized-halving", {"seed": -1}, CLASS, "randomized-halving: seed must be at least 0"),
        ("halving", {}, None, "halving is built from a concept class"),
        ("soa", {}, None, "soa is built from a concept class"),
        ("winnow2", {"n": 5}, CLASS, "winnow2: n=5 but the class's points have 4 coordinates; give n=4"),
    ],
)
def test_make_learner_errors(name, params, C, message):
    with pytest.raises(ValueError) as info:
        make_learner(name, params, C)
    text = str(info.value)
    assert message in text and "\n" not in text


def test_make_learner_reads_cli_strings():
    L = make_learner("winnow", {"n": "3", "alpha": "3/2", "theta": "1.5", "strict": "true", "demotion": "zero"})
    assert L.get_params() == {"n": 3, "alpha": "3/2", "theta": "3/2", "demotion": "zero", "strict": True}
    assert make_learner("perceptron", {"margin": "1/2"}, CLASS).get_params() == {"d": 4, "margin": "1/2"}
    assert make_learner("winnow1", {"n": 4}, CLASS).n == 4


def test_bound_arguments_checked():
    with pytest.raises(ValueError, match="needs r="):
        Winnow2(4).mistake_bound()
    with pytest.raises(ValueError, match="r must be at most 4"):
        Winnow2(4).mistake_bound(r=5)
    with pytest.raises(ValueError, match="needs k="):
        Winnow1(4).mistake_bound()


def test_bound_json():
    assert Bound(math.inf, "none", SEEDS[3]).to_json() == {"value": None, "formula": "none", "source": SEEDS[3]}
    with pytest.raises(ValueError):
        Bound(True, "x", SEEDS[0])


# ---------------------------------------------------------------------------------------- bounds hold
def count_mistakes(L, examples):
    m = 0
    for x, y in examples:
        m += L.predict_one(x) != y
        L.learn_one(x, y)
    return m


@SETTINGS
@given(matrices(max_rows=10, max_cols=6), st.data())
def test_class_learners_within_their_bounds(rows, data):
    C = ConceptClass.from_matrix(rows)
    target = data.draw(st.integers(0, len(C) - 1))
    js = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=25))
    ex = [(C.points[j], int(C.matrix[target, j])) for j in js]
    for L in (Halving(C), CON(C), SOA(C), RandomizedHalving(C, seed=data.draw(st.integers(0, 99)))):
        bound = len(C) - 1 if isinstance(L, RandomizedHalving) else L.mistake_bound().value
        assert count_mistakes(L, ex) <= bound
    assert SOA(C).mistake_bound().value == opt_brute(rows)


@st.composite
def disjunction_stream(draw, max_n=8, max_len=80):
    n = draw(st.integers(1, max_n))
    r = draw(st.integers(0, n))
    relevant = draw(st.permutations(range(n)))[:r]
    xs = draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), max_size=max_len))
    return n, r, [(x, int(any(x[i] for i in relevant))) for x in xs]


@SETTINGS
@given(disjunction_stream())
def test_winnow_family_within_bounds_on_disjunctions(nrs):
    n, r, ex = nrs
    assert count_mistakes(Winnow1(n), ex) <= Winnow1(n).mistake_bound(k=r).value
    assert count_mistakes(Winnow2(n), ex) <= Winnow2(n).mistake_bound(r=r).value
    assert count_mistakes(WinnowR(n), ex) <= WinnowR(n).mistake_bound(r=r).value
    assert count_mistakes(WinnowKofR(n, 1), ex) <= WinnowKofR(n, 1).mistake_bound(r=r).value
    for alpha, tf, strict, dem in itertools.product((Fraction(3, 2), 3), (Fraction(1, 2), 1, 2), (False, True), ("divide", "zero")):
        L = Winnow(n, alpha=alpha, theta=tf * n, strict=strict, demotion=dem)
        assert count_mistakes(L, ex) <= L.mistake_bound(r=r).value, L


def test_winnow_bounds_met_by_an_adversarial_stream():
    """Repeatedly show the point that makes Winnow2 err most (a greedy adversary over {0,1}^n against a
    fixed OR of r variables); the bound must hold."""
    for n, r in [(4, 1), (6, 2), (8, 1)]:
        target = set(range(r))
        L, mistakes = Winnow2(n), 0
        pts = list(itertools.product((0, 1), repeat=n))
        for _ in range(200):
            bad = [x for x in pts if L.predict_one(x) != int(any(x[i] for i in target))]
            if not bad:
                break
            x = bad[0]
            mistakes += 1
            L.learn_one(x, int(any(x[i] for i in target)))
        assert mistakes <= Winnow2(n).mistake_bound(r=r).value


@SETTINGS
@given(st.integers(1, 7), st.data())
def test_winnow_k_of_r_within_bound(n, data):
    r = data.draw(st.integers(1, n))
    k = data.draw(st.integers(1, r))
    relevant = data.draw(st.permutations(range(n)))[:r]
    xs = data.draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), max_size=80))
    ex = [(x, int(sum(x[i] for i in relevant) >= k)) for x in xs]
    L = WinnowKofR(n, k)
    assert count_mistakes(L, ex) <= WinnowKofR(n, k).mistake_bound(r=r).value


@SETTINGS
@given(st.integers(1, 7), st.data())
def test_elimination_within_bounds(n, data):
    xs = data.draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), max_size=60))
    conj = data.draw(st.sets(st.integers(0, n - 1)))
    assert count_mistakes(ConjunctionElimination(n), [(x, int(all(x[i] for i in conj))) for x in xs]) <= n
    lits = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.booleans()), max_size=n))
    ex = [(x, int(any((x[i] == 1) == s for i, s in lits))) for x in xs]
    assert count_mistakes(ELIM(n), ex) <= ELIM(n).mistake_bound().value == n + 1


@SETTINGS
@given(st.integers(1, 4), st.data(), st.sampled_from([0, 1, 4]))
def test_perceptron_within_bounds(d, data, margin):
    """Separable integer data: cycle until no update; mistakes <= R'^2/gamma^2 (R'^2 = R^2 + 2 margin).
    Then arbitrary labels: the hinge bounds of [OnlineAlgs] (TD) and [Roth] (D_2) for a random unit w*."""
    wstar = data.draw(st.tuples(*[st.integers(-3, 3)] * d).filter(any))
    xs = data.draw(st.lists(st.tuples(*[st.integers(-3, 3)] * d), min_size=1, max_size=12))
    xs = [x for x in xs if sum(a * b for a, b in zip(wstar, x)) != 0]
    if xs:
        norm2 = sum(a * a for a in wstar)
        gamma2 = Fraction(min(sum(a * b for a, b in zip(wstar, x)) ** 2 for x in xs), norm2)
        R2 = max(sum(a * a for a in x) for x in xs)
        L, mistakes, updates = Perceptron(d, margin=margin), 0, 0
        for _ in range(200):
            changed = False
            for x in xs:
                y = int(sum(a * b for a, b in zip(wstar, x)) > 0)
                before = L.state_key()
                mistakes += L.predict_one(x) != y
                L.learn_one(x, y)
                changed |= L.state_key() != before
                updates += L.state_key() != before
            if not changed:
                break
        assert not changed
        assert mistakes <= updates <= (R2 + 2 * margin) / gamma2
        b = L.mistake_bound(R=math.sqrt(R2), gamma=math.sqrt(gamma2))
        assert mistakes <= b.value + 1e-9

    # unrealizable: any labels, any gamma
    xs = data.draw(st.lists(st.tuples(*[st.integers(-2, 2)] * d), min_size=1, max_size=30))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    u = np.array(wstar, dtype=float) / np.linalg.norm(wstar)
    gamma = data.draw(st.sampled_from([0.25, 0.5, 1.0]))
    dev = [max(0.0, gamma - (1 if y else -1) * float(u @ np.array(x, dtype=float))) for x, y in zip(xs, ys)]
    R = max(1.0, max(math.sqrt(sum(a * a for a in x)) for x in xs))
    L = Perceptron(d, margin=margin)
    mistakes = count_mistakes(L, list(zip(xs, ys)))
    assert mistakes <= L.mistake_bound(R=R, gamma=gamma, TD=sum(dev)).value + 1e-9
    assert mistakes <= L.mistake_bound(R=R, gamma=gamma, D2=math.sqrt(sum(v * v for v in dev))).value + 1e-9


@SETTINGS
@given(matrices(max_rows=8, max_cols=6), st.data(), st.sampled_from(["1/2", "1/3", "3/4"]))
def test_weighted_majority_within_bound(rows, data, beta):
    js = data.draw(st.lists(st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, 1)), max_size=40))
    L = WeightedMajority(rows, beta=beta)
    mistakes = count_mistakes(L, js)
    m = min(sum(r[j] != y for j, y in js) for r in rows)
    assert mistakes <= L.mistake_bound(m=m).value + 1e-9


def test_randomized_learners_expected_mistakes():
    """Against a fixed sequence the expected mistakes are computable exactly: sum_t (fraction of the
    draw's probability on wrong concepts / experts). It is within the bound, and the average over many
    seeds is close to it."""
    C = make("singletons", N=8)  # 9 concepts, Opt = 1; a hard sequence for random halving: 1, 2, ..., 8, all 0
    seq = [((x,), 0) for x in range(1, 9)]
    expected, V = 0.0, set(range(len(C)))
    for x, y in seq:
        j = C.index_of(x)
        wrong = {c for c in V if C.matrix[c, j] != y}
        expected += len(wrong) / len(V)
        V -= wrong
    assert expected <= RandomizedHalving(C).mistake_bound().value + 1e-12
    runs = [count_mistakes(RandomizedHalving(C, seed=s), seq) for s in range(400)]
    assert abs(np.mean(runs) - expected) < 4 * np.std(runs) / math.sqrt(len(runs)) + 1e-9

    rows = [[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]]
    labels = [(0, 1), (1, 1), (2, 0), (3, 1), (0, 0), (1, 1), (2, 1), (3, 1)] * 3
    beta = 0.5
    w, expected = [1.0] * 4, 0.0
    for j, y in labels:
        expected += sum(wi for wi, r in zip(w, rows) if r[j] != y) / sum(w)
        w = [wi * beta if r[j] != y else wi for wi, r in zip(w, rows)]
    m = min(sum(r[j] != y for j, y in labels) for r in rows)
    assert expected <= RandomizedWeightedMajority(rows, beta="1/2").mistake_bound(m=m).value
    runs = [count_mistakes(RandomizedWeightedMajority(rows, beta="1/2", seed=s), labels) for s in range(400)]
    assert abs(np.mean(runs) - expected) < 4 * np.std(runs) / math.sqrt(len(runs)) + 1e-9
