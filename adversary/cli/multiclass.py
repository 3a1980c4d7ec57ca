"""``littlestone multiclass (FAMILY k=v ... | --matrix FILE) [--game full|bandit|both] [--json] [--tree OUT.json]
[--time-limit S]``: Opt of a multiclass class under full information (the multiclass Littlestone dimension) and
under bandit feedback (the bandit Littlestone dimension), exact, with their mistake trees replayed by
:mod:`solvers.certificates.multiclass`, the optimal learner replayed against every adversary where the class is
small enough, and the ratio bandit / full beside |Y| ln |Y| (Long's bound, :mod:`solvers.multiclass.games`).

The families are the multiclass ones of :mod:`solvers.multiclass.classes` (``multiclass-singletons N k``,
``k-label-thresholds N k``, ``random-multiclass m N k [seed]``); a file is ``.json`` (a list of rows, or
``{"k": K, "matrix": [[...], ...]}``), ``.csv`` (rows of integer labels) or ``.npy``."""

from __future__ import annotations

import json
import math
import sys
import time

from ._output import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_UNSOLVED,
    CLIError,
    check_outputs,
    interrupted_code,
    interrupted_how,
    json_safe,
    stopping,
    write_text_atomic,
)

__all__ = ["HELP", "add", "run"]

HELP = ("multiclass Opt under full information and under bandit feedback (families multiclass-singletons, "
        "k-label-thresholds, random-multiclass), with mistake trees, and their ratio against |Y| ln |Y|")

#: Seconds the replay of the optimal learner against every adversary may take (without --time-limit).
UPPER_CHECK_SECONDS = 30.0

_FAMILIES_TEXT = "multiclass-singletons N=.. k=.., k-label-thresholds N=.. k=.., random-multiclass m=.. N=.. k=.. [seed=..]"


def add(p) -> None:
    from ._args import add_memory_guard, positive_seconds

    p.add_argument("target", nargs="*", metavar="FAMILY k=v",
                   help=f"a multiclass family and its parameters: {_FAMILIES_TEXT}")
    p.add_argument("--matrix", metavar="FILE",
                   help='read the class from FILE instead: .json (rows of labels 0..k-1, or {"k": K, "matrix": [[...]]}), '
                        ".csv (one row of integer labels per concept) or .npy (2-d integer array)")
    p.add_argument("--game", choices=("full", "bandit", "both"), default="both",
                   help="which game's Opt: full information, bandit feedback, or both (default)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: opt_full, opt_bandit, ratio, k_ln_k, per game its bounds (with what each "
                        "rests on) and checks, and 'stopped' and 'missing': the games stopped or not searched, and why")
    p.add_argument("--tree", metavar="OUT.json", help="write the mistake tree of each game to OUT.json")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds for the whole run: each game in turn gets an equal part of the time left (its search "
                        "and the replay of its learner), and what a quick one leaves goes to the next; a game whose "
                        "part runs out prints its proven bounds and what they rest on (exit code 3); the lower bound is "
                        "at least 1 when the class has two concepts (where they differ, a mistake is forced)")
    add_memory_guard(p)
    from ._store import add_no_store

    add_no_store(p, "multiclass")


