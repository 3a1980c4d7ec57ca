"""Online-to-PAC: A_PAC of [OnlineAlgs], a PAC learner built from a conservative online learner with mistake
bound M.

The construction ("Building A_PAC"): run the conservative learner A on random examples in stages. Stage i
ends with a mistake (A's hypothesis changes: stage i + 1 starts) or after m_i correct predictions in a row,
m_i = (1/eps) ln(1/delta_i) with delta_i = delta / 2^i; then A_PAC outputs h_i, A's hypothesis. Each completed
stage is a mistake of A, so there are at most M + 1 stages. If h_i is eps-bad (its error is more than eps), it
survives m_i examples with probability (1 - eps)^{m_i} <= e^{-eps m_i} = delta_i, and sum_i delta_i <= delta:
A_PAC outputs an eps-bad hypothesis with probability at most delta.

Samples. The notes bound the examples used by sum_{i=1}^{M+1} m_i <= (M/eps)((M+1)/2 + ln(1/delta)). With
delta_i = delta / 2^i the sum is

    sum_{i=1}^{M+1} (1/eps) ln(2^i / delta) = (1/eps)((ln 2)(M+1)(M+2)/2 + (M+1) ln(1/delta)),

and the closed form minus the sum is (1/eps)((M+1)(M(1 - ln 2) - 2 ln 2)/2 - ln(1/delta)): negative for small
M (the notes count M stages' worth of ln(1/delta), not M + 1), so there the closed form is smaller than what
it claims to bound; it holds for the unrounded sum only once (M+1)(M(1 - ln 2) - 2 ln 2)/2 >= ln(1/delta)
(M >= 7 at delta = 0.05). Rounded up to whole examples, as runs use them, the sum exceeds the closed form at
M = 7 too for eps = 0.1 (492 > 489.7).
:func:`samples_bound` gives the sum as it is (each m_i rounded up to whole examples: A_PAC stops after
ceil(m_i) correct predictions), the bound that always holds; :func:`notes_samples_bound` the closed form, which
a run can pass for small M. For M = 6, eps = 0.1, delta = 0.05: 406 against 389.7.

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow), slides
   "Conservative Online Algorithm", "Conservative Mistake Bound Algorithm" and "Building A_PAC".

Examples
--------
>>> stage_length(0.1, 0.05, 1)      # ceil(10 ln(2 / 0.05)) = ceil(36.89)
37
>>> samples_bound(6, 0.1, 0.05), round(notes_samples_bound(6, 0.1, 0.05), 1)
(406, 389.7)
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

__all__ = ["a_pac", "PACResult", "stage_length", "samples_bound", "notes_samples_bound", "check_samples",
           "true_error", "as_conservative", "MAX_SAMPLES"]

#: The most examples :func:`check_samples` lets a command draw in all (a few microseconds each: minutes).
MAX_SAMPLES = 10**8


def _check(eps, delta) -> None:
    for name, v in (("epsilon", eps), ("delta", delta)):
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) or not 0 < v < 1:
            raise ValueError(f"{name} = {v!r}: give a number strictly between 0 and 1, e.g. {name}=0.1")


def stage_length(eps, delta, i: int) -> int:
    """m_i = (1/eps) ln(1/delta_i), delta_i = delta / 2^i, rounded up: the correct predictions in a row that end
    stage i with the output h_i."""
    _check(eps, delta)
    return math.ceil((i * math.log(2) - math.log(float(delta))) / float(eps) - 1e-12)


def samples_bound(M: int, eps, delta) -> int:
    """sum_{i=1}^{M+1} ceil(m_i): the most examples A_PAC uses with a learner of mistake bound M (every stage but
    the last ends in a mistake after at most ceil(m_i) - 1 correct predictions, the last after ceil(m_i))."""
    return sum(stage_length(eps, delta, i) for i in range(1, M + 2))


def check_samples(M: int, eps, delta, runs: int = 1, limit: int = MAX_SAMPLES, *, extra: int = 0,
                  names: tuple = ("epsilon", "runs")) -> float:
    """Raise ValueError (with the numbers, and the epsilon or the runs that fit) when ``runs`` runs of A_PAC
    and ``extra`` more (which the caller makes besides) may use more than ``limit`` examples in all; else
    return what they may use. ``names`` are how the error names epsilon and the runs (a command's options).
    Counted in floats before :func:`samples_bound` is: sum_{i <= M+1} ceil(m_i) <= (1/eps)((ln 2)(M+1)(M+2)/2
    + (M+1) ln(1/delta)) + M + 1, so an epsilon of 1e-300 (10^301 examples a run) is refused at once instead
    of run for ever.

    >>> check_samples(6, 0.1, 0.05, runs=100) <= 100 * 413
    True
    >>> check_samples(3, 1e-300, 0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: epsilon = 1e-300, delta = 0.1, M = 3: A_PAC may use up to 1.6e+301 examples a run, ...
    """
    _check(eps, delta)
    S = math.log(2) * (M + 1) * (M + 2) / 2 + (M + 1) * -math.log(float(delta))
    try:
        one = S / float(eps) + M + 1
    except OverflowError:
        one = math.inf
    every = runs + extra
    if one * every <= limit:
        return one * every
    fits = []
    if every * (M + 1) < limit:  # an epsilon with every * (S / eps + M + 1) <= limit
        e = every * S / (limit - every * (M + 1))
        if e < 1:
            p = 10 ** (math.floor(math.log10(e)) - 1)
            fits.append(f"{names[0]} >= {math.ceil(e / p) * p:.2g}")
    if runs > 1 and limit // one > extra:
        fits.append(f"{names[1]} <= {int(limit // one) - extra:,}")
    amount = "more than 1e308" if math.isinf(one) else f"up to {one:.2g}"
    times = "" if every == 1 else f"{every:,} runs in all, "
    raise ValueError(f"epsilon = {float(eps):g}, delta = {float(delta):g}, M = {M}: A_PAC may use {amount} examples a "
                     f"run, {times}more than the {limit:,} that fit; give "
                     + (" or ".join(fits) if fits else "a learner with a smaller mistake bound"))


def notes_samples_bound(M: int, eps, delta) -> float:
    """The notes' closed form (M/eps)((M+1)/2 + ln(1/delta)), which :func:`samples_bound` can exceed."""
    _check(eps, delta)
    return M / float(eps) * ((M + 1) / 2 + math.log(1 / float(delta)))


@dataclass
class PACResult:
    """One run of :func:`a_pac`.

    Attributes
    ----------
    hypothesis : learner
        A copy of the learner in the state it stopped in: h_i, the output.
    samples : int
        The examples drawn.
    stages : list of int
        The examples of each stage; every stage but the last ended with a mistake.
    mistakes : int
        The mistakes made (the completed stages).
    stopped : str or None
        None, or why the run stopped before a stage passed (``"mistake bound"``: more mistakes than M, which a
        correct bound never allows; ``"samples"``: the cap of examples was reached).
    """

    hypothesis: object
    samples: int
    stages: list = field(default_factory=list)
    mistakes: int = 0
    stopped: Optional[str] = None


def as_conservative(learner, C):
    """``(learner, wrapped)``: the learner itself when it is conservative, else its conservative version A'
    (:class:`solvers.learners.conservative.Conservative`, same mistake bound) and True."""
    if getattr(learner, "conservative", False):
        return learner, False
    from .learners.conservative import Conservative

    return Conservative(C, learner.name, learner.get_params()), True


def a_pac(learner, draw: Callable[[], tuple], eps, delta, *, M: Optional[int] = None,
          max_samples: Optional[int] = None) -> PACResult:
    """Run A_PAC with the conservative ``learner`` (used and changed in place) on examples from ``draw()``
    (``(x, y)`` pairs, drawn i.i.d. from the distribution and labelled by the target).

    Parameters
    ----------
    learner : a conservative learner of :mod:`solvers.learners`
    draw : callable
        One labelled example per call.
    eps, delta : float
        Accuracy and confidence, in (0, 1).
    M : int, optional
        The learner's mistake bound: a run with more than M mistakes stops (``stopped="mistake bound"``);
        it cannot happen when M is proven and the examples are realizable.
    max_samples : int, optional
        A cap on the examples drawn (``stopped="samples"``).

    Raises
    ------
    ValueError
        eps or delta not in (0, 1), or a learner that is not conservative.
    """
    _check(eps, delta)
    if not getattr(learner, "conservative", False):
        raise ValueError(f"A_PAC needs a conservative learner and {getattr(learner, 'name', learner)} is not; wrap it "
                         "with solvers.learners.conservative first")
    stages: list = []
    samples = mistakes = run = 0
    i = 1
    need = stage_length(eps, delta, i)
    while True:
        if max_samples is not None and samples >= max_samples:
            return PACResult(copy.deepcopy(learner), samples, stages + [run], mistakes, "samples")
        x, y = draw()
        samples += 1
        if learner.predict_one(x) != y:
            learner.learn_one(x, y)
            mistakes += 1
            stages.append(run + 1)
            run = 0
            i += 1
            need = stage_length(eps, delta, i)
            if M is not None and mistakes > M:
                return PACResult(copy.deepcopy(learner), samples, stages, mistakes, "mistake bound")
            continue
        run += 1
        if run >= need:
            return PACResult(copy.deepcopy(learner), samples, stages + [run], mistakes)


def true_error(hypothesis, points, weights, labels) -> Fraction:
    """The error of ``hypothesis`` over the distribution ``weights`` (exact Fractions summing to 1) on
    ``points``, against the target's ``labels``: sum of the weights of the points it predicts wrongly."""
    return sum((w for x, w, y in zip(points, weights, labels) if hypothesis.predict_one(x) != int(y)), Fraction(0))
