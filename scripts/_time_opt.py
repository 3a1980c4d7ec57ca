"""Time ``solvers.opt.opt`` on a list of family instances, with whichever ``solvers`` package is first on
the path (``scripts/bench_opt.py`` runs it once with the pinned solver's tree on ``PYTHONPATH`` and once
with this one, so that both are timed the same way, in a process of their own).

Reads ``{"instances": [[family, params], ...], "time_limit": S, "options": {...}}`` as JSON on stdin (the
family ``"@matrix"`` with ``{"file": F}``: the matrix saved in F, read as a plain matrix class; ``options``:
more keyword arguments of ``opt``); prints one JSON line
per instance: ``{"instance", "value", "lower", "upper", "seconds", "solvers"}`` (``solvers``: the package's
location, so the caller can check which tree ran). The time is ``opt(C)`` on a freshly made class
(the build excluded); runs under 1 s are repeated (see :func:`timed_opt`), and the median kept.
"""

import json
import statistics
import sys
import time

import solvers
from solvers.classes.families import make
from solvers.opt import opt


def _build(family: str, params: dict):
    """The class of an instance: ``make(family, **params)``, or for the family ``"@matrix"`` the 0/1 matrix
    saved by ``numpy.save`` in ``params["file"]`` as a plain matrix class (no family, no declared group)."""
    if family == "@matrix":
        import numpy as np

        from solvers.classes import ConceptClass

        return ConceptClass.from_matrix(np.load(params["file"]))
    return make(family, **params)


def timed_opt(family: str, params: dict, **kw):
    """(result, seconds): ``opt(make(family, **params), **kw)``, each run on a newly made class (no cached
    column bitsets; the build not timed); a first run under 0.1 s is repeated for 0.5 s (at least 7 runs, at most
    200), one of 0.1-1 s is run three times, and the median kept (a machine's noise on a single run of a tenth of a
    second is 10-50 %, and on one of a tenth of a millisecond as much again: 200 runs of it make its median steady
    to a few percent)."""
    times = []
    while True:
        C = _build(family, params)
        t0 = time.perf_counter()
        r = opt(C, **kw)
        dt = time.perf_counter() - t0
        times.append(dt)
        if times[0] >= 1.0 or (times[0] >= 0.1 and len(times) >= 3) or (
                times[0] < 0.1 and len(times) >= 7 and (sum(times) >= 0.5 or len(times) >= 200)):
            return r, statistics.median(times)


def main() -> None:
    job = json.load(sys.stdin)
    for family, params in job["instances"]:
        r, seconds = timed_opt(family, params, time_limit=job.get("time_limit"), **job.get("options", {}))
        print(json.dumps({"instance": [family, params], "value": r.value, "lower": r.lower, "upper": r.upper,
                          "seconds": seconds, "solvers": solvers.__file__}), flush=True)


if __name__ == "__main__":
    main()
