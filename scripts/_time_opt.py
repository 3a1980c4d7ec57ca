"""Time ``solvers.opt.opt`` on a list of family instances, with whichever ``solvers`` package is first on
the path (``scripts/bench_opt.py`` runs it once with the pinned solver's tree on ``PYTHONPATH`` and once
with this one, so that both are timed the same way, in a process of their own).

Reads ``{"instances": [[family, params], ...], "time_limit": S}`` as JSON on stdin; prints one JSON line
per instance: ``{"instance", "value", "lower", "upper", "seconds", "solvers"}`` (``solvers``: the package's
location, so the caller can check which tree ran). The time is ``opt(C)`` on a freshly made class
(the build excluded); runs under 0.1 s are repeated, and the median kept.
"""

import json
import statistics
import sys
import time

import solvers
from solvers.classes.families import make
from solvers.opt import opt


def main() -> None:
    job = json.load(sys.stdin)
    limit = job.get("time_limit")
    for family, params in job["instances"]:
        times = []
        while True:
            D = make(family, **params)  # a new class each time: no cached column bitsets
            t0 = time.perf_counter()
            r = opt(D, time_limit=limit)
            dt = time.perf_counter() - t0
            times.append(dt)
            if dt >= 0.1 or len(times) >= 7 or sum(times) >= 0.5:
                break
        print(json.dumps({"instance": [family, params], "value": r.value, "lower": r.lower, "upper": r.upper,
                          "seconds": statistics.median(times), "solvers": solvers.__file__}), flush=True)


if __name__ == "__main__":
    main()
