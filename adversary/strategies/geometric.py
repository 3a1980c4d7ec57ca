"""The geometric adversary: the Perceptron on margin halfspaces in R^d, pushed to R^2/gamma^2 mistakes.

The class ([Mehta], section 3; :class:`solvers.classes.margin.MarginHalfspaces`):
a unit vector w*, points with |x| <= R and margin y <w*, x> >= gamma (y in {-1, +1}). Theorem 2 of
[Mehta] bounds the Perceptron by R^2/gamma^2 mistakes: |w_m|^2 <= m R^2 (claim 1) and
<w*, w_m> >= gamma m (claim 2). The adversary here picks w* and the points.

**The game in one line.** Write z = y x for a point x with label y in {-1, +1}. An update adds z to
the weight vector, so w_k = z_1 + ... + z_k, and the adversary's move is a vector z with

    <w*, z> >= gamma (the margin),   |z| <= R,   <w_k, z> <= 0 (the learner errs),

where the last condition is the mistake for [Mehta]'s Perceptron (sgn(0) = +1) when the point x = -z
is labelled 0, and for scikit-learn's (class 1 iff <w, x> > 0) when x = z is labelled 1. Both
update exactly on these moves, so a sequence of moves is a sequence of mistakes, and every mistake
of either learner is such a move (scikit-learn also updates on <w, x> = 0 with label 0, a move with
no mistake: never better than the same move as a mistake). The most mistakes the adversary can
force is the longest sequence of moves. With w* = e_1 (the learners are rotation invariant) and
z = (p, q), p >= gamma: a larger p only hurts (it grows <w*, w> = a faster and leaves less room for
q), so p = gamma, a = k gamma after k moves, and the state is the perpendicular part b of w.

* **d >= R^2/gamma^2 (in fact d >= m = floor(R^2/gamma^2)): the classic sequence.** x_i = R e_i for
  i = 1..m, each orthogonal to the current w, so <w, x_i> = 0; w* = (1/sqrt m)(1, ..., 1, 0, ...),
  margin R/sqrt(m) >= gamma. m mistakes, which is floor(R^2/gamma^2): the bound is met, in exact
  rational arithmetic (the direction of w* is rational, and the referee's exact mode checks the
  margin of the direction).
* **3 <= d < m: a spiral, also m mistakes.** (Derived here, not in the seeds.) Take |q| = Q with
  Q^2 = R^2 - gamma^2 and <b, q> = -a gamma (just enough to err). Then |b'|^2 = |b|^2 + Q^2 - 2 a gamma,
  so |b_k|^2 = k R^2 - k^2 gamma^2, exactly the classic sequence's; the move exists when
  |b| Q >= a gamma, i.e. k <= R^2/gamma^2 - 1 before the (k+1)-th mistake, so all m mistakes fit.
  A circle of radius Q meets the line <b, q> = -a gamma as soon as q has two coordinates, so
  d = 3 suffices. Points are rationals on a dyadic grid (step 2^-40, so floats hold them exactly);
  each move keeps a little slack, which costs nothing unless R^2/gamma^2 is an integer, where the
  last move needs equality and is lost to the grid (m - 1 mistakes, with a note in the stats).
* **d = 2: an interval dynamic programme.** q is a scalar; from |b| = beta at step k the next
  |b'| = | beta - |q| | for |q| in [k gamma^2 / beta, Q], an interval of reachable values. The sets
  reachable after k moves are unions of intervals, computed forward exactly in floats; the sets from
  which the last of them is still reachable, backward; the sequence is then played forward in exact
  arithmetic, each time aiming at the middle of the widest viable interval. Its value is about half
  of R^2/gamma^2. Seeded random rollouts (random reachable |b'| each step) run beside it as an
  independent check; the best verified sequence is returned.
* **d = 1:** one mistake (after it w points along w*, and no point with margin can be misclassified).

When the count is not proven the worst case in d >= 3 (a Perceptron with ``margin > 0``, whose bound
(R^2 + 2 margin)/gamma^2 is larger, or a construction the time cut short), seeded random rollouts (each
move a random mistake) search on until :data:`ROLLOUT_SHARE` of the time, and the result is a lower bound.

``Found.exact`` is True only when the count is proven to be the worst case: it equals
floor(R^2/gamma^2) ([Mehta]'s theorem for the plain Perceptron, ``margin=0``; the same proof bounds the
updates of scikit-learn's), or d = 1 and one mistake was made.

References
----------
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"

Examples
--------
>>> from adversary.referee import witness_class, make_witness, verify_witness
>>> spec = {"family": "margin-halfspaces", "params": {"d": 4, "gamma": "1/2"}}
>>> H = witness_class(spec)
>>> found = STRATEGY.run(Problem("perceptron", {"d": 4}, H, spec))
>>> found.mistakes, found.exact, found.stats["construction"]
(4, True, 'orthogonal')
>>> w = make_witness("perceptron", {"d": 4}, spec, found.sequence, found.target)
>>> verify_witness(w, exact=True).ok
True
"""

