"""The exact adversary: the true worst case of a deterministic learner on a finite class.

The game ([Rivest94]; [Mehta], Definition 1):
the adversary shows x, the learner predicts, the adversary answers with a label that leaves some
concept of C consistent. Against a *deterministic* learner the adversary knows every prediction in
advance, so the game is a longest-path problem: a position is (the learner's state, the version space
V), a move is a point x and a realizable label y (V_x^y non-empty), and it gains 1 when y differs from
the prediction. The worst case is

    W(s, V) = max over moves (x, y) with V_x^y != {} of  [pred_s(x) != y] + W(step(s, x, y), V_x^y),

0 when no move is left. Because the learner is deterministic, a whole line of play is one fixed
sequence, realizable by some concept c that the adversary might as well have fixed in advance; so
also W(s, C) = max over c in C of W_c(s), where W_c is the longest path of the learner's states when
every label is c's. This module has two searches, both depth-first with a memo keyed by the learner's
exact ``state_key`` (:mod:`solvers.learners.base`: equal keys mean equal futures). Both are caches over
the game of :mod:`adversary.position`: a position (learner, V) is (sid, V), with the learner states
interned as ints by :class:`~adversary.position.States` (their steps and predictions on every point
computed once):

* ``mode="targets"`` (the default for learners whose state is not a version space: Winnow, the
  Perceptron, the elimination algorithms): one search per target c over learner states alone. A
  conservative learner ([OnlineAlgs]: it changes only after a mistake) is only shown the points it gets
  wrong. A learner with ``symmetric_variables`` on 0/1 points is searched up to renaming the
  variables (:mod:`._symmetry`): one target per orbit, states sorted within blocks of interchangeable
  variables, one point per class of alike points. For Winnow2 on monotone disjunctions of 2 of 8
  variables that is 3 targets and about 5,000 states instead of 37 targets x 256 points x every
  version space.
* ``mode="version-space"`` (the default for learners whose state *is* a version space, and for those
  that state a remaining-mistake bound on one: Halving, CON, SOA, weighted majority): one search over
  (state, V), where the learners' own theorems prune.
* ``mode="counts"`` (the default, when it applies, for Winnow, Winnow1, Winnow2, Winnow-R and Winnow
  for k-of-r functions on monotone disjunctions, k-of-r functions and monotone conjunctions over the
  whole of {0,1}^n): the targets search with the symmetry taken all the way (:mod:`._counts`): a
  position is how many relevant and irrelevant variables carry each weight alpha^e, a move how many
  of each group are on, so 2^n points are never listed, and classes too large to list
  (:class:`~solvers.classes.implicit.ImplicitFamily`, n >= 13) are searched too. Its witness is built
  from the counts and replayed on the learner as it is built.

Facts that keep both searches small and exact:

* **Useless examples are skipped.** W is monotone in V (a sequence realizable in V' is realizable in
  any V containing V'), so a move that gains nothing and leaves the learner's state unchanged can
  only shrink V and never helps. For a conservative learner this leaves exactly the mistake
  examples; Halving and SOA, whose state is V, keep the others too. A move that *is* a mistake is
  never skipped, even when the state does not change.
* **Admissible bounds prune** (version-space mode, ``prune=True``, the default): the learner's own
  ``remaining_bound(V)`` (:mod:`solvers.learners.base`): for Halving at most floor(log2 |V|) mistakes
  remain (each one halves V; [OnlineAlgs]), for CON at most |V| - 1 ([OnlineAlgs]), for SOA at most
  Opt(V) ([Rivest94]), for weighted majority the potential bound from its current weights. A node stops as soon as its best move meets its bound, and a move
  whose gain plus the child's bound cannot beat the best so far is not searched; the value found is
  still exact. These are the learners' theorems applied to the rest of the game: with pruning the
  search cannot find a violation of those bounds (``ExactStrategy(prune=False)`` searches
  without them). Weighted majority needs its bound to finish at all: it charges wrong experts on
  every example, so its states never repeat and only the bound ends a line of play. Littlestone-Warmuth's
  potential alone does not: along a line that keeps charging experts outside V their weights fall for
  ever while the potential stays above the value (``wm`` on ``singletons N=2``, 3 experts, ran into the
  depth limit). Its ``remaining_bound`` therefore also uses a bound derived for the realizable game
  (``solvers.learners.weighted_majority._light_outside``: while the experts outside V weigh little, a
  mistake must shrink V or halve their weight), which settles such lines: singletons N=2 and N=3 and
  thresholds N=7 are now proven. Where a line still never settles (intervals N=4, 11 experts) the search
  stops at the depth limit and says so; to prove more it would take an argument for the limit of weights
  that tend to 0 (a state with an expert's weight replaced by 0 bounds the value from some count on, ties
  aside) or a bound that reads which points the outside experts are wrong on.
* **A depth limit.** A line of play longer than :data:`MAX_DEPTH` examples without a repeated
  position stops the search; the best sequence seen is returned, not marked exact.
* **Cycles.** V only shrinks, so a position can repeat only with the same V. If a position repeats on
  the current path with at least one mistake in between, the adversary can repeat that stretch for
  ever: the learner has *no* finite mistake bound on this class, and the search stops with
  ``Found.cycle = (start, length)`` (e.g. the Perceptron with sgn(0) = +1 on the point 0 labelled 0,
  [Mehta]). A repeat with no mistake in between is a move that gains nothing; values computed
  while such a cut depends on a position still on the path are not memoised (they depend on the
  path), so the memo only ever holds true values.

The best sequence comes back as a linked suffix stored beside each value (with the renaming that
carries it over when the memo hit was a renamed copy). Its target is the target searched in
targets mode, else the lowest concept of the final version space.

The games beyond Opt (:mod:`solvers.game_rules`)
--------------------------------------------
A *randomized* learner (``randomized``: randomized halving, randomized weighted majority, RandSOA) is
charged its expected mistakes. Its distribution of the next prediction depends on the examples so far and
never on its own coins (:mod:`solvers.learners.base`: ``probability(x)``, ``distribution_key()``), so an
adversary that knows the learner gains nothing by watching its predictions: the optimal adversary plays a
fixed sequence, whose expected mistakes are sum_t P(prediction_t != y_t). The worst case is the same
longest path with the gain P(prediction != y) in exact Fractions, over (distribution key, V).

With *k label errors* (``Problem.errors``; [FHMM23]'s k-realizable sequences) V is replaced by the state
of :mod:`solvers.game_rules`, the levels (A_0, ..., A_k) of every concept's remaining errors, moved by
:func:`solvers.game_rules.step`; a label is legal while A_0 is not empty. A label every living concept agrees
with leaves the levels as they are (a *loop*): if it also leaves the learner as it was and costs it
something, the position repeats with a gain in between, a cycle (unbounded), as above. Learners that
refuse such labels (``max_errors`` below k: Halving, CON, randomized halving) are refused up front.

Both go through one search, :class:`_GameSearch`, depth first with the memo and the cycle rule above
and the learners' ``remaining_bound`` pruning (RandSOA: R(s) of its state; randomized halving H_|V| - 1;
RWM its Littlestone-Warmuth potential, rounded up), with a *horizon*: it finds the exact worst case within
T examples for T = 8, 16, 32, ... until a search meets no line cut by the horizon (then the value is the
true worst case; a node whose best move meets its bound is settled whatever the horizon). A learner whose
state changes on every example, randomized weighted majority (its weights fall on every label some
expert gets wrong, each time with a small positive expected gain), has a worst case that is a supremum
over ever longer sequences and never settles: the search then returns the exact worst case within the
longest horizon it finished (``exact`` False, ``stats["horizon"]``; the best sequence seen, which may be
longer), when the time limit passes or, with no time limit, after :data:`PATIENCE` seconds (once a first
horizon is finished; ``stats["stopped"]`` is then ``"patience"``). Weighted majority with label errors
is the same: a label every possible target agrees with still charges the other experts, so its states
never repeat and its bound (an integer, but loose) rarely settles a node.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from solvers import interrupts
from solvers.game_rules import start as start_levels
from solvers.game_rules import step as step_levels

from ..position import States
from . import _counts
from ._symmetry import Domain, canonical
from .base import Found, Problem, Strategy, StrategyError

__all__ = ["ExactStrategy", "STRATEGY", "MAX_DEPTH", "MODES", "PATIENCE", "FIRST_HORIZON", "refusal"]

#: The longest sequence the search follows: a learner that wanders this far without repeating a
#: position is beyond an exhaustive search, which then returns the best sequence seen, not exact.
MAX_DEPTH = 5_000
#: The searches (see the module docstring) and ``auto``, which picks by the learner and the class.
MODES = ("auto", "targets", "version-space", "counts")
#: The game search's first horizon (doubled until a search settles).
FIRST_HORIZON = 8
#: Without a time limit, the game search stops after this many seconds once it has finished one horizon
#: (a learner whose worst case is a supremum over ever longer sequences would deepen for ever).
PATIENCE = 60.0
_CHECK_EVERY = 8    # nodes between two looks at the clock (a node costs far more than a look)
_TICK_MASK = 255    # ... and points between two looks while the moves of one node are listed


class _Stop(Exception):
    """The deadline passed."""


class _TooDeep(Exception):
    """A line of play reached MAX_DEPTH examples without repeating a position."""


class _Cycle(Exception):
    """A position repeats on the path with a mistake in between."""

    def __init__(self, moves: list, start: int):
        self.moves, self.start = moves, start


def _not_enumerated(strategy: str, cls) -> str:
    """Why ``strategy`` cannot play on a class whose domain is not listed point by point."""
    if cls.n_concepts is None:  # margin halfspaces: no list of concepts either
        return (f"strategy {strategy} needs a finite class, not {cls}; "
                "use --strategy geometric (or auto) on margin-halfspaces")
    return (f"strategy {strategy} needs a finite class with its points listed, and {cls} is too large "
            "to list; use --strategy beam, mcts or local (or auto), or lower n")


def _canonical(name: str) -> str:
    from solvers.learners import LEARNERS

    spec = LEARNERS.get(name)
    return spec.name if spec is not None else name


def refusal(learner, name: str, errors: int) -> Optional[str]:
    """Why ``learner`` cannot be attacked with ``errors`` label errors (its ``max_errors`` is lower), or None."""
    limit = getattr(learner, "max_errors", None)
    if errors and limit is not None and limit < errors:
        if limit == 0:
            return (f"{name} refuses labels that no concept of the class gives (it keeps the concepts consistent "
                    f"with every label), so it cannot be attacked with {errors} label error"
                    f"{'s' if errors != 1 else ''}; attack it without --errors")
        return (f"{name} is built for at most {limit} label error{'s' if limit != 1 else ''} and refuses more; "
                f"attack it with --errors {limit} or build it with errors={errors}")
    return None


def _learner_class(name: str):
    """The registry's class of learner ``name``, or None."""
    from solvers.learners import LEARNERS

    spec = LEARNERS.get(name)
    return spec.cls if spec is not None else None