def _load(args):
    """The class the arguments name: (C, label)."""
    from solvers.multiclass import FAMILIES, make, parse_params
    from solvers.multiclass.classes import MulticlassClass

    target = list(args.target)
    if args.matrix is not None and target:
        raise CLIError(f"give either a FAMILY with parameters or --matrix FILE, not both (got {target[0]!r} and --matrix)")
    if args.matrix is None and not target:
        raise CLIError(f"give a class: a multiclass family ({_FAMILIES_TEXT}) or --matrix FILE")
    if args.matrix is not None:
        C = MulticlassClass.from_file(args.matrix)  # its ValueError says what to change
        return C, f"matrix {args.matrix}"
    name, items = target[0], target[1:]
    if "=" in name:
        raise CLIError(f"{name!r} is a parameter, not a family; give the family name first, e.g. "
                       "'multiclass-singletons N=3 k=4'")
    if name not in FAMILIES:
        from solvers.classes.families import FAMILIES as BINARY

        if name in BINARY:
            raise CLIError(f"{name} is a 0/1 family (use 'littlestone opt {name} ...'); multiclass takes the "
                           f"multiclass families: {', '.join(FAMILIES)}")
        import difflib

        close = difflib.get_close_matches(name, list(FAMILIES), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise CLIError(f"unknown multiclass family {name!r}; {hint}choose one of: {', '.join(FAMILIES)}")
    params = parse_params(name, items)
    C = make(name, **params)
    return C, f"{name} {' '.join(f'{k}={v}' for k, v in params.items())}"


def run(args) -> int:
    from solvers.certificates.multiclass import check_tree, check_upper
    from solvers.multiclass import MulticlassSolver, OptimalLearner

    (tree_path,) = check_outputs([(args.tree, (".json",), "the tree file", "--tree")], args=args)
    C, label = _load(args)
    games = ("full", "bandit") if args.game == "both" else (args.game,)
    t0 = time.monotonic()
    deadline = None if args.time_limit is None else t0 + args.time_limit  # the limit is for the whole run

    def left(parts: int) -> float | None:  # an equal part of the time left (at least a little: bounds come back)
        return None if deadline is None else max((deadline - time.monotonic()) / parts, 0.01)

    solver = MulticlassSolver(C)
    results, checks = {}, {}
    for i, game in enumerate(games):
        if stopping():
            break
        r = solver.solve(game, time_limit=left(len(games) - i))
        results[game] = r
        tree_ok = check_tree(C, r.tree, r.lower) if r.tree is not None else (None, f"not made: {r.tree_note}")
        if r.value is not None and not stopping():
            upper_ok = check_upper(C, game, OptimalLearner(C, game, solver).predict, r.value,
                                   time_limit=UPPER_CHECK_SECONDS if deadline is None else left(len(games) - i))
        else:
            upper_ok = (None, "upper bound not replayed: the search stopped; the upper bound is the counting bound")
        checks[game] = (tree_ok, upper_ok)
    seconds = time.monotonic() - t0

    full = results.get("full")
    bandit = results.get("bandit")
    v_full = full.value if full else None
    v_bandit = bandit.value if bandit else None
    ratio = v_bandit / v_full if v_full and v_bandit is not None else None
    k_ln_k = C.k * math.log(C.k)
    long_ok = None if v_full is None or v_bandit is None else v_bandit <= k_ln_k * v_full

    if tree_path is not None:
        doc = {"kind": "multiclass-trees", "class": label, "fingerprint": C.fingerprint(), "k": C.k,
               "concepts": C.n_concepts, "points": C.n_points, **{g: r.tree for g, r in results.items()},
               **{f"{g}_note": r.tree_note for g, r in results.items() if r.tree is None}}
        write_text_atomic(tree_path, json.dumps(doc, separators=(",", ":")) + "\n")

    why_missing = interrupted_how() if stopping() else "not searched"
    stopped = {g: (f"stopped by the {r.stopped}" if r.stopped == "time limit" else interrupted_how())
               for g, r in results.items() if r.value is None}
    missing = {g: f"not searched ({why_missing})" for g in games if g not in results}

    if args.json:
        out = {"class": label, "family": C.family, "params": C.params or None, "k": C.k, "concepts": C.n_concepts,
               "points": C.n_points, "opt_full": v_full, "opt_bandit": v_bandit, "ratio": ratio,
               "k_ln_k": k_ln_k, "ratio_over_k_ln_k": None if ratio is None else ratio / k_ln_k,
               "long_bound_holds": long_ok, "seconds": round(seconds, 6), "games": list(games),
               "stopped": stopped, "missing": missing}
        for game, r in results.items():
            (t_ok, t_msg), (u_ok, u_msg) = checks[game]
            out[game] = {**r.to_json(), "tree_check": {"ok": t_ok, "message": t_msg},
                         "upper_check": {"ok": u_ok, "message": u_msg}}
        print(json.dumps(json_safe(out)))
    else:
        print(f"class: {label} ({C.n_concepts} concepts, {C.n_points} points, k = {C.k} labels)")
        for game, r in results.items():
            name = "opt_full" if game == "full" else "opt_bandit"
            what = "the multiclass Littlestone dimension" if game == "full" else "the bandit Littlestone dimension"
            value = (str(r.value) if r.value is not None
                     else f"{r.lower} <= {name} <= {r.upper}, stopped by the {r.stopped}" if r.stopped == "time limit"
                     else f"{r.lower} <= {name} <= {r.upper}, {r.stopped}")
            (t_ok, t_msg), (u_ok, u_msg) = checks[game]
            print(f"{name}: {value} ({what}; {r.nodes} search nodes, {r.seconds:.2f} s)")
            print(f"  tree check: {t_msg}")
            print(f"  learner check: {u_msg}")
            if r.value is None:
                print(f"  lower bound rests on: {r.lower_basis}")
                print(f"  upper bound rests on: {r.upper_basis}")
        for game, why in missing.items():
            print(f"{'opt_full' if game == 'full' else 'opt_bandit'}: {why}")
        if full and bandit:
            print(f"ratio bandit/full: {_ratio_text(ratio, v_full, v_bandit)}")
        print(f"k ln k: {k_ln_k:.4g}")
        if ratio is not None:
            print(f"ratio / (k ln k): {ratio / k_ln_k:.4g}")
        if long_ok is not None:
            print(f"opt_bandit <= k ln k * opt_full: {'yes' if long_ok else 'NO (Long bound is asymptotic: (1 + o(1)) |Y| ln |Y|)'}")
        if tree_path is not None:
            print(f"trees: written to {tree_path}")
    sys.stdout.flush()
    if stopping():
        return interrupted_code()
    if any(ok is False for pair in checks.values() for ok, _ in pair):
        return EXIT_FAILED
    return EXIT_OK if not stopped and not missing else EXIT_UNSOLVED


def _ratio_text(ratio, v_full, v_bandit) -> str:
    if v_full is None or v_bandit is None:
        return "not known (a search stopped)"
    if v_full == 0:
        return "undefined (opt_full = 0)"
    return f"{ratio:.4g}" if not float(ratio).is_integer() else str(int(ratio))