from __future__ import annotations

import math
import operator
import time
from fractions import Fraction
from itertools import compress
from typing import Callable, Optional

import numpy as np

from solvers import interrupts

from ..position import Position
from .base import Found, Problem, Strategy, StrategyError, only_exact, time_left

__all__ = ["GeometricStrategy", "STRATEGY", "CONVENTIONS", "GRID", "BYTES_PER_COORDINATE", "check_dimension"]

def _convention(name: str):
    """(s, y) with the point x = s z shown and labelled y, so that <w, z> <= 0 is a mistake, for a learner
    that declares its ``zero_score_prediction`` (a Perceptron); None for any other learner."""
    from solvers.learners import LEARNERS

    spec = LEARNERS.get(name)
    p = getattr(spec.cls, "zero_score_prediction", None) if spec is not None else None
    if p is None:
        return None
    # <w, x> = 0 predicts 1 (sgn(0) = +1, [Mehta]): show x = -z labelled 0; predicts 0: x = z labelled 1
    return (-1, 0) if p == 1 else (1, 1)


def _conventions() -> dict:
    from solvers.learners import LEARNERS

    names = dict.fromkeys(s.name for s in LEARNERS.values())
    return {n: c for n in names if (c := _convention(n)) is not None}


#: For each learner the strategy attacks (the registry's, at import): (s, y) as :func:`_convention`.
CONVENTIONS = _conventions()
#: Coordinates off the classic sequence are multiples of 1/GRID (exact as floats too).
GRID = 2**40
#: The games of the current run (each _Play adds itself): on a Ctrl-C the run returns the longest.
_PLAYS: list = []
#: The deadline of the current run (GeometricStrategy.run), which every game keeps with its checks (CHECK_MOVES).
_END: list = [None]

_ROLLOUTS = 64          # random rollouts in d = 2 without a deadline
_MAX_ROLLOUTS = 1024    # ... and at most this many with one
#: With a deadline, the share of the time left that the constructions may use: the referee then
#: checks and replays the sequence (in :func:`adversary.attack.attack`: the strategy's own check,
#: the witness, its re-verification), which costs about as much again as building it.
BUILD_SHARE = 0.3
#: After the construction the referee checks and replays the sequence and writes the witness, each a pass over
#: every coordinate (d of them): in high dimension about CHECK_MOVES[0] times the time of a move per move played,
#: plus CHECK_MOVES[1] moves' time for the target (measured at d = 3 * 10^6). A construction stops before a move
#: whose checks would pass the deadline.
CHECK_MOVES = (2.0, 10.0)
#: ... and the share until which random rollouts search on when the construction is not proven the worst case.
ROLLOUT_SHARE = 0.7


#: Bytes an attack on margin halfspaces holds per coordinate of each point it plays (measured: d = 10^6 and 25
#: moves took 730 MB, the points as tuples, the learner's copies, the witness's text).
BYTES_PER_COORDINATE = 32


