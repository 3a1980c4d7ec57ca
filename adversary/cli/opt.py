"""``littlestone opt``: Opt(C), the Littlestone dimension, of a family's class or a matrix file, with the
mistake tree (``--tree``) and the upper-bound certificate (``--proof``) that prove it; with
``--randomized``, ``--errors K`` or ``--horizon T`` the value of that game instead (:mod:`solvers.games`:
RL(C), D_k(C), R_k(C), with T rounds), printed as a fraction and a decimal."""

from __future__ import annotations

import json
import sys

from ._args import (add_class_source, add_game_options, cap_jobs, game_of, load_class, memo_bytes, memory_gb,
                    memory_help, positive_int, positive_seconds)
from ._output import (EXIT_FAILED, EXIT_OK, EXIT_UNSOLVED, PROG, Progress, bounds_text, check_outputs, error,
                      interrupted_code, json_safe, note, value_text, write_atomic, write_text_atomic)

__all__ = ["HELP", "add", "run"]

HELP = "compute Opt(C), the Littlestone dimension, with a mistake-tree certificate"
TREE_FORMATS = (".json", ".dot", ".gv", ".graphml")


def add(p) -> None:
    add_class_source(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (opt, lower, upper, concepts, points, seconds, ...)")
    p.add_argument("--tree", metavar="OUT", help="write the mistake tree (certificate of the lower bound) to OUT: .json, .dot or .graphml")
    p.add_argument("--proof", metavar="OUT", help="write the certificate of the upper bound to OUT (.json; check it with verify)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S", help="stop after S seconds and report the proven bounds")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument("--engine", choices=("auto", "search", "table"), default="auto",
                   help="search over version spaces, the 3^N table for classes over <= 17 distinct points, or auto (default)")
    add_game_options(p)
    p.add_argument("--memory", type=memory_gb, metavar="GB", help=memory_help(""))
    p.add_argument("--quiet", action="store_true", help="no progress on stderr (nor while reading a large --matrix file)")


def _work_text(stats: dict) -> str:
    text = f"{stats.get('nodes', 0):,} search nodes"
    if stats.get("engine") == "table":
        text += f", then the table engine over {stats.get('root_splits')} points ({stats.get('table_sweeps')} sweeps)"
    return text


def _tree_text(r, G) -> str:
    if G.randomized:
        return f"shattered tree worth {value_text(r.tree.value)} (height {r.tree.depth})"
    errs = f" with {G.errors} label error{'s' if G.errors != 1 else ''}" if G.errors else ""
    return f"mistake tree of depth {r.tree.depth}{errs}"


def json_value(v):
    """A value for JSON: an int, or a float for a Fraction that is not whole (the exact text is beside it)."""
    from fractions import Fraction

    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v


def exact_text(v):
    """A value as exact text: ``"p/q"`` (or ``"3"``); None stays None."""
    from fractions import Fraction

    if v is None:
        return None
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def run(args) -> int:
    from solvers.opt import opt

    tree_path, proof_path = check_outputs(
        [(args.tree, TREE_FORMATS, "the tree file", "--tree"), (args.proof, (".json",), "the certificate file", "--proof")],
        [(args.matrix, "--matrix")])
    G = game_of(args)
    C, label, family, params = load_class(args)
    jobs = cap_jobs(args.jobs)
    if not G.standard and jobs > 1 and (G.randomized or G.errors):
        note(f"--jobs {jobs}: {G.symbol}(C) is computed in one process (only Opt(C)'s search is spread over workers)")
        jobs = 1
    bar = Progress(enabled=not args.quiet)
    symbol = G.symbol

    def progress(info):
        parts = [bounds_text(info.get("lower"), info.get("upper"), symbol)]
        parts += [f"{info[k]:,} {what}" for k, what in (("nodes", "nodes"), ("memo", "memo entries"))
                  if isinstance(info.get(k), int)]
        bar.show(f"{PROG} opt: {', '.join(parts)}, {bar.elapsed():.0f} s")

    try:
        r = opt(C, time_limit=args.time_limit, jobs=jobs, progress=progress, engine=args.engine,
                memo_bytes=memo_bytes(args), game=G.kind, errors=G.errors, horizon=G.horizon)
    finally:
        bar.close()
    stopped = r.stats.get("stopped")
    tree_error = None
    if tree_path is not None and r.tree is not None:
        try:
            write_atomic(tree_path, r.tree.write)
        except (OSError, ValueError) as e:
            tree_error = f"could not write the tree to {str(tree_path)!r}: {e}"
    proof_error = None
    if proof_path is not None:
        from solvers.certificate import ProofTooLarge

        try:
            proof = r.upper_certificate()
            write_text_atomic(proof_path, json.dumps(proof, separators=(",", ":")) + "\n")
        except ProofTooLarge as e:
            proof_error = f"no upper-bound certificate written: {e}"
        except ValueError as e:  # a game that was not solved
            proof_error = f"no upper-bound certificate written: {e}"
        except OSError as e:
            proof_error = f"could not write the certificate to {str(proof_path)!r}: {e.strerror or e}"
    seconds = r.stats.get("seconds")
    if args.json:
        out = {
            "opt": json_value(r.value), "lower": json_value(r.lower), "upper": json_value(r.upper),
            "concepts": C.n_concepts, "points": C.n_points, "seconds": seconds,
            "log2_size": C.log2_size(), "family": family, "params": params,
            "matrix": args.matrix, "engine": r.stats.get("engine"), "nodes": r.stats.get("nodes"),
            "memo": r.stats.get("memo"), "evictions": r.stats.get("evictions"),
            "memo_bytes": r.stats.get("memo_bytes"), "stopped": stopped,
            "tree": str(tree_path) if tree_path is not None and tree_error is None else None,
            "proof": str(proof_path) if proof_path is not None and proof_error is None else None,
        }
        if not G.standard:  # the game, and its numbers exactly ("p/q") beside the decimals above
            out["game"] = G.to_json()
            out["symbol"] = symbol
            out["exact"] = {k: exact_text(v) for k, v in (("value", r.value), ("lower", r.lower), ("upper", r.upper))}
        print(json.dumps(json_safe(out)))
    else:
        if r.value is not None:
            value = value_text(r.value)
        else:
            why = {"time limit": f"stopped by the time limit of {args.time_limit:g} s" if args.time_limit else "stopped by the time limit",
                   "interrupted": "interrupted by Ctrl-C"}.get(stopped, f"stopped: {stopped}")
            value = f"{bounds_text(r.lower, r.upper, symbol)}  (not solved: {why})"
        rows = [
            ("class", label),
            ("size", f"|C| = {C.n_concepts} concepts, |X| = {C.n_points} points"),
        ]
        if not G.standard:
            rows.append(("game", G.describe()))
        rows += [
            (f"{symbol}(C)", value),
            ("floor(log2 |C|)", str(C.log2_size())),
            ("time", f"{seconds:.3f} s ({_work_text(r.stats)})"),
        ]
        if tree_path is not None and tree_error is None and r.tree is not None:
            rows.append(("tree", _tree_text(r, G) + f" written to {tree_path}"))
        if proof_path is not None and proof_error is None:
            rows.append(("proof", f"certificate of {symbol}(C) <= {value_text(r.upper)} written to {proof_path}"))
        width = max(len(k) for k, _ in rows) + 2
        for k, v in rows:
            print(f"{k + ':':<{width}}{v}")
    sys.stdout.flush()
    if tree_path is None and not args.json and not args.quiet and r.tree is not None and r.lower > 0:
        what = "shattered tree" if G.randomized else "mistake tree"
        note(f"add --tree tree.json to write the {what} that proves {symbol}(C) >= {value_text(r.lower)} "
             "(check it with 'littlestone verify tree.json' and the class)")
    if tree_error is not None or proof_error is not None:
        return error(tree_error or proof_error, EXIT_FAILED)
    if stopped == "interrupted":
        return interrupted_code()
    return EXIT_OK if r.value is not None else EXIT_UNSOLVED
