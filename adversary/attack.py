"""Attack an online learner: search for the sequence that makes it err most, and hold it against its bound.

The mistake-bound model ([Rivest94]; [Mehta],
Definition 1) promises, for each learner, a bound M on its mistakes over *every* realizable sequence.
:func:`attack` runs an adversary strategy (:mod:`adversary.strategies`) against the learner on a class,
turns the best sequence it finds into a witness of the referee (:mod:`adversary.referee`), re-verifies
that witness from scratch, and reports

* ``mistakes``, the learner's mistakes on the sequence (as the referee counts them); for a randomized
  learner its exact *expected* mistakes on the sequence, a Fraction (see below);
* ``bound``, the learner's proven bound *for this class* (:func:`bound_for`), with formula and source;
* ``opt``, the optimum of the game for a finite class when ``solvers.opt`` solves it in the time given:
  Opt(C); RL(C) for a randomized learner; D_k(C) / R_k(C) with k label errors (``opt_symbol``);
* ``verdict``: ``unbounded`` (a verified cycle: the learner has no finite mistake bound on the class),
  ``violates`` (more mistakes than the bound: the bound as stated is wrong, and the witness shows it),
  ``tight`` (exactly floor(bound) mistakes: the bound is met; for expected mistakes, exactly the bound),
  ``below`` (fewer, found by searches that ran to their end) or ``stopped`` (fewer, and the time limit or
  Ctrl-C stopped the search: the mistakes are only a lower bound on the learner's worst case, and
  ``stats["stopped"]`` says why);
* ``witness``, the referee's JSON (``littlestone verify`` accepts it), ``strategy``, ``exact`` (the
  mistakes are the proven worst case) and search statistics.

Nothing unverified reaches the caller: every candidate sequence is replayed by the referee, and a
candidate the referee rejects is an internal error (a bug in a strategy), never a result.

Randomized learners and label errors. A randomized learner (randomized halving, randomized weighted
majority, RandSOA) draws its predictions from a distribution that depends on the examples so far, never
on its coins (:mod:`solvers.learners.base`), so the adversary maximises its expected mistakes by a fixed
sequence; the exact strategy computes them exactly from the learner's ``probability(x)``, and the witness
carries them (``"expected_mistakes": "p/q"``, which ``littlestone verify`` recomputes). With
``errors=k`` the labels may disagree with the best concept k times ([FHMM23]; :mod:`solvers.game_rules`), on
finite classes, against learners that accept such labels (not Halving, CON or randomized halving, which
keep a version space). Both are played by ``exact`` only (the other strategies refuse them; ``auto``
picks it).

Strategy ``auto`` picks by the class: ``geometric`` on margin halfspaces; on a finite class, ``exact``
(with most of the time when |C| |X| is small, when it plays its count search or when nothing else
applies, a quarter otherwise) and, unless that proved the worst case, ``tree`` (when the Opt tree is
known) and the anytime heuristics that are installed (``beam``, ``mcts``, ``local``), sharing the time
left; the best verified result wins. On a {0,1}^n class too large to list, ``exact`` runs first only
where its count search applies (Winnow on monotone disjunctions and their kin), then the heuristics.
Without a time limit ``auto`` gives itself :data:`AUTO_SECONDS`. A time limit or Ctrl-C returns the
best verified sequence found so far (``stats["stopped"]``).

What is known first. Any deterministic learner errs on a point whose other label the class still allows,
and on every level of a mistake tree played against it. So before any strategy runs (whichever is asked
for), the attack plays the sure mistakes (:func:`adversary.strategies.tree.play`, the candidate ``tree`` or
``forced``, ``stats["forced"]``): the mistake tree of Opt(C) when it is known (``known_opt``, a row of the
store, or :func:`solvers.opt.opt` within a quarter of the time, also on {0,1}^n classes it solves without
listing them), then greedily the first point whose other label is realizable. A stopped attack is so
never below Opt(C)'s proven lower bound when the learner's predictions can be computed in the time.
The attack's deadline reaches the learner's own search too (``Problem.deadline``, the learner's
``set_deadline``: SOA's and RandSOA's solvers), and its bound gets a quarter of the time.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
Winnow2 ([15-859B]) on monotone disjunctions of at most one of 3 variables:

>>> from solvers.classes.families import make
>>> r = attack("winnow2", make("monotone-disjunctions", n=3, k=1), strategy="exact")
>>> r.mistakes, r.exact, r.verdict, r.opt
(3, True, 'below', 2)
>>> r.bound.formula
'2 + 3r(1 + lg n), for an OR of r variables'

The Perceptron with sgn(0) = +1 ([Mehta]) on {0,1}^2 predicts 1 on x = 0 and cannot learn from it:

>>> r = attack("perceptron", make("monotone-disjunctions", n=2, k=1), strategy="exact")
>>> r.verdict, r.witness["cycle"]
('unbounded', {'start': 0, 'length': 1})

Randomized halving on 4 thresholds: its worst case is H_4 - 1 expected mistakes, its bound, exactly:

>>> r = attack("randomized-halving", make("thresholds", N=3), strategy="exact")
>>> r.mistakes, r.verdict, r.opt_symbol, r.opt
(Fraction(13, 12), 'tight', 'RL', Fraction(1, 1))
"""

from __future__ import annotations

import inspect
import math
import numbers
import sys
import time
import types
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Optional

from solvers import interrupts
from solvers.classes import spec as class_specs
from solvers.game_rules import Game
from solvers.opt.memo import SearchStop

from .referee import (
    WitnessError,
    build_learner,
    fraction_text,
    full_params,
    make_witness,
    target_words,
    verify_witness,
    witness_class,
)
from .position import Position, advance
from .strategies import STRATEGY_NAMES, available, get_strategy
from .strategies.base import Found, Problem, StrategyError, check_reads
from .strategies.exact import refusal

if TYPE_CHECKING:
    from solvers.classes.protocol import ConceptClassProtocol
    from solvers.learners.base import Bound, Learner

__all__ = ["attack", "AttackResult", "AttackError", "bound_for", "lemmas_for", "VERDICTS", "AUTO_SECONDS", "SMALL",
           "COUNTERS", "opt_applies", "verdict_of"]

