"""The one small interface every adversary strategy implements.

A strategy plays the adversary's side of the mistake-bound game ([Rivest94]:
Opt(C) is a max over targets and example sequences; [Mehta],
Definition 1): it chooses the points and the labels, keeping the labels realizable, so as to make
the learner err as often as possible. It is given a :class:`Problem` (which learner, on which class)
and returns a :class:`Found` (a sequence, the mistakes it forces, and a target that labels it).

Strategies never report anything the referee has not replayed: :func:`adversary.attack.attack` turns every
``Found`` into a witness and re-checks it with :func:`adversary.referee.verify_witness` before it reaches
the user. A strategy may therefore be heuristic, but it must be honest about ``exact`` (True only
when the value is the proven worst case over all sequences) and about ``cycle``.

Each strategy lives in its own module ``adversary/strategies/<name>.py`` and exposes a module-level
``STRATEGY`` instance of a :class:`Strategy` subclass.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Optional

from solvers import interrupts

__all__ = ["Problem", "Found", "Strategy", "StrategyError", "time_left", "check_reads", "only_exact", "PROBE_POINTS"]

#: How many points of a finite class :func:`check_reads` tries the learner on.
PROBE_POINTS = 512


class StrategyError(ValueError):
    """The strategy cannot attack this learner / class (one line saying what to use instead)."""


@dataclass
class Problem:
    """What to attack.

    Attributes
    ----------
    learner_name, learner_params : str, dict
        The learner as the registry knows it (``solvers.learners.make_learner``); the witness
        records exactly these, and the referee rebuilds the learner from them.
    cls : a class of :mod:`solvers.classes` (the class protocol)
        The class the labels must stay consistent with.
    class_spec : dict
        The witness's ``"class"`` entry for ``cls``.
    seed : int
        Seed for every random choice of the strategy (same seed, same result).
    opt_tree : MistakeTree, optional
        A mistake tree for ``cls`` when one is known (the ``tree`` strategy uses it).
    errors : int
        k >= 0: the labels may disagree with the best concept k times ([FHMM23]'s k-realizable
        sequences, :mod:`solvers.game_rules`); only ``exact`` plays with k > 0.
    maximize : str
        The counter the search maximises: ``"mistakes"`` (all of them), ``"false_negative"`` (label 1, predicted
        0) or ``"false_positive"`` (label 0, predicted 1); only ``exact`` maximises one kind.
    deadline : float, optional
        A ``time.monotonic()`` instant given to every learner :meth:`new_learner` builds
        (:meth:`~solvers.learners.base.OnlineLearner.set_deadline`): a learner that runs an exact search of its
        own (SOA, RandSOA) stops it there with :class:`solvers.opt.SearchStop` instead of running past the
        attack's time limit. :func:`adversary.attack.attack` sets it for each strategy run.
    """

    learner_name: str
    learner_params: dict
    cls: Any
    class_spec: dict
    seed: int = 0
    opt_tree: Any = None
    jobs: int = 1
    errors: int = 0
    deadline: Optional[float] = None
    maximize: str = "mistakes"
    _prototype: Any = field(default=None, repr=False, compare=False)
    _once: dict = field(default_factory=dict, repr=False, compare=False)

    def once(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` the first time ``name`` is asked of this problem, the same value after: for what
        depends on the learner and the class alone and several steps of an attack need (the count search's
        plan, :meth:`adversary.strategies.exact.ExactStrategy.count_plan`)."""
        if name not in self._once:
            self._once[name] = compute()
        return self._once[name]

    def new_learner(self):
        """A fresh learner, built by name exactly as the referee will build it, with :attr:`deadline`.

        A learner built from the class (SOA, RandSOA, Halving, ...: their state is immutable values, their
        solver a cache) is built once and copied, so that every run shares its solver's memo."""
        from adversary.referee import build_learner
        from solvers.learners import LEARNERS

        spec = LEARNERS.get(self.learner_name)
        if spec is not None and spec.needs_class:
            if self._prototype is None:
                self._prototype = build_learner(self.learner_name, self.learner_params, self.cls)
            learner = copy.deepcopy(self._prototype)
        else:
            learner = build_learner(self.learner_name, self.learner_params, self.cls)
        if self.deadline is not None and hasattr(learner, "set_deadline"):
            learner.set_deadline(self.deadline)
        return learner

    @property
    def finite(self) -> bool:
        """Whether the class lists its points (``cls.finite``)."""
        return self.cls.finite

    @property
    def randomized(self) -> bool:
        """Whether the learner declares ``randomized`` (it is charged its expected mistakes)."""
        from solvers.learners import LEARNERS

        spec = LEARNERS.get(self.learner_name)
        return bool(getattr(spec.cls if spec is not None else None, "randomized", False))