class ExactStrategy(Strategy):
    """Depth-first search with a memo: the exact worst case (see the module docstring).

    Parameters
    ----------
    prune : bool, default True
        In the version-space search, use the learner's admissible remaining-mistake bound
        (``remaining_bound``: Halving, CON, SOA, weighted majority).
    mode : {"auto", "targets", "version-space", "counts"}, default "auto"
        ``auto``: counts where it applies (Winnow on monotone disjunctions, k-of-r functions and
        monotone conjunctions: :mod:`._counts`), version space for learners whose state is a version
        space or that state a ``remaining_bound`` (Halving, CON, SOA, weighted majority), targets for
        the others.
    symmetry : bool, default True
        In the targets search, search up to renaming the variables when the learner declares
        ``symmetric_variables`` and the points are 0/1 vectors; False also keeps ``auto`` from the
        count search (which is that symmetry taken all the way).
    horizon : int, optional
        The game search (randomized learners, label errors) only: the exact worst case within this many
        examples, without deepening (``exact`` when no line is cut by it, i.e. it is the true worst case).

    Examples
    --------
    Halving on thresholds over 7 points: the adversary forces floor(log2 8) = 3 mistakes.

    >>> from solvers.classes.families import make
    >>> C = make("thresholds", N=7)
    >>> found = STRATEGY.run(Problem("halving", {}, C, {"family": "thresholds", "params": {"N": 7}}))
    >>> found.mistakes, found.exact, len(found.sequence)
    (3, True, 3)

    Winnow2 ([15-859B]) on ORs of at most 2 of 6 variables: three targets up to renaming (ORs of 0, 1
    and 2 variables), and the worst of them forces 12 mistakes.

    >>> C = make("monotone-disjunctions", n=6, k=2)
    >>> found = STRATEGY.run(Problem("winnow2", {"n": 6}, C, {}))
    >>> found.mistakes, found.exact, found.stats["mode"], found.stats["targets"]
    (12, True, 'counts', 3)
    >>> ExactStrategy(mode="targets").run(Problem("winnow2", {"n": 6}, C, {})).mistakes
    12
    """

    name = "exact"
    summary = "exhaustive search over learner states (per target, up to renaming the variables): the true worst case, or a cycle"

    def __init__(self, *, prune: bool = True, mode: str = "auto", symmetry: bool = True,
                 horizon: Optional[int] = None):
        if mode not in MODES:
            raise ValueError(f"exact: mode must be one of {', '.join(MODES)}, got {mode!r}")
        if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0):
            raise ValueError(f"exact: horizon must be a whole number >= 0 or None, got {horizon!r}")
        self.prune = prune
        self.mode = mode
        self.symmetry = symmetry
        self.horizon = horizon

    def check(self, problem: Problem) -> None:
        if problem.maximize != "mistakes" and self.game_search(problem):
            raise StrategyError(f"--maximize {problem.maximize} counts a deterministic learner's mistakes without label "
                                "errors; drop --maximize (or --errors)")
        if not problem.finite:
            if problem.cls.n_concepts is None or problem.errors or self.mode not in ("auto", "counts"):
                raise StrategyError(_not_enumerated("exact", problem.cls))
            plan = self.count_plan(problem)
            if isinstance(plan, str):
                raise StrategyError(_not_enumerated("exact", problem.cls) + f" (the count search does not apply: {plan})")
        if problem.errors:
            why = refusal(problem.new_learner(), _canonical(problem.learner_name), problem.errors)
            if why is not None:
                raise StrategyError(why)
        if self.mode == "counts":
            plan = self.count_plan(problem)
            if isinstance(plan, str):
                raise StrategyError(f"exact: the count search does not apply: {plan}; use mode auto")

    def count_plan(self, problem: Problem):
        """(rule, targets) when the count search (:mod:`._counts`) plays ``problem``, else why not (a str):
        worked out once per problem (:meth:`Problem.once`), as the attack's plan, :meth:`check`,
        :meth:`mode_for` and :meth:`run` all ask."""
        return problem.once("count plan", lambda: self._count_plan(problem))

    def _count_plan(self, problem: Problem):
        if self.game_search(problem):
            return "it plays neither label errors nor randomized learners"
        if problem.maximize != "mistakes":
            return f"it counts all mistakes, not the {problem.maximize.replace('_', ' ')}s alone"
        from adversary.referee import WitnessError

        try:
            learner = problem.new_learner()
        except WitnessError as e:
            return str(e)
        return _counts.applies(learner, problem.cls)

    @staticmethod
    def game_search(problem: Problem) -> bool:
        """Whether ``run`` uses the game search: a randomized learner, or label errors."""
        name = _canonical(problem.learner_name)
        return bool(problem.errors) or bool(getattr(_learner_class(name), "randomized", False))

    def mode_for(self, problem: Problem) -> str:
        """The search ``run`` uses on ``problem`` (``mode`` unless it is ``auto``)."""
        if self.mode != "auto":
            return self.mode
        if self.symmetry and not isinstance(self.count_plan(problem), str):
            return "counts"
        from solvers.learners.base import VersionSpaceLearner

        # a learner whose state is a version space, or that states a remaining-mistake bound on one
        # (weighted majority), is searched over (state, V), where that bound prunes
        learner_class = _learner_class(_canonical(problem.learner_name))
        if isinstance(learner_class, type) and issubclass(learner_class, VersionSpaceLearner):
            return "version-space"
        if _remaining(problem.new_learner(), problem.cls.full) is not None:
            return "version-space"
        return "targets"

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        self.check(problem)
        if self.game_search(problem):
            return _GameSearch(problem, deadline, progress, prune=self.prune, horizon=self.horizon).run()
        mode = self.mode_for(problem)
        if mode == "counts":
            rule, targets = self.count_plan(problem)
            return _counts.CountSearch(problem, rule, targets, deadline=deadline, progress=progress,
                                       max_depth=MAX_DEPTH).run()
        if mode == "targets":
            return _TargetSearch(problem, deadline, progress, symmetry=self.symmetry).run()
        return _Search(problem, deadline, progress, prune=self.prune).run()


