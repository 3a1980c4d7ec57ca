"""``littlestone params (FAMILY k=v ... | --matrix FILE) [--only KEYS] [--json] [--time-limit S]``: the parameters
researchers compute beside Opt(C) (:mod:`solvers.params`), each exact with its witness, replayed by the checker
of :mod:`solvers.certificates.params` before it is printed."""

from __future__ import annotations

import json
import sys

from ._output import EXIT_FAILED, EXIT_OK, EXIT_UNSOLVED, CLIError, json_safe

__all__ = ["HELP", "add", "run"]

HELP = "VC, dual VC, threshold dimension, star number, teaching and recursive teaching dimension, with witnesses"


def add(p) -> None:
    from ._args import add_class_source, positive_seconds

    add_class_source(p)
    p.add_argument("--only", metavar="KEYS", help="a comma list of the parameters to compute (default all: "
                                                   "opt,vc,dual_vc,threshold,star,td,rtd)")
    p.add_argument("--json", action="store_true", help="print one JSON object: each key with value (or lower and "
                                                       "upper when stopped) and witness")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S", help="seconds per parameter (default none)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args) -> int:
    from solvers.certificates.params import check
    from solvers.opt import opt
    from solvers.params import KEYS, compute

    from ._args import load_class

    C, label, _, _ = load_class(args)
    if not getattr(C, "finite", False):
        raise CLIError(f"params needs a class listed point by point, not {C}")
    keys = ["opt", *KEYS] if not args.only else [k.strip() for k in args.only.split(",") if k.strip()]
    bad = [k for k in keys if k not in ("opt", *KEYS)]
    if bad:
        raise CLIError(f"unknown parameter {bad[0]!r} in --only; choose from: opt, {', '.join(KEYS)}")
    out: dict = {}
    checks = {}
    if "opt" in keys:
        r = opt(C, time_limit=args.time_limit)
        out["opt"] = ({"value": r.value} if r.value is not None else {"lower": r.lower, "upper": r.upper})
        out["opt"]["witness"] = {"tree_depth": r.lower}
    try:
        params = compute(C, [k for k in keys if k != "opt"], time_limit=args.time_limit)
    except ValueError as e:
        raise CLIError(str(e)) from None
    for k, p in params.items():
        out[k] = p.to_json()
        checks[k] = check(C, k, out[k]) if p.witness else (True, "stopped: no witness")
        out[k]["check"] = checks[k][1]
    failed = [k for k, (ok, _) in checks.items() if not ok]
    if args.json:
        print(json.dumps(json_safe({"class": label, "concepts": C.n_concepts, "points": C.n_points, **out})))
    else:
        print(f"class: {label} ({C.n_concepts} concepts, {C.n_points} points)")
        for k in keys:
            v = out[k]
            value = v["value"] if "value" in v else f"{v['lower']}..{v['upper']} (stopped)"
            print(f"  {k:<10} {value!s:<8} {_witness_text(k, v.get('witness') or {})}")
            if k in checks:
                print(f"  {'':<10} {'':<8} check: {'OK' if checks[k][0] else 'FAILED'}: {checks[k][1]}")
    sys.stdout.flush()
    if failed:
        return EXIT_FAILED
    return EXIT_OK if all("value" in v for v in out.values()) else EXIT_UNSOLVED


def _witness_text(key: str, w: dict) -> str:
    if key == "opt":
        return f"a mistake tree of depth {w.get('tree_depth')} ('littlestone opt --tree' writes it)"
    if key == "vc":
        return f"points {w.get('points')} shattered"
    if key == "dual_vc":
        return f"concepts {w.get('concepts')} shattered by the points"
    if key == "threshold":
        return f"points {w.get('points')}, concepts {w.get('concepts')}: c_i(x_j) = 1 iff i <= j"
    if key == "star":
        return f"centre {w.get('centre')}, points {w.get('points')}, neighbours {w.get('neighbours')}"
    if key == "td":
        return f"concept {w.get('concept')} needs {len(w.get('teaching_set') or [])} points, e.g. {w.get('teaching_set')}"
    if key == "rtd":
        return "peeling: " + ", ".join(f"{len(s['concepts'])} x {s['size']}" for s in w.get("steps", []))
    return ""
