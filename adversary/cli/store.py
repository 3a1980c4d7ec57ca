"""``littlestone store list|show|export|prune|verify``: read the results store (:mod:`adversary.store`).

``list`` prints one line per row (kind, class, task, value or bounds, seconds, when); ``show KEY`` one
row whole, with what proves it (``--certificates OUT.json`` writes its certificates); ``export`` every
row as csv, json or md (``-o FILE``), each with what proves it; ``prune`` removes the rows that fail (or,
with ``--unsolved``, the rows whose value is open too) and compacts the file. What proves a row, for these three,
is its seal, as the commands serve it: a sealed row is read by its digest (milliseconds: its certificates were
checked when it was written), a row changed by hand since is FAILED, and only a row with no seal (written by an
older littlestone) has its certificates re-checked, within :data:`adversary.store.CHECK_BUDGET` seconds;
``--recheck`` re-checks every row so (``verify`` checks in full); ``merge OTHER.db`` imports the rows of another store (its
rows of ``--kind``, ``--family``), each checked as ``verify`` checks it and sealed, merged with the rows there (a
row that fails is not imported); ``verify`` checks every row from scratch, as a file system check does (every certificate and witness through its checker, with no time limit; the value of a row kept
without certificates, and a VC dimension's upper bound, by computing them again), reports one line per row and
exits 1 when a row fails; a row that checks in full is sealed (served by its digest from then on) when the store
can be written. ``list``, ``show``, ``export`` and ``prune --dry-run`` only read: they open the store read-only
and need no write access. A class read
from a matrix file is listed by the file's name and the first characters of its fingerprint. A row that cannot
be read is reported in one note and skipped (``show`` calls it FAILED, ``prune`` removes it); an option of
another action is refused. An empty file is an empty store."""

from __future__ import annotations

import csv
import io
import json
import sys

from ._output import EXIT_FAILED, EXIT_OK, CLIError, check_outputs, json_safe, note, params_text, write_text_atomic
from ._store import store_path

__all__ = ["HELP", "add", "run"]

HELP = "list, show, export, prune or verify the results store"
COLUMNS = ("key", "kind", "family", "params", "task", "concepts", "points", "value", "lower", "upper", "seconds",
           "engine", "version", "time", "check")


def add(p) -> None:
    p.add_argument("action", choices=("list", "show", "export", "prune", "verify", "merge"),
                   help="what to do (verify: check every row's certificates from scratch; merge: import the rows of "
                        "another store, each checked)")
    p.add_argument("key", nargs="?", metavar="KEY",
                   help="show: the row's key (its first characters are enough); merge: the store to import")
    p.add_argument("--store", metavar="PATH", help="the store (default $LITTLESTONE_STORE or littlestone.db)")
    p.add_argument("--kind", choices=("opt", "vc", "attack", "param"), help="only rows of this kind")
    p.add_argument("--family", metavar="NAME", help="only rows of this family")
    p.add_argument("--format", choices=("csv", "json", "md"), help="export: the format (default md)")
    p.add_argument("-o", "--output", metavar="FILE", help="export: write to FILE instead of stdout")
    p.add_argument("--certificates", metavar="OUT.json", help="show: write the row's certificates to OUT.json")
    p.add_argument("--unsolved", action="store_true", help="prune: also remove the rows whose value is not settled")
    p.add_argument("--dry-run", action="store_true", help="prune: say what would go, remove nothing")
    p.add_argument("--recheck", action="store_true",
                   help="show, export, prune: re-check every row's certificates (within 2 s a row), sealed or not; by "
                        "default a sealed row is read by its seal, its digest compared as the commands serve it, and "
                        "only a row with no seal is re-checked (store verify checks every row in full)")


def _open(args, *, readonly: bool = True):
    """The store, read-only unless the command writes (prune): reading needs no write access."""
    from pathlib import Path

    from adversary.store import Store

    path = store_path(args)
    if not Path(path).exists():
        where = Path(path).parent if str(Path(path).parent) else Path(".")
        raise CLIError(f"there is no store at {path!r}"
                       + (f" (its folder {str(where)!r} does not exist)" if not where.is_dir() else "")
                       + "; run opt, attack or table first, or give --store PATH")
    return Store(path, readonly=readonly)