def _remaining(learner, V: int):
    """``learner.remaining_bound(V)``, or None for a learner that does not state one."""
    method = getattr(learner, "remaining_bound", None)
    return method(V) if method is not None else None


class _Learners(States):
    """The learner's side, shared by both searches: :class:`~adversary.position.States` (interned
    states, their predictions and steps) with the clock and the progress reports."""

    def __init__(self, problem: Problem, deadline, progress, *, root=None, by_distribution: bool = False):
        C = problem.cls
        self.C = C
        self.deadline = deadline
        self.progress = progress
        self.learner_name = _canonical(problem.learner_name)
        root = problem.new_learner() if root is None else root
        super().__init__(root, C, name=self.learner_name, by_distribution=by_distribution)
        self.nodes = 0
        self.t0 = time.monotonic()
        self.next_report = self.t0 + 1.0
        # the label of the mistakes that do not count (problem.maximize: false negatives are labelled 1,
        # false positives 0); -1: every mistake counts
        self.skip_y = {"false_negative": 0, "false_positive": 1}.get(problem.maximize, -1)
        self.counter = problem.maximize
        self.searching = True  # False once the search is over (replaying its best sequence must not stop)

    def fail(self, message: str):
        raise StrategyError(message) from None

    # (the searches' hot loops call these names)
    _predictions = States.predictions
    _step = States.step

    def _count(self, moves: list) -> int:
        """The learner's mistakes along ``moves`` (from the cached predictions and steps)."""
        sid, n = self.root, 0
        for j, y in moves:
            n += self._predictions(sid)[j] != y and y != self.skip_y
            sid = self._step(sid, j, y)
        return n

    def tick(self) -> None:
        self._tick()

    def _tick(self, **extra) -> None:
        if self.searching:
            interrupts.check()  # a Ctrl-C that a library swallowed stops the search here (solvers.interrupts)
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise _Stop
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 1.0
            self.progress({"mistakes": self.best, "nodes": self.nodes, "memo": self._memo_size(),
                           "states": len(self.reps), "seconds": now - self.t0, **extra})