def check_dimension(H, memory: Optional[int] = None) -> None:
    """StrategyError (one line, with the estimate and what to change) when the points of an attack on the margin
    class ``H`` cannot fit in half of ``memory`` (default the machine's): about floor(R^2/gamma^2) + 2 vectors of
    d coordinates each, held as tuples (d = 10^8 would take tens of GB before the first move is played)."""
    from solvers.opt.search import physical_memory

    memory = physical_memory() if memory is None else memory
    if memory is None:
        return
    m = math.floor(H.R * H.R / (H.gamma * H.gamma))
    need = BYTES_PER_COORDINATE * H.d * (m + 2)
    if need > memory // 2:
        most = memory // 2 // (BYTES_PER_COORDINATE * (m + 2))
        same = (f"; every d >= {m} = floor(R^2/gamma^2) gives the Perceptron the same {m} mistakes" if most >= m
                else "")
        raise StrategyError(f"an attack on {H} holds about {m + 2} points of d = {H.d:,} coordinates, about "
                            f"{need / 2**30:.1f} GB, more than half of this machine's {memory / 2**30:.1f} GB; "
                            f"give d <= {most:,}{same}")


def _up(q: Fraction) -> Fraction:
    return Fraction(math.ceil(q * GRID), GRID)


def _grid(v: float) -> Fraction:
    return Fraction(round(v * GRID), GRID)


def _dot(u, v):
    """<u, v> over the nonzero coordinates of v (hot loop: in high d most of a point is 0)."""
    return sum(u[i] * v[i] for i in compress(range(len(v)), v))


class _Play:
    """One game of moves z against a fresh learner (the module docstring's z-game), in exact arithmetic:
    a :class:`~adversary.position.Position` on the margin class (whose version space is the examples so
    far: the referee checks the target on them at the end) and the running sum w of the z played."""

    def __init__(self, problem: Problem, H, stop: Optional[float] = None, target: Optional[list] = None,
                 end: Optional[float] = None):
        self.pos = Position.start(problem.new_learner(), H)
        self.target = [1] + [0] * (H.d - 1) if target is None else target  # realizes every prefix of the game
        _PLAYS.append(self)  # what a Ctrl-C returns (GeometricStrategy.run)
        self.s, self.y = _convention(problem.learner_name)
        self.R2 = H.R * H.R
        self.w = (0,) * H.d
        self.sequence: list = []
        self.stop = stop  # a time.monotonic() instant after which no move is played
        self.end = _END[0] if end is None else end  # the attack's deadline: no move whose checks would pass it
        self.late = False  # stopped because the checks of one more move would pass the deadline
        self.seconds = 0.0  # spent in the moves played
        self.stopped = False

    def out_of_time(self) -> bool:
        """Whether the time is up (then the sequence so far is the result); checked before every move. The
        first move is always played: from w = 0 any move errs, so every result holds a mistake. A Ctrl-C that a
        library swallowed is raised again here (:func:`solvers.interrupts.check`)."""
        interrupts.check()
        if self.sequence and self.stop is not None and time.monotonic() >= self.stop:
            self.stopped = True
        if self.sequence and self.end is not None:
            per, k = self.seconds / len(self.sequence), len(self.sequence) + 1
            if time.monotonic() + per * (1 + CHECK_MOVES[0] * k + CHECK_MOVES[1]) >= self.end:
                self.stopped = self.late = True
        return self.stopped

    def move(self, z) -> bool:
        """Play z if it is inside the ball and the learner errs on it; return whether it was played."""
        t = time.monotonic()
        try:
            return self._move(z)
        finally:
            self.seconds += time.monotonic() - t

    def _move(self, z) -> bool:
        if _dot(z, z) > self.R2:
            return False
        x = z if self.s == 1 else tuple(map(operator.neg, z))
        if self.pos.learner.predict_one(x) == self.y:  # (hot loop: most z tried are not mistakes)
            return False
        self.pos = self.pos.play(x, self.y)
        self.sequence.append((x, self.y))
        w = list(self.w)
        for i in compress(range(len(z)), z):  # the nonzero coordinates of z
            w[i] = w[i] + z[i]
        self.w = tuple(w)
        return True