def class_text(rec) -> str:
    """The class of a row in a listing: its family and parameters, or for a class read from a matrix file the
    file's name and the first characters of its fingerprint (``matrix hard.json #0c98570a``)."""
    if rec.family is not None:
        return f"{rec.family} {params_text(rec.params)}".strip()
    name = (rec.extra or {}).get("matrix") if isinstance(rec.extra, dict) else None
    return f"matrix {name + ' ' if name else ''}#{rec.class_key[:8]}"


def _task_text(task: dict) -> str:
    if not task:
        return ""
    if "param" in task:
        return str(task["param"])
    if "learner" in task:
        extra = " ".join(f"{k}={v}" for k, v in (task.get("params") or {}).items())
        return " ".join(t for t in (task["learner"], extra, f"strategy={task.get('strategy')}",
                                    f"errors={task['errors']}" if task.get("errors") else "") if t)
    from solvers.game_rules import Game

    G = Game.of(task.get("game", "deterministic"), task.get("errors", 0), task.get("horizon"))
    return G.symbol


def _value_text(rec) -> str:
    if rec.value is not None:
        return rec.value
    return f"{rec.lower if rec.lower is not None else '?'}..{rec.upper if rec.upper is not None else '?'}"


def _flat(rec, recheck: bool = False) -> dict:
    s = rec.summary()
    out = {k: s.get(k) for k in COLUMNS}
    out["params"] = " ".join(f"{k}={v}" for k, v in (rec.params or {}).items())
    out["task"] = _task_text(rec.task)
    out["check"] = _check_text(rec, recheck)  # an exported number says what proves it, as show does
    return out


def _md(rows: list[dict]) -> str:
    head = list(COLUMNS)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(str("" if r[c] is None else r[c]).replace("|", "\\|") for c in head) + " |")
    return "\n".join(lines) + "\n"


#: The options of some actions only: attribute -> (the option, the actions that take it).
_OPTIONS_OF = {"certificates": ("--certificates", ("show",)), "unsolved": ("--unsolved", ("prune",)),
               "dry_run": ("--dry-run", ("prune",)), "format": ("--format", ("export",)),
               "recheck": ("--recheck", ("show", "export", "prune")),
               "output": ("-o", ("export",)), "kind": ("--kind", ("list", "export", "prune", "verify", "merge")),
               "family": ("--family", ("list", "export", "prune", "verify", "merge"))}


def _refuse_other_options(args) -> None:
    """An option of another action is refused, in one line that says which action takes it."""
    for attr, (flag, actions) in _OPTIONS_OF.items():
        if args.action not in actions and getattr(args, attr, None) not in (None, False):
            takes = ", ".join(f"store {a}" for a in actions)
            raise CLIError(f"{flag} is an option of {takes}, not of store {args.action}; drop it")


def _say_unreadable(S) -> None:
    """One note per row of the store that does not read (skipped by what was done)."""
    for key, why in S.unreadable.items():
        note(f"the row {key[:12]} cannot be read ({why}); skipped ('littlestone store prune' removes it)")


