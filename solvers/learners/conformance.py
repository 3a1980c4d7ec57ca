"""The conformance suite a learner must pass before the adversary may trust it: :func:`check_learner`.

The adversary (``adversary/``) treats every learner alike through the protocol and the declarations of
:mod:`solvers.learners.base`; a false declaration (``conservative``, ``symmetric_variables``, ``probability``,
``distribution_key``, ``max_errors``, ``predict_many``) would make its exact worst case wrong. This module
checks each against the learner's own behaviour on a small class, in the spirit of scikit-learn's
``check_estimator``; the learners shipped here pass it (tests/solvers/learners/test_conformance.py runs it
on every one), and a learner you bring should pass it before you attack or register it.

Examples
--------
>>> from solvers.learners import Halving
>>> check_learner(Halving)                      # doctest: +ELLIPSIS
LearnerCheck(learner='halving', checks=('protocol', ...), source='"Online Algorithms" ...', cites_notes=True)
"""

from __future__ import annotations

import copy
import inspect
import math
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..classes.finite import ConceptClass
    from .base import Learner

__all__ = ["check_learner", "LearnerCheck", "ConformanceError", "default_class", "learner_builder",
           "explore", "check_protocol", "check_conservative", "check_symmetric", "check_predict_many",
           "check_randomized", "check_probability", "check_distribution_key", "check_max_errors", "check_bound"]


class ConformanceError(AssertionError):
    """A learner breaks the protocol or one of its own declarations (the message says which and where)."""


def _require(ok, message) -> None:
    if not ok:
        raise ConformanceError(message() if callable(message) else message)


@dataclass(frozen=True)
class LearnerCheck:
    """What :func:`check_learner` checked, once every check passed.

    Attributes
    ----------
    learner : str
        The learner's ``name``.
    checks : tuple of str
        The checks run, in order (the declarations the learner does not make are skipped).
    source : str
        The citation its bound carries (its ``bound_source``), as reports and witnesses print it.
    cites_notes : bool
        Whether that citation is one of the lecture notes (:func:`solvers.seeds.is_citation`).
    """

    learner: str
    checks: tuple
    source: str
    cites_notes: bool

    def _repr_html_(self) -> str:
        from html import escape

        return (f"<div><b>{escape(self.learner)}</b> passes {len(self.checks)} checks: "
                f"{escape(', '.join(self.checks))}<br>bound cited from: <i>{escape(self.source)}</i></div>")


def default_class():
    """The class the suite plays on by default: ORs of at most 2 of 4 variables (11 concepts on {0,1}^4)."""
    from ..classes.families import make

    return make("monotone-disjunctions", n=4, k=2)