def only_exact(strategy: str, problem: "Problem") -> None:
    """StrategyError (one line) when ``problem`` is one only the exact strategy plays: a randomized
    learner (charged its expected mistakes, which a strategy playing its coin flips does not measure) or
    label errors."""
    if problem.randomized:
        raise StrategyError(f"strategy {strategy} plays one run of the learner's coin flips, and "
                            f"{problem.learner_name} is charged its expected mistakes; use --strategy exact")
    if problem.errors:
        raise StrategyError(f"strategy {strategy} plays only labels that some concept gives; with label errors "
                            f"(--errors {problem.errors}) use --strategy exact")


@dataclass
class Found:
    """What a strategy found.

    Attributes
    ----------
    sequence : list of (x, y)
        The examples in order: ``x`` a point of the class (an int tuple for finite classes, a
        vector for margin halfspaces), ``y`` 0 or 1.
    mistakes : int or Fraction
        The learner's mistakes on ``sequence`` (the referee recounts them); for a randomized learner its
        exact expected mistakes (a Fraction).
    target : int or dict or None
        A concept index of the class labelling every example, ``{"w": [...]}`` for margin
        halfspaces, or None to let the referee pick a consistent concept.
    exact : bool
        True only when ``mistakes`` is proven to be the learner's worst case on the class.
    cycle : (start, length) or None
        Set when ``sequence[start:start + length]`` leads the learner and the version space back to
        the state they had at ``start`` with at least one mistake on the way: the adversary can
        repeat it for ever, so the learner has no finite mistake bound on this class.
    stats : dict
        Search statistics (nodes, seconds, ...), reported as they are.
    """

    sequence: list
    mistakes: int
    target: Any = None
    exact: bool = False
    cycle: Optional[tuple[int, int]] = None
    stats: dict = field(default_factory=dict)


class Strategy:
    """Base class: subclasses set ``name`` and implement :meth:`run` (and :meth:`check`)."""

    name: ClassVar[str] = "?"
    #: one line for ``littlestone attack --help`` and the docs
    summary: ClassVar[str] = ""

    def check(self, problem: Problem) -> None:
        """Raise :class:`StrategyError` (one line) if this strategy cannot attack ``problem``."""

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        """Attack until done or until ``deadline`` (a ``time.monotonic()`` instant).

        Anytime strategies return the best sequence found so far when the deadline passes; they
        must not raise because of it. ``progress``, when given, is called about once a second with
        at least ``{"mistakes": best so far}``; it may also carry ``"sequence"`` and ``"target"``
        (the best so far, as in :class:`Found`), which :func:`adversary.attack.attack` verifies and returns
        if a Ctrl-C stops the strategy before it returns. A strategy that catches Ctrl-C itself
        returns its best ``Found`` with ``stats["stopped"] = "interrupted"``.
        """
        raise NotImplementedError


def time_left(deadline: Optional[float]) -> float:
    """Seconds until ``deadline`` (``inf`` without one).

    Every strategy looks at its clock here, so this is also where a Ctrl-C that a library swallowed (numpy
    drops a KeyboardInterrupt raised in Python code it calls from C) is raised again, from half a second
    after it came (:func:`solvers.interrupts.check`; one test of a list while no Ctrl-C came)."""
    interrupts.check()
    return float("inf") if deadline is None else deadline - time.monotonic()


def check_reads(model, name: str, cls) -> None:
    """StrategyError (one line) unless the learner reads the class's points: it predicts, and learns the
    label it predicted, on the first :data:`PROBE_POINTS` points of a finite class, on the 0 and 1 vectors
    of a {0,1}^n class, on R e_1 in margin halfspaces. A learner built from the class reads them by
    construction (and may be slow to predict): it is not probed."""
    from solvers.learners import LEARNERS

    spec = LEARNERS.get(name)
    if spec is not None and spec.needs_class:
        return
    if cls.finite:
        points = cls.points[:PROBE_POINTS]
    elif "margin" in cls.facts:
        R, _ = cls.facts["margin"]
        points = [(R,) + (0,) * (cls.facts["d"] - 1)]
    else:  # {0,1}^n, not listed
        points = [(0,) * cls.facts["n"], (1,) * cls.facts["n"]]
    probe = copy.deepcopy(model)
    for x in points:
        try:
            probe.learn_one(x, probe.predict_one(x))
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as e:
            raise StrategyError(f"{name} cannot read the points of {str(cls)} (on {_point_text(x)}: "
                                f"{' '.join(str(e).split())}); attack it on a class of its points") from None


def _point_text(x) -> str:
    return "(" + ", ".join(str(v) for v in x) + ("," if len(x) == 1 else "") + ")"