def run(args) -> int:
    _refuse_other_options(args)
    args.format = args.format or "md"
    if args.action == "export":
        out_path, = check_outputs([(args.output, (f".{args.format}",), f"the {args.format} output file", "-o")],
                                  args=args)
    if args.action == "show":
        if not args.key:
            raise CLIError("store show needs a KEY (see 'littlestone store list')")
        cert_path, = check_outputs([(args.certificates, (".json",), "the certificates file", "--certificates")],
                                   args=args)
    elif args.key and args.action != "merge":
        raise CLIError(f"store {args.action} takes no KEY; use --kind or --family to choose rows")
    if args.action == "verify":
        return _verify(args)
    if args.action == "merge":
        return _merge_from(args)
    with _open(args, readonly=args.action != "prune" or args.dry_run) as S:
        if args.action == "list":
            rows = list(S.rows(args.kind, args.family))
            for rec in rows:
                what = class_text(rec)
                print(f"{rec.key[:12]}  {rec.kind:<6}  {what:<40}  {_task_text(rec.task):<24}  {_value_text(rec):>10}  "
                      f"{rec.seconds or 0:>9.3f} s  {rec.time}")
            _say_unreadable(S)
            note(f"{len(rows)} row{'s' if len(rows) != 1 else ''} in {S.path}")
            return EXIT_OK
        if args.action == "export":
            recs = list(S.rows(args.kind, args.family))
            _say_unreadable(S)
            rows = [_flat(r, args.recheck) for r in recs]
            if args.format == "json":
                text = json.dumps([{**r, "params": rec.params, "task": rec.task} for r, rec in zip(rows, recs)],
                                  indent=1) + "\n"
            elif args.format == "csv":
                buf = io.StringIO()
                w = csv.DictWriter(buf, fieldnames=list(COLUMNS), lineterminator="\n")
                w.writeheader()
                w.writerows(rows)
                text = buf.getvalue()
            else:
                text = _md(rows)
            if out_path is None:
                sys.stdout.write(text)
            else:
                write_text_atomic(out_path, text)
                note(f"wrote {len(rows)} rows to {out_path}")
            return EXIT_OK
        if args.action == "show":
            found = S.find(args.key)
            bad = [k for k in S.unreadable if k.startswith(args.key)]
            if not found and not bad:
                raise CLIError(f"no row's key starts with {args.key!r}; see 'littlestone store list'")
            if len(found) + len(bad) > 1:
                raise CLIError(f"{len(found) + len(bad)} rows' keys start with {args.key!r}; give more of the key")
            if bad:
                print(json.dumps({"key": bad[0], "check": f"FAILED: the row cannot be read ({S.unreadable[bad[0]]})"},
                                 indent=1))
                note(f"the row {bad[0][:12]} cannot be read: 'littlestone store prune' removes it"
                     + (f" (no certificates written to {cert_path})" if cert_path is not None else ""))
                return EXIT_OK
            rec = found[0]
            seal = ("changed after it was written: its digest does not match its content" if rec.tampered
                    else rec.proven if rec.proven is not None else "none (checked when first served)")
            print(json.dumps(json_safe({**rec.summary(), "seal": seal, "check": _check_text(rec, args.recheck)}),
                             indent=1))
            if cert_path is not None:
                from adversary.store import recomputed

                write_text_atomic(cert_path, json.dumps({"lower": rec.lower_cert, "upper": rec.upper_cert}) + "\n")
                note(f"wrote the certificates to {cert_path}" + (
                    " (none: the row was solved too fast to keep them; 'littlestone opt ... --proof FILE --tree FILE' "
                    "writes them)" if recomputed(rec) else ""))
            return EXIT_OK
        # prune
        gone = []
        for rec in S.rows(args.kind, args.family):
            why = _check_text(rec, args.recheck)
            if why.startswith("FAILED"):
                gone.append((rec, why))
            elif args.unsolved and rec.value is None:
                gone.append((rec, "unsolved"))
        for rec, why in gone:
            note(f"{'would remove' if args.dry_run else 'removing'} {rec.key[:12]} ({rec.kind} {class_text(rec)}): {why}")
        bad = dict(S.unreadable)  # (of the kind and family asked for, as far as those columns read)
        for key, why in bad.items():
            note(f"{'would remove' if args.dry_run else 'removing'} {key[:12]}: FAILED: the row cannot be read ({why})")
        if not args.dry_run and (gone or bad):
            S.delete([rec.key for rec, _ in gone] + list(bad))
            S.vacuum()
        gone += list(bad)
        note(f"{len(gone)} row{'s' if len(gone) != 1 else ''} {'to remove' if args.dry_run else 'removed'}; "
             f"{S.count() - (len(gone) if args.dry_run else 0)} left in {S.path}")
        return EXIT_OK


