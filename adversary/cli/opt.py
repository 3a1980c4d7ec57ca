"""``littlestone opt``: Opt(C), the Littlestone dimension, of a family's class or a matrix file, with the
mistake tree (``--tree``) and the upper-bound certificate (``--proof``) that prove it; with
``--randomized``, ``--errors K`` or ``--horizon T`` the value of that game instead (:mod:`solvers.game_rules`:
RL(C), D_k(C), R_k(C), with T rounds), printed as a fraction and a decimal.

The store's look-up, the computation (here, on worker processes, on a Dask cluster) and the record are
:func:`adversary.workspace.opt.opt`'s; this module turns the options into its keywords, draws the progress line,
prints the result and writes the files."""

from __future__ import annotations

import json
import sys

from ._args import (add_class_source, add_game_options, class_of_args, game_of, memo_bytes, memory_gb, memory_help,
                    positive_int, positive_seconds)
from ._output import (EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, PROG, Progress, bounds_text, check_outputs, error,
                      interrupted_code, interrupted_how, json_safe, note, stopping, value_text, write_atomic,
                      write_text_atomic)
from ._cells import add_backend_options, backend_of
from ._store import add_store_options, open_store

__all__ = ["HELP", "add", "run"]

HELP = "compute Opt(C), the Littlestone dimension, with a mistake-tree certificate"
#: The default of --proof-limit: the most entries of an upper-bound certificate (as the store's rows keep).
PROOF_LIMIT = 100_000
TREE_FORMATS = (".json", ".dot", ".gv", ".graphml", ".tex")


def add(p) -> None:
    add_class_source(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (opt, lower, upper, concepts, points, seconds, ...)")
    p.add_argument("--tree", metavar="OUT", help="write the mistake tree (certificate of the lower bound) to OUT: .json, .dot, .graphml, or .tex (a TikZ picture for a paper, drawn with the forest package; a tree of more than 63 nodes is cut to its top levels)")
    p.add_argument("--proof", metavar="OUT", help="write the certificate of the upper bound to OUT (.json; check it with verify)")
    p.add_argument("--proof-limit", type=positive_int, default=PROOF_LIMIT, metavar="N",
                   help=f"the most entries the certificate of the upper bound may have (default {PROOF_LIMIT:,}); a "
                        "larger one takes longer to write and to check, and the store keeps it")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S", help="stop after S seconds and report the proven bounds")
    p.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                   help="worker processes on this machine for one search (default 1); with --backend dask the parts "
                        "run on the cluster's workers instead")
    add_backend_options(p)
    p.add_argument("--engine", choices=("auto", "search", "table", "states", "packed"), default="auto",
                   help="search over version spaces, the 3^N table for classes over <= 17 distinct points, the search "
                        "over compact states of thresholds, intervals and rectangles (auto uses it when the matrix "
                        "is too large to build), the search over 64-bit truth tables for classes over <= 64 points "
                        "(auto uses it for halfspaces n=6 and listed classes of more than 100,000 concepts), or "
                        "auto (default)")
    add_game_options(p)
    p.add_argument("--no-symmetry", dest="symmetry", action="store_false",
                   help="do not key the search's memo by orbits under the class's symmetry group (the group its "
                        "family declares, or else the one found by graph automorphism)")
    p.add_argument("--no-isomorphism", dest="isomorphism", action="store_false",
                   help="do not key the search's large version spaces by the canonical form of their matrix "
                        "(isomorphic version spaces then get memo entries of their own)")
    p.add_argument("--memory", type=memory_gb, metavar="GB", help=memory_help(""))
    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr (nor while reading a large --matrix file)")


def _upper_reason(r, C, G) -> str | None:
    """Why the upper bound of an unsolved Opt(C) holds (None when solved, or for another game)."""
    if r.value is not None or not G.standard or r.upper is None:
        return None
    if r.stats.get("upper_reason"):
        return r.stats["upper_reason"]
    from solvers.opt.anytime import upper_reason

    return upper_reason(C, r.upper) or None