# ---------------------------------------------------------------------------------------- constructions
def _orthogonal(problem: Problem, H, m: int, stop=None):
    """The classic sequence: z_i = R e_i (i < m), w* = (1/sqrt m) on the first m coordinates."""
    r = math.isqrt(m)
    c = Fraction(1, r) if r * r == m else 1 / math.sqrt(m)  # a float when 1/sqrt(m) is irrational
    target = [c] * m + [0] * (H.d - m)
    play = _Play(problem, H, stop, target)
    zero = (0,) * H.d
    R = int(H.R) if H.R.denominator == 1 else H.R  # an int keeps the points all ints, which are quick to check
    for i in range(m):
        if play.out_of_time():
            break
        z = zero[:i] + (R,) + zero[i + 1:]
        if not play.move(z):
            break
    return play, target


def _spiral(problem: Problem, H, m: int, z1: Fraction, stop=None):
    """3 <= d: |q| = Q and <b, q> = -a z1 each move, in the plane of coordinates 2 and 3."""
    play = _Play(problem, H, stop)
    Q2 = H.R * H.R - z1 * z1
    Qf = math.sqrt(float(Q2))
    rest = (0,) * (H.d - 3)
    for k in range(m):
        if play.out_of_time():
            break
        a, b = play.w[0], play.w[1:3]
        bf = np.array([float(v) for v in b])
        nb = float(np.hypot(*bf))
        if nb == 0.0:
            bhat, alpha = np.array([1.0, 0.0]), 0.0
        else:
            bhat, alpha = bf / nb, float(a * z1) / nb
        vhat = np.array([-bhat[1], bhat[0]])
        for attempt in range(48):
            eps = 0.0 if attempt == 0 else 2.0 ** (attempt - 44)
            inward = alpha + eps
            if inward > Qf:
                break
            along = max(math.sqrt(max(Qf * Qf - inward * inward, 0.0)) - eps, 0.0)
            q = -inward * bhat + along * vhat
            if play.move((z1, _grid(q[0]), _grid(q[1])) + rest):
                break
        if len(play.sequence) == k:  # no move was played: the spiral ends here
            break
    return play, [1] + [0] * (H.d - 1)


def _scatter(problem: Problem, H, m: int, z1: Fraction, rng, stop=None):
    """3 <= d, a random rollout: each move errs, (z1, q) with q in the plane of coordinates 2 and 3, its
    component against b drawn between the least that errs and the most the ball allows, its length too."""
    play = _Play(problem, H, stop)
    Qf = math.sqrt(float(H.R * H.R - z1 * z1))
    rest = (0,) * (H.d - 3)
    for k in range(4 * m + 4):  # (a learner with margin > 0 may err more than m times)
        if play.out_of_time():
            break
        a, b = play.w[0], play.w[1:3]
        bf = np.array([float(v) for v in b])
        nb = float(np.hypot(*bf))
        bhat, alpha = (np.array([1.0, 0.0]), 0.0) if nb == 0.0 else (bf / nb, float(a * z1) / nb)
        if alpha > Qf:
            break
        vhat = np.array([-bhat[1], bhat[0]]) * rng.choice((-1.0, 1.0))
        played = False
        for _ in range(8):
            inward = float(rng.uniform(alpha, Qf))
            along = math.sqrt(max(Qf * Qf - inward * inward, 0.0)) * float(rng.uniform(0.0, 1.0))
            q = -inward * bhat + along * vhat
            if play.move((z1, _grid(q[0]), _grid(q[1])) + rest):
                played = True
                break
        if not played:
            break
    return play, [1] + [0] * (H.d - 1)


# ---- d = 2: the interval dynamic programme -------------------------------------------------------------
def _merge(intervals):
    out = []
    for lo, hi in sorted(i for i in intervals if i[0] <= i[1]):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _intersect(A, B):
    return _merge([(max(a, c), min(b, d)) for a, b in A for c, d in B])


def _reach(beta: float, c: float, Q: float):
    """|b'| reachable from |b| = beta when c = a z1: |q| in [c/beta, Q], |b'| = |beta - |q||."""
    if c == 0.0:  # the first move, from w = 0
        return 0.0, Q
    if beta * Q < c:
        return None
    lo = max(0.0, c / beta - beta)
    return lo, max(Q - beta, beta - c / beta)