def _parameters(cls) -> dict:
    """The constructor's parameters besides ``self`` (and the class, for a class-based learner)."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if getattr(cls, "needs_class", False) and params:
        params = params[1:]
    return {p.name: p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


def learner_builder(learner, C, params: dict | None = None):
    """``(cls, params, build)``: the learner class, its constructor parameters, and a function
    ``build(**overrides)`` making a fresh learner on ``C`` (the dimension parameter taken from C's points).

    ``learner`` is a learner class or an instance (its class and ``get_params()`` are used)."""
    if isinstance(learner, type):
        cls = learner
        params = dict(params or {})
    else:
        cls = type(learner)
        if params is not None:
            raise ValueError("give the parameters either in the learner object or as params=, not both")
        params = dict(learner.get_params())
    dim = getattr(cls, "dim_param", None)
    if dim and dim not in params and dim in _parameters(cls):
        lengths = {len(p) for p in C.points}
        if len(lengths) == 1:
            params[dim] = lengths.pop()

    def build(**overrides):
        kw = {**params, **overrides}
        return cls(C, **kw) if getattr(cls, "needs_class", False) else cls(**kw)

    return cls, params, build


def _play(L, examples) -> list:
    preds = []
    for x, y in examples:
        preds.append(L.predict_one(x))
        L.learn_one(x, y)
    return preds


def _stream(C, seed: int, length: int = 40, target: int = 6) -> list:
    """A realizable stream over ``C``: random points labelled by one concept (the same for every seed, so
    that streams may follow one another)."""
    rng = np.random.default_rng(seed)
    t = target % len(C)
    js = rng.integers(C.n_points, size=length)
    return [(C.points[j], int(C.matrix[t, j])) for j in js]


def explore(builder, C, limit: int = 150) -> list:
    """Up to ``limit`` states reachable by any examples over ``C`` (every point, both labels), breadth
    first, each as ``(learner, examples that reach it)``; ``builder()`` makes a fresh learner."""
    start = builder()
    seen, out, todo = {start.state_key()}, [], deque([(start, ())])
    while todo and len(out) < limit:
        L, path = todo.popleft()
        out.append((L, path))
        for x in C.points:
            for y in (0, 1):
                M = copy.deepcopy(L)
                try:
                    M.learn_one(x, y)
                except ValueError:  # a label no concept of the class gives (a class-based learner refuses it)
                    continue
                k = M.state_key()
                if k not in seen:
                    seen.add(k)
                    todo.append((M, path + ((x, y),)))
    return out


def check_protocol(builder, C, rebuild=None) -> None:
    """The protocol of :mod:`solvers.learners.base`: 0/1 int predictions (also on numpy points), the same
    predictions and keys for the same parameters and stream, a key that moves with the state, independent
    deep copies, numpy 0/1 labels accepted and anything else refused (ValueError), and ``get_params()``
    rebuilding the same learner through ``rebuild(params)`` when given."""
    from ..learners.base import Learner

    L = builder()
    name = getattr(L, "name", type(L).__name__)
    _require(isinstance(L, Learner), f"{name}: not a Learner (predict_one, learn_one, state_key, mistake_bound, "
                                     "get_params)")
    _require(isinstance(getattr(type(L), "name", None), str) and L.name, f"{type(L).__name__}: set the class "
                                                                          "attribute name (its CLI name)")
    for x in C.points:
        p = L.predict_one(x)
        _require(type(p) is int and p in (0, 1), f"{name}: predict_one({x}) returned {p!r}, not the int 0 or 1")
    _require(L.predict_one(np.array(C.points[1])) == L.predict_one(C.points[1]),
             f"{name}: predict_one differs on a point given as a numpy array")
    for seed in range(3):
        A, B = builder(), builder()
        _require(A.state_key() == B.state_key(), f"{name}: two fresh learners have different state keys")
        hash(A.state_key())
        ex = _stream(C, seed)
        _require(_play(A, ex) == _play(B, ex), f"{name}: two fresh learners predict differently on one stream")
        _require(A.state_key() == B.state_key(), f"{name}: equal learners reach different state keys")
        hash(A.state_key())
    A, k0, changed = builder(), None, False
    k0 = A.state_key()
    for x, y in _stream(C, 7, 60):
        A.learn_one(x, y)
        changed |= A.state_key() != k0
    _require(changed, f"{name}: state_key() never changed in 60 rounds (it must summarise the state)")
    A = builder()
    _play(A, _stream(C, 1, 5))
    key = A.state_key()
    preds = [A.predict_one(x) for x in C.points]
    B = copy.deepcopy(A)
    _require(B.state_key() == key, f"{name}: a deep copy starts with another state key")
    later = _stream(C, 2, 30)
    pb = _play(B, later)
    _require(A.state_key() == key and [A.predict_one(x) for x in C.points] == preds,
             f"{name}: playing a deep copy changed the original (share no mutable state)")
    _require(_play(A, later) == pb and A.state_key() == B.state_key(),
             f"{name}: a deep copy and its original differ on the same stream")
    A, B = builder(), builder()
    for x, y in _stream(C, 4, 10):
        A.learn_one(x, np.bool_(y))
        B.learn_one(x, np.int64(y))
    _require(A.state_key() == B.state_key(), f"{name}: numpy bool and int labels give different states")
    for y in (2, -1, 0.5, "1", None, True):
        try:
            builder().learn_one(C.points[0], y)
        except ValueError:
            continue
        raise ConformanceError(f"{name}: learn_one accepted the label {y!r}; refuse anything but 0/1 with "
                               "ValueError (solvers.learners.base.check_label)")
    if rebuild is not None:
        import json

        params = L.get_params()
        M = rebuild(json.loads(json.dumps(params)))
        _require(type(M) is type(L) and M.get_params() == params,
                 f"{name}: get_params() {params} does not rebuild the same learner")
        N = builder()
        _require(M.state_key() == N.state_key(), f"{name}: the learner rebuilt from get_params() starts elsewhere")
        ex = _stream(C, 3)
        _require(_play(M, ex) == _play(N, ex), f"{name}: the learner rebuilt from get_params() predicts otherwise")


def check_conservative(builder, C=None) -> None:
    """``conservative``: a correct prediction never changes the state (on every reachable state)."""
    C = default_class() if C is None else C
    for L, _ in explore(builder, C):
        for x in C.points:
            M = copy.deepcopy(L)
            M.learn_one(x, L.predict_one(x))
            _require(M.state_key() == L.state_key(), lambda: f"{L.name} changed after a correct prediction on {x}")


def check_symmetric(builder, C=None) -> None:
    """``symmetric_variables``: renaming the variables of every point renames the state's entries alike."""
    C = default_class() if C is None else C
    rng = np.random.default_rng(0)
    n = len(C.points[0])
    for L, path in explore(builder, C, 60):
        pi = rng.permutation(n)

        def rename(x):
            out = [0] * n
            for i, v in enumerate(x):
                out[pi[i]] = v
            return tuple(out)

        B = builder()
        for x, y in path:
            B.learn_one(rename(x), y)
        _require(len(L.state_key()) == n, f"{L.name}: symmetric_variables, but state_key() has no entry per variable")
        _require(rename(L.state_key()) == B.state_key(),
                 f"{L.name}: symmetric_variables, but renaming the variables does not rename the state")
        _require([L.predict_one(x) for x in C.points] == [B.predict_one(rename(x)) for x in C.points],
                 f"{L.name}: symmetric_variables, but renaming the variables changes the predictions")


def check_predict_many(builder, C=None) -> None:
    """``predict_many`` equals ``predict_one`` point by point (also on an integer matrix for a batch learner)."""
    C = default_class() if C is None else C
    P = np.array(C.points)
    for L, _ in explore(builder, C, 60):
        expected = [L.predict_one(x) for x in C.points]
        _require(L.predict_many(list(C.points)).tolist() == expected, f"{L.name}: predict_many != predict_one")
        if L.batch_predictions:
            _require(L.predict_many(P).tolist() == expected, f"{L.name}: predict_many on a matrix != predict_one")


def check_randomized(builder, C=None, seeded=None) -> None:
    """``randomized`` iff the predictions depend on the learner's own seed (``seeded(s)`` builds one with
    seed s; a randomized learner without it is refused: its seed must be a parameter)."""
    C = default_class() if C is None else C
    L = builder()
    if seeded is None:
        _require(not L.randomized, f"{L.name} declares randomized but takes no seed parameter")
        return
    ex = _stream(C, 5, 60)
    runs = {tuple(_play(seeded(s), ex)) for s in range(8)}
    _require((len(runs) > 1) == bool(L.randomized),
             f"{L.name} declares randomized={bool(L.randomized)} but its seed changes "
             f"{'something' if len(runs) > 1 else 'nothing'}")


def check_probability(builder, C=None, seeded=None, seeds: int = 300) -> None:
    """``probability(x)``: an exact Fraction in [0, 1]; a deterministic learner's is its prediction; a
    randomized learner's is the same for every seed and the frequency of ``predict_one(x) == 1`` over
    ``seeds`` seeds (within 4.5 standard deviations, on a few states)."""
    C = default_class() if C is None else C
    L = builder()
    for M, _ in explore(builder, C, 40 if L.randomized else 60):
        probs = [M.probability(x) for x in C.points]
        _require(all(isinstance(p, Fraction) and 0 <= p <= 1 for p in probs),
                 lambda: f"{M.name}: probability() must be an exact Fraction in [0, 1], got {probs}")
        if not M.randomized:
            _require(probs == [M.predict_one(x) for x in C.points],
                     f"{M.name}: a deterministic learner's probability must be its prediction")
    if not L.randomized or seeded is None:
        return
    rng = np.random.default_rng(0)
    for path_len in (0, 2, 5):
        path = _stream(C, int(rng.integers(100)), path_len)
        runs = []
        for s in range(seeds):
            M = seeded(s)
            _play(M, path)
            runs.append(M)
        for j in rng.choice(C.n_points, size=min(4, C.n_points), replace=False):
            x = C.points[j]
            p = runs[0].probability(x)
            _require(all(M.probability(x) == p for M in runs[1:3]), f"{L.name}: probability depends on the seed")
            freq = sum(M.predict_one(x) for M in runs) / seeds
            sd = math.sqrt(float(p * (1 - p)) / seeds)
            _require(abs(freq - float(p)) <= 4.5 * sd + 1e-12,
                     f"{L.name}: predicts 1 at {x} in {freq:.3f} of {seeds} seeds, but probability says {p}")


def check_distribution_key(builder, C=None) -> None:
    """Equal ``distribution_key()`` => equal probabilities on every point, and still after the same examples;
    hashable; a deep copy keeps it."""
    C = default_class() if C is None else C
    groups: dict = {}
    for M, _ in explore(builder, C, 80):
        key = M.distribution_key()
        hash(key)
        groups.setdefault(key, []).append(M)
    rng = np.random.default_rng(1)
    for Ms in groups.values():
        if len(Ms) < 2:
            continue
        A, B = copy.deepcopy(Ms[0]), copy.deepcopy(Ms[-1])
        for _ in range(4):
            _require([A.probability(x) for x in C.points] == [B.probability(x) for x in C.points]
                     and A.distribution_key() == B.distribution_key(),
                     f"{A.name}: equal distribution keys, different probabilities")
            x = C.points[int(rng.integers(C.n_points))]
            for y in (0, 1):
                try:
                    A2, B2 = copy.deepcopy(A), copy.deepcopy(B)
                    A2.learn_one(x, y)
                    B2.learn_one(x, y)
                except ValueError:
                    continue
                A, B = A2, B2
                break
    L = builder()
    _require(copy.deepcopy(L).distribution_key() == L.distribution_key(), f"{L.name}: a copy's distribution key differs")


def check_max_errors(builder, C=None, sequences: int = 8) -> None:
    """``max_errors`` None: ``learn_one`` takes any 0/1 labels; k: it takes every label sequence within k
    errors of some concept of C and refuses (ValueError, state unchanged) a label that leaves none."""
    from ..game_rules import start, step

    C = default_class() if C is None else C
    k = builder().max_errors
    rng = np.random.default_rng(2)
    for _ in range(sequences):
        M = builder()
        levels = start(C.full, 0 if k is None else k)
        for _ in range(12):
            j = int(rng.integers(C.n_points))
            y = int(rng.integers(2))
            nxt = step(levels, C.columns[j], y)
            if k is not None and nxt is None:
                before = M.state_key()
                try:
                    M.learn_one(C.points[j], y)
                except ValueError:
                    pass
                else:
                    raise ConformanceError(f"{M.name}: max_errors={k}, but it accepted a label no concept "
                                           f"within {k} errors gives")
                _require(M.state_key() == before, f"{M.name}: a refused label changed the learner")
                y = 1 - y
                nxt = step(levels, C.columns[j], y)
            try:
                M.learn_one(C.points[j], y)
            except ValueError as e:
                raise ConformanceError(f"{M.name}: max_errors={k}, but it refused a label within {k} errors "
                                       f"of the class ({e})") from None
            if nxt is not None:
                levels = nxt


def check_bound(builder, C=None) -> str:
    """``bound_on(C)`` is a :class:`~solvers.learners.Bound` with a formula and a citation; returns the
    citation."""
    from ..learners.base import Bound

    C = default_class() if C is None else C
    L = builder()
    b = L.bound_on(C)
    _require(isinstance(b, Bound) and b.formula.strip(), f"{L.name}: bound_on(C) must return a Bound with a formula")
    return b.source


def check_learner(learner: type | Learner, C: ConceptClass | None = None, *, params: dict | None = None) -> LearnerCheck:
    """Check a learner against the protocol and each of its declarations, on a small class.

    Parameters
    ----------
    learner : learner class or instance
        A class following :mod:`solvers.learners.base` (an :class:`~solvers.learners.OnlineLearner`
        subclass, registered or not), or an instance (its class and ``get_params()`` are used).
    C : ConceptClass, optional
        The class to play on (default :func:`default_class`: ORs of at most 2 of 4 variables); a
        class-based learner is built on it, a vector learner gets its dimension from its points.
    params : dict, optional
        The constructor's parameters (a class given as ``learner``).

    Returns
    -------
    LearnerCheck
        The checks run and the citation its bound carries; ``cites_notes`` is False for your own work.

    Raises
    ------
    ConformanceError
        (an AssertionError) saying what the learner got wrong: a broken protocol or a false declaration,
        which would make the adversary's exact worst case wrong.
    ValueError
        The learner cannot be built (bad parameters) or states no ``bound_formula``/``bound_source``.
    """
    from ..seeds import check_source, is_citation

    if C is None:
        C = default_class()
    cls, kwargs, build = learner_builder(learner, C, params)
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a learner class needs a CLI name: set {cls.__name__}.name")
    if not getattr(cls, "bound_formula", ""):
        raise ValueError(f"learner {name}: state its bound in the class attribute bound_formula")
    source = check_source(getattr(cls, "bound_source", ""), f"learner {name}'s bound_source")
    try:
        build()
    except TypeError as e:
        raise ValueError(f"learner {name} cannot be built on {C} with {kwargs}: {e}") from None
    seeded = (lambda s: build(seed=s)) if "seed" in _parameters(cls) else None

    def rebuild(p):
        return cls(C, **p) if getattr(cls, "needs_class", False) else cls(**p)

    checks = ["protocol"]
    check_protocol(build, C, rebuild)
    L = build()
    if L.conservative:
        check_conservative(build, C)
        checks.append("conservative")
    if L.symmetric_variables:
        check_symmetric(build, C)
        checks.append("symmetric_variables")
    check_predict_many(build, C)
    check_randomized(build, C, seeded)
    check_probability(build, C, seeded)
    check_distribution_key(build, C)
    check_max_errors(build, C)
    bound_source = check_bound(build, C)
    checks += ["predict_many", "randomized", "probability", "distribution_key", "max_errors", "bound_on"]
    return LearnerCheck(name, tuple(checks), bound_source if bound_source else source, is_citation(source))