def _class_of(rec):
    """The class a row was computed on, made again: from its witness (attack rows), else from its family and
    parameters (as a listed class, in the implicit form a large one is stored in, or evaluated, as ``opt`` made it,
    for thresholds, intervals and rectangles past ``make``'s matrix). None for a class that came from a matrix file."""
    from adversary.referee import witness_class
    from adversary.store import class_key

    if rec.kind == "attack" and isinstance(rec.lower_cert, dict) and "class" in rec.lower_cert:
        return witness_class(rec.lower_cert["class"])
    if rec.family is None:
        return None
    from solvers.classes.evaluated import EVALUATED_FAMILIES, EvaluatedClass, beyond_matrix
    from solvers.classes.families import make

    if rec.family in EVALUATED_FAMILIES and beyond_matrix(rec.family, rec.params):
        return EvaluatedClass(rec.family, rec.params)  # past make's matrix: labels computed from each concept's ends
    C = witness_class({"family": rec.family, "params": rec.params})
    if class_key(C) != rec.class_key and not getattr(C, "finite", False):
        C = make(rec.family, **rec.params)
    return C


def _check_text(rec, recheck: bool = False) -> str:
    """What proves a row: its seal (:func:`adversary.store.sealed_bounds`: the bounds its certificates proved when it
    was written, its digest compared now), or for a row with no seal (and for every row with ``recheck``) its
    certificates re-checked against its class, made again: every number of the row against the certificate that
    proves it (:func:`adversary.store.verified_bounds`). ``OK: ...``, ``not proven: ...`` (a bound the row
    states and nothing proves, e.g. an upper bound whose certificate was too large to keep), ``not checked:
    ...``, ``not re-checked within N s: ...`` (an upper bound whose check would take longer than
    :data:`adversary.store.CHECK_BUDGET`) or ``FAILED: ...`` (a row changed after it was written, whose digest no
    longer matches, is FAILED however its certificates check, as the commands never serve it)."""
    from adversary.store import CHECK_BUDGET, KINDS, StoreError, number, recomputed, verified_bounds
    from solvers.certificates import TreeError

    if rec.kind == "opt-part":
        return ("not checked: a part of an Opt search spread over workers (the search that resumes from it checks the "
                "certificates it builds)")
    if rec.kind not in KINDS:
        return f"not checked: the kind {rec.kind!r} is not one this littlestone knows ({', '.join(KINDS)})"
    if rec.tampered:
        return "FAILED: changed after it was written: its digest does not match its content"
    if rec.proven is not None and not recheck:
        return _seal_text(rec)
    try:
        C = _class_of(rec)
    except Exception as e:  # noqa: BLE001 - a family that no longer takes these parameters
        return f"FAILED: the class cannot be made again ({e})"
    if C is None:
        return "not checked: the class came from a matrix file (verify its certificates with the file)"
    notes: list = []
    try:
        lo, hi = verified_bounds(rec, C, upper_budget=CHECK_BUDGET, notes=notes, recompute=True)  # minutes, if large
    except (TreeError, StoreError) as e:
        return f"FAILED: {e}"
    if rec.kind == "opt" and recomputed(rec):  # no certificates kept: computed again
        if lo is None:
            return f"not re-checked within {CHECK_BUDGET:g} s: {'; '.join(notes)}"
        return f"OK: computed again, the value is {lo} (a result this fast is stored without certificates)"
    if rec.kind == "attack":
        return f"OK: the witness replays with {lo} mistakes on this class" if lo is not None else "no witness"
    unproven = [f"{what} {text}" for what, text, proven in (("lower bound", rec.lower, lo), ("upper bound", rec.upper, hi))
                if text is not None and (proven is None or proven != number(text))]
    proven = f"{lo if lo is not None else '?'} <= value <= {hi if hi is not None else '?'}"
    why = f" ({rec.extra['no_upper_cert']})" if rec.extra.get("no_upper_cert") else ""
    if unproven and notes and rec.upper is not None and hi is None and not (lo is None and rec.lower is not None):
        return (f"not re-checked within {CHECK_BUDGET:g} s ({'; '.join(notes)}): the row's upper bound {rec.upper} is "
                f"not proven here{why}; the certificates prove {proven}")
    if unproven:
        return (f"not proven: the row's {' and '.join(unproven)} without a certificate that checks{why}; the "
                f"certificates prove {proven}")
    return f"OK: the certificates prove {proven}"