def _dp_sets(z1: float, Q: float, m: int, stop: Optional[float] = None):
    """Forward sets S[k] (|b| after k moves) and viable sets V[k] (from which the last move is reachable);
    when the time is up (``stop``) the forward sets end where they got to."""
    S = [[(0.0, 0.0)]]
    while len(S) <= m:
        if len(S) % 256 == 0:
            interrupts.check()
            if stop is not None and time.monotonic() >= stop:
                break
        k = len(S) - 1
        c = k * z1 * z1
        nxt = []
        for u, v in S[k]:
            u = max(u, c / Q)
            if u > v:
                continue
            if c == 0.0:
                nxt.append((0.0, Q))
            else:
                nxt.append((max(0.0, c / v - v), max(Q - u, v - c / v)))
        nxt = _merge(nxt)
        if not nxt:
            break
        S.append(nxt)
    K = len(S) - 1
    V = [None] * (K + 1)
    V[K] = S[K]
    for k in range(K - 1, -1, -1):
        c = k * z1 * z1
        pieces = []
        for e1, e2 in V[k + 1]:
            r1 = (-e2 + math.sqrt(e2 * e2 + 4 * c)) / 2          # lo(beta) <= e2
            r2 = (e1 + math.sqrt(e1 * e1 + 4 * c)) / 2           # beta - c/beta >= e1
            low = max(r1, c / Q)
            pieces += [(low, Q - e1), (max(low, r2), math.inf)]
        V[k] = _intersect(S[k], _merge(pieces))
    return S, V, K


def _plane(problem: Problem, H, z1: Fraction, target_of: Callable, m: int, stop=None):
    """d = 2: play moves (z1, q), choosing each |b'| with ``target_of(k, reach interval)``."""
    play = _Play(problem, H, stop)
    Q2 = H.R * H.R - z1 * z1
    Qf = math.sqrt(float(Q2))
    for k in range(m):
        if play.out_of_time():
            break
        a, b = play.w
        beta, c = abs(float(b)), float(a * z1)
        reach = _reach(beta, c, Qf)
        if reach is None:
            break
        goal = target_of(k, reach)
        if goal is None:
            break
        sign = -1 if b > 0 else 1  # q points against b
        options = [beta - goal, beta + goal]  # |q| giving |b'| = goal
        need = c / beta if beta > 0 else 0.0
        options = sorted((o for o in options if need <= o <= Qf), key=lambda o: -min(o - need, Qf - o))
        for size in options or [min(max(need, 0.0), Qf)]:
            played = False
            for nudge in (0, 1, -1, 2, -2, 4, -4, 16, -16, 256, -256):
                mag = max(_grid(size) + Fraction(nudge, GRID), Fraction(0))
                if play.move((z1, sign * mag)):
                    played = True
                    break
            if played:
                break
        else:
            break
    return play, [1, 0]


def _widest(pieces):
    best = max(pieces, key=lambda p: p[1] - p[0])
    return (best[0] + best[1]) / 2