def _work_text(stats: dict) -> str:
    stored = stats.get("stored")
    if stored is not None:
        checked = stored.get("how") or ("certificates re-checked" if stored["checked"] else "not re-checked: --trust-store")
        return (f"served from the store {stored['path']}: computed in {stored['seconds']:.3f} s on {stored['time']} "
                f"by littlestone {stored['version']}, {checked}")
    if stats.get("engine") == "states":
        return f"{stats.get('nodes', 0):,} states searched, {stats.get('memo', 0):,} in the memo"
    if stats.get("engine") == "packed":
        return (f"{stats.get('nodes', 0):,} search nodes, {stats.get('leaves', 0):,} leaves searched exactly; the tree "
                f"checked against the class in {stats.get('tree_check_seconds') or 0:.1f} s")
    text = f"{stats.get('nodes', 0):,} search nodes"
    if stats.get("engine") == "table":
        text += f", then the table engine over {stats.get('root_splits')} points ({stats.get('table_sweeps')} sweeps)"
    return text


def symmetry_of(stats: dict, G, symmetry: bool = True) -> dict:
    """``{"order", "source", "seconds"}``: the symmetry group the run's search used (see
    :attr:`solvers.opt.search.Solver.symmetry_info`), or why none was (a served result, another engine)."""
    info = stats.get("symmetry")
    if info is not None:
        return dict(info)
    if stats.get("stored") is not None:
        why = "skipped: served from the store"
    elif not symmetry:
        why = "skipped: switched off"
    else:
        why = f"skipped: the {stats.get('engine')} engine keys its memo its own way"
    return {"order": None, "source": why, "seconds": None}


def isomorphism_text(info: dict | None) -> str | None:
    """One line for the plain output: how often keys up to isomorphism merged version spaces in the search
    (None: not this engine's), and, with ``info["proof_isomorphic"]`` (a proof was written), how many of the
    proof's entries name an isomorphic entry (the proof keys its version spaces after the search)."""
    if info is None:
        return None
    if not info["on"]:
        return "not used: switched off"
    if not info["forms"]:
        declined = info.get("declined") or 0
        text = (f"none keyed in the search ({declined:,} canonical forms declined: they would not have paid)" if declined
                else f"none keyed in the search (no version space of {info['min']}+ concepts was small enough for a "
                     "canonical form to pay)")
    else:
        text = (f"{info['merged']:,} of {info['forms']:,} version spaces keyed by canonical form found an isomorphic "
                f"one's memo entry ({info['seconds']:.3f} s in canonical forms)")
    iso = info.get("proof_isomorphic")
    if iso:
        text += f"; {iso:,} of the proof's entries {'names' if iso == 1 else 'name'} an isomorphic entry"
    return text


def _proof_isomorphic(proof) -> int | None:
    """How many entries of an upper-bound certificate are used up to isomorphism (None: not such a certificate)."""
    entries = proof.get("entries") if isinstance(proof, dict) else None
    if not isinstance(entries, list):
        return None
    return sum(1 for e in entries if isinstance(e, dict) and "isomorphic" in e)


def symmetry_text(info: dict) -> str:
    """One line for the plain output: the group used and the seconds it took to find."""
    order, source, seconds = info["order"], info["source"], info["seconds"]
    took = f" in {seconds:.3f} s" if seconds is not None else ""
    if order is not None:
        how = "found by graph automorphism" + took if source == "detected" else source
        return f"group of order {order:,} ({how})"
    if source == "none":
        return f"only the identity (found by graph automorphism{took})"
    return source.replace("skipped: ", "not used: ", 1)


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
    from pathlib import Path

    from adversary.workspace import Workspace
    from adversary.workspace.opt import uses_states

    tree_path, proof_path = check_outputs(
        [(args.tree, TREE_FORMATS, "the tree file", "--tree"), (args.proof, (".json",), "the certificate file", "--proof")],
        args=args)
    G = game_of(args)
    C, label, family, params = class_of_args(args, implicit=True,
                                             evaluated=G.standard and args.engine in ("auto", "states", "packed"))
    states = uses_states(C, args.engine)  # (in this process: no cluster to reach)
    backend, scheduler = (args.backend, args.scheduler) if states else backend_of(args)
    bar = Progress(enabled=not args.quiet)

    def say(text: str) -> None:  # the workspace's notes, on a line of their own (the bar's is taken away)
        bar.clear()
        print(f"{PROG}: note: {text}", file=sys.stderr, flush=True)

    with Workspace(open_store(args), trust=args.trust_store, verify=args.verify_store, jobs=args.jobs,
                   backend=backend, scheduler=scheduler, scheduler_timeout=args.scheduler_timeout, note=say) as ws:
        try:
            r = ws.opt(C, game=G.kind, errors=G.errors, horizon=G.horizon, time_limit=args.time_limit,
                       engine=args.engine, memo_bytes=memo_bytes(args), progress=_progress(bar, G, states),
                       symmetry=args.symmetry, isomorphism=args.isomorphism, tree=tree_path is not None,
                       proof=proof_path is not None, proof_limit=args.proof_limit, family=family, params=params,
                       label=label, seal=False,
                       matrix_name=None if args.matrix is None else Path(args.matrix).name)
        finally:
            bar.close()
        code = _report(args, r, G, C, label, family, params, tree_path, proof_path, r.certificate)
        if proof_path is None and getattr(r, "no_certificate", None) and r.store_error is None:
            note(f"the upper bound is stored without its certificate ({r.no_certificate}); 'littlestone store verify' "
                 "computes it again")
        if r.store_error is not None:  # stored before it was printed; a failed write is said after it
            if states:
                note(f"{r.store_error} (the result above was not stored)")
            else:
                return error(f"{r.store_error} (the result above was not stored)", EXIT_USAGE)
        r.seal()  # its certificates checked once, after it is printed: served by its digest next time
        return code