def _seal_text(rec) -> str:
    """:func:`_check_text` of a sealed row, from its seal (nothing is run)."""
    from adversary.store import number, recomputed, sealed_bounds

    lo, hi, how = sealed_bounds(rec)
    said = [("lower bound", rec.lower, lo)] + ([("upper bound", rec.upper, hi)] if rec.kind != "attack" else [])
    unproven = [f"{what} {text}" for what, text, got in said if text is not None and got != number(text)]
    proven = f"{'?' if lo is None else lo} <= value <= {'?' if hi is None else hi}"
    if unproven:
        return (f"not proven: the row's {' and '.join(unproven)} without a certificate that checks; its seal proves "
                f"{proven}")
    if rec.kind == "attack":
        return (f"OK: the witness replayed with {lo} mistakes on this class when stored (digest matches)"
                if lo is not None else "no witness")
    if rec.kind == "opt" and recomputed(rec):
        return (f"OK: the value {lo} as computed when stored (digest matches; a result this fast is stored without "
                "certificates: --recheck or 'littlestone store verify' computes it again)")
    computed = [side for side in ("lower", "upper") if how.get(side) == "computed"]
    return (f"OK: the certificates proved {proven} when stored (digest matches)"
            + (f"; its {' and '.join(computed)} bound{'s' if len(computed) > 1 else ''} as computed, not checked "
               "('littlestone store verify' checks it)" if computed else "")
            + (f" ({rec.extra['no_upper_cert']})" if "upper" in computed and rec.extra.get("no_upper_cert") else ""))


# ---------------------------------------------------------------------------------------- verify
def _verify(args) -> int:
    """``store verify``: every row (of ``--kind``, ``--family``) checked from scratch, one line each (``OK``,
    ``FAILED`` or ``not checked``), rows that do not read reported FAILED; exit 1 when a row failed. A row that
    checks in full is sealed with what the check proved, where the store can be written."""
    from pathlib import Path

    from adversary.store import read_only_reason

    path = store_path(args)
    readonly = Path(path).exists() and read_only_reason(path) is not None
    with _open(args, readonly=readonly) as S:
        counts = {"OK": 0, "FAILED": 0, "not checked": 0}
        sealed = 0
        for rec in S.rows(args.kind, args.family):
            status, text, proven = _verify_row(rec)
            counts[status] += 1
            what = f"{class_text(rec)} {_task_text(rec.task)}".strip()
            print(f"{status:<11}  {rec.key[:12]}  {rec.kind:<6}  {what}: {text}", flush=True)
            if proven is not None and proven != rec.proven and not S.readonly:
                from dataclasses import replace

                from adversary.store import StoreError

                try:
                    sealed += S.reseal(replace(rec, proven=proven))
                except StoreError as e:
                    note(f"the row {rec.key[:12]} checks but could not be sealed ({e})")
        for key, why in S.unreadable.items():
            counts["FAILED"] += 1
            print(f"{'FAILED':<11}  {key[:12]}  the row cannot be read ({why}); 'littlestone store prune' removes it")
        total = sum(counts.values())
        note(f"{total} row{'s' if total != 1 else ''} in {S.path}: {counts['OK']} OK, {counts['FAILED']} FAILED, "
             f"{counts['not checked']} not checked" + (f"; {sealed} sealed" if sealed else "")
             + (" (read-only: none sealed)" if S.readonly else ""))
    return EXIT_FAILED if counts["FAILED"] else EXIT_OK