# ---------------------------------------------------------------------------------------- the strategy
class GeometricStrategy(Strategy):
    """The Perceptron (``perceptron``, ``sklearn-perceptron``) on ``margin-halfspaces d gamma [R]``.

    See the module docstring for the constructions: the classic orthogonal sequence (d >= m), a spiral
    (3 <= d < m), an interval dynamic programme with random rollouts beside it (d = 2), one mistake
    (d = 1); m = floor(R^2/gamma^2).
    """

    name = "geometric"
    summary = ("Perceptron on margin-halfspaces: floor(R^2/gamma^2) mistakes for d >= 3 (orthogonal "
               "sequence or spiral), an interval DP for d = 2")

    def check(self, problem: Problem) -> None:
        only_exact("geometric", problem)
        if _convention(problem.learner_name) is None:
            raise StrategyError(f"strategy geometric attacks the Perceptron ({', '.join(_conventions())}), "
                                f"not {problem.learner_name}; use exact, tree, beam, mcts or local")
        if "margin" not in problem.cls.facts:
            raise StrategyError(f"strategy geometric plays on margin-halfspaces d gamma [R], not {problem.cls}; "
                                "use exact, tree, beam, mcts or local on a finite class")
        d = problem.cls.d
        check_dimension(problem.cls)
        try:
            learner = problem.new_learner()
        except ValueError as e:
            raise StrategyError(" ".join(str(e).split())) from None
        if getattr(learner, "d", d) != d:
            raise StrategyError(f"strategy geometric: the learner has d = {learner.d} but the class has d = {d}; "
                                f"give d={d}")
        if getattr(learner, "bias", False):
            raise StrategyError("strategy geometric plays the homogeneous Perceptron (margin-halfspaces pass through "
                                "the origin); drop bias=true, or use exact, beam, mcts or local on a finite class")

    def run(self, problem: Problem, *, deadline: Optional[float] = None,
            progress: Optional[Callable[[dict], None]] = None) -> Found:
        self.check(problem)
        t0 = time.monotonic()
        H = problem.cls
        d, gamma, R = H.d, H.gamma, H.R
        ratio = R * R / (gamma * gamma)
        m = math.floor(ratio)  # >= 1: witness_class refuses gamma > R, where no point has the margin
        margin = getattr(problem.new_learner(), "margin", 0)
        stats = {"bound": float(ratio), "floor": m}
        # With a deadline the constructions stop early enough for the referee to check the sequence.
        stop = None if deadline is None else t0 + max(deadline - t0, 0.0) * BUILD_SHARE

        z1 = _up(gamma)  # the margin coordinate, on the grid (>= gamma)
        _PLAYS.clear()
        _END[0] = deadline
        try:
            play, target = self._build(problem, H, d, m, z1, R, margin, t0, stop, deadline, stats, progress)
        except KeyboardInterrupt:  # the longest game so far (every prefix of a game is one), else the sure first move
            play = max(_PLAYS, key=lambda p: len(p.sequence), default=None)
            if play is None or not play.sequence:
                play = _Play(problem, H)
                play.move((R,) + (0,) * (d - 1))  # from w = 0 any move errs; e_1 has margin R >= gamma
            target = play.target
            stats["stopped"] = "interrupted"
            # The referee replays every move before anything is printed, about as fast as they were played: keep
            # the prefix it replays within the grace of a Ctrl-C (a prefix of a game is a game, its moves mistakes).
            keep = max(1, int(len(play.sequence) / max(time.monotonic() - t0, 1e-3) * interrupts.GRACE))
            if keep < len(play.sequence):
                stats["cut"] = {"played": len(play.sequence), "kept": keep}
                del play.sequence[keep:]
        finally:
            _PLAYS.clear()
            _END[0] = None
        if len(play.sequence) < m and d >= 3 and ratio.denominator == 1 and not play.stopped \
                and not stats.get("stopped"):
            stats["note"] = ("R^2/gamma^2 is an integer: the last move needs exact equality, which the "
                             "rational grid cannot hold")
        return self._found(problem, play, target, m, margin, stats, t0, progress)

    def _build(self, problem, H, d, m, z1, R, margin, t0, stop, deadline, stats, progress):
        """The construction for d (see the class docstring): (the game played, its target)."""
        if d >= m:
            play, target = _orthogonal(problem, H, m, stop)
            stats["construction"] = "orthogonal"
        elif d == 1:
            play = _Play(problem, H)
            play.move((R,))
            target = [1]
            stats["construction"] = "one-step"
        elif d >= 3:
            play, target = _spiral(problem, H, m, z1, stop)
            stats["construction"] = "spiral"
        else:
            play, target, extra = self._plane(problem, H, m, z1, stop, progress)
            stats.update(extra)
        if d >= 3 and stop is not None and not (margin == 0 and len(play.sequence) == m) and not play.late:
            # Not proven the worst case (a learner with margin > 0, whose bound is (R^2 + 2 margin)/gamma^2, or a
            # construction cut short): search on with random rollouts until the time is up.
            rng = np.random.default_rng(problem.seed)
            stats["rollouts"] = 0
            stop = t0 + max(deadline - t0, 0.0) * ROLLOUT_SHARE  # (a rollout's sequence is short to verify)
            while time.monotonic() < stop:
                interrupts.check()
                other, t = _scatter(problem, H, m, z1, rng, stop)
                stats["rollouts"] += 1
                if len(other.sequence) > len(play.sequence):
                    play, target = other, t
                    stats["construction"] = "random-rollout"
                    if progress is not None:
                        progress({"mistakes": len(play.sequence), "rollouts": stats["rollouts"]})
            play.stopped = True
        if play.stopped and d != 2:  # (d = 2: the rollouts run until the time is up; see _plane)
            stats["stopped"] = "time limit"
        return play, target

    # d = 2 ---------------------------------------------------------------------------------------------
    def _plane(self, problem, H, m, z1, deadline, progress):
        Qf = math.sqrt(float(H.R * H.R - z1 * z1))
        # With a deadline, the forward sets get a quarter of the time (the backward ones take about as
        # long), and the moves along them the rest.
        quarter = None if deadline is None else time.monotonic() + time_left(deadline) / 4
        S, V, K = _dp_sets(float(z1), Qf, m, quarter)

        def planned(k, reach):
            if k + 1 > K:
                return None
            pieces = _intersect([reach], V[k + 1]) or _intersect([reach], S[k + 1])
            return _widest(pieces) if pieces else None

        best, _ = _plane(problem, H, z1, planned, m, deadline)
        extra = {"construction": "interval-dp", "dp_value": K, "rollouts": 0, "rollout_best": 0}
        if best.stopped:
            extra["stopped"] = "time limit"
        if progress is not None:
            progress({"mistakes": len(best.sequence)})
        rng = np.random.default_rng(problem.seed)
        budget = _ROLLOUTS if deadline is None else _MAX_ROLLOUTS
        last = time.monotonic()
        for _ in range(budget):
            if len(best.sequence) >= m or time_left(deadline) <= 0:
                break

            def rollout(k, reach):
                return float(rng.uniform(*reach))

            play, _ = _plane(problem, H, z1, rollout, m, deadline)
            extra["rollouts"] += 1
            extra["rollout_best"] = max(extra["rollout_best"], len(play.sequence))
            if len(play.sequence) > len(best.sequence):
                best = play
                extra["construction"] = "random-rollout"
            if progress is not None and time.monotonic() - last >= 1.0:
                last = time.monotonic()
                progress({"mistakes": len(best.sequence), "rollouts": extra["rollouts"]})
        if len(best.sequence) < m and deadline is not None and time_left(deadline) <= 0:
            extra["stopped"] = "time limit"  # the rollouts were cut by the time (the construction was not)
        return best, [1, 0], extra

    # ---------------------------------------------------------------------------------------------------
    def _found(self, problem, play, target, m, margin, stats, t0, progress=None) -> Found:
        from adversary.referee import WitnessError, check_realizable

        sequence = [] if play is None else play.sequence
        mistakes = len(sequence)  # every move played was a mistake (``_Play.move``)
        H = problem.cls
        try:
            check_realizable(H, sequence, {"w": target})
        except WitnessError as e:  # pragma: no cover - a bug in a construction, never a claim
            raise StrategyError(f"strategy geometric built a sequence the referee rejects: {e}") from None
        if stats.get("stopped") != "interrupted":  # (after a Ctrl-C the referee's own check is enough)
            try:
                check_realizable(H, sequence, {"w": target}, exact=True)
                stats["exact_check"] = True
            except WitnessError:
                stats["exact_check"] = False
        plain = margin == 0  # the plain Perceptron's rule (scikit-learn's has no margin)
        exact = plain and (mistakes == m or (H.d == 1 and mistakes == 1))
        stats["seconds"] = round(time.monotonic() - t0, 4)
        if progress is not None:
            progress({"mistakes": mistakes, "done": True})
        return Found(sequence, mistakes, {"w": target}, exact=exact, stats=stats)


STRATEGY = GeometricStrategy()