def _progress(bar, G, states: bool):
    """The progress line of the search (or of the states engine) on ``bar``."""
    symbol = G.symbol

    def progress(info):
        if states:
            work = (f"{info['nodes']:,} states" if "leaves" not in info else
                    f"{info['nodes']:,} nodes, {info['leaves']:,} leaves searched")
            bar.show(f"{PROG} opt: {bounds_text(info.get('lower'), info.get('upper'), symbol)}, {work}, "
                     f"{bar.elapsed():.0f} s")
            return
        parts = [bounds_text(info.get("lower"), info.get("upper"), symbol)]
        parts += [f"{info[k]:,} {what}" for k, what in (("nodes", "nodes"), ("memo", "memo entries"),
                                                          ("iso_merged", "merged up to isomorphism"),
                                                          ("parts", "parts answered"), ("in_flight", "in flight"))
                  if isinstance(info.get(k), int)]
        bar.show(f"{PROG} opt: {', '.join(parts)}, {bar.elapsed():.0f} s")

    return progress


def _report(args, r, G, C, label, family, params, tree_path, proof_path, proof) -> int:
    """Print the result and write the --tree and --proof files; returns the exit code."""
    from solvers.certificates import bind

    symbol = G.symbol
    stopped = r.stats.get("stopped")
    tree_error = None
    if tree_path is not None and r.tree is not None:
        r.tree.C, r.tree.label = C, label  # the tree records the class it was made for ("made_for")
        try:
            write_atomic(tree_path, r.tree.write)
        except (OSError, ValueError) as e:
            tree_error = f"could not write the tree to {str(tree_path)!r}: {e}"
    unwritable = tree_error is not None  # an output file that cannot be written (bad input: exit 2)
    proof_error = proof_note = None
    if proof_path is not None:
        # A certificate that could not be made is a note with advice (exit 3: not all that was asked for was
        # done), never "bad input": the bounds printed stand.
        if proof is None and r.value is None:
            proof_note = (f"no upper-bound certificate written to {str(proof_path)!r}: {symbol}(C) was not solved, and "
                          "the certificate of its upper bound could not be made in the time given; raise the time limit")
        elif proof is None:  # solved: the value stands, only its certificate is missing
            advice = ("drop --no-symmetry (with the class's symmetries it keeps one entry per orbit)"
                      if not getattr(args, "symmetry", True) else
                      "drop --no-isomorphism (isomorphic version spaces then share an entry)"
                      if not getattr(args, "isomorphism", True) else
                      "raise --proof-limit (a certificate that large takes as long to check), or use a smaller class")
            from adversary.store.records import certificate_stop, no_certificate_reason

            why = getattr(r, "no_certificate", None) or no_certificate_reason("too large", limit=args.proof_limit)
            if certificate_stop(why) != "too large":  # out of its time (what was left of --time-limit), not of its size
                advice = "raise the time limit"
            proof_note = f"no certificate written to {str(proof_path)!r}: {why}; {advice}"
        else:
            proof = bind(proof, C, label)  # the certificate records the class it was made for
            try:
                write_text_atomic(proof_path, json.dumps(proof, separators=(",", ":")) + "\n")
            except OSError as e:
                proof_error = f"could not write the certificate to {str(proof_path)!r}: {e.strerror or e}"
                unwritable = True
    seconds = r.stats.get("seconds")
    sym = symmetry_of(r.stats, G, getattr(args, "symmetry", True))
    iso_info = r.stats.get("isomorphism")
    if iso_info is not None and proof_path is not None and proof_error is None and proof_note is None:
        iso_info = {**iso_info, "proof_isomorphic": _proof_isomorphic(proof)}  # the proof keys after the search
    if args.json:
        out = {
            "opt": json_value(r.value), "lower": json_value(r.lower), "upper": json_value(r.upper),
            "concepts": C.n_concepts, "points": C.n_points, "seconds": seconds,
            "log2_size": C.log2_size(), "family": family, "params": params,
            "matrix": args.matrix, "engine": r.stats.get("engine"), "nodes": r.stats.get("nodes"),
            "memo": r.stats.get("memo"), "evictions": r.stats.get("evictions"),
            "memo_budget_bytes": r.stats.get("memo_bytes"), "memo_used_bytes": r.stats.get("memo_used_bytes"),
            "stopped": stopped,
            "tree": str(tree_path) if tree_path is not None and tree_error is None and r.tree is not None else None,
            "served": r.stats.get("stored") is not None,  # served from the store (not computed by this run)
            "proof": str(proof_path) if proof_path is not None and proof_error is None and proof_note is None else None,
            "anytime": r.stats.get("anytime") or [],  # lower bounds found when the search stopped, with reasons
            "upper_reason": _upper_reason(r, C, G),  # why the upper bound holds, when not solved
            "symmetry_order": sym["order"], "symmetry_source": sym["source"], "symmetry_seconds": sym["seconds"],
            "isomorphism": iso_info,  # keys up to isomorphism (None: not this engine's)
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
                   "interrupted": interrupted_how()}.get(stopped, f"stopped: {stopped}")
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
            ("symmetry", symmetry_text(sym)),
        ]
        iso = isomorphism_text(iso_info)
        if iso is not None:
            rows.append(("isomorphism", iso))
        found = r.stats.get("anytime") or []  # lower bounds found when the search stopped (--json lists them all)
        if found:  # the one that counts, and why it holds
            more = f" (after {len(found) - 1} weaker)" if len(found) > 1 else ""
            rows.append(("lower bound", f"{found[-1]['lower']}: {found[-1]['reason']}{more}"))
        why_upper = _upper_reason(r, C, G)
        if why_upper:
            rows.append(("upper bound", f"{value_text(r.upper)}: {why_upper}"))
        if tree_path is not None and tree_error is None and r.tree is not None:
            rows.append(("tree", _tree_text(r, G) + f" written to {tree_path}"))
        if proof_path is not None and proof_error is None and proof_note is None:
            rows.append(("proof", f"certificate of {symbol}(C) <= {value_text(r.upper)} written to {proof_path}"))
        width = max(len(k) for k, _ in rows) + 2
        for k, v in rows:
            print(f"{k + ':':<{width}}{v}")
    sys.stdout.flush()
    if tree_path is not None and r.tree is None and r.stats.get("tree_note"):  # left out; the bounds stand
        note(f"no tree written to {tree_path}: {r.stats['tree_note']}")
    if tree_path is None and not args.json and not args.quiet and r.tree is not None and r.lower > 0:
        what = "shattered tree" if G.randomized else "mistake tree"
        note(f"add --tree tree.json to write the {what} that proves {symbol}(C) >= {value_text(r.lower)} "
             "(check it with 'littlestone verify tree.json' and the class)")
    if stopped == "interrupted" or stopping():  # stopping: a Ctrl-C taken while the certificate was written
        for text in (tree_error, proof_error, proof_note):
            if text is not None:
                note(text)
        return interrupted_code()
    if proof_note is not None:
        note(proof_note)
    if tree_error is not None or proof_error is not None:
        error(tree_error or proof_error)
    # One order of exit codes for every command: interrupted (130, above), then bad input (2: an output file
    # that cannot be written, whether found before the run or after it), then not all done (3: not solved, or a
    # certificate too large to make; what was found is printed and stands).
    if unwritable:
        return EXIT_USAGE
    if r.value is None or proof_note is not None:
        return EXIT_UNSOLVED
    return EXIT_OK