class _Search(_Learners):
    """One search over (learner state, version space): its memo and its path (owned by ``run``'s caller)."""

    def __init__(self, problem: Problem, deadline, progress, *, prune: bool):
        super().__init__(problem, deadline, progress)
        self.columns = self.C.columns
        self.memo: dict = {}            # (state id, V) -> (W, suffix); suffix = ((j, y), suffix) or None
        self.on_path: dict = {}         # (state id, V) -> depth, for the positions on the current path
        self.path_moves: list = []      # the moves from the root to the current position
        self.path_mistakes: list = []   # mistakes on the path up to each depth
        self.best = 0                   # the most mistakes of any sequence seen (anytime answer)
        self.best_moves: list = []
        self.upper = self._upper_bound() if prune else None

    def _memo_size(self) -> int:
        return len(self.memo)

    def _upper_bound(self):
        """The learner's own admissible bound on the mistakes left from (state, V) (its
        ``remaining_bound(V)``, a theorem applied to the rest of the game), or None when it states none."""
        reps = self.reps
        if _remaining(reps[self.root], self.C.full) is None:
            return None
        return lambda sid, V: reps[sid].remaining_bound(V)

    # ------------------------------------------------------------------ the adversary's side
    def _moves(self, sid: int, V: int) -> list:
        """The useful moves from (sid, V): (gain, j, y, state id, V'), mistakes first."""
        pred = self._predictions(sid)
        columns = self.columns
        skip_y = self.skip_y
        found: dict = {}
        for j in range(self.n_points):  # hot loop: one pass over the points per new position
            if j & _TICK_MASK == _TICK_MASK:
                self._tick()  # a pass can be long (a learner step per point and label): watch the clock
            V1 = V & columns[j]
            if V1 == 0:
                labels = ((0, V),)
            elif V1 == V:
                labels = ((1, V),)
            else:
                labels = ((0, V ^ V1), (1, V1))
            p = pred[j]
            for y, Vy in labels:
                gain = 1 if p != y and y != skip_y else 0
                s2 = self._step(sid, j, y)
                if s2 == sid and not gain:
                    continue  # nothing learnt, nothing gained: V only shrank
                key = (s2, Vy)
                old = found.get(key)
                if old is None or gain > old[0]:
                    found[key] = (gain, j, y, s2, Vy)
        moves = list(found.values())
        moves.sort(key=lambda m: (-m[0], -m[4].bit_count()))
        return moves

    def _offer(self, mistakes: int, suffix=None) -> None:
        """Record the path so far (plus ``suffix``) as the best sequence when it has more mistakes."""
        if mistakes > self.best:
            self.best = mistakes
            moves = list(self.path_moves)
            while suffix is not None:
                move, suffix = suffix
                moves.append(move)
            self.best_moves = moves

    def _visit(self, sid: int, V: int, depth: int, mistakes: int):
        """(W, suffix, cut): the value of (sid, V) avoiding the positions on the path, its best
        continuation, and the smallest path depth the value depended on (``MAX_DEPTH + 1`` if none)."""
        key = (sid, V)
        hit = self.memo.get(key)
        if hit is not None:
            self._offer(mistakes + hit[0], hit[1])
            return hit[0], hit[1], MAX_DEPTH + 1
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._tick()
        if depth >= MAX_DEPTH:
            raise _TooDeep
        self.on_path[key] = depth
        self.path_mistakes.append(mistakes)
        upper = self.upper
        bound = upper(sid, V) if upper is not None else None
        best, best_suffix, cut = 0, None, MAX_DEPTH + 1
        if bound is None or bound > 0:
            for gain, j, y, s2, V2 in self._moves(sid, V):
                if bound is not None and (best >= bound or gain + upper(s2, V2) <= best):
                    if best >= bound:
                        break
                    continue
                k2 = (s2, V2)
                d2 = self.on_path.get(k2)
                if d2 is not None:
                    if mistakes + gain - self.path_mistakes[d2] > 0:
                        raise _Cycle(self.path_moves + [(j, y)], d2)
                    cut = min(cut, d2)  # a repeat with no mistake: gains nothing, but the value depends on the path
                    continue
                self.path_moves.append((j, y))
                if gain:
                    self._offer(mistakes + 1)
                v, suffix, c = self._visit(s2, V2, depth + 1, mistakes + gain)
                self.path_moves.pop()
                if c < cut:
                    cut = c
                if gain + v > best:
                    best, best_suffix = gain + v, ((j, y), suffix)
        del self.on_path[key]
        self.path_mistakes.pop()
        if cut >= depth:
            self.memo[key] = (best, best_suffix)
            cut = MAX_DEPTH + 1
        return best, best_suffix, cut

    # ------------------------------------------------------------------ driver
    def _sequence(self, moves: list) -> tuple[list, int]:
        """The examples of ``moves`` and the lowest concept consistent with them."""
        V = self.C.full
        seq = []
        for j, y in moves:
            V0, V1 = self.C.split_index(V, j)
            V = V1 if y else V0
            seq.append((self.points[j], y))
        return seq, (V & -V).bit_length() - 1

    def run(self) -> Found:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 3 * MAX_DEPTH + 1000))
        stopped = None
        cycle = None
        try:
            value, suffix, _ = self._visit(self.root, self.C.full, 0, 0)
            moves = []
            while suffix is not None:
                move, suffix = suffix
                moves.append(move)
            exact = True
        except _Cycle as c:
            moves, cycle, exact = c.moves, (c.start, len(c.moves) - c.start), True
        except _Stop:
            moves, exact, stopped = self.best_moves, False, "time limit"
        except _TooDeep:
            # The learner keeps reaching new states without repeating one (e.g. weighted majority,
            # whose weights fall on every example, without pruning): no exhaustive answer.
            moves, exact, stopped = self.best_moves, False, "depth limit"
        except KeyboardInterrupt:
            moves, exact, stopped = self.best_moves, False, "interrupted"
        finally:
            sys.setrecursionlimit(old_limit)
        self.searching = False
        self.deadline = None  # the search is over: counting the best sequence's mistakes must not stop
        seq, target = self._sequence(moves)
        mistakes = self._count(moves)
        stats = {"nodes": self.nodes, "memo": len(self.memo), "learner_states": len(self.reps),
                 "seconds": round(time.monotonic() - self.t0, 4), "pruned": self.upper is not None,
                 "stopped": stopped, "counter": self.counter}
        if self.progress is not None:
            self.progress({"mistakes": mistakes, "nodes": self.nodes, "memo": len(self.memo),
                           "states": len(self.reps), "seconds": stats["seconds"], "done": True})
        return Found(seq, mistakes, target, exact=exact, cycle=cycle, stats=stats)


