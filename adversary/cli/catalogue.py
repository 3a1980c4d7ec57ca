"""``littlestone catalogue import RECORD.json [--n N] [-o CLASS.json]`` and ``littlestone catalogue export [--store
PATH] [-o VALUES.json | --dir DIR] [--classes RECORD.json ...] [--start-id N]``: between littlestone and the catalogue
of combinatorial parameters (:mod:`solvers.catalogue`).

``import`` reads one of the catalogue's class records (``data/classes/NNN_name.json``) and writes the class at size
n as a class file that ``--matrix`` reads, its family and parameters in it (so the results store names the class
as the catalogue's). ``export`` writes the store's rows whose class and parameter are the catalogue's as records in
its value format, each with what proves it and the command that reproduces it; rows that fail their check are
left out. Nothing is fetched: the records are files you have."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ._output import EXIT_OK, CLIError, check_outputs, json_lines_text, note, write_text_atomic

__all__ = ["HELP", "add", "run"]

HELP = "read a class of the catalogue of combinatorial parameters, or write the store's values as its records"


def add(p) -> None:
    p.add_argument("action", choices=("import", "export"),
                   help="import: a catalogue class record -> a class file; export: the store's rows -> catalogue "
                        "value records")
    p.add_argument("record", nargs="?", metavar="RECORD.json", help="import: the catalogue's class record")
    p.add_argument("--n", type=int, metavar="N", help="import: the size (the catalogue's n) of a class stated for "
                                                      "every n")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="import: the class file to write (.json; default stdout); export: the records, one JSON list "
                        "(.json; default stdout)")
    p.add_argument("--dir", metavar="DIR", help="export: write one record a file, DIR/<id>_<short_name>.json, as the "
                                                "catalogue keeps them (an existing file is never overwritten)")
    p.add_argument("--classes", nargs="+", metavar="RECORD.json",
                   help="export: catalogue class records of fixed classes (listed by 0/1 strings), so that rows "
                        "computed on them from a file are exported under their names")
    p.add_argument("--start-id", type=int, default=100_000, metavar="N",
                   help="export: the id of the first record (default 100000; the catalogue numbers its own)")
    p.add_argument("--store", metavar="PATH", help="export: the store (default $LITTLESTONE_STORE or littlestone.db)")


def _read_record(path: str) -> dict:
    try:
        data = json.loads(Path(path).read_text())
    except OSError as e:
        raise CLIError(f"cannot read {path!r}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CLIError(f"{path}: not valid JSON ({e}); give a class record of the catalogue "
                       "(data/classes/NNN_name.json)") from None
    if not isinstance(data, dict):
        raise CLIError(f"{path}: a catalogue class record is a JSON object with a short_name and a definition")
    return data


def run(args) -> int:
    from solvers.catalogue import CatalogueError

    try:
        if args.action == "import":
            return _import(args)
        return _export(args)
    except CatalogueError as e:
        raise CLIError(str(e)) from None


def _import(args) -> int:
    from solvers.catalogue import class_of_record

    for flag, value in (("--dir", args.dir), ("--classes", args.classes), ("--store", args.store)):
        if value is not None:
            raise CLIError(f"catalogue import takes no {flag} (an option of export)")
    if args.record is None:
        raise CLIError("catalogue import needs the catalogue's class record: littlestone catalogue import "
                       "RECORD.json [--n N] [-o CLASS.json]")
    out, = check_outputs([(args.output, (".json",), "the class file", "-o")], [(args.record, "RECORD.json")])
    record = _read_record(args.record)
    C, family, params = class_of_record(record, args.n)
    data = C.to_json()
    if family is not None:
        data = {"family": family, "params": params, **data}
    text = json_lines_text(data, ("matrix", "points"))
    name = record.get("short_name", "class") + (f" n={args.n}" if args.n is not None else "")
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_text_atomic(out, text)
        note(f"wrote the catalogue's {name} ({C.n_concepts} concepts, {C.n_points} points"
             + (f"; littlestone's {family} {' '.join(f'{k}={v}' for k, v in params.items())}" if family else "")
             + f") to {out}")
    return EXIT_OK


def _both_sides(rec, check: str) -> bool:
    """Whether the row's certificates prove its value on both sides (its seal, else the check just made)."""
    import re

    from adversary.store import sealed_bounds

    if rec.value is None:
        return False
    try:
        sealed = sealed_bounds(rec)
    except Exception:  # noqa: BLE001 - a seal that does not match: the check said FAILED, and the row is left out
        return False
    if sealed is not None:
        lo, hi, how = sealed
        return lo == hi and str(lo) == str(rec.value) and all(v == "checked" for v in how.values())
    got = re.match(r"OK: the certificates prove (\S+) <= value <= (\S+)$", check)
    return bool(got) and got.group(1) == got.group(2) == str(rec.value)


def _export(args) -> int:
    from adversary.store import class_key
    from solvers import __version__
    from solvers.catalogue import class_of_record, value_record

    from .store import _check_text, _open, _say_unreadable

    if args.record is not None or args.n is not None:
        raise CLIError("catalogue export takes no RECORD or --n (options of import); it reads the store")
    if args.output is not None and args.dir is not None:
        raise CLIError("give -o FILE.json or --dir DIR, not both")
    out, = check_outputs([(args.output, (".json",), "the records file", "-o")],
                         [(c, "--classes") for c in (args.classes or [])], args=args)
    from solvers.catalogue import CLASSES

    fixed = {}
    for path in args.classes or []:
        record = _read_record(path)
        if record.get("short_name") in CLASSES and CLASSES[record["short_name"]][0] is not None:
            continue  # a class stated for every n: its rows are found by their family
        C, family, _ = class_of_record(record)
        fixed[class_key(C)] = record["short_name"]
    records, skipped, failed = [], 0, 0
    with _open(args) as S:
        for rec in S.rows(None, None):
            if rec.kind not in ("param", "opt"):
                continue
            check = _check_text(rec)
            if check.startswith("FAILED"):
                failed += 1
                continue
            r = value_record(rec, record_id=args.start_id + len(records), check=check, version=__version__,
                             fixed=fixed, checked=_both_sides(rec, check))
            if r is None:
                skipped += 1
            else:
                records.append(r)
        _say_unreadable(S)
    if args.dir is not None:
        folder = Path(args.dir)
        if folder.exists() and not folder.is_dir():
            raise CLIError(f"--dir {args.dir!r} is a file; give a folder")
        targets = [folder / f"{r['id']}_{r['short_name']}.json" for r in records]
        there = [t for t in targets if t.exists()]
        if there:
            raise CLIError(f"{there[0]} exists; give another --dir or --start-id (nothing was written)")
        folder.mkdir(parents=True, exist_ok=True)
        for t, r in zip(targets, records):
            write_text_atomic(t, json.dumps(r, indent=2) + "\n")
    else:
        text = json.dumps(records, indent=2) + "\n"
        if out is None:
            sys.stdout.write(text)
        else:
            write_text_atomic(out, text)
    note(f"{len(records)} record{'s' if len(records) != 1 else ''} written"
         + (f" to {out or args.dir}" if (out or args.dir) else "")
         + f"; {skipped} row{'s' if skipped != 1 else ''} not of the catalogue's classes and parameters"
         + (f"; {failed} failed their check (left out)" if failed else ""))
    return EXIT_OK