def _verify_row(rec) -> tuple:
    """``(status, text, proven)`` of one row checked from scratch: ``status`` ``"OK"``, ``"FAILED"`` or ``"not
    checked"``; ``proven``, for a row that checks in full, the seal of what the check proved (else None)."""
    from adversary.store import KINDS, StoreError, number, proof_of, verified_bounds
    from solvers.certificates import TreeError

    if rec.tampered:
        return "FAILED", "changed after it was written: its digest does not match its content", None
    if rec.kind not in KINDS:
        return "not checked", f"the kind {rec.kind!r} has no checker ({', '.join(KINDS)} do)", None
    try:
        C = _class_of(rec)
    except Exception as e:  # noqa: BLE001 - a family that no longer takes these parameters
        return "FAILED", f"the class cannot be made again ({e})", None
    if C is None:
        return "not checked", "the class came from a matrix file (verify its certificates with the file)", None
    notes: list = []
    try:
        lo, hi = verified_bounds(rec, C, notes=notes, recompute=True)
    except (TreeError, StoreError, KeyError, TypeError, AttributeError, IndexError, ValueError) as e:
        return "FAILED", str(e), None
    said = [("lower bound", rec.lower, lo), ("upper bound", rec.upper, hi)]
    if rec.kind == "attack":
        said = said[:1]
    unproven = [f"its {what} {text}" for what, text, got in said if text is not None and got != number(text)]
    seal = rec.proven or {}
    for side, got in (("lower", lo), ("upper", hi)):
        if seal.get(side) is not None and (got is None and not notes or got is not None and number(seal[side]) != got):
            return "FAILED", (f"its seal says the {side} bound {seal[side]} is proven, and the check proves "
                              f"{'nothing' if got is None else got}"), None
    proven = f"{lo if lo is not None else '?'} <= value <= {hi if hi is not None else '?'}" if rec.kind != "attack" \
        else f"the witness replays with {lo} mistakes"
    if unproven:
        return "not checked" if notes else "FAILED", (f"{' and '.join(unproven)} {'not settled' if notes else 'not proven'}"
                                                      f" ({'; '.join(notes) or 'no certificate proves it'}); "
                                                      f"the check proves {proven}"), None
    return "OK", proven, proof_of(lo, hi) if not notes else None


# ---------------------------------------------------------------------------------------- merge
def _merge_from(args) -> int:
    """``store merge OTHER.db``: the rows of another store, each checked from scratch (:func:`_verify_row`) and
    written to this one sealed, merged with the row there; a row that fails is left out (one line each, exit 1); a
    row that cannot be checked here (a class from a matrix file, a part of a spread search) comes unsealed and is
    checked when first served."""
    from pathlib import Path

    from adversary.store import Store

    if not args.key:
        raise CLIError("store merge needs the store to import, e.g. 'littlestone store merge other.db'")
    source = Path(args.key)
    if not source.is_file():
        raise CLIError(f"there is no store at {str(source)!r} to import; give the path of a littlestone store")
    with Store(source, readonly=True) as src:
        if Path(store_path(args)).resolve() == source.resolve():
            raise CLIError("store merge imports another store into this one; give two different stores")
        with _open(args, readonly=False) if Path(store_path(args)).exists() else Store(store_path(args)) as S:
            counts = {"sealed": 0, "unsealed": 0, "refused": 0}
            for rec in src.rows(args.kind, args.family):
                status, text, proven = _verify_row(rec)
                what = f"{class_text(rec)} {_task_text(rec.task)}".strip()
                if status == "FAILED":
                    counts["refused"] += 1
                    print(f"{'refused':<11}  {rec.key[:12]}  {rec.kind:<6}  {what}: {text}", flush=True)
                    continue
                rec.proven, rec.tampered = proven, False
                S.put(rec)
                counts["sealed" if proven is not None else "unsealed"] += 1
                print(f"{'imported':<11}  {rec.key[:12]}  {rec.kind:<6}  {what}: "
                      f"{text if proven is not None else 'not sealed (' + text + '): checked when first served'}",
                      flush=True)
            for key, why in src.unreadable.items():
                counts["refused"] += 1
                print(f"{'refused':<11}  {key[:12]}  the row cannot be read ({why})")
            S.flush()
            note(f"{counts['sealed'] + counts['unsealed']} rows of {source} imported into {S.path} ({counts['sealed']} "
                 f"checked and sealed, {counts['unsealed']} to be checked when first served), {counts['refused']} "
                 "refused")
    return EXIT_FAILED if counts["refused"] else EXIT_OK
