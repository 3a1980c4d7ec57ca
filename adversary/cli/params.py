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
        "worst order) and proper mistake bounds, and with --only the catalogue's others (co-VC, path, eluder, "
        "minimum star, extended / no-clash / minimum / projected recursive teaching, self-directed and query "
        "complexities, prefix and block Littlestone dimensions, dual Opt), with witnesses")


def add(p) -> None:
    from ._args import add_class_source, add_memory_guard, positive_seconds

    add_class_source(p)
    p.add_argument("--only", metavar="KEYS", help="'all', or a comma list of the parameters to compute (default: "
                                                   "opt,vc,dual_vc,threshold,star,td,rtd,best_order,worst_order,"
                                                   "proper; also dual_opt, threshold_chain, path, eluder, covc, "
                                                   "min_star, min_td, xtd, nctd, rtd_p, self_directed, mq, peq, mpeq, "
                                                   "meq, partial_eq, majority, prefix_2, prefix_3, block_2, req, "
                                                   "rpeq)")
    p.add_argument("--json", action="store_true", help="print one JSON object: each key with value (or lower and "
                                                       "upper when stopped) and witness, and 'missing': the keys "
                                                       "not computed, each with why")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds for the whole run, making the class included (default none): each parameter in turn "
                        "gets an equal part of the time left, and what a quick one leaves goes to the next; a "
                        "parameter whose part runs out prints its proven bounds (exit 3)")
    add_memory_guard(p)
    from ._store import add_store_options

    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def run(args) -> int:
    from adversary.workspace import Workspace
    from adversary.workspace.params import param_keys

    from ._args import class_of_args
    from ._store import open_store

    # The limit is for the whole run, making the class included (8M concepts take seconds)
    deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
    C, label, _, _ = class_of_args(args)
    if not getattr(C, "finite", False):
        raise CLIError(f"params needs a class listed point by point, not {C}")
    keys = param_keys(args.only, option="--only")
    bar = Progress(enabled=not args.quiet, label=f"{PROG} params", total=len(keys), unit="parameters", delay=0.0)
    left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
    with Workspace(open_store(args), trust=args.trust_store, verify=args.verify_store) as ws:
        try:
            got = ws.params(C, keys, time_limit=left,
                            progress=lambda info: bar.count(info["done"], status=f"{info['key']} ..."))
        finally:
            bar.close()
    out = got.results
    why = "interrupted" if got.interrupted or stopping() else "time limit"
    missing = {k: f"not computed ({why})" for k in got.missing}
    if args.json:
        print(json.dumps(json_safe({"class": label, "concepts": C.n_concepts, "points": C.n_points, **out,
                                    **({"missing": missing} if missing else {})})))
    else:
        print(f"class: {label} ({C.n_concepts} concepts, {C.n_points} points)")
        width = max([12, *(len(k) for k in got.keys)])
        for k in [k for k in got.keys if k in out]:
            v = out[k]
            if "value" in v:
                value, witness = v["value"], _witness_text(k, v.get("witness") or {})
            else:  # stopped: what is proven, never a witness of None
                value = f"{v['lower']}..{v['upper']} (stopped: {why})"
                witness = _stopped_text(k, v)
            print(f"  {k:<{width}} {value!s:<8} {witness}")
            if k in got.checks:
                ok, text = got.checks[k]
                said = ("nothing to replay (stopped before a witness)" if text == "stopped: no witness"
                        else f"{'OK' if ok else 'FAILED'}: {text}")
                print(f"  {'':<{width}} {'':<8} check: {said}")
        if got.served:
            how = "not re-checked: --trust-store" if args.trust_store else "witnesses replayed"
            print(f"  served from the store ({how}): {', '.join(got.served)}")
        if missing:
            print(f"  not computed ({why}): {', '.join(missing)}")
    sys.stdout.flush()
    if got.failed:
        return EXIT_FAILED
    if stopping():  # the searches stopped at Ctrl-C with their bounds, printed above
        return interrupted_code()
    return EXIT_OK if all("value" in v for v in out.values()) else EXIT_UNSOLVED