#: The verdicts, from the learner's best to its worst; ``stopped``: a search stopped by the time limit or Ctrl-C
#: below the bound, which proves only that the learner can be made to err at least that often.
VERDICTS = ("stopped", "below", "tight", "violates", "unbounded")
#: What a search may maximise: all mistakes, or one kind of them (``--maximize``).
COUNTERS = ("mistakes", "false_negative", "false_positive")
#: Seconds ``auto`` gives itself when no time limit is given.
AUTO_SECONDS = 60.0
#: ``auto`` calls a finite class small for ``exact`` when |C| * |X| is at most this.
SMALL = 2048
#: The most seconds spent on Opt(C) for the report (and the tree strategy).
OPT_SECONDS = 30.0
#: The heuristics ``auto`` runs after ``exact`` / ``tree``, in this order.
HEURISTICS = ("beam", "mcts", "local")


class AttackError(RuntimeError):
    """An internal error: a strategy returned something the referee rejects (a bug, never a result)."""


@dataclass
class AttackResult:
    """The outcome of :func:`attack` (see the module docstring).

    Attributes
    ----------
    mistakes : int or Fraction
        The learner's mistakes on the witness's sequence, as the referee replays them; for a randomized
        learner its exact expected mistakes on it (``expected`` is True).
    bound : Bound
        The learner's proven bound for this class (``value`` is ``math.inf`` when none is proven).
    opt : int, Fraction or None
        The game's optimum (``opt_symbol``: Opt, RL, D_k or R_k) when the class is finite and it is
        solved in the time given.
    verdict : str
        One of :data:`VERDICTS`.
    witness : dict
        The referee's witness (verified), with ``"cycle"`` for ``unbounded`` and the extra keys
        ``"bound"``, ``"verdict"``, ``"opt"`` and ``"strategy"`` (which the referee ignores).
    strategy : str
        The strategy whose sequence this is.
    exact : bool
        True when ``mistakes`` is the learner's proven worst case on the class (or a cycle was found).
    stats : dict
        ``seconds``, ``stopped`` (None, "time limit", "interrupted" or "depth limit": the exact search met
        a line of :data:`adversary.strategies.exact.MAX_DEPTH` examples that never repeats a position), ``runs`` (one entry per
        strategy run: name, mistakes, exact, seconds, its own stats), ``opt_lower``, ``opt_upper``.
    message : str
        The referee's one-line verdict on the witness.
    errors : int
        The label errors allowed (k).
    expected : bool
        True for a randomized learner: ``mistakes`` is an exact expectation.
    opt_symbol : str
        The game's optimum's name: ``Opt``, ``RL``, ``D_k`` or ``R_k`` (:attr:`solvers.game_rules.Game.symbol`).
    lemmas : list of dict
        The learner's bounds on one kind of mistake (:meth:`solvers.learners.base.OnlineLearner.lemmas_on`), each
        held against the witness's count: ``kind``, ``formula``, ``source``, ``bound``, ``count``, ``verdict``
        (``tight``, ``violated``, ``loose`` when that kind was maximised exactly, else ``below``).
    maximize : str
        The counter the search maximised: ``mistakes``, ``false_negative`` or ``false_positive``.
    """

    mistakes: Any
    bound: Any
    opt: Any
    verdict: str
    witness: dict
    strategy: str
    exact: bool
    stats: dict = field(default_factory=dict)
    message: str = ""
    errors: int = 0
    expected: bool = False
    opt_symbol: str = "Opt"
    lemmas: list = field(default_factory=list)
    maximize: str = "mistakes"

    def __repr__(self) -> str:
        """One line: learner, class, mistakes, the bound with its formula and citation, verdict."""
        learner = self.witness.get("learner", {}).get("name", "?")
        m = fraction_text(self.mistakes) if isinstance(self.mistakes, Fraction) else self.mistakes
        b = self.bound
        value = "inf" if not b.finite else (fraction_text(b.value) if isinstance(b.value, Fraction) else b.value)
        return (f"AttackResult(learner={learner!r}, class={_class_text(self.witness.get('class'))!r}, mistakes={m}, "
                f"bound={value} ({b.formula}; {b.source}), verdict={self.verdict!r}, exact={self.exact})")

    def _repr_html_(self, rows: int = 12) -> str:
        """The verdict, the mistakes against the bound (formula, citation), the optimum, and the witness's
        first ``rows`` examples as a table (for notebooks)."""
        from html import escape

        learner = self.witness.get("learner", {})
        b = self.bound
        value = "&infin;" if not b.finite else escape(str(b.value))
        seq = self.sequence
        body = "".join(f"<tr><td>{t + 1}</td><td>{escape(str(tuple(e['x'])))}</td><td>{e['y']}</td></tr>"
                       for t, e in enumerate(seq[:rows]))
        more = f"<tr><td colspan=3>... {len(seq) - rows} more examples</td></tr>" if len(seq) > rows else ""
        opt = "" if self.opt is None else f"; {escape(self.opt_symbol)}(C) = {escape(str(self.opt))}"
        stopped = self.stats.get("stopped")
        return (f"<div><b>{escape(str(learner.get('name', '?')))}</b> on {escape(_class_text(self.witness.get('class')))}: "
                f"verdict <b>{escape(self.verdict)}</b>{' (stopped: ' + escape(str(stopped)) + ')' if stopped else ''}<br>"
                f"{'expected ' if self.expected else ''}mistakes {escape(str(self.mistakes))} against the bound "
                f"{value} = {escape(b.formula)}<br>cited from: <i>{escape(b.source)}</i>{opt}; strategy "
                f"{escape(self.strategy)}, {'exact worst case' if self.exact else 'a lower bound on the worst case'}"
                f"<br><table><tr><th>t</th><th>x</th><th>y</th></tr>{body}{more}</table>"
                f"<small>{escape(self.message)}</small></div>")

    @property
    def mistakes_by_kind(self) -> dict:
        """The witness's mistakes by kind (``false_negative``, ``false_positive``), as the referee replays them;
        a randomized learner's exact expectations (Fractions)."""
        w = self.witness
        if self.expected and "expected_mistakes_by_kind" in w:
            return {k: Fraction(v) for k, v in w["expected_mistakes_by_kind"].items()}
        return dict(w.get("mistakes_by_kind") or {})

    @property
    def cycle(self) -> Optional[tuple]:
        """(start, length) of the verified cycle, or None."""
        c = self.witness.get("cycle")
        return None if c is None else (c["start"], c["length"])

    @property
    def sequence(self) -> list:
        """The witness's examples as ``[{"x": [...], "y": 0 or 1}, ...]``."""
        return self.witness["sequence"]

    def to_json(self) -> dict:
        """A JSON-able dict: mistakes, bound (value/formula/source; an infinite value as null),
        verdict, stopped (``stats["stopped"]``), opt, witness, strategy, exact, cycle, stats, and target_text: the
        witness's target concept in words where its family can say it (:func:`adversary.referee.target_words`), else None.
        An exact fraction is a float with the string ``"p/q"`` beside it: ``"mistakes"`` and
        ``"expected_mistakes"`` for a randomized learner, ``"opt"`` and ``"opt_fraction"``; ``"game"``
        names the game (``{"randomized", "errors", "symbol"}``)."""
        out = {
            "mistakes": json_value(self.mistakes),
            "bound": self.bound.to_json(),
            "verdict": self.verdict,
            "stopped": self.stats.get("stopped"),
            "opt": json_value(self.opt),
            "strategy": self.strategy,
            "exact": self.exact,
            "cycle": None if self.cycle is None else {"start": self.cycle[0], "length": self.cycle[1]},
            "learner": self.witness["learner"],
            "class": self.witness["class"],
            "message": self.message,
            "stats": _fractions_as_floats(self.stats),
            "witness": self.witness,
            "target_text": target_words(self.witness["class"], self.witness.get("target")),
            "game": {"randomized": self.expected, "errors": self.errors, "symbol": self.opt_symbol},
            "mistakes_by_kind": {k: json_value(v) for k, v in self.mistakes_by_kind.items()},
            "lemmas": self.lemmas,
            "maximize": self.maximize,
        }
        if self.expected:
            out["expected_mistakes"] = fraction_text(self.mistakes)
        if isinstance(self.opt, Fraction):
            out["opt_fraction"] = fraction_text(self.opt)
        return out


