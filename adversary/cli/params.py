"""``littlestone params (FAMILY k=v ... | --matrix FILE) [--only KEYS] [--json] [--time-limit S]``: the parameters
researchers compute beside Opt(C) (:mod:`solvers.params`), each exact with its witness, replayed by the checker
of :mod:`solvers.certificates.params` before it is printed."""

from __future__ import annotations

import json
import sys
import time

from ._output import (EXIT_FAILED, EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, interrupted_code, json_safe,
                      stopping)

__all__ = ["HELP", "add", "run"]

HELP = ("VC, dual VC, threshold dimension, star number, teaching and recursive teaching dimension, offline (best and "
        "worst order) and proper mistake bounds, with witnesses")


def add(p) -> None:
    from ._args import add_class_source, add_memory_guard, positive_seconds

    add_class_source(p)
    p.add_argument("--only", metavar="KEYS", help="a comma list of the parameters to compute (default all: "
                                                   "opt,vc,dual_vc,threshold,star,td,rtd,best_order,worst_order,"
                                                   "proper)")
    p.add_argument("--json", action="store_true", help="print one JSON object: each key with value (or lower and "
                                                       "upper when stopped) and witness")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds for the whole run, shared among the parameters (default none)")
    add_memory_guard(p)
    from ._store import add_store_options

    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args) -> int:
    from solvers.opt import opt
    from solvers.params import KEYS

    from ._args import class_of_args
    from ._store import open_store

    # The limit is for the whole run, making the class included (8M concepts take seconds)
    args.deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    C, label, _, _ = class_of_args(args)
    if not getattr(C, "finite", False):
        raise CLIError(f"params needs a class listed point by point, not {C}")
    keys = ["opt", *KEYS] if args.only is None else [k.strip() for k in args.only.split(",") if k.strip()]
    if not keys:  # --only ',,,' computed nothing
        raise CLIError(f"--only {args.only!r} names no parameter; give a comma list of: opt, {', '.join(KEYS)}")
    bad = [k for k in keys if k not in ("opt", *KEYS)]
    if bad:
        raise CLIError(f"unknown parameter {bad[0]!r} in --only; choose from: opt, {', '.join(KEYS)}")
    out: dict = {}
    checks = {}
    if "opt" in keys:
        r = opt(C, time_limit=share(args.deadline, len(keys)))
        out["opt"] = ({"value": r.value} if r.value is not None else {"lower": r.lower, "upper": r.upper})
        out["opt"]["witness"] = {"tree_depth": r.lower}
    store = open_store(args)
    bar = Progress(enabled=not args.quiet, label=f"{PROG} params", total=len(keys), unit="parameters", delay=0.0)
    try:
        served = _compute(C, [k for k in keys if k != "opt"], args, store, out, checks, bar)
    finally:
        bar.close()
        if store is not None:
            store.close()
    failed = [k for k, (ok, _) in checks.items() if not ok]
    if args.json:
        print(json.dumps(json_safe({"class": label, "concepts": C.n_concepts, "points": C.n_points, **out})))
    else:
        print(f"class: {label} ({C.n_concepts} concepts, {C.n_points} points)")
        for k in [k for k in keys if k in out]:
            v = out[k]
            value = v["value"] if "value" in v else f"{v['lower']}..{v['upper']} (stopped)"
            print(f"  {k:<12} {value!s:<8} {_witness_text(k, v.get('witness') or {})}")
            if k in checks:
                print(f"  {'':<12} {'':<8} check: {'OK' if checks[k][0] else 'FAILED'}: {checks[k][1]}")
        if served:
            how = "not re-checked: --trust-store" if args.trust_store else "witnesses replayed"
            print(f"  served from the store ({how}): {', '.join(served)}")
    sys.stdout.flush()
    if failed:
        return EXIT_FAILED
    if stopping():  # the searches stopped at Ctrl-C with their bounds, printed above
        return interrupted_code()
    return EXIT_OK if all("value" in v for v in out.values()) else EXIT_UNSOLVED


def share(deadline, left: int):
    """The seconds of the next of ``left`` parameters: an equal part of the time left (what a quick one leaves goes
    to the others), at least a twentieth of a second (a stopped search still reports its bounds); None without a
    time limit."""
    if deadline is None:
        return None
    return max((deadline - time.monotonic()) / max(left, 1), 0.05)


def _compute(C, keys: list, args, store, out: dict, checks: dict, bar) -> list:
    """Each parameter of ``keys`` into ``out`` (its JSON) and ``checks`` (its check): served from the store when a
    row there is solved and its witness replays, else computed (each witness replayed) and stored. The keys served."""
    served = []
    try:
        _each(C, keys, args, store, out, checks, bar, served)
    except KeyboardInterrupt:  # between two parameters (or in the progress line): what is finished is printed
        pass
    return served


def _each(C, keys: list, args, store, out: dict, checks: dict, bar, served: list) -> None:
    """The loop of :func:`_compute`: each parameter served, or computed and stored, then put in ``out``."""
    from adversary.store import param_task, record_of_param
    from solvers.certificates.params import check
    from solvers.params import compute

    from ._output import note, stopping
    from ._store import lookup, put

    for i, key in enumerate(keys):
        if stopping():  # Ctrl-C: the parameters not started are left out
            break
        bar.count(i, status=f"{key} ...")
        try:
            found = lookup(store, "param", C, param_task(key), trust=args.trust_store, verify=args.verify_store,
                           what=f"{key} of the class")
            if found.solved and found.record.lower_cert is not None:
                got = dict(found.record.lower_cert)
                checked = check(C, key, got)
                served.append(key)
            else:
                try:
                    p = compute(C, [key], time_limit=share(args.deadline, len(keys) - i))[key]
                except ValueError as e:
                    raise CLIError(str(e)) from None
                got = p.to_json()
                checked = check(C, key, got) if p.witness else (True, "stopped: no witness")
                if checked[0]:
                    failed = put(store, record_of_param(C, p), C)  # sealed: its witness checked once
                    if failed is not None:
                        note(f"{failed} (the {key} above was not stored)")
        except KeyboardInterrupt:  # between two looks of the searches at Ctrl-C: this parameter is left out
            break
        out[key], checks[key] = {**got, "check": checked[1]}, checked


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
    if key in ("best_order", "worst_order"):
        order = w.get("order") or []
        shown = " ".join(str(x) for x in order[:12]) + (" ..." if len(order) > 12 else "")
        return f"the order {shown} (its game tree in --json)"
    if key == "proper":
        tree = w.get("tree")
        return ("a mistake tree of the proper game" if tree is not None else "mistake tree too large to list") + (
            ", and the learner's choice at each version space" if w.get("learner") is not None else "")
    return ""