def _stopped_text(key: str, v: dict) -> str:
    """What a stopped parameter's bounds rest on: its partial witness where it has one, else the bounds that hold
    for every class (``bounds``), else that the search found none."""
    w = v.get("witness") or {}
    has = {"opt": w.get("tree_depth"), "vc": w.get("points"), "dual_vc": w.get("concepts"), "threshold": w.get("points"),
           "star": w.get("points"), "td": w.get("teaching_set"), "rtd": w.get("steps"), "best_order": w.get("order"),
           "worst_order": w.get("order"), "proper": w.get("tree"), "dual_opt": w.get("tree"),
           "threshold_chain": w.get("points"), "path": w.get("points"), "eluder": w.get("points"),
           "covc": w.get("points"), "min_star": w.get("labelling"), "min_td": w.get("teaching_set"),
           "xtd": w.get("labelling"), "nctd": w.get("sets"), "majority": w.get("run"), "rtd_p": w.get("steps"),
           **{k: w.get("tree") for k in ("prefix_2", "prefix_3", "block_2")},
           **{k: w.get("strategy") for k in ("self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "req",
                                             "rpeq")}}.get(key)
    text = _witness_text(key, w) if has else ""
    if v.get("bounds"):
        text = f"{text}; " if text else ""
        return f"{text}{v['bounds']}"
    if text:
        return text
    if v["lower"] <= 0:
        return "the lower bound 0 holds for every class; no witness found before the search stopped"
    # (td, rtd: what the search refuted before it stopped, which its partial result does not list)
    return f"the lower bound {v['lower']} was proven by the search before it stopped; no witness of a value found"


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
    return _more_text(key, w)


def _labels(bits) -> str:
    return "".join(str(int(b)) for b in bits) if bits is not None else "?"


def _more_text(key: str, w: dict) -> str:
    """The witness of a parameter past the first nine (:data:`solvers.params.DEFAULT_KEYS`), in a line."""
    if key == "dual_opt":
        parts = ["the dual's mistake tree" if w.get("tree") is not None else "",
                 "its upper-bound certificate" if w.get("upper_certificate") is not None else ""]
        return " and ".join(p for p in parts if p) + " (in --json)" if any(parts) else "no certificate kept"
    if key in ("threshold_chain", "path", "eluder") and not w.get("points"):
        return "no point: the class is one concept, or its concepts agree everywhere"
    if key == "threshold_chain":
        return f"points {w.get('points')}, concepts {w.get('concepts')}: c_k(x_j) = 1 iff j <= k"
    if key == "path":
        return f"points {w.get('points')}, concepts {w.get('concepts')}: h_k flips h_0 at x_1..x_k"
    if key == "eluder":
        return f"base {w.get('base')}, points {w.get('points')}, concepts {w.get('concepts')}"
    if key == "rtd_p":
        steps = w.get("steps") or []
        return f"on the points {w.get('points')}: peeling " + ", ".join(f"{len(s['concepts'])} x {s['size']}"
                                                                     for s in steps)
    if key in ("prefix_2", "prefix_3", "block_2"):
        return "the shattered tree (in --json)" if w.get("tree") is not None else "tree too large to list"
    if key == "covc":
        return f"points {w.get('points')}, the labels {_labels(w.get('labels'))} missing, neighbours " \
               f"{w.get('neighbours')}"
    if key == "min_star":
        return f"the labelling {_labels(w.get('labelling'))}: its largest star has points {w.get('points')}"
    if key == "min_td":
        return f"concept {w.get('concept')} is taught by {w.get('teaching_set')}"
    if key == "xtd":
        return f"the labelling {_labels(w.get('labelling'))} needs that many points"
    if key == "nctd":
        sets = w.get("sets") or {}
        return f"a non-clashing set for each of the {len(sets)} concepts (in --json)"
    if key == "majority":
        return f"the counterexamples {w.get('run')}"
    if key in ("req", "rpeq") and w.get("strategy") is not None:
        def nodes(t):
            return 0 if not isinstance(t, dict) else 1 + sum(nodes(c) for c in (t.get("after") or {}).values())

        k = nodes(w["strategy"])
        return (f"the learner as a tree of {k} {'query' if k == 1 else 'queries'} (in --json); counterexamples uniform "
                "on the points where the hypothesis is wrong")
    if w.get("strategy") is not None:
        n = len(w["strategy"])
        return f"the learner's strategy at {n} version space{'s' if n != 1 else ''} (in --json)"
    return "strategy too large to list"