def _class_text(spec) -> str:
    """A witness's class in words: ``family k=v ...`` or ``a matrix of r x c``."""
    if isinstance(spec, dict) and "family" in spec:
        return " ".join([str(spec["family"])] + [f"{k}={v}" for k, v in (spec.get("params") or {}).items()])
    if isinstance(spec, dict) and isinstance(spec.get("matrix"), list):
        m = spec["matrix"]
        return f"a matrix of {len(m)} concepts x {len(m[0]) if m else 0} points"
    return str(spec)


def _fractions_as_floats(obj):
    """``obj`` with every Fraction inside (search statistics: expected mistakes, the optimum's bounds) as
    :func:`json_value` writes it."""
    if isinstance(obj, Fraction):
        return json_value(obj)
    if isinstance(obj, dict):
        return {k: _fractions_as_floats(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_fractions_as_floats(v) for v in obj]
    return obj


def json_value(v):
    """A number for JSON: an int as itself, a Fraction as an int when whole, else a float."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v


# ---------------------------------------------------------------------------------------- bounds
def _canonical(name: str) -> str:
    from solvers.learners import LEARNERS

    spec = LEARNERS.get(name)
    return spec.name if spec is not None else name


def bound_for(learner: Learner, cls: ConceptClassProtocol, errors: int = 0) -> Bound:
    """The learner's proven mistake bound on the class ``cls`` with ``errors`` label errors:
    ``learner.bound_on(cls, errors)`` (``learner.bound_on(cls)`` without errors; a learner whose
    ``bound_on`` takes no ``errors`` states none with label errors).

    Each learner states its own (:mod:`solvers.learners.base`): class-based learners their bound on
    their class, vector learners theirs on the classes whose facts their theorems cover (Winnow on ORs
    of k variables, ELIM on ORs of literals, the Perceptron on margin halfspaces, ...), and anything
    else ``Bound(math.inf, "no bound proven for <learner> on <class>: ...", source)``; so do the
    randomized learners, whose bounds bound the *expected* mistakes against a sequence fixed in advance.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> from solvers.learners import make_learner
    >>> C = make("monotone-disjunctions", n=4, k=2)
    >>> bound_for(make_learner("winnow2", {}, C), C).value        # 2 + 3 * 2 * (1 + lg 4)
    20
    >>> bound_for(make_learner("perceptron", {}, C), C).formula    # doctest: +ELLIPSIS
    'no bound proven for perceptron on monotone-disjunctions n=4 k=2: ...'
    """
    method = getattr(learner, "bound_on", None)
    if not callable(method):
        raise ValueError(f"{type(learner).__name__} states no bound_on(cls); a learner of solvers.learners does")
    if not errors:
        return method(cls)
    if "errors" not in inspect.signature(method).parameters:
        from solvers.learners.base import OnlineLearner

        return OnlineLearner.bound_on(learner, cls, errors) if isinstance(learner, OnlineLearner) else \
            learner.no_bound(cls, "its bound_on states none with label errors", errors)
    return method(cls, errors=errors)


def lemmas_for(learner, cls, counts: dict, errors: int = 0, proven: str | None = None) -> list:
    """The learner's lemmas on ``cls`` (its bounds on one kind of mistake), each held against ``counts``
    (``{"false_negative": u, "false_positive": v}``) as JSON: ``kind``, ``formula``, ``source``, ``bound``,
    ``count``, ``verdict``. ``proven``: the kind whose count is the proven worst case (``--maximize`` with an
    exact search), whose lemma may then be called ``loose``."""
    method = getattr(learner, "lemmas_on", None)
    if method is None or not counts:
        return []
    return [L.to_json(counts, proven=L.kind == proven) for L in method(cls, errors)]


# ---------------------------------------------------------------------------------------- inputs
def _learner_name_params(learner, learner_params, cls, errors: int = 0) -> tuple[str, dict]:
    from solvers.learners import LEARNERS

    if isinstance(learner, str):
        name, params = learner, dict(learner_params or {})
    else:
        if learner_params is not None:
            raise ValueError("give the learner's parameters either in the learner object or as learner_params=, not both")
        name = getattr(type(learner), "name", None) or getattr(learner, "name", None)
        if not isinstance(name, str) or not hasattr(learner, "get_params"):
            raise ValueError(f"a learner is a name (with learner_params=) or a learner object with name and "
                             f"get_params(), got {type(learner).__name__}")
        params = dict(learner.get_params())
    spec = LEARNERS.get(name)
    if spec is not None and "d" in cls.facts and spec.dim_param and spec.dim_param not in params:
        params[spec.dim_param] = cls.facts["d"]  # the class determines the dimension
    if spec is not None:
        # parameters the class determines (Winnow for k-of-r functions takes k from the class of k-of-r functions)
        for key, value in spec.cls.params_from_class(cls).items():
            params.setdefault(key, value)
        if errors and isinstance(learner, str) and any(p[0] == "errors" for p in spec.params):
            params.setdefault("errors", errors)  # soa / rand-soa attacked with k errors: the learner for that game
    return name, params


def _check_options(strategy, time_limit, seed, jobs, errors, maximize="mistakes") -> None:
    if maximize not in COUNTERS:
        raise ValueError(f"maximize={maximize!r}: choose one of {', '.join(COUNTERS)}")
    if maximize != "mistakes" and strategy not in ("auto", "exact"):
        raise StrategyError(f"strategy {strategy} maximises all mistakes; --maximize {maximize} needs strategy exact "
                            "(or auto)")
    if strategy != "auto" and strategy not in STRATEGY_NAMES:
        raise StrategyError(f"unknown strategy {strategy!r}; choose one of: auto, {', '.join(STRATEGY_NAMES)}")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0 or math.isnan(time_limit)):
        raise ValueError(f"time limit {time_limit!r} is not positive; give a number of seconds > 0")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed {seed!r} is not a whole number; give e.g. seed=0")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs={jobs!r}: give a whole number of worker processes >= 1")
    if isinstance(errors, bool) or not isinstance(errors, int) or errors < 0:
        raise ValueError(f"errors={errors!r}: give a whole number >= 0 of label errors (the labels that may "
                         "disagree with the best concept)")


# ---------------------------------------------------------------------------------------- attack
def attack(learner, C, *, learner_params: Optional[dict] = None, strategy: str = "auto",
           time_limit: Optional[float] = None, seed: int = 0, jobs: int = 1, errors: int = 0,
           progress: Optional[Callable[[dict], None]] = None, known_opt=None,
           maximize: str = "mistakes", on_opt: Optional[Callable] = None) -> AttackResult:
    """Search for the sequence that makes ``learner`` err most on ``C``; verify it; judge the bound.

    Parameters
    ----------
    learner : str, learner class or learner object
        A learner name of ``solvers.learners.LEARNERS`` (parameters in ``learner_params``); a learner
        class (parameters in ``learner_params``); or a learner whose class, ``name`` and ``get_params()``
        are used (it is never played or mutated: the referee and the strategies build fresh ones). A
        class not in the registry (your own; run :func:`solvers.learners.check_learner` on it first) is
        registered for the attack's duration, in this process only (``jobs=1``); its bound, report and
        witness carry its own ``bound_source``. The dimension parameter (n or d) defaults from the class.
    C : a class of :mod:`solvers.classes` or a class spec dict
        The class, or a witness class spec (``{"family": ..., "params": ...}``, ``{"matrix": ...}``).
    learner_params : dict, optional
        The learner's parameters when ``learner`` is a name.
    strategy : str
        ``auto`` (default) or one of :data:`adversary.strategies.STRATEGY_NAMES`.
    time_limit : float, optional
        Seconds for the whole attack (Opt included); the best verified sequence found by then is
        returned. ``auto`` without a limit uses :data:`AUTO_SECONDS`.
    seed : int
        Seed of every random choice (same seed, same result for the seeded strategies).
    jobs : int
        Worker processes a strategy may use.
    errors : int
        k >= 0: the labels may disagree with the best concept k times (finite classes; the witness
        records ``"errors": k`` and its target is within k errors of the labels).
    progress : callable, optional
        Called about once a second with ``{"strategy", "mistakes" (the best so far over all runs),
        "seconds", ...}`` plus what the running strategy reports (``nodes``, ``memo``, ...).
    known_opt : OptResult, optional
        What is already known of Opt(C) (a row of the store, its certificates re-checked by the caller):
        its ``lower``, ``upper``, ``value`` and mistake ``tree`` are used instead of computing them
        (the standard game only).
    maximize : str
        What the search maximises (:data:`COUNTERS`): all mistakes (default), or the false negatives or false
        positives alone, to see which step of a proof is loose (strategy ``exact`` on a finite class, a
        deterministic learner). The result's ``mistakes`` are still all of them; ``exact`` then says nothing
        of them, and the lemma of the kind maximised may be ``loose``.
    on_opt : callable, optional
        ``on_opt(r)`` with the :class:`~solvers.opt.OptResult` of the game's optimum when the attack computed it
        (not when ``known_opt`` gave it): a results store records it, so that the attack's next run finds it.

    Returns
    -------
    AttackResult

    Raises
    ------
    ValueError
        One line saying what to change: an unknown learner or strategy (``StrategyError``), impossible
        parameters, a strategy that does not apply (``StrategyError``), a bad class.
    AttackError
        A strategy produced a sequence the referee rejects (a bug; never reported as a result).
    """
    with _registered(learner, jobs) as learner:
        return _attack(learner, C, learner_params=learner_params, strategy=strategy, time_limit=time_limit,
                       seed=seed, jobs=jobs, errors=errors, progress=progress, known_opt=known_opt,
                       maximize=maximize, on_opt=on_opt)


class _registered:
    """:func:`solvers.learners.registered` for an attack: a learner object or class (a name passes through),
    registered for the attack's duration when it is not; refused with ``jobs > 1`` then (worker processes
    would not know it). Yields what :func:`_attack` takes (a name for a class, the object for an instance)."""

    def __init__(self, learner, jobs: int):
        self.learner, self.jobs, self.context = learner, jobs, None

    def __enter__(self):
        from solvers.learners import LEARNERS, registered

        learner = self.learner
        if isinstance(learner, str):
            return learner
        cls = learner if isinstance(learner, type) else type(learner)
        name = getattr(cls, "name", None)
        if self.jobs != 1 and isinstance(name, str) and name not in LEARNERS:
            raise ValueError(f"learner {name} is not registered, so worker processes cannot build it; give "
                             "jobs=1, or register it (solvers.learners.register) in a module the workers import")
        self.context = registered(learner)
        self.context.__enter__()
        return name if isinstance(learner, type) else learner

    def __exit__(self, *exc):
        if self.context is not None:
            self.context.__exit__(*exc)
        return False


def _attack(learner, C, *, learner_params, strategy, time_limit, seed, jobs, errors, progress, known_opt,
            maximize, on_opt) -> AttackResult:
    """:func:`attack`, with ``learner`` a registered name or a learner object of a registered class."""
    t0 = time.monotonic()
    _check_options(strategy, time_limit, seed, jobs, errors, maximize)
    cls = class_specs.trusted(witness_class(C))
    if "margin" in cls.facts:  # dense points of d coordinates: refused before the first is made if they cannot fit
        from .strategies.geometric import check_dimension
        check_dimension(cls)
    if errors and not cls.finite:
        _refuse_errors(cls, errors)
    name, params = _learner_name_params(learner, learner_params, cls, errors)
    model = build_learner(name, params, cls)  # WitnessError (a ValueError): unknown name, bad parameters
    name = _canonical(name)
    params = full_params(model, params)
    check_reads(model, name, cls)  # once, before any strategy runs: the same error whichever strategy is asked for
    why = refusal(model, name, errors)
    if why is not None:
        raise ValueError(why)
    budget = time_limit if time_limit is not None else (AUTO_SECONDS if strategy == "auto" else None)
    deadline = None if budget is None else t0 + budget
    problem = Problem(name, params, cls, cls.to_spec(), seed=seed, jobs=jobs, errors=errors, maximize=maximize)
    game = Game(randomized=bool(getattr(model, "randomized", False)), errors=errors)

    # Which strategies, in order (each checked before any time is spent).
    plan = _plan(strategy, problem)
    stats: dict = {"runs": [], "stopped": None}
    settled = _nothing_to_gain(problem, cls, game)
    if settled is not None:  # 0 mistakes, proven, whatever the strategy: no search, no time spent
        stats.update({"settled": settled, "opt_lower": 0, "opt_upper": 0, "opt_symbol": game.symbol})
        bound = _bound(model, cls, errors, _share(deadline, 0.25), stats)
        none = Found([], 0, 0 if cls.finite else None, exact=True, stats={"settled": settled})
        return _best_verified([("none", none)], problem, cls, bound, 0, stats, t0, game)
    interrupted = False
    best_so_far: dict = {"mistakes": 0}

    def report(info: dict) -> None:
        if progress is not None:
            progress({**info, "mistakes": best_so_far["mistakes"], "seconds": round(time.monotonic() - t0, 3)})

    # Opt(C) (or the game's optimum): for the report, and the tree that seeds every attack.
    opt_value = None
    if known_opt is not None and game.standard:
        opt_value = _known(known_opt, problem, stats)
    if opt_value is None and (cls.finite or opt_applies(cls, game)):
        opt_value, interrupted = _opt(cls, problem, stats, deadline, report, game, on_opt)

    # The learner's bound, under a share of the time (SOA's is Opt(C), by its own solver).
    try:
        bound = _bound(model, cls, errors, _share(deadline, 0.25), stats)
    except KeyboardInterrupt:  # (SOA's bound is its own search: the sure mistakes are still played below)
        from solvers.learners.base import Bound

        interrupted = True
        bound = Bound(math.inf, f"{model.bound_formula}: not computed (interrupted)",
                      getattr(model, "bound_source", ""))
    problem._prototype = model  # a learner built from the class: its solver's memo (warm from the bound) serves every run

    # The empty sequence is always a (verified) answer: what a Ctrl-C before any result returns.
    empty_target = ({"w": [1] + [0] * (cls.facts["d"] - 1)} if cls.n_concepts is None  # a direction w
                    else None if cls.finite else 0)  # an implicit class's witness names its target
    candidates: list[tuple[str, Found]] = [("none", Found([], 0, empty_target, stats={}))]
    # The sure mistakes, first: the mistake tree (when known) played against the learner, then the first point
    # whose other label is realizable, while there is one (every deterministic learner errs on each).
    # After a Ctrl-C (in Opt's search or the bound's) they are still played, for the grace that solvers.interrupts
    # gives what reports the proven bounds (half a second: the learner's own search may take some of it).
    seeded = None
    if not errors and cls.n_concepts is not None:
        # The known tree is played to its end within the whole time limit (its depth, Opt's proven lower bound,
        # is what a stopped attack must never fall below); the greedy extension after it within a share.
        until = time.monotonic() + interrupts.GRACE if interrupted else deadline
        extend_until = None if interrupted else _share(deadline, 0.25 if problem.opt_tree else 0.1)
        stopped_here, seeded = _seed(problem, candidates, stats, until, best_so_far, report, extend_until)
        interrupted = interrupted or stopped_here
    errors: list[StrategyError] = []  # auto: the strategies that turned out not to apply
    for i, (sname, strat, share) in enumerate(plan):
        if interrupted or interrupts.requested():  # (a Ctrl-C that a library swallowed: start no other run)
            interrupted = True
            break
        left = math.inf if deadline is None else deadline - time.monotonic()
        if left <= 0 and candidates[1:]:
            stats["stopped"] = "time limit"
            break
        run_deadline = None if deadline is None else time.monotonic() + max(left * share, 0.05)
        if sname == "tree" and (problem.opt_tree is None or (strategy == "auto" and seeded is not None
                                                             and not seeded.stats.get("stopped"))):
            continue  # (auto: the seed has played the whole tree already)
        problem.deadline = run_deadline  # the learner's own search stops there too
        last = {}

        def on_progress(info: dict, _name=sname, _last=last) -> None:
            if isinstance(info, dict):
                _last.update(info)
                m = info.get("mistakes")
                if _is_count(m) and m > best_so_far["mistakes"]:
                    best_so_far["mistakes"] = m
                report({**info, "strategy": _name})

        t1 = time.monotonic()
        try:
            found = strat.run(problem, deadline=run_deadline, progress=on_progress)
        except StrategyError as e:
            if strategy != "auto":
                raise
            errors.append(e)
            stats["runs"].append({"strategy": sname, "error": str(e), "seconds": round(time.monotonic() - t1, 4)})
            continue
        except SearchStop:  # the learner's own search reached the deadline inside the strategy
            found = _from_progress(last)
            if found is None:
                stats["runs"].append({"strategy": sname, "mistakes": None, "exact": False, "cycle": None,
                                      "seconds": round(time.monotonic() - t1, 4), "stats": {"stopped": "time limit"}})
                stats["stopped"] = "time limit"
                continue
            found.stats["stopped"] = "time limit"
        except KeyboardInterrupt:
            interrupted = True
            found = _from_progress(last)
            if found is None:
                break
            found.stats["stopped"] = "interrupted"
        finally:
            problem.deadline = None
        if not isinstance(found, Found):
            raise AttackError(f"strategy {sname} returned {type(found).__name__}, not a Found")
        run_stats = dict(found.stats or {})
        stats["runs"].append({"strategy": sname, "mistakes": found.mistakes, "exact": bool(found.exact),
                              "cycle": found.cycle, "seconds": round(time.monotonic() - t1, 4), "stats": run_stats})
        candidates.append((sname, found))
        if found.mistakes > best_so_far["mistakes"]:
            best_so_far["mistakes"] = found.mistakes
        report({"strategy": sname, "done": True})
        if run_stats.get("stopped") == "interrupted":
            interrupted = True
        if found.cycle is not None or found.exact:
            break  # the worst case is proven (or there is none): nothing left to find
        if run_stats.get("stopped") == "time limit" and deadline is not None and (
                time.monotonic() >= deadline or i == len(plan) - 1):  # the last run may stop early to leave time to verify
            stats["stopped"] = "time limit"

    if errors and len(errors) == len(stats["runs"]) and not interrupted:
        raise errors[0]  # no strategy applied after all: say why, as the strategy asked for by name would
    if interrupted:
        stats["stopped"] = "interrupted"
    elif (deadline is not None and time.monotonic() >= deadline - 0.05
          and not any(f.exact or f.cycle is not None for _, f in candidates)):
        stats["stopped"] = "time limit"  # the anytime strategies ran until the time was up
    elif stats.get("bound_stopped") and not stats["stopped"]:
        stats["stopped"] = "time limit"  # the bound is not known: the verdict is not either
    elif not stats["stopped"] and not any(f.exact or f.cycle is not None for _, f in candidates) and any(
            (r.get("stats") or {}).get("stopped") == "depth limit" for r in stats["runs"]):
        stats["stopped"] = "depth limit"  # the exact search gave up on a line that never repeats: a lower bound
    elif not stats["stopped"] and not any(f.exact or f.cycle is not None for _, f in candidates) and any(
            (r.get("stats") or {}).get("stopped") == "time limit"
            for r in [*stats["runs"], stats.get("forced") or {}]):
        stats["stopped"] = "time limit"  # a run (or the sure mistakes) stopped on its share: no verdict below
    try:
        return _best_verified(candidates, problem, cls, bound, opt_value, stats, t0, game)
    except KeyboardInterrupt:  # a Ctrl-C (or its grace running out) while verifying: the best candidate only
        stats["stopped"] = "interrupted"
        best = sorted(candidates, key=_rank, reverse=True)[:1]  # as _best_verified ranks them
        with interrupts.paused():  # one replay, bounded by its length: the grace has run out, a new Ctrl-C has not
            return _best_verified(best, problem, cls, bound, opt_value, stats, t0, game)


def _share(deadline: Optional[float], share: float) -> Optional[float]:
    """The instant ``share`` of the time left before ``deadline`` from now (at least 50 ms; None: no limit)."""
    if deadline is None:
        return None
    now = time.monotonic()
    return now + max((deadline - now) * share, 0.05)


def _bound(model, cls, errors: int, deadline: Optional[float], stats: dict):
    """The learner's bound (:func:`bound_for`), its own search stopped at ``deadline``; a bound not computed
    by then is ``Bound(inf, "<formula>: not computed within the time limit")`` and ``stats["bound_stopped"]``."""
    from solvers.learners.base import Bound

    if deadline is not None and hasattr(model, "set_deadline"):
        model.set_deadline(deadline)
    try:
        return bound_for(model, cls, errors)
    except SearchStop:
        stats["bound_stopped"] = True
        return Bound(math.inf, f"{model.bound_formula}: not computed within the time limit",
                     getattr(model, "bound_source", ""))
    finally:
        if deadline is not None and hasattr(model, "set_deadline"):
            model.set_deadline(None)


def _seed(problem: Problem, candidates: list, stats: dict, deadline, best_so_far: dict, report,
          extend_deadline=None) -> tuple:
    """Add the sure mistakes (:func:`adversary.strategies.tree.play`: the known mistake tree, then greedy) to
    ``candidates`` as ``tree`` or ``forced`` (``stats["forced"]``); returns (True on Ctrl-C, the Found or None)."""
    from .strategies.tree import play

    sname = "tree" if problem.opt_tree is not None else "forced"
    t1 = time.monotonic()
    try:
        found = play(problem, problem.opt_tree, deadline=deadline, extend_deadline=extend_deadline)
    except StrategyError as e:  # a learner that fails on the points: the strategies say so in their own words
        stats["forced"] = {"strategy": sname, "error": str(e), "seconds": round(time.monotonic() - t1, 4)}
        return False, None
    except KeyboardInterrupt:
        return True, None
    interrupted = found.stats.get("stopped") == "interrupted"  # (play keeps the sure mistakes made before a Ctrl-C)
    stats["forced"] = {"strategy": sname, "mistakes": found.mistakes, "seconds": round(time.monotonic() - t1, 4),
                     "stats": dict(found.stats)}
    candidates.append((sname, found))
    best_so_far["mistakes"] = max(best_so_far["mistakes"], found.mistakes)
    report({"strategy": sname, "done": True})
    return interrupted, found


def _nothing_to_gain(problem: Problem, cls, game: Game) -> Optional[str]:
    """Why no sequence can cost the learner a mistake (then every attack's answer is 0, proven), or None.

    A class over no points has nothing to ask, whatever the game. On a listed class where no point splits the
    class (one concept, or every point labelled alike by all), every label is forced: a deterministic learner
    that predicts it on every point and whose state no example changes can never err (the version space and
    the learner both stay where they started). Anything else is left to the strategies."""
    if cls.n_concepts is None or not cls.finite:
        return None
    points = cls.points
    if not points:
        return "the class has no points: there is nothing to ask"
    if game.randomized or problem.errors:
        return None
    pos = Position.start(problem.new_learner(), cls)
    forced = []
    for x in points:
        V0, V1 = pos.split(x)
        if V0 and V1:
            return None  # a point whose both labels are realizable: the strategies' work
        forced.append((x, 1 if V1 else 0))
    key = pos.learner.state_key()
    for x, y in forced:
        if pos.prediction(x) != y or advance(pos.learner, x, y).state_key() != key:
            return None
    return (f"no point splits the class and {problem.learner_name} predicts every forced label, learning nothing "
            "from it: no sequence costs it a mistake")


def opt_applies(cls, game: Game) -> bool:
    """Whether :func:`solvers.opt.opt` has a search for this class that lists no points (monotone disjunctions
    by their symmetry), in this game."""
    from solvers.opt import disjunctions

    return game.standard and cls.n_concepts is not None and disjunctions.handles(cls)


def _known(r, problem: Problem, stats: dict):
    """Opt(C) from a known result ``r`` (``lower``, ``upper``, ``value``, ``tree``); sets ``problem.opt_tree``."""
    stats.update({"opt_lower": r.lower, "opt_upper": r.upper, "opt_seconds": 0.0, "opt_symbol": "Opt",
                  "opt_known": True})
    if r.tree is not None:
        problem.opt_tree = r.tree
    return r.value


def _refuse_errors(cls, errors: int) -> None:
    """ValueError (one line): label errors need a finite class (the class's own message)."""
    try:
        cls.check_target([], None if cls.n_concepts is None else 0, errors=errors)
    except ValueError as e:
        raise ValueError(" ".join(str(e).split())) from None
    raise ValueError(f"label errors need a finite class listed point by point, not {cls}")  # pragma: no cover


def _is_count(m) -> bool:
    """A number of mistakes: an int, or a Fraction (an expectation)."""
    return isinstance(m, numbers.Rational) and not isinstance(m, bool)


def _plan(strategy: str, problem: Problem) -> list:
    """[(name, strategy object, share of the time left)], every one applicable (checked)."""
    if strategy != "auto":
        strat = get_strategy(strategy)
        strat.check(problem)
        return [(strategy, strat, 1.0)]
    if problem.maximize != "mistakes":  # only the exact search maximises one kind of mistake
        strat = get_strategy("exact")
        strat.check(problem)
        return [("exact", strat, 1.0)]
    if _has_margin(problem.cls):
        if not available("geometric"):
            raise StrategyError(f"strategy auto on {problem.cls} needs strategy geometric, which is not available "
                                "in this installation")
        strat = get_strategy("geometric")
        strat.check(problem)
        return [("geometric", strat, 1.0)]
    plan = []
    C = problem.cls
    # A class listed point by point gets exact and tree first; an implicit one (2^n points) the heuristics,
    # after exact's count search where it applies (Winnow on monotone disjunctions, ...: it lists no points).
    counts = available("exact") and not isinstance(get_strategy("exact").count_plan(problem), str)
    names = ["exact", "tree", *HEURISTICS] if problem.finite else ["exact"] * counts + list(HEURISTICS)
    usable, rejected = [], []
    for n in names:
        if not available(n):
            continue
        strat = get_strategy(n)
        try:
            strat.check(problem)
        except StrategyError as e:
            rejected.append(e)
            continue
        usable.append((n, strat))
    if not usable:
        if rejected:
            raise rejected[0]  # the first strategy's reason, as --strategy with its name would give
        raise StrategyError(f"no strategy applies to learner {problem.learner_name} on {C}")
    small = problem.finite and C.n_concepts * C.n_points <= SMALL
    rest = [u for u in usable if u[0] != "exact"]
    for n, strat in usable:
        if n == "exact":
            plan.append((n, strat, 0.75 if small or counts or not rest else 0.25))
        elif n == "tree":
            plan.append((n, strat, 0.1))
        else:  # the heuristics share what is left equally
            k = sum(1 for m, _ in rest if m in HEURISTICS and names.index(m) >= names.index(n))
            plan.append((n, strat, 1.0 / max(k, 1)))
    return plan


def _opt(cls, problem: Problem, stats: dict, deadline, report, game: Game, on_opt=None) -> tuple[Any, bool]:
    """The game's optimum (Opt(C), RL(C), D_k(C) or R_k(C)) within min(a quarter of the time left,
    OPT_SECONDS); for Opt(C) sets ``problem.opt_tree``; the result goes to ``on_opt`` too."""
    from solvers.opt import opt

    left = math.inf if deadline is None else deadline - time.monotonic()
    limit = max(min(left / 4, OPT_SECONDS), 0.01)
    t1 = time.monotonic()

    def on_progress(info):
        report({"strategy": "opt", "opt_lower": info.get("lower"), "opt_upper": info.get("upper"),
                "opt_symbol": game.symbol})

    if game.standard:
        r = opt(cls, time_limit=limit, progress=on_progress)
    else:
        r = opt(cls, time_limit=limit, progress=on_progress, game=game.kind, errors=game.errors)
    stats.update({"opt_lower": r.lower, "opt_upper": r.upper, "opt_seconds": round(time.monotonic() - t1, 4),
                  "opt_symbol": game.symbol})
    if r.tree is not None and game.standard and (problem.opt_tree is None or r.tree.depth > problem.opt_tree.depth):
        problem.opt_tree = r.tree
    if on_opt is not None:
        on_opt(r)
    return r.value, r.stats.get("stopped") == "interrupted"


def _from_progress(info: dict) -> Optional[Found]:
    """A candidate from a strategy's last progress report (when it was interrupted before returning)."""
    seq = info.get("sequence")
    if not isinstance(seq, list) or not _is_count(info.get("mistakes")):
        return None
    return Found(list(seq), info["mistakes"], info.get("target"), stats={})


def verdict_of(mistakes, bound, cycle: bool, expected: bool = False) -> str:
    """The verdict on ``mistakes`` against ``bound``: whole mistakes meet the bound at floor(bound); an
    expectation (``expected``) meets it only when exactly equal."""
    if cycle:
        return "unbounded"
    if bound.finite and mistakes > bound.value:
        return "violates"
    if bound.finite and mistakes == (bound.value if expected else math.floor(bound.value)):
        return "tight"
    return "below"


def _witness(sname: str, found: Found, problem: Problem, cls, bound, opt_value, game: Game) -> tuple[dict, Any]:
    """The verified witness of one candidate, or AttackError."""
    extra: dict = {}
    if found.cycle is not None:
        start, length = found.cycle
        extra["cycle"] = {"start": int(start), "length": int(length)}
    try:
        w = make_witness(problem.learner_name, problem.learner_params, cls, found.sequence, found.target,
                         extra=extra, errors=problem.errors)
    except WitnessError as e:
        raise AttackError(f"internal error: strategy {sname}'s sequence is not a valid witness: {e}") from None
    counted = Fraction(w["expected_mistakes"]) if game.randomized else w["mistakes"]
    counter = _counter(found)
    claimed = counted if counter == "mistakes" else w["mistakes_by_kind"][counter]
    if claimed != found.mistakes:
        raise AttackError(f"internal error: strategy {sname} claims {found.mistakes} "
                          f"{'mistakes' if counter == 'mistakes' else counter.replace('_', ' ') + 's'}, "
                          f"the referee counts {claimed}")
    verdict = verdict_of(counted, bound, found.cycle is not None, game.randomized)
    w.update({"bound": bound.to_json(), "verdict": verdict, "opt": json_value(opt_value), "strategy": sname})
    if not game.standard:
        w["opt_symbol"] = game.symbol
        if isinstance(opt_value, Fraction):
            w["opt_fraction"] = fraction_text(opt_value)
    v = verify_witness(w)
    if not v.ok:
        raise AttackError(f"internal error: the referee rejects strategy {sname}'s witness: {v.message}")
    if found.cycle is not None and v.cycle is None:
        raise AttackError(f"internal error: strategy {sname}'s cycle was not verified")
    return w, v


def _counter(found: Found) -> str:
    """The counter a strategy's result maximised (``stats["counter"]``; all mistakes when it says none)."""
    return found.stats.get("counter", "mistakes") if isinstance(found.stats, dict) else "mistakes"


def _rank(item) -> tuple:
    sname, found = item
    return (found.cycle is not None, found.mistakes, bool(found.exact))


def _objective(problem: Problem, found: Found, w: dict) -> tuple:
    """How a verified candidate ranks: a cycle first, then the counter maximised (as the referee counts it),
    then a proven worst case (of that counter)."""
    counted = Fraction(w["expected_mistakes"]) if "expected_mistakes" in w else w["mistakes"]
    value = counted if problem.maximize == "mistakes" else w["mistakes_by_kind"][problem.maximize]
    return (found.cycle is not None, value, bool(found.exact) and _counter(found) == problem.maximize)


def _best_verified(candidates, problem, cls, bound, opt_value, stats, t0, game: Game) -> AttackResult:
    # Every candidate is verified (a rejected one is a bug, reported loudly); the best one is returned.
    best = None
    for sname, found in sorted(candidates, key=_rank, reverse=True):
        w, v = _witness(sname, found, problem, cls, bound, opt_value, game)
        rank = _objective(problem, found, w)
        if best is None or rank > best[0]:
            best = (rank, sname, found, w, v)
    _, sname, found, w, v = best
    proven = bool(found.exact) and _counter(found) == problem.maximize  # the counter maximised is the proven worst case
    exact = bool(found.exact) and problem.maximize == "mistakes"
    if w["verdict"] == "below" and not exact and (stats.get("stopped") or not proven):
        w["verdict"] = "stopped" if stats.get("stopped") else "below"  # only "at least": no verdict below the bound
    model = problem._prototype if problem._prototype is not None else problem.new_learner()
    lemmas = lemmas_for(model, cls, w.get("mistakes_by_kind") if not game.randomized else None, problem.errors,
                        proven=problem.maximize if proven and found.cycle is None else None)
    if lemmas:
        w["lemmas"] = lemmas
    if problem.maximize != "mistakes":
        w["maximize"] = problem.maximize
        stats["maximize_exact"] = proven
    stats["seconds"] = round(time.monotonic() - t0, 4)
    mistakes = Fraction(w["expected_mistakes"]) if game.randomized else w["mistakes"]
    return AttackResult(mistakes=mistakes, bound=bound, opt=opt_value, verdict=w["verdict"], witness=w,
                        strategy=sname, exact=exact, stats=stats, message=v.message,
                        errors=problem.errors, expected=game.randomized, opt_symbol=game.symbol,
                        lemmas=lemmas, maximize=problem.maximize)


def _has_margin(cls) -> bool:
    """Whether ``cls`` is a class of directions with a margin (the geometric strategy's class)."""
    return "margin" in cls.facts


class _CallableModule(types.ModuleType):
    """This module's type: calling the module ``adversary.attack`` calls :func:`attack` (so that
    ``from adversary import attack`` is the function's behaviour, with its signature and docstring, while
    ``import adversary.attack`` still names the module)."""

    def __call__(self, *args, **kwargs):
        return attack(*args, **kwargs)


_module = sys.modules[__name__]
_module.__class__ = _CallableModule
_module.__signature__ = inspect.signature(attack)  # what inspect.signature(adversary.attack) shows
_module.__doc__ = (f"attack{inspect.signature(attack)}\n\n{inspect.getdoc(attack)}\n\n"
                   f"The module adversary.attack\n---------------------------\n{__doc__}")
