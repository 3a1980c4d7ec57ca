"""``littlestone separate A B --points m [--concepts n] [--time-limit S] [--seed N] [--json] [-o CLASS.json]``: the
class on m points with the largest gap value(A) - value(B) found (:mod:`solvers.params.separate`), exhaustively
over the classes up to isomorphism when there are few, by local search beyond. Both witnesses are replayed before
they are printed (the checker of :mod:`solvers.certificates.params`; Opt recomputed), and ``-o`` writes the class
as a file that ``--matrix`` reads."""

from __future__ import annotations

import json
import re
import sys

from ._output import (EXIT_FAILED, EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, check_outputs, interrupted_code,
                      json_lines_text, json_safe, stopping, write_text_atomic)

__all__ = ["HELP", "add", "run"]

HELP = "search the classes on m points for the largest gap between two parameters (e.g. opt against threshold)"


def add(p) -> None:
    from solvers.params.separate import LOCAL_SECONDS, MAX_POINTS, parameter_keys

    from ._args import add_memory_guard, positive_seconds, seed

    keys = ", ".join(parameter_keys())
    p.add_argument("a", metavar="A", nargs="?", help=f"the parameter that should be large ({keys})")
    p.add_argument("b", metavar="B", nargs="?",
                   help="the parameter that should be small; the gap is value(A) - value(B)")
    p.add_argument("--relation", metavar="'A<=B'",
                   help="instead of A B: a claimed relation 'A<=B', 'A<=k*B' or 'A>=k*B' (k a positive integer or "
                        "fraction p/q): look for a class where it fails, else report the largest gap found")
    p.add_argument("--points", type=int, required=True, metavar="m", help=f"the number of points, 1 to {MAX_POINTS}")
    p.add_argument("--concepts", type=int, metavar="n", help="exactly n concepts (default: any number)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help=f"seconds for the whole search (default: none when exhaustive, {LOCAL_SECONDS:g} for local search)")
    p.add_argument("--seed", type=seed, default=0, metavar="N", help="the local search's seed (default 0)")
    add_memory_guard(p)
    p.add_argument("--json", action="store_true", help="print one JSON object: the gap, both values with their "
                                                       "witnesses and checks, the class's matrix, the search")
    p.add_argument("-o", "--output", metavar="FILE", help="write the class found to FILE (.json; reads back with --matrix)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    from ._store import add_no_store

    add_no_store(p, "separate")


def run(args) -> int:
    from solvers import interrupts
    from solvers.params.separate import LOCAL_SECONDS, separate

    out, = check_outputs([(args.output, (".json",), "the output file", "-o")], args=args)
    bar: list = []  # the progress line, made at the first report (exhaustive: a count; local search: a clock)

    def progress(info: dict) -> None:
        if not bar:
            total = info["classes"]
            bar.append(Progress(enabled=not args.quiet, label=f"{PROG} separate", total=total, unit="classes")
                       if total is not None else
                       Progress(enabled=not args.quiet, label=f"{PROG} separate", clock=True,
                                limit=args.time_limit or LOCAL_SECONDS))
        if info["classes"] is not None:
            bar[0].count(info["examined"], f"best gap {info['gap']}")
        else:
            bar[0].status(f"best gap {info['gap']}, {info['examined']} classes")

    a, b, scale, relation = _pair(args)
    try:
        s = separate(a, b, args.points, args.concepts, time_limit=args.time_limit, seed=args.seed,
                     progress=progress, scale=scale)
    except ValueError as e:
        raise CLIError(str(e)) from None
    finally:
        if bar:
            bar[0].close()
    with interrupts.paused():  # after a Ctrl-C: the checks of one small class still run
        return _report(s, args, out, relation)


_RELATION = re.compile(r"^\s*([a-z_0-9]+)\s*(<=|>=)\s*(?:([0-9]+(?:/[0-9]+)?)\s*\*\s*)?([a-z_0-9]+)\s*$")


def _pair(args) -> tuple:
    """(A, B, scale, the relation as given or None): the gap value(A) - scale * value(B) is positive exactly where
    the relation fails ('A>=k*B' is searched as B - A/k)."""
    from fractions import Fraction

    if args.relation is None:
        if args.a is None or args.b is None:
            raise CLIError("give two parameters A B, or --relation 'A<=B'")
        return args.a, args.b, Fraction(1), None
    if args.a is not None:
        raise CLIError("give two parameters A B or --relation, not both")
    got = _RELATION.match(args.relation)
    if not got:
        raise CLIError(f"--relation {args.relation!r} is not of the form 'A<=B', 'A<=k*B' or 'A>=k*B' (e.g. "
                       "'worst_order<=vc', 'path<=2*threshold_chain')")
    a, op, k, b = got.groups()
    try:
        k = Fraction(k or 1)
    except ZeroDivisionError:
        k = Fraction(0)
    if k <= 0:
        raise CLIError(f"--relation {args.relation!r}: the factor k must be positive")
    text = f"{a} {op} {'' if k == 1 else f'{k}*'}{b}"
    return (a, b, k, (text, a, op, k, b)) if op == "<=" else (b, a, 1 / k, (text, a, op, k, b))


def _check(C, key: str, value: int, witness: dict) -> tuple:
    """(True, False or None when no checker knows the key; a one-line message)."""
    if key == "opt":
        from solvers.opt import opt

        again = opt(C).value
        return again == value, f"Opt recomputed: {again}"
    from solvers.certificates.params import check

    ok, message = check(C, key, {"value": value, "witness": witness})
    if not ok and message.startswith("unknown parameter"):
        return None, f"not checked: no checker for {key!r}"
    return ok, message


def _relation_text(s, relation: tuple) -> str:
    """The verdict on a relation, in its own terms: where the gap (value(A) - scale * value(B) of the search,
    positive where it fails) is."""
    relation, a, op, k, b = relation
    if s.gap is not None and s.gap > 0:
        va, vb = (s.value_a, s.value_b) if op == "<=" else (s.value_b, s.value_a)
        kk = "" if k == 1 else f"{k}*"
        sign = ">" if op == "<=" else "<"
        return (f"relation {relation} fails on this class: {a} = {va} {sign} {kk}{b} = {k * vb} (checked below)")
    k = "" if s.scale == 1 else f"{s.scale}*"
    best = "" if s.gap is None else f"; the largest {s.a} - {k}{s.b} found is {s.gap} ({s.a} = {s.value_a}, " \
                                     f"{s.b} = {s.value_b})"
    where = "every class" if s.exhaustive else "every class examined (not exhaustive)"
    return f"relation {relation} holds on {where} on {s.points} points{best}"


def _report(s, args, out, relation=None) -> int:
    found = s.matrix is not None
    checks = {}
    if found:
        C = s.concept_class
        checks = {s.a: _check(C, s.a, s.value_a, s.witness_a), s.b: _check(C, s.b, s.value_b, s.witness_b)}
    data = s.to_json()
    for key, (ok, message) in checks.items():
        data["values"][key]["check"] = message
    data["search"] = _search_text(s)
    if relation is not None:
        data["relation"] = {"claim": relation[0], "fails": bool(s.gap is not None and s.gap > 0),
                            "verdict": _relation_text(s, relation)}
        print(_relation_text(s, relation)) if not args.json else None
    if args.json:
        print(json.dumps(json_safe(data)))
    elif not found:
        print(f"{s.a} - {s.b} on {s.points} points: no class evaluated ({_search_text(s)})")
    else:
        from .params import _witness_text

        k = "" if s.scale == 1 else f"{s.scale}*"
        print(f"{s.a} - {k}{s.b} on {s.points} points: gap {s.gap} ({s.a} = {s.value_a}, {s.b} = {s.value_b})")
        for key, value, witness in ((s.a, s.value_a, s.witness_a), (s.b, s.value_b, s.witness_b)):
            ok, message = checks[key]
            text = _witness_text(key, witness) or _short(witness)
            print(f"  {key:<12} {value!s:<4} {text}")
            print(f"  {'':<12} {'':<4} check: {'OK' if ok else 'FAILED' if ok is False else 'skipped'}: {message}")
        print(f"class: {_count(len(s.matrix), 'concept')}, {_count(s.points, 'point')} (a row per concept, a column per point)")
        for row in s.matrix.astype(int):
            print("  " + " ".join(map(str, row)))
        print(f"examined {_count(s.examined, 'class')} in {s.seconds:.2f} s: {_search_text(s)}")
    sys.stdout.flush()
    if found and out is not None:
        try:
            write_text_atomic(out, json_lines_text(C.to_json(), ("matrix", "points")))
        except OSError as e:
            raise CLIError(f"could not write {str(out)!r}: {e.strerror or e}") from None
        print(f"wrote the class ({_count(len(s.matrix), 'concept')}, {_count(s.points, 'point')}) to {out}", file=sys.stderr)
    if s.stopped == "interrupted" or stopping():
        print(f"{PROG}: interrupted: the best class found before is printed", file=sys.stderr, flush=True)
        return interrupted_code()
    if any(ok is False for ok, _ in checks.values()):
        return EXIT_FAILED
    return EXIT_OK if found else EXIT_UNSOLVED


def _search_text(s) -> str:
    """How far the search went, in words."""
    which = f"all classes on {s.points} points" if s.concepts is None else f"all classes of {s.concepts} concepts on {s.points} points"
    skipped = (f"; {s.undecided} class{'es' if s.undecided != 1 else ''} skipped (a time limit stopped a parameter's "
               "search)") if s.undecided else ""
    if s.exhaustive:
        return f"exhaustive over {which} up to isomorphism ({s.classes} of them)"
    if s.method == "exhaustive":
        why = "interrupted" if s.stopped == "interrupted" else "stopped by the time limit" if s.stopped else "incomplete"
        return f"exhaustive search {why} after {s.examined} of the {s.classes} classes up to isomorphism: not exhaustive{skipped}"
    why = {"interrupted": "interrupted", "time limit": "until the time limit", "steps": "until its steps ran out"}.get(s.stopped, "")
    return f"local search: not exhaustive (seed {s.seed}, {why}){skipped}"


def _short(witness: dict) -> str:
    """A witness the params command has no words for: its JSON when short, else the names of its parts."""
    text = json.dumps(json_safe(witness))
    return text if len(text) <= 80 else f"a witness with {', '.join(map(str, witness))} (--json prints it)"


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" if k == 1 else f"{k} {noun}es" if noun.endswith("s") else f"{k} {noun}s"