class _TargetSearch(_Learners):
    """One search per target c over the learner's states alone, W_c(s) (see the module docstring)."""

    def __init__(self, problem: Problem, deadline, progress, *, symmetry: bool):
        super().__init__(problem, deadline, progress)
        root = self.reps[self.root]
        self.conservative = bool(getattr(root, "conservative", False))
        self.domain = None
        if symmetry and getattr(root, "symmetric_variables", False):
            D = Domain.of(self.points)
            key = root.state_key()
            if D is not None and isinstance(key, tuple) and len(key) == D.n:
                self.domain = D
        self.best = 0                   # the most mistakes of any sequence seen, over all targets
        self.best_moves: list = []
        self.best_target = 0
        self.memo_total = 0
        self.memo: dict = {}
        self.orbits = 0

    def _memo_size(self) -> int:
        return self.memo_total + len(self.memo)

    # ------------------------------------------------------------------ targets
    def _targets(self) -> list:
        """(concept, how many concepts share its worst case): one per orbit under renamings when the
        domain allows them, else every concept."""
        M = self.C.matrix
        D = self.domain
        if D is None or not D.closed:
            return [(c, 1) for c in range(len(M))]
        seen: dict = {}
        for c in range(len(M)):
            if c % 64 == 63:
                self._tick(target="sorting the targets into orbits")
            key = D.target_key(M[c].astype(np.int8))
            if key in seen:
                seen[key][1] += 1
            else:
                seen[key] = [c, 1]
        return [tuple(v) for v in seen.values()]

    def _start(self, c: int) -> None:
        """Prepare the search of target c."""
        self.target = c
        labels = self.C.matrix[c].astype(np.int8)
        self.labels = labels
        self.label_list = labels.tolist()
        self.blocks = self.domain.blocks(labels) if self.domain is not None else None
        self.canon: dict = {}
        self.memo_total += len(self.memo)
        self.memo: dict = {}            # canonical state -> (W_c, suffix, the state id it was found from)
        self.on_path: dict = {}         # state id -> depth on the current path
        self.path_moves: list = []
        self.path_mistakes: list = []
        self.pred_arrays: dict = getattr(self, "pred_arrays", {})

    def _key(self, sid: int):
        """The memo key of state ``sid``: itself, or its state key sorted within the blocks."""
        if self.blocks is None:
            return sid
        k = self.canon.get(sid)
        if k is None:
            k = self.canon[sid] = canonical(self.reps[sid].state_key(), self.blocks)
        return k

    def _pred_array(self, sid: int) -> np.ndarray:
        a = self.pred_arrays.get(sid)
        if a is None:
            a = self.pred_arrays[sid] = np.asarray(self._predictions(sid), dtype=np.int8)
        return a

    def _moves(self, sid: int) -> list:
        """The useful moves from ``sid`` under the current target: (gain, j, y, child id), mistakes
        first, one per class of children equal up to renaming."""
        pred = self._pred_array(sid)
        if self.conservative:
            cand = np.flatnonzero(pred != self.labels)
        else:
            cand = np.arange(self.n_points)
        if self.blocks is not None:
            cand = self.domain.representatives(cand, self.blocks, self.reps[sid].state_key())
        labels, on_path = self.label_list, self.on_path
        skip_y = self.skip_y
        found: dict = {}
        for i, j in enumerate(cand.tolist()):
            if i & _TICK_MASK == _TICK_MASK:
                self._tick()  # a pass can be long (a learner step per point): watch the clock
            y = labels[j]
            gain = 1 if pred[j] != y and y != skip_y else 0
            s2 = self._step(sid, j, y)
            if s2 == sid and not gain:
                continue  # nothing learnt, nothing gained
            k2 = self._key(s2)
            old = found.get(k2)
            # renamed copies have one value; keep a mistake, and an exact repeat of the path (a cycle)
            if old is None or gain > old[0] or (gain == old[0] and s2 in on_path and old[3] not in on_path):
                found[k2] = (gain, j, y, s2)
        moves = list(found.values())
        moves.sort(key=lambda m: -m[0])
        return moves

    # ------------------------------------------------------------------ the search
    def _flatten(self, suffix) -> list:
        """The moves of a suffix, renamed into the coordinates of the position it hangs from."""
        moves, cur = [], None
        while suffix is not None:
            if suffix[0] is None:  # (None, from state, to state, rest): rest was found from a renamed copy
                _, src, dst, suffix = suffix
                pm = self.domain.point_map(self.blocks, self.reps[src].state_key(), self.reps[dst].state_key())
                cur = pm if cur is None else cur[pm]
                continue
            j, y, suffix = suffix
            moves.append((j if cur is None else int(cur[j]), y))
        return moves

    def _version_space(self, moves: list) -> int:
        V = self.C.full
        for j, y in moves:
            V = self.C.split_index(V, j)[y]
        return V

    def _offer(self, mistakes: int, suffix=None) -> None:
        if mistakes > self.best:
            self.best = mistakes
            self.best_moves = list(self.path_moves) + self._flatten(suffix)
            self.best_target = self.target

    def _visit(self, sid: int, depth: int, mistakes: int):
        """(W_c, suffix, cut) for state ``sid`` avoiding the states on the path (as ``_Search._visit``)."""
        key = self._key(sid)
        hit = self.memo.get(key)
        if hit is not None:
            value, suffix, src = hit
            if src != sid:
                suffix = (None, src, sid, suffix)
            self._offer(mistakes + value, suffix)
            return value, suffix, MAX_DEPTH + 1
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._tick(target=f"{self.done_targets + 1}/{self.orbits}")
        if depth >= MAX_DEPTH:
            raise _TooDeep
        self.on_path[sid] = depth
        self.path_mistakes.append(mistakes)
        best, best_suffix, cut = 0, None, MAX_DEPTH + 1
        for gain, j, y, s2 in self._moves(sid):
            d2 = self.on_path.get(s2)
            if d2 is not None:
                if mistakes + gain - self.path_mistakes[d2] > 0:
                    raise _Cycle(self.path_moves + [(j, y)], d2)
                cut = min(cut, d2)
                continue
            self.path_moves.append((j, y))
            if gain:
                self._offer(mistakes + 1)
            v, suffix, c = self._visit(s2, depth + 1, mistakes + gain)
            self.path_moves.pop()
            if c < cut:
                cut = c
            if gain + v > best:
                best, best_suffix = gain + v, (j, y, suffix)
        del self.on_path[sid]
        self.path_mistakes.pop()
        if cut >= depth:
            self.memo[key] = (best, best_suffix, sid)
            cut = MAX_DEPTH + 1
        return best, best_suffix, cut

    def run(self) -> Found:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 3 * MAX_DEPTH + 1000))
        stopped = cycle = None
        exact = False
        self.orbits = self.done_targets = 0
        self.target = 0
        try:
            targets = self._targets()
            self.orbits = len(targets)
            for c, _ in targets:
                self._start(c)
                value, suffix, _ = self._visit(self.root, 0, 0)
                if value > self.best or self.done_targets == 0:
                    self.best, self.best_moves, self.best_target = value, self._flatten(suffix), c
                self.done_targets += 1
            moves, target, exact = self.best_moves, self.best_target, True
        except _Cycle as e:
            # The learner's state repeats; the version space may still shrink on the first pass (the
            # target is fixed, not V). A second pass repeats the whole position: the witness shows that.
            length = len(e.moves) - e.start
            moves, target, exact = e.moves, self.target, True
            if self._version_space(moves[:e.start]) != self._version_space(moves):
                moves = moves + moves[e.start:]
            cycle = (len(moves) - length, length)
        except _Stop:
            moves, target, stopped = self.best_moves, self.best_target, "time limit"
        except _TooDeep:
            moves, target, stopped = self.best_moves, self.best_target, "depth limit"
        except KeyboardInterrupt:
            moves, target, stopped = self.best_moves, self.best_target, "interrupted"
        finally:
            sys.setrecursionlimit(old_limit)
        self.searching = False
        self.deadline = None  # the search is over: counting the best sequence's mistakes must not stop
        seq = [(self.points[j], y) for j, y in moves]
        mistakes = self._count(moves)
        if exact and cycle is None and mistakes != self.best:  # the replayed sequence must be the value
            raise RuntimeError(f"exact search: the best sequence replays to {mistakes} mistakes, "
                               f"not the {self.best} it was found with; please report this")
        seconds = round(time.monotonic() - self.t0, 4)
        stats = {"mode": "targets", "nodes": self.nodes, "memo": self._memo_size(),
                 "learner_states": len(self.reps), "targets": self.orbits, "targets_done": self.done_targets,
                 "concepts": len(self.C), "symmetry": self.domain is not None, "seconds": seconds,
                 "stopped": stopped, "counter": self.counter}
        if self.progress is not None:
            self.progress({"mistakes": mistakes, "nodes": self.nodes, "memo": self._memo_size(),
                           "states": len(self.reps), "seconds": seconds, "done": True})
        return Found(seq, mistakes, target, exact=exact, cycle=cycle, stats=stats)


