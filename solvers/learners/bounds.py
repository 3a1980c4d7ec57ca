"""The learners' proven mistake bounds as upper bounds on Opt(C), the data :func:`solvers.opt.opt` takes as its
``bounds`` (``from solvers import opt`` and the command line pass :func:`learner_bounds`): the exact solver does
not import the learners, which are built on it.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import math
import time

__all__ = ["learner_bounds", "LEARNER_BOUND_SECONDS"]

#: The most seconds a learner's own bound may take here (the Perceptron computes each concept's margin).
LEARNER_BOUND_SECONDS = 0.1


def learner_bounds(C) -> list:
    """The proven mistake bounds of the seeds' deterministic learners that apply to ``C``, each an upper
    bound on Opt(C) (Opt(C) is the best worst case of any learner, [Rivest94]): a list of ``(value, reason)``,
    smallest first. A learner counts when it can be built for ``C`` without its own search of C (not SOA,
    whose bound is Opt itself, nor the class-based learners, whose bounds are read from the class's size:
    Halving's floor(log2 |C|) is the search's first upper bound already) and ``bound_on(C)`` proves a finite
    bound from the class's facts (Winnow on monotone disjunctions of r variables, elimination on
    conjunctions, ...). A randomized learner bounds an expectation, not the worst case, and is left out."""
    from . import _specs, make_learner

    out = []
    for spec in _specs():
        L = spec.cls
        if L.randomized or L.needs_class or L.extra is not None:
            continue
        try:
            learner = make_learner(spec.name, {}, C)
            learner.set_deadline(time.monotonic() + LEARNER_BOUND_SECONDS)  # (the Perceptron's margins, ...)
            b = learner.bound_on(C)
        except Exception:  # a learner that cannot be built for C, or whose bound takes too long: no bound
            continue
        if b.value == math.inf or b.value != b.value:
            continue
        out.append((math.floor(b.value), f"{spec.name}'s proven bound {b.formula} ({b.source})"))
    return sorted(out, key=lambda t: t[0])
