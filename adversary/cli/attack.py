"""``littlestone attack LEARNER``: search for the sequence that makes a learner err most, verified by the
referee and held against the learner's proven bound; prints the verdict and the sequence."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

from ._args import (add_memory_guard, cap_jobs, check_family, families, parse_params, positive_int, positive_seconds, read_class_file, seed,
                    label_errors, unknown_family)
from ._output import (EXIT_OK, EXIT_UNSOLVED, EXIT_USAGE, PROG, CLIError, Progress, bounds_text, check_outputs,
                      error, note,
                      interrupted_code, interrupted_how, json_lines_text, json_safe, params_text, write_text_atomic)
from ._attack_store import _kv_items, _whole_numbers
from ._store import add_store_options, open_store
from adversary.workspace.attack import number_text

__all__ = ["HELP", "add", "run"]

HELP = "search for the sequence that makes a learner err most, verified and held against its proven bound"
MAX_SHOWN = 200  # examples printed by attack's human output
LONG_POINT = 16  # points with more coordinates are printed by their nonzero coordinates


# Workspace.attack(C, learner, learner_params=, strategy=, seed=, errors=, time_limit=, maximize=, progress=, matrix=)
# (adversary.workspace.attack: the store looked up, served or computed by adversary.attack.attack, recorded)
# -> AttackResult (mistakes, bound, opt, verdict, witness, strategy, exact, stats, message, errors, expected,
# opt_symbol, lemmas, maximize).
def add(p) -> None:
    p.add_argument("learner", metavar="LEARNER", help="the learner to attack (see 'littlestone learners')")
    p.add_argument("learner_params", nargs="*", metavar="k=v",
                   help="the learner's parameters; n (or d) defaults from the class")
    p.add_argument("--class", dest="cls", nargs="+", metavar="FAMILY k=v",
                   help="the class: a family and its parameters (see 'littlestone families'), or "
                        "margin-halfspaces d=D gamma=G [R=1]")
    p.add_argument("--matrix", metavar="FILE", help="read the class from a .json, .csv or .npy 0/1 matrix instead")
    p.add_argument("--fact", action="append", default=[], metavar="NAME=VALUE",
                   help="with --matrix: declare what the bounds need and the points do not show, checked where it can "
                        "be: r=R (every concept an OR of at most R coordinates: Winnow), margin=G (every concept "
                        "separated with margin >= G: the Perceptron)")
    p.add_argument("--strategy", default="auto", metavar="S",
                   help="exact, tree, beam, mcts, local, geometric or auto (default)")
    from adversary.attack import AUTO_SECONDS

    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help=f"stop after S seconds and report the best verified sequence found (default: "
                        f"{AUTO_SECONDS:g} s for auto, no limit for a strategy named with --strategy); with --grid, "
                        "seconds for the whole run: each cell gets its share of what is left as it begins, and the "
                        "cells not begun in time are named")
    p.add_argument("--seed", type=seed, default=0, metavar="N", help="seed of the randomized strategies (default 0)")
    add_memory_guard(p)
    p.add_argument("--jobs", type=positive_int, metavar="N",
                   help="worker processes (default 1); with --grid, the cells attacked at once (loky processes, or "
                        "with --backend dask the cells in flight on the cluster)")
    p.add_argument("--errors", type=label_errors(), default=0, metavar="K",
                   help="label errors: the labels may disagree with the best concept K times (default 0; "
                        "finite classes, strategy exact)")
    from adversary.attack import COUNTERS

    p.add_argument("--maximize", choices=COUNTERS, default="mistakes",
                   help="what the search maximises: all mistakes (default), or the false negatives (u: label 1, "
                        "predicted 0) or false positives (v) alone, to see which lemma of the proof is loose "
                        "(strategy exact, a deterministic learner on a finite class)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (mistakes, mistakes_by_kind, lemmas, bound, verdict, opt, witness, "
                        "strategy, exact, stats)")
    p.add_argument("--witness", metavar="OUT.json", help="write the verified witness to OUT.json ('littlestone verify' re-checks it)")
    g = p.add_argument_group("grids", "one attack per cell of a grid of the class's (or the learner's) parameters, "
                                      "a row written as each cell finishes (see 'littlestone table')")
    g.add_argument("--grid", nargs="+", metavar="k=RANGE",
                   help="parameters to vary: a..b (inclusive) or comma lists 1,2,5; a learner parameter may name "
                        "one (winnow1 n=n)")
    g.add_argument("--format", choices=("md", "csv", "json", "latex"), default="md",
                   help="the grid's rows: md (default), csv, json (a list of row objects), or latex (a booktabs "
                        "tabular; -o FILE.tex)")
    g.add_argument("-o", "--output", metavar="FILE", help="write the grid's rows to FILE instead of stdout")
    g.add_argument("--cell-time-limit", type=positive_seconds, metavar="S",
                   help=f"seconds per cell, cut at the end of --time-limit (default: {AUTO_SECONDS:g} s for auto "
                        "without --time-limit, else none)")
    from ._cells import add_backend_options

    add_backend_options(g)
    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


# ---------------------------------------------------------------------------------------- the class and the learner
def _attack_class(args):
    """The class of ``attack``: (class object or spec, label)."""
    from adversary.referee import witness_class

    given = list(args.cls or [])
    if args.matrix is not None and given:
        raise CLIError(f"give either --class FAMILY k=v ... or --matrix FILE, not both (got --class {given[0]} and --matrix)")
    if args.matrix is None and not given:
        raise CLIError("give a class: --class FAMILY k=v ... (see 'littlestone families') or --matrix FILE")
    if args.matrix is not None:
        C = read_class_file(args.matrix, quiet=args.quiet)
        if args.fact:
            from solvers.classes.facts import declare

            try:
                C = declare(C, _kv_items(args.fact, "fact"))
            except ValueError as e:
                raise CLIError(str(e)) from None
        return C, f"matrix {args.matrix}"
    if args.fact:
        raise CLIError("--fact declares facts of a class read with --matrix; a family states its own")
    name, items = given[0], given[1:]
    fam = families()
    if name in fam.ATTACK_ONLY:  # an infinite class: its own module reads its parameters
        params = fam.attack_only(name).params_from_text(_kv_items(items, f"{name} parameter"))
        H = witness_class({"family": name, "params": params})  # WitnessError says what is wrong
        return H, str(H)
    names = fam.all_families()
    if "=" not in name and name not in names:
        raise unknown_family(name, names)
    check_family(name)
    params = parse_params(name, items)
    # witness_class builds the family, or for a {0,1}^n family too large to list its implicit form.
    C = witness_class({"family": name, "params": params})
    return C, f"{name} {params_text(dict(C.params))}".strip()


# ---------------------------------------------------------------------------------------- text
def _point_text(x) -> str:
    if len(x) > LONG_POINT:  # high dimension: the nonzero coordinates only (a line, not pages)
        nonzero = [(i, v) for i, v in enumerate(x) if v not in (0, "0")]
        shown = ", ".join(f"x{i + 1} = {_point_text([v])[1:-1]}" for i, v in nonzero[:LONG_POINT // 2])
        more = f", ... {len(nonzero) - LONG_POINT // 2} more" if len(nonzero) > LONG_POINT // 2 else ""
        return f"({shown}{more}; the other of the {len(x)} coordinates 0)" if nonzero else f"(0, ..., 0: {len(x)} coordinates)"
    items = []
    for v in x:
        if isinstance(v, str):  # a witness's exact rational "p/q"
            try:
                v = float(Fraction(v))
            except (ValueError, ZeroDivisionError):
                pass
        if isinstance(v, float):
            items.append(f"{v:.4g}")
        else:
            items.append(str(v))
    return "(" + ", ".join(items) + ")"


def _value_text(v) -> str:
    """An exact fraction as ``25/12 (2.083333)``, anything else as :func:`adversary.workspace.attack.number_text`."""
    if isinstance(v, Fraction):
        from solvers.game_rules import value_text

        return value_text(v)
    return number_text(v)


def _verdict_text(r, rounds) -> str:
    """One line: the verdict and why (``rounds``: the 0-based indices of the mistakes); a randomized learner's
    expected mistakes are compared with its bound exactly."""
    b, what = r.bound, "expected mistakes" if r.expected else "mistakes"
    m, bound = (_value_text(r.mistakes), _value_text(b.value)) if r.expected else (r.mistakes, number_text(b.value))
    if r.verdict == "stopped":
        return _stopped_text(r, f"{m} expected mistakes" if r.expected else f"{m} mistake{'s' if m != 1 else ''}")
    if r.verdict == "unbounded":
        s, L = r.cycle
        k = sum(1 for t in rounds if s <= t < s + L)
        return (f"unbounded: no finite {'bound on the expected mistakes' if r.expected else 'mistake bound'}; the cycle "
                f"of examples {s + 1}..{s + L} " + ("" if r.expected else f"({k} mistake{'s' if k != 1 else ''}) ")
                + "can be repeated for ever")
    if r.verdict == "violates":
        return (f"violates: {m} {what} > the bound {bound}; the bound as stated is wrong for this class "
                "(the witness is verified: re-check it with 'littlestone verify')")
    if r.verdict == "tight":
        return f"tight: {m} {what} = the bound {bound}" + (
            "" if r.expected or b.value == int(b.value) else f" (floor of {bound})")
    if not b.finite:
        return f"below: {m} {what}; no bound is proven for this learner on this class"
    return f"below: {m} {what} < the bound {bound}"


def _stopped_text(r, what: str) -> str:
    """The verdict of a stopped search below the bound: only a lower bound, and why it stopped."""
    why = {"interrupted": "interrupted", "depth limit": "stopped at the exact search's depth limit"}.get(
        r.stats.get("stopped"), "stopped by the time limit")
    bound = (f"the bound {_value_text(r.bound.value)} is neither met nor refuted" if r.bound.finite
             else "no bound is proven" if not r.stats.get("bound_stopped") else "the bound was not computed in time")
    text = f"at least {what} ({why}): a lower bound on the worst case; {bound}"
    lower = r.opt if r.opt is not None else r.stats.get("opt_lower")
    if (not r.expected and not r.errors and r.opt_symbol == "Opt" and lower is not None
            and r.mistakes < lower):  # the mistake tree of Opt(C) forces its depth on every deterministic learner
        text += (f"; and as Opt(C) >= {lower} (a mistake tree), this learner too can be forced into {lower} mistakes, "
                 "though its play along the tree was not finished in time")
    return text


# ---------------------------------------------------------------------------------------- run
def run(args) -> int:
    from adversary.attack import AUTO_SECONDS
    from adversary.workspace import Workspace

    if args.grid:
        from .attack_grid import run_grid

        return run_grid(args)
    for flag, given in (("--format", args.format != "md"), ("-o", args.output is not None),
                        ("--cell-time-limit", args.cell_time_limit is not None),
                        ("--backend", args.backend is not None), ("--scheduler", args.scheduler is not None)):
        if given:
            raise CLIError(f"{flag} is for a grid of attacks (--grid k=RANGE ...); give --grid, or drop {flag}")

    witness_path, = check_outputs([(args.witness, (".json",), "the witness file", "--witness")], args=args)
    C, label = _attack_class(args)
    jobs = cap_jobs(args.jobs or 1)
    learner_params = _whole_numbers(_kv_items(args.learner_params, "learner parameter"))
    budget = args.time_limit if args.time_limit is not None else AUTO_SECONDS if args.strategy == "auto" else None
    bar = Progress(enabled=not args.quiet, label=f"{PROG} attack", clock=True, limit=budget)

    def progress(info):  # the time against the attack's limit, then the best mistakes so far and the work
        best = info.get("mistakes", 0)
        best = f"{float(best):.6g}" if isinstance(best, Fraction) else best
        parts = [f"{info.get('strategy', '?')}: best {best} mistakes"]
        for key, what in (("nodes", "positions"), ("memo", "memo entries"), ("iterations", "iterations")):
            if isinstance(info.get(key), int):
                parts.append(f"{info[key]:,} {what}")
        if info.get("strategy") == "opt":
            lo, hi = info.get("opt_lower"), info.get("opt_upper")
            lo, hi = (f"{float(v):.6g}" if isinstance(v, Fraction) else v for v in (lo, hi))
            parts = [f"{info.get('opt_symbol', 'Opt')}(C): {bounds_text(lo, hi)}"]
        bar.status(", ".join(parts))

    ws = Workspace(open_store(args), trust=args.trust_store, verify=args.verify_store, jobs=jobs)
    bar.status("")  # on a terminal the clock runs from here, between the strategies' reports too
    try:
        try:  # served from the store when its witness replays, else computed and stored (sealed) before it is printed
            r = ws.attack(C, args.learner, learner_params=learner_params, strategy=args.strategy, seed=args.seed,
                          errors=args.errors, time_limit=args.time_limit, maximize=args.maximize, progress=progress,
                          matrix=args.matrix)
        finally:
            bar.close()
        code = _report(args, r, C, label, witness_path)
        if r.store_error is not None:
            return error(f"{r.store_error} (the result above was not stored)", EXIT_USAGE)
        return code
    finally:
        bar.close()
        ws.close()


def _how_text(r, time_limit) -> str:
    """How the sequence was found, in the strategy's line: proven worst, a cycle or a lower bound; settled,
    served, stopped."""
    stopped, runs = r.stats.get("stopped"), r.stats.get("runs") or []
    last = (runs[-1].get("stats") or {}) if runs else {}  # how the last strategy run stopped, in its own stats
    how = "the exact worst case" if r.exact and r.verdict != "unbounded" else (
        "a cycle" if r.verdict == "unbounded" else "the best sequence found, not proven worst: a lower bound")
    if r.maximize != "mistakes" and r.verdict != "unbounded":
        how = (f"the exact worst case of the {r.maximize.replace('_', ' ')}s alone"
               if r.stats.get("maximize_exact") else f"the most {r.maximize.replace('_', ' ')}s found")
    if r.stats.get("settled"):
        how += f": {r.stats['settled']}"
    horizon = None if r.exact else last.get("horizon")  # the game search's proof within a horizon, when not settled
    if horizon is not None:
        how += f"; no sequence of at most {horizon} examples does better (proven)"
    if r.stats.get("stored"):
        st = r.stats["stored"]
        how += (f"; served from the store: found in {st['seconds'] or 0:.3f} s on {st['time']}, "
                + (st.get("how") or ("witness replayed" if st.get("checked", True) else "not re-checked: --trust-store")))
    if stopped == "time limit":
        how += f"; stopped by the time limit of {time_limit:g} s" if time_limit else "; stopped by its time budget"
    elif stopped == "interrupted":
        how += f"; {interrupted_how()}"
    elif last.get("stopped") == "patience":
        from adversary.strategies.exact import PATIENCE

        how += f"; stopped after {PATIENCE:g} s without a time limit (give --time-limit S for more)"
    elif last.get("stopped") == "depth limit":
        from adversary.strategies.exact import MAX_DEPTH

        how += (f"; the exact search stopped at its depth limit: a line of play of {MAX_DEPTH:,} examples that "
                "never repeats a position (the learner's state changes on every example), so no worst case is proven")
    return how


def _print_sequence(r, rep, width: int) -> None:
    """The witness's examples (the first :data:`MAX_SHOWN`), each with its mistake or the learner's probability of
    one, and where the cycle starts and ends; ``rep``: the witness replayed."""
    seq = r.witness["sequence"]
    if r.expected:
        print(f"{'sequence:':<{width}}{len(seq)} example{'s' if len(seq) != 1 else ''} (x -> y, with the "
              "learner's probability of a mistake; * marks a mistake of the run with its seed)")
    else:
        print(f"{'sequence:':<{width}}{len(seq)} example{'s' if len(seq) != 1 else ''} (x -> y; * marks a "
              "mistake, with the learner's prediction)")
    cycle = r.cycle
    shown = seq if len(seq) <= MAX_SHOWN else seq[:MAX_SHOWN]
    for t, (ex, p) in enumerate(zip(shown, rep.predictions)):
        mark = f"  *  predicted {p}" if p != ex["y"] else ""
        if r.expected and rep.probabilities is not None:
            q = rep.probabilities[t]
            mark = f"  P(mistake) = {_value_text(q if ex['y'] == 0 else 1 - q)}" + ("  *" if p != ex["y"] else "")
        loop = ""
        if cycle is not None and cycle[1] == 1 and t == cycle[0]:
            loop = "  <- the cycle: repeat this example for ever"
        elif cycle is not None and t == cycle[0]:
            loop = "  <- the cycle starts"
        elif cycle is not None and t == cycle[0] + cycle[1] - 1:
            loop = "  <- the cycle ends: repeat from its start for ever"
        print(f"  {t + 1:>4}  {_point_text(ex['x'])} -> {ex['y']}{mark}{loop}")
    if len(seq) > MAX_SHOWN:
        print(f"  ... {len(seq) - MAX_SHOWN} more (see --json or --witness)")


def _report(args, r, C, label, witness_path) -> int:
    """Print the attack's result and write the --witness file; returns the exit code."""
    from adversary.referee import replay, target_words

    stopped = r.stats.get("stopped")
    witness_error = None
    if witness_path is not None:
        try:
            write_text_atomic(witness_path, json_lines_text(r.witness, ("sequence",), separators=(", ", ": ")))
        except OSError as e:
            witness_error = f"could not write the witness to {str(witness_path)!r}: {e.strerror or e}"
    if args.json:
        out = r.to_json()
        out["witness_file"] = str(witness_path) if witness_path is not None and witness_error is None else None
        print(json.dumps(json_safe(out)))
    else:
        w = r.witness
        learner_text = f"{w['learner']['name']} {params_text(w['learner']['params'])}".strip()
        if getattr(C, "finite", False):
            label = f"{label} ({C.n_concepts} concepts, {C.n_points} points)"
        elif getattr(C, "n_concepts", None) is not None:  # an implicit {0,1}^n class
            label = f"{label} ({C.n_concepts} concepts, 2^{C.facts['n']} points, not listed)"
        how = _how_text(r, args.time_limit)
        lo_hi = [r.stats.get(key) for key in ("opt_lower", "opt_upper")]  # (bounds_text writes fractions itself)
        opt_text = _value_text(r.opt) if r.opt is not None else (
            bounds_text(*lo_hi, r.opt_symbol) + " (not solved in the time given)"
            if "opt_lower" in r.stats else "-- (not a finite class)" if r.witness["class"].get("family") == "margin-halfspaces"
            else "-- (not computed: the class's points are not listed)")
        target = w.get("target")
        words = target_words(w["class"], target)
        target_text = (f"concept {target}" + (f": {words}" if words else "") if isinstance(target, int)
                       else "w = " + _point_text([float(v) if not isinstance(v, str) else float(Fraction(v)) for v in target["w"]]))
        seq = w["sequence"]
        # The predictions of the examples shown, and of the cycle (a long sequence is not replayed in full).
        upto = max(MAX_SHOWN, 0 if r.cycle is None else r.cycle[0] + r.cycle[1])
        rep = replay(w["learner"], seq[:upto], w["class"], errors=r.errors)
        bound_text = f"{_value_text(r.bound.value) if r.bound.finite else 'none'}  ({r.bound.formula}; {r.bound.source})"
        errors_row = [("label errors", f"{r.errors} (the labels may disagree with the target {r.errors} "
                                       f"time{'s' if r.errors != 1 else ''})")] if r.errors else []
        kinds = r.mistakes_by_kind
        kinds_text = ("" if not kinds else
                      f"  (expected: u = {kinds['false_negative']} on label 1, v = {kinds['false_positive']} on label 0)"
                      if r.expected else
                      f"  (u = {kinds['false_negative']} false negatives, v = {kinds['false_positive']} false positives)")
        mistakes_row = (("expected mistakes", _value_text(r.mistakes) + kinds_text) if r.expected
                        else ("mistakes", str(r.mistakes) + kinds_text))
        if r.maximize != "mistakes":
            proven = "the proven worst case" if r.stats.get("maximize_exact") else "the most found, a lower bound"
            mistakes_row = (mistakes_row[0], mistakes_row[1] + f"; maximised: {r.maximize.replace('_', ' ')}s "
                                                               f"({proven})")
        lemma_rows = [("lemma", f"{L['formula']}: {L['count']} <= {number_text(L['bound'])}  {L['verdict']}")
                      for L in r.lemmas]
        rows = [("learner", learner_text), ("class", label), *errors_row, ("strategy", f"{r.strategy} ({how})"),
                mistakes_row, ("bound", bound_text), (f"{r.opt_symbol}(C)", opt_text),
                ("verdict", _verdict_text(r, rep.rounds)), *lemma_rows, ("target", target_text)]
        width = max(len(k) for k, _ in rows) + 2
        for k, v in rows:
            print(f"{k + ':':<{width}}{v}")
        _print_sequence(r, rep, width)
        if witness_path is not None and witness_error is None:
            print(f"{'witness:':<{width}}written to {witness_path} (check it with 'littlestone verify {witness_path}')")
    sys.stdout.flush()
    # One order of exit codes for every command: interrupted (130), then bad input (2: an output file that
    # cannot be written, as before the run), then stopped (3).
    if stopped == "interrupted":
        if witness_error is not None:
            note(witness_error)
        return interrupted_code()
    if witness_error is not None:
        return error(witness_error, EXIT_USAGE)
    return EXIT_UNSOLVED if r.verdict == "stopped" else EXIT_OK
