"""``littlestone export``: a family's class (or a matrix file) as JSON, one row per line, which loads back
with ``--matrix``."""

from __future__ import annotations

import sys

from ._args import add_class_source, class_of_args
from ._output import EXIT_OK, CLIError, check_outputs, json_lines_text, write_text_atomic

__all__ = ["HELP", "add", "run"]

HELP = "write a family's class as JSON (loads back with --matrix)"


def add(p) -> None:
    add_class_source(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (.json) instead of stdout")
    from ._store import add_no_store

    add_no_store(p, "export")


def run(args) -> int:
    out, = check_outputs([(args.output, (".json",), "the output file", "-o")], args=args)
    C, label, _, _ = class_of_args(args)
    text = json_lines_text(C.to_json(), ("matrix", "points"))  # one matrix row and one point per line
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    try:
        write_text_atomic(out, text)
    except OSError as e:
        raise CLIError(f"could not write {str(out)!r}: {e.strerror or e}") from None
    print(f"wrote {label} ({C.n_concepts} concepts, {C.n_points} points) to {out}", file=sys.stderr)
    return EXIT_OK