class _Patience(Exception):
    """No time limit was given and :data:`PATIENCE` seconds have passed (after a first horizon)."""


class _GameSearch(_Learners):
    """One search over (learner state, game state) for a randomized learner or with label errors: the
    learner's states interned by ``distribution_key`` (randomized) or ``state_key``, the game state V a
    bitset (k = 0) or the levels of :mod:`solvers.game_rules` (k >= 1), the gain of a move its probability of
    a mistake (exact Fractions; 0 or 1 for a deterministic learner), a horizon deepened until the search
    settles (see the module docstring)."""

    def __init__(self, problem: Problem, deadline, progress, *, prune: bool, horizon: Optional[int]):
        root = problem.new_learner()
        self.randomized = bool(getattr(root, "randomized", False))
        self.k = problem.errors
        super().__init__(problem, deadline, progress, root=root, by_distribution=self.randomized)
        C = self.C
        self.columns = C.columns
        self.zero = Fraction(0) if self.randomized else 0
        self.start = C.full if self.k == 0 else start_levels(C.full, self.k)
        self.memo: dict = {}        # (sid, V) -> (value, suffix): the true worst case (no line was cut)
        self.memo_t: dict = {}      # (sid, V, t) -> (value, suffix, settled): the worst case within t examples
        self.bounds: dict = {}      # (sid, V) -> the learner's remaining_bound
        self.on_path: dict = {}
        self.path_moves: list = []
        self.path_gains: list = []
        self.best = self.zero
        self.best_moves: list = []
        self.fixed_horizon = horizon
        self.patience = None  # set once a first horizon is done, when no deadline is given
        self.T = FIRST_HORIZON
        self.prune = prune and _remaining(root, self.start) is not None

    def _memo_size(self) -> int:
        return len(self.memo) + len(self.memo_t)

    def _tick(self, **extra) -> None:
        super()._tick(**extra)
        if self.patience is not None and time.monotonic() >= self.patience:
            raise _Patience

    def _upper(self, sid: int, V):
        key = (sid, V)
        b = self.bounds.get(key)
        if b is None:
            try:
                b = self.bounds[key] = self.reps[sid].remaining_bound(V)
            except (ValueError, TypeError, ArithmeticError) as e:
                self.fail(f"learner {self.learner_name} failed to state its remaining bound: {e}")
        return b

    # ------------------------------------------------------------------ moves
    def _moves(self, sid: int, V) -> list:
        """The useful moves from (sid, V): (gain, j, y, state id, V'), the largest gains first."""
        probs = self.probabilities(sid)
        columns, k, zero = self.columns, self.k, self.zero
        found: dict = {}
        for j in range(self.n_points):  # hot loop: one pass over the points per new position
            if j & _TICK_MASK == _TICK_MASK:
                self._tick()
            col = columns[j]
            if k == 0:
                V1 = V & col
                labels = [(y, Vy) for y, Vy in ((0, V ^ V1), (1, V1)) if Vy]
            else:
                labels = [(y, Vy) for y in (0, 1) for Vy in (step_levels(V, col, y),) if Vy is not None]
            p = probs[j]
            for y, Vy in labels:
                gain = p if y == 0 else 1 - p
                s2 = self._step(sid, j, y)
                if s2 == sid and gain == zero:
                    continue  # nothing learnt, nothing gained: the game state only shrank
                key = (s2, Vy)
                old = found.get(key)
                if old is None or gain > old[0]:
                    found[key] = (gain, j, y, s2, Vy)
        moves = list(found.values())
        size = (lambda V: V.bit_count()) if k == 0 else (lambda V: sum(A.bit_count() for A in V))
        moves.sort(key=lambda m: (-m[0], -size(m[4])))
        return moves

    def _offer(self, gained, suffix=None) -> None:
        if gained > self.best:
            self.best = gained
            moves = list(self.path_moves)
            while suffix is not None:
                move, suffix = suffix
                moves.append(move)
            self.best_moves = moves

    # ------------------------------------------------------------------ the search
    def _visit(self, sid: int, V, depth: int, gained, t):
        """(value, suffix, cut, settled): the worst case from (sid, V) within t examples (t None: no limit)
        avoiding the positions on the path, its best continuation, the smallest path depth it depended
        on, and whether no line was cut by the horizon (then it is the true worst case)."""
        key = (sid, V)
        hit = self.memo.get(key) if self.fixed_horizon is None else None
        if hit is not None:  # deepening: a settled value is the true worst case, at least the one within t
            self._offer(gained + hit[0], hit[1])
            return hit[0], hit[1], MAX_DEPTH + 1, True
        if t is not None:
            hit = self.memo_t.get((sid, V, t))
            if hit is not None:
                self._offer(gained + hit[0], hit[1])
                return hit[0], hit[1], MAX_DEPTH + 1, hit[2]
            if t == 0:
                return self.zero, None, MAX_DEPTH + 1, False
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._tick(horizon=self.T)
        if depth >= MAX_DEPTH:
            raise _TooDeep
        bound = self._upper(sid, V) if self.prune else None
        if bound is not None and bound <= 0:
            return self.zero, None, MAX_DEPTH + 1, True
        self.on_path[key] = depth
        self.path_gains.append(gained)
        best, best_suffix, cut, settled = self.zero, None, MAX_DEPTH + 1, True
        t2 = None if t is None else t - 1
        for gain, j, y, s2, V2 in self._moves(sid, V):
            if bound is not None:
                if best >= bound:
                    break
                if gain + self._upper(s2, V2) <= best:
                    continue  # the child's bound says it cannot beat the best move found
            k2 = (s2, V2)
            d2 = self.on_path.get(k2)
            if d2 is not None:
                if gained + gain - self.path_gains[d2] > 0:
                    raise _Cycle(self.path_moves + [(j, y)], d2)
                cut = min(cut, d2)  # a repeat with no gain: it adds nothing, but the value depends on the path
                continue
            self.path_moves.append((j, y))
            if gain:
                self._offer(gained + gain)
            v, suffix, c, done = self._visit(s2, V2, depth + 1, gained + gain, t2)
            self.path_moves.pop()
            cut = min(cut, c)
            settled = settled and done
            if gain + v > best:
                best, best_suffix = gain + v, ((j, y), suffix)
        if bound is not None and best >= bound:
            settled = True  # the learner's bound is met: no longer line can do better
        del self.on_path[key]
        self.path_gains.pop()
        if cut >= depth:
            if settled and self.fixed_horizon is None:
                self.memo[key] = (best, best_suffix)
            else:  # with a fixed horizon every value is the worst case within t (suffixes of at most t moves)
                self.memo_t[(sid, V, t)] = (best, best_suffix, settled)
            cut = MAX_DEPTH + 1
        return best, best_suffix, cut, settled

    # ------------------------------------------------------------------ driver
    def _target(self, moves: list) -> int:
        """The lowest of the concepts with the fewest disagreements with the labels of ``moves``."""
        V = self.start
        for j, y in moves:
            col = self.columns[j]
            V = (V & col if y else V & ~col) if self.k == 0 else step_levels(V, col, y)
        best = V if self.k == 0 else next(A for A in reversed(V) if A)
        return (best & -best).bit_length() - 1

    def _gain_of(self, moves: list):
        """The learner's (expected) mistakes along ``moves``."""
        sid, total = self.root, self.zero
        for j, y in moves:
            p = self.probabilities(sid)[j]
            total += p if y == 0 else 1 - p
            sid = self._step(sid, j, y)
        return total

    def run(self) -> Found:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 3 * MAX_DEPTH + 1000))
        stopped = cycle = None
        exact = False
        done_T = None  # the longest horizon searched to the end
        self.T = self.fixed_horizon if self.fixed_horizon is not None else FIRST_HORIZON
        moves: list = []
        try:
            while True:
                value, suffix, _, settled = self._visit(self.root, self.start, 0, self.zero, self.T)
                done_T = self.T
                found_moves = []
                while suffix is not None:
                    move, suffix = suffix
                    found_moves.append(move)
                moves = found_moves
                if value >= self.best:
                    self.best, self.best_moves = value, list(moves)
                if settled:
                    exact = True
                    break
                if self.fixed_horizon is not None:
                    stopped = "horizon"
                    break
                if self.T >= MAX_DEPTH:
                    raise _TooDeep
                if self.deadline is None and self.patience is None:
                    self.patience = self.t0 + PATIENCE
                    if time.monotonic() >= self.patience:
                        raise _Patience
                self.T = min(2 * self.T, MAX_DEPTH)
        except _Cycle as c:
            moves, cycle, exact = c.moves, (c.start, len(c.moves) - c.start), True
        except _Stop:
            moves, stopped = self.best_moves, "time limit"
        except _Patience:
            moves, stopped = self.best_moves, "patience"
        except _TooDeep:
            moves, stopped = self.best_moves, "depth limit"
        except KeyboardInterrupt:
            moves, stopped = self.best_moves, "interrupted"
        finally:
            sys.setrecursionlimit(old_limit)
        if not exact and cycle is None:
            moves = self.best_moves
        self.searching = False
        self.deadline = None  # the search is over: counting the best sequence's gain must not stop
        seq = [(self.points[j], y) for j, y in moves]
        mistakes = self._gain_of(moves)
        if exact and cycle is None and mistakes != self.best:  # the replayed sequence must be the value
            raise RuntimeError(f"exact search: the best sequence replays to {mistakes} expected mistakes, "
                               f"not the {self.best} it was found with; please report this")
        seconds = round(time.monotonic() - self.t0, 4)
        stats = {"mode": "game", "randomized": self.randomized, "errors": self.k, "nodes": self.nodes,
                 "memo": self._memo_size(), "learner_states": len(self.reps), "seconds": seconds,
                 "pruned": self.prune, "horizon": None if exact else done_T, "stopped": stopped}
        if self.progress is not None:
            self.progress({"mistakes": mistakes, "nodes": self.nodes, "memo": self._memo_size(),
                           "states": len(self.reps), "seconds": seconds, "done": True})
        return Found(seq, mistakes, self._target(moves), exact=exact, cycle=cycle, stats=stats)


#: The instance :func:`adversary.strategies.get_strategy` returns.
STRATEGY = ExactStrategy()
