"""The exact adversary against Winnow in count space: {0,1}^n searched without listing its 2^n points.

Against a deterministic learner the worst case is the largest, over the targets c, of the longest path
of the learner's states when c labels every point ([Rivest94]'s game; :mod:`.exact`). Winnow
([15-859B], section "Winnow algorithm"; [Rivest94], section 2.4) is conservative, so only its mistakes
move it, and it treats the variables alike: renaming the variables together with the target changes
nothing (:mod:`._symmetry`). This module takes that symmetry all the way:

* **targets**: a monotone disjunction of r variables, "at least kappa of r variables" (k-of-r) and a
  conjunction of r variables (kappa = r) all label x by [t >= kappa], t the number of x's ones among
  the r relevant variables, so one target per (r, kappa) is searched, its relevant variables x_1..x_r;
* **positions**: Winnow's weights all start at 1 and are only multiplied by alpha, divided by it, or
  zeroed ([Rivest94]'s elimination; Winnow-R's floor of 1/2 is alpha^-1), so every weight is alpha^e
  for an integer exponent e, or 0. With the target fixed a position is, for the relevant and for the
  irrelevant variables, how many of them carry each exponent: a tuple of *groups* (block, exponent,
  count), block 0 relevant and 1 irrelevant, coded as one int (a bit field per (block, exponent)).
  Two states with the same groups are renamed copies of each other, so they have the same worst case;
* **moves**: a point is, for each group, how many of its variables are on (a *count vector*): all
  points with one count vector are renamed copies of each other in that position. The score w.x is
  the sum of count times weight, the label is [relevant count >= kappa], and a move is a mistake when
  Winnow's prediction differs from it; the child moves that many variables of each group to the
  promoted (or demoted) exponent. A position has prod (count + 1) count vectors at most, and the
  mistakes among them are enumerated directly, with the score bounding the enumeration.

Weights are compared with the threshold exactly: per position every weight alpha^e and theta are put
over one common denominator (integers, :class:`fractions.Fraction` only once per position). Every
move is a mistake, so a position that repeats on the path (a renamed copy of an ancestor) is a cycle:
no finite mistake bound (Winnow on its own classes never has one, the notes prove a bound). Weights
that fall for ever (Winnow's division on conjunctions, whose relevant weights are demoted too) never
repeat a position: a line of ``max_depth`` mistakes stops that target, not exact.

The search is depth first with a memo per target, exact, in one pass. Before it, a beam keeps the
positions of most irrelevant weight at each depth (:meth:`CountSearch.first_bound`): a first lower
bound within seconds, which is what a time limit returns when the exact search has not gone deeper.

The witness is built from the counts: the relevant variables are x_1..x_r, and a count vector turns
on the first variables (by index) of each group in the current weights. The sequence is replayed on
the learner itself while it is built: every example must be a mistake and the learner's weights must
be the ones the count arithmetic says, or the search stops with an error (a wrong number is worse
than none); the referee then replays the witness again from scratch.

Which learners: exactly the classes :class:`~solvers.learners.winnow.Winnow` (any alpha, theta,
demotion, strict), ``Winnow1``, ``Winnow2``, ``WinnowR`` and ``WinnowKofR``; subclasses of them may
change the rule, so they are searched point by point as before. Which classes: monotone disjunctions,
k-of-r functions and monotone conjunctions over the whole of {0,1}^n, listed (checked row by row
against [t >= kappa]) or implicit (:class:`~solvers.classes.implicit.ImplicitFamily`, any n).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from solvers import interrupts

from .base import Found, Problem

__all__ = ["WinnowRule", "Targets", "CountSearch", "ZERO", "MAX_MEMO", "BEAM", "rule_of", "targets_of", "applies"]

#: The exponent of a zeroed weight (sorts below every exponent a weight alpha^e can reach).
ZERO = -(1 << 62)
#: The families whose concepts are [#(relevant variables on) >= kappa]: their targets up to renaming.
FAMILIES = ("monotone-disjunctions", "k-of-r", "monotone-conjunctions")
_CHECK_EVERY = 64   # positions between two looks at the clock
#: The most memo entries one search keeps (about 200 bytes each): past them it stops, not exact.
MAX_MEMO = 10_000_000
#: The width of the beam that gives a first lower bound before the exact search (0: none), and its
#: deepest level (Winnow's worst cases within reach here are far shorter; weights falling for ever are not).
BEAM = 100
BEAM_DEPTH = 200


class _Stop(Exception):
    """The deadline passed, or the memo is full (the message says which)."""


class _TooDeep(Exception):
    """A line of play reached the depth limit without repeating a position (weights that fall for ever)."""


class _Cycle(Exception):
    """A position repeats on the path: every move is a mistake, so the learner has no finite bound."""

    def __init__(self, start: int):
        self.start = start


# ---------------------------------------------------------------------------------------- the learner
@dataclass(frozen=True)
class WinnowRule:
    """Winnow's rule on exponents: weight alpha^e (0 for :data:`ZERO`), threshold theta.

    Predict 1 iff w.x >= theta (> theta when ``strict``); a false negative multiplies the weights of
    the on-variables by alpha (promotion), a false positive divides them by alpha (``"divide"``, never
    below alpha^floor when ``floor`` is set: [Roth]'s Winnow-R) or zeroes them (``"zero"``).

    >>> from solvers.learners.winnow import Winnow1
    >>> rule = rule_of(Winnow1(4))
    >>> rule.theta, rule.strict, rule.demoted(3) == ZERO, rule.weight(rule.promoted(0))
    (Fraction(2, 1), True, True, Fraction(2, 1))
    """

    alpha: Fraction
    theta: Fraction
    strict: bool
    demotion: str
    floor: Optional[int] = None

    def weight(self, e: int) -> Fraction:
        return Fraction(0) if e == ZERO else self.alpha ** e

    def promoted(self, e: int) -> int:
        return e if e == ZERO else e + 1

    def demoted(self, e: int) -> int:
        if e == ZERO or self.demotion == "zero":
            return ZERO
        return e - 1 if self.floor is None else max(e - 1, self.floor)


def rule_of(learner) -> Optional[WinnowRule]:
    """The rule of a fresh Winnow learner (all weights 1) of exactly one of the classes whose rule is
    known here, else None."""
    from solvers.learners.winnow import Winnow, Winnow1, Winnow2, WinnowKofR, WinnowR

    kind = type(learner)
    if kind not in (Winnow, Winnow1, Winnow2, WinnowKofR, WinnowR):
        return None
    if any(w != 1 for w in learner.w):
        return None
    floor = None
    if kind is WinnowR:
        if learner.alpha != 2:
            return None
        floor = -1  # max(w / 2, 1/2): 1/2 = alpha^-1
    return WinnowRule(Fraction(learner.alpha), Fraction(learner.theta), bool(learner.strict),
                      learner.demotion_rule, floor)


# ---------------------------------------------------------------------------------------- the targets
@dataclass(frozen=True)
class Targets:
    """The targets of a class up to renaming: ``orbits`` lists (r, kappa, concept index), the concept
    labelling x by [x_1 + ... + x_r >= kappa]; ``n`` variables."""

    n: int
    orbits: tuple


def _orbits(family: str, params: dict) -> list:
    n = params["n"]
    if family == "monotone-disjunctions":
        return [(r, 1) for r in range(min(params.get("k", n), n) + 1)]
    if family == "k-of-r":
        return [(params["r"], params["k"])]
    return [(r, r) for r in range(n + 1)]  # monotone conjunctions: all r of r variables


def targets_of(cls) -> "Targets | str":
    """The targets of ``cls`` up to renaming, or a one-line reason why the count search does not apply.

    A listed class must be exactly its family: every point of {0,1}^n, and its rows the labels
    [sum_{i in S} x_i >= kappa] of every S (checked here, whatever the class says of itself).

    >>> from solvers.classes.families import make
    >>> targets_of(make("monotone-disjunctions", n=4, k=2)).orbits
    ((2, 1, 10), (1, 1, 7), (0, 1, 0))
    >>> targets_of(make("thresholds", N=3))
    'thresholds is not one of monotone-disjunctions, k-of-r, monotone-conjunctions'
    """
    family = getattr(cls, "family", None)
    if family not in FAMILIES:
        return f"{family or 'a class without a family'} is not one of {', '.join(FAMILIES)}"
    params = dict(cls.params)
    n = params.get("n")
    if not isinstance(n, int) or n < 1:
        return f"{family} without n"
    orbits = sorted(_orbits(family, params), reverse=True)  # the largest targets first: a good first answer
    if cls.finite:
        found = _listed_targets(cls, n, orbits)
    else:
        found = _implicit_targets(cls, n, orbits)
    return found if isinstance(found, str) else Targets(n, tuple(found))


def _listed_targets(cls, n: int, orbits: list) -> "list | str":
    P = np.asarray(cls.points)
    if P.ndim != 2 or P.shape != (2**n, n) or not np.isin(P, (0, 1)).all():
        return f"{cls}: its points are not all of {{0,1}}^{n}"
    if len({tuple(p) for p in cls.points}) != 2**n:
        return f"{cls}: its points are not all of {{0,1}}^{n}"
    subsets = [(S, kappa) for r, kappa in orbits for S in itertools.combinations(range(n), r)]
    if len(subsets) != cls.n_concepts:
        return f"{cls}: {cls.n_concepts} concepts, not the {len(subsets)} of its family"
    rows = {np.packbits(row).tobytes(): c for c, row in enumerate(np.asarray(cls.matrix, dtype=bool))}
    index = {}
    for S, kappa in subsets:
        labels = P[:, list(S)].sum(axis=1) >= kappa
        c = rows.get(np.packbits(labels).tobytes())
        if c is None:
            return f"{cls}: no row is the concept [x_S >= {kappa}] for S = {set(S) or '{}'}"
        index[(S, kappa)] = c
    return [(r, kappa, index[(tuple(range(r)), kappa)]) for r, kappa in orbits]


def _implicit_targets(cls, n: int, orbits: list) -> "list | str":
    expected = sum(math.comb(n, r) for r, _ in orbits)
    if cls.n_concepts != expected:
        return f"{cls}: {cls.n_concepts} concepts, not the {expected} of its family"
    out = []
    for r, kappa in orbits:
        want = list(range(r))
        c = next((c for c in range(cls.n_concepts) if cls.literals(c) == (want, [])), None)
        if c is None:
            return f"{cls}: no concept has exactly the variables x1..x{r}"
        # its labels are [relevant count >= kappa], whatever the background (checked on the concept itself)
        for t in range(r + 1):
            for rest in (0, 1):
                x = (1,) * t + (0,) * (r - t) + (rest,) * (n - r)
                if cls.evaluate(c, x) != int(t >= kappa):
                    return f"{cls}: concept {c} is not [x1 + ... + x{r} >= {kappa}]"
        out.append((r, kappa, c))
    return out


def applies(learner, cls) -> "tuple[WinnowRule, Targets] | str":
    """(rule, targets) when the count search plays ``learner`` on ``cls``, else the reason it does not."""
    rule = rule_of(learner)
    if rule is None:
        return (f"the count search knows the rules of winnow, winnow1, winnow2, winnow-r and winnow-k-of-r, "
                f"not {type(learner).__name__}")
    n = cls.facts.get("n") if hasattr(cls, "facts") else None
    if learner.n != n:
        return f"the learner's n = {learner.n} is not the class's n = {n}"
    targets = targets_of(cls)
    return targets if isinstance(targets, str) else (rule, targets)


# ---------------------------------------------------------------------------------------- the search
class CountSearch:
    """Depth-first search with a memo over count positions, one target orbit after another (see the
    module docstring).

    A position is coded as one int: the count of the variables of block b with exponent e sits in the
    bit field of the *slot* of (b, e) (slots are numbered as they are met, fields of ``n.bit_length()``
    bits), so a move's child is the parent's code plus, per group, the count moved times the
    difference of two field units: a mistake costs one integer addition per group, not a new tuple.
    ``memo[code] = (worst case, best child)`` per target.
    """

    def __init__(self, problem: Problem, rule: WinnowRule, targets: Targets, *, deadline: Optional[float] = None,
                 progress: Optional[Callable[[dict], None]] = None, max_depth: int = 5_000, max_memo: int = MAX_MEMO,
                 beam: int = BEAM):
        self.problem = problem
        self.max_depth = max_depth
        self.max_memo = max_memo
        self.beam = beam
        self.cls = problem.cls
        self.rule = rule
        self.n = targets.n
        self.orbits = targets.orbits
        self.deadline = deadline
        self.progress = progress
        self.t0 = time.monotonic()
        self.next_report = self.t0 + 1.0
        self.nodes = self.moves_seen = 0
        self.memo_total = 0
        self.memo: dict = {}
        self.weights: dict = {}
        self.width = self.n.bit_length()   # bits per count field
        self.slots: dict = {}              # (block, exponent) -> slot
        self.slot_keys: list = []
        self.steps: dict = {}              # (block, exponent) -> its field unit and the code changes of a step
        self.best = 0                 # the most mistakes of any sequence seen, over all targets
        self.best_moves: list = []    # its moves, (code, child code) pairs
        self.best_orbit = self.orbits[0]
        self.values: list = []        # the worst case of each target searched to the end
        self.done = 0                 # the targets searched (to the end or to the depth limit)

    # ------------------------------------------------------------------ positions
    def _weight(self, e: int) -> Fraction:
        w = self.weights.get(e)
        if w is None:
            w = self.weights[e] = self.rule.weight(e)
        return w

    def _unit(self, b: int, e: int) -> int:
        """1 in the field of (b, e)."""
        s = self.slots.get((b, e))
        if s is None:
            s = self.slots[(b, e)] = len(self.slot_keys)
            self.slot_keys.append((b, e))
        return 1 << (self.width * s)

    def encode(self, groups) -> int:
        """The code of a position given as groups (block, exponent, count)."""
        return sum(m * self._unit(b, e) for b, e, m in groups)

    def groups(self, code: int) -> tuple:
        """The groups (block, exponent, count) of a code, sorted."""
        out, s, w, mask = [], 0, self.width, (1 << self.width) - 1
        while code:
            m = code & mask
            if m:
                b, e = self.slot_keys[s]
                out.append((b, e, m))
            code >>= w
            s += 1
        return tuple(sorted(out))

    def root(self, r: int) -> int:
        return self.encode([(0, 0, r), (1, 0, self.n - r)])

    # ------------------------------------------------------------------ moves
    def _steps(self, b: int, e: int) -> tuple:
        """(field unit of (b, e), code change of promoting one variable of it, of demoting one)."""
        s = self.steps.get((b, e))
        if s is None:
            unit = self._unit(b, e)
            s = self.steps[(b, e)] = (unit, self._unit(b, self.rule.promoted(e)) - unit,
                                      self._unit(b, self.rule.demoted(e)) - unit)
        return s

    def _mistakes(self, code: int, vectors: bool = False) -> list:
        """The children of the mistakes in position ``code`` under the current target, each once; with
        ``vectors``, (child, count vector t aligned with ``groups(code)``, label) for every mistake."""
        rule, kappa = self.rule, self.kappa
        pos = self.groups(code)
        ws = [self._weight(e) for _, e, _ in pos]
        den = math.lcm(rule.theta.denominator, *(w.denominator for w in ws))
        units = [w.numerator * (den // w.denominator) for w in ws]
        T = rule.theta.numerator * (den // rule.theta.denominator)
        G = len(pos)
        last = G - 1
        counts = [m for _, _, m in pos]
        rel = [b == 0 for b, _, _ in pos]
        steps = [self._steps(b, e) for b, e, _ in pos]
        up = [s[1] for s in steps]
        down = [s[2] for s in steps]
        order = sorted(range(G), key=lambda i: (not rel[i], -units[i]))  # relevant first, heavy first
        rest = [0] * (G + 1)      # the largest score the groups order[a:] can add
        relrest = [0] * (G + 1)   # the most relevant ones they can add
        for a in range(G - 1, -1, -1):
            i = order[a]
            rest[a] = rest[a + 1] + counts[i] * units[i]
            relrest[a] = relrest[a + 1] + (counts[i] if rel[i] else 0)
        out: list = []
        t = [0] * G

        def leaves(i: int, lo: int, hi: int, child: int, d: int, y: int) -> None:
            """The mistakes with lo..hi variables of group i on, the other groups' counts set."""
            if not vectors:
                for c in range(lo, hi + 1):
                    out.append(child + c * d)
                return
            for c in range(lo, hi + 1):
                t[i] = c
                out.append((child + c * d, tuple(t), y))
            t[i] = 0

        # promotions: label 1 (relevant count >= kappa) predicted 0 (score below theta; at most theta when strict)
        cap = T if rule.strict else T - 1

        def promote(a: int, S: int, trel: int, child: int) -> None:  # hot loop: one call per partial count vector
            if trel + relrest[a] < kappa:
                return
            i = order[a]
            u, r, d = units[i], rel[i], up[i]
            top = counts[i] if r or d else 0  # a zeroed irrelevant weight stays 0: turning it on changes nothing
            if a == last:  # the last group: every count that keeps the score down and reaches kappa
                if S <= cap:
                    leaves(i, max(kappa - trel, 0) if r else 0, min(top, (cap - S) // u) if u else top, child, d, 1)
                return
            for c in range(top + 1):
                S2 = S + c * u
                if S2 > cap:
                    break
                t[i] = c
                promote(a + 1, S2, trel + c if r else trel, child + c * d)
            t[i] = 0

        # demotions: label 0 (relevant count below kappa) predicted 1 (score at least theta; above it when strict)
        need = T + 1 if rule.strict else T

        def demote(a: int, S: int, trel: int, child: int) -> None:  # hot loop: one call per partial count vector
            if S + rest[a] < need:
                return
            i = order[a]
            u, r, d = units[i], rel[i], down[i]
            top = min(counts[i], kappa - 1 - trel) if r else counts[i]
            # an irrelevant weight that a demotion leaves as it is (0, or at Winnow-R's floor) only adds to
            # the score: all of its group on gives every child that fewer of them would
            bottom = top if not r and not d else 0
            if a == last:  # the last group: every count that lifts the score to theta
                leaves(i, max(bottom, 0 if S >= need or u == 0 else -((S - need) // u)), top, child, d, 0)
                return
            for c in range(bottom, top + 1):
                t[i] = c
                demote(a + 1, S + c * u, trel + c if r else trel, child + c * d)
            t[i] = 0

        promote(0, 0, 0, code)
        if kappa >= 1:
            demote(0, 0, 0, code)
        if vectors:
            return out
        children = list(dict.fromkeys(out))  # a zeroed weight (or one at Winnow-R's floor) stays: equal children
        self.moves_seen += len(children)
        return children

    def move_to(self, code: int, child: int) -> tuple:
        """(groups, count vector, label) of a mistake that leads from ``code`` to ``child``."""
        for c, t, y in self._mistakes(code, vectors=True):
            if c == child:
                return self.groups(code), t, y
        raise RuntimeError("count search: a move of the memo is not a mistake of its position; please report this")

    # ------------------------------------------------------------------ the search
    def _tick(self) -> None:
        interrupts.check()  # a Ctrl-C that a library swallowed stops the search here (solvers.interrupts)
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            raise _Stop("time limit")
        if len(self.memo) >= self.max_memo:
            raise _Stop("memory limit")
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 1.0
            self.progress({"mistakes": self.best, "nodes": self.nodes, "memo": self.memo_total + len(self.memo),
                           "seconds": now - self.t0,
                           "target": f"{self.done + 1}/{len(self.orbits)}"})

    def _chain(self, code: int) -> list:
        """The best moves from ``code`` as the memo has them: [(code, child), ...]."""
        moves = []
        while True:
            value, child = self.memo[code]
            if value == 0:
                return moves
            moves.append((code, child))
            code = child

    def _offer(self, mistakes: int, code: Optional[int] = None) -> None:
        if mistakes > self.best:
            self.best = mistakes
            self.best_moves = list(self.path) + (self._chain(code) if code is not None else [])
            self.best_orbit = self.orbit

    def _visit(self, code: int, depth: int) -> int:
        """The worst case from position ``code`` (not in the memo), at ``depth`` mistakes from the root."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._tick()
        if depth >= self.max_depth:
            raise _TooDeep
        memo, on_path, path = self.memo, self.on_path, self.path
        on_path[code] = depth
        best, best_child = 0, None
        for child in self._mistakes(code):
            hit = memo.get(child)
            if hit is not None:
                v = hit[0]
                if depth + 1 + v > self.best:
                    path.append((code, child))
                    self._offer(depth + 1 + v, child)
                    path.pop()
            else:
                path.append((code, child))
                d = on_path.get(child)
                if d is not None:
                    raise _Cycle(d)
                if depth + 1 > self.best:
                    self._offer(depth + 1)
                v = self._visit(child, depth + 1)
                path.pop()
            if v + 1 > best:
                best, best_child = v + 1, child
        del on_path[code]
        memo[code] = (best, best_child)
        return best

    def _potential(self, code: int) -> float:
        """The beam's ranking: the irrelevant variables' total weight less the relevant ones'. In
        [15-859B]'s proof demotions are paid for by total weight, and a relevant weight near theta has
        few promotions left, so positions high on this have more mistakes ahead (a heuristic: it only
        orders the beam, never a value, so floats do)."""
        return sum((m if b else -m) * float(self._weight(e)) for b, e, m in self.groups(code))

    def first_bound(self, width: int = BEAM) -> None:
        """A first lower bound, before the exact search: a beam of the ``width`` positions of highest
        :meth:`_potential` at each depth, on the first target (the largest), until no position has a
        mistake left; every position at depth d is d mistakes (its path is the sequence). Cheap next to
        the exact search (``width`` positions a depth), and what a time limit or Ctrl-C returns when
        the exact search has not gone as deep yet."""
        self.orbit = self.orbits[0]
        self.kappa = self.orbit[1]
        self.path = []
        level = [self.root(self.orbit[0])]
        seen = set(level)
        parents: list = []  # per depth: child -> parent
        while level and len(parents) < min(self.max_depth, BEAM_DEPTH):
            up: dict = {}
            for code in level:
                self.nodes += 1
                self._tick()
                for child in self._mistakes(code):
                    if child not in seen:  # a position met before closes a cycle: the exact search finds those
                        up.setdefault(child, code)
            if not up:
                break
            depth = len(parents) + 1
            self.path = self._beam_path(parents, next(iter(up)), up)
            self._offer(depth)  # any child is a line of depth mistakes: offered before the ranking
            ranked = []
            for j, child in enumerate(up):
                if j % 256 == 255:
                    self._tick()
                ranked.append((-self._potential(child), j, child))
            level = [child for _, _, child in sorted(ranked)[:width]]
            seen.update(level)
            parents.append({c: up[c] for c in level})
        self.path = []

    @staticmethod
    def _beam_path(parents: list, child: int, up: dict) -> list:
        """The moves from the root to ``child`` (a child of the beam's last level, parent in ``up``)."""
        moves, code = [(up[child], child)], up[child]
        for step in reversed(parents):
            moves.append((step[code], code))
            code = step[code]
        return moves[::-1]

    def run(self) -> Found:
        stopped = None
        cycle_moves = None
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 3 * self.max_depth + 1000))
        try:
            if self.beam:
                self.first_bound(self.beam)
            for orbit in self.orbits:
                self.orbit = orbit
                self.kappa = orbit[1]
                self.memo_total += len(self.memo)
                self.memo, self.on_path, self.path = {}, {}, []
                root = self.root(orbit[0])
                try:
                    value = self._visit(root, 0)
                except _TooDeep:  # no answer for this target; another may still show a cycle
                    stopped = "depth limit"
                    self.done += 1
                    continue
                self.done += 1
                self.values.append({"r": orbit[0], "kappa": orbit[1], "worst": value})
                if value > self.best or not self.best_moves:
                    self.best, self.best_moves, self.best_orbit = value, self._chain(root), orbit
            exact = stopped is None
        except _Cycle as e:
            exact, stopped, cycle_moves, cycle_start = True, None, list(self.path), e.start
        except _Stop as e:
            exact, stopped = False, str(e)
        except KeyboardInterrupt:
            exact, stopped = False, "interrupted"
        finally:
            sys.setrecursionlimit(old_limit)
        cycle = None
        if cycle_moves is not None:
            orbit = self.orbit
            seq, cycle = self._realize_cycle(orbit, cycle_moves, cycle_start)
        else:
            orbit = self.best_orbit
            self.kappa = orbit[1]
            seq = self.realize(orbit, self.best_moves)
            if exact and len(seq) != self.best:
                raise RuntimeError(f"count search: the best sequence has {len(seq)} mistakes, not the {self.best} "
                                   "it was found with; please report this")
        mistakes = len(seq)  # every example is a mistake
        seconds = round(time.monotonic() - self.t0, 4)
        stats = {"mode": "counts", "nodes": self.nodes, "memo": self.memo_total + len(self.memo),
                 "moves": self.moves_seen, "targets": len(self.orbits), "targets_done": self.done,
                 "target_values": self.values, "seconds": seconds, "stopped": stopped}
        if self.progress is not None:
            self.progress({"mistakes": mistakes, "nodes": self.nodes, "memo": stats["memo"], "seconds": seconds,
                           "done": True})
        return Found(seq, mistakes, orbit[2], exact=exact, cycle=cycle, stats=stats)

    # ------------------------------------------------------------------ witnesses
    def realize(self, orbit: tuple, moves: list) -> list:
        """The examples of ``moves`` ((code, child) pairs) as explicit points, replayed on the learner
        itself: each must be a mistake and leave the weights the counts say (RuntimeError otherwise)."""
        play = _Replay(self.problem.new_learner(), self, orbit)
        for code, child in moves:
            play.move(code, child)
        return play.sequence

    def _realize_cycle(self, orbit: tuple, moves: list, start: int) -> tuple[list, tuple]:
        """A sequence whose stretch (start, length) brings the learner's weights and the version space
        back: the moves from ``start`` (they lead to a renamed copy of the position at ``start``)
        repeated on explicit points until the explicit position repeats."""
        play = _Replay(self.problem.new_learner(), self, orbit)
        for code, child in moves[:start]:
            play.move(code, child)
        loop = moves[start:]
        seen: dict = {}
        V = self.cls.consistent(play.sequence)
        for _ in range(10_000):
            key = (tuple(play.exps), V)
            if key in seen:
                s = seen[key]
                return play.sequence, (s, len(play.sequence) - s)
            seen[key] = len(play.sequence)
            for code, child in loop:
                play.move(code, child)
            V = self.cls.consistent(play.sequence[-len(loop):], V)
        raise RuntimeError("count search: a cycle of positions that does not close on explicit points after "
                           "10,000 rounds; please report this")


class _Replay:
    """Count moves played on explicit points: the exponent of every variable (x_1..x_r relevant), with
    the learner itself alongside."""

    def __init__(self, learner, search: CountSearch, orbit: tuple):
        self.learner, self.search, self.rule, self.n = learner, search, search.rule, search.n
        self.r, self.kappa = orbit[0], orbit[1]
        self.exps = [0] * self.n
        self.sequence: list = []

    def code(self) -> int:
        return self.search.encode((0 if i < self.r else 1, e, 1) for i, e in enumerate(self.exps))

    def move(self, code: int, child: int) -> None:
        if self.code() != code:
            raise RuntimeError("count search: the explicit weights left the position searched; please report this")
        pos, t, y = self.search.move_to(code, child)
        x = [0] * self.n
        for (b, e, _), c in zip(pos, t):
            members = [i for i in range(self.n) if (0 if i < self.r else 1) == b and self.exps[i] == e]
            for i in members[:c]:
                x[i] = 1
        x = tuple(x)
        if int(sum(x[:self.r]) >= self.kappa) != y:
            raise RuntimeError("count search: a label is not the target's; please report this")
        if self.learner.predict_one(x) == y:
            raise RuntimeError(f"count search: the learner does not err on {x} -> {y} as the counts say; "
                               "please report this")
        self.learner.learn_one(x, y)
        step = self.rule.promoted if y == 1 else self.rule.demoted
        self.exps = [step(e) if v else e for e, v in zip(self.exps, x)]
        if [Fraction(p, q) for p, q in self.learner.state_key()] != [self.search._weight(e) for e in self.exps]:
            raise RuntimeError("count search: the learner's weights are not the ones the counts say; "
                               "please report this")
        if self.code() != child:
            raise RuntimeError("count search: the explicit weights are not the child searched; please report this")
        self.sequence.append((x, y))
