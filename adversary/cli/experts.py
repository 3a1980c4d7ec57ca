"""``littlestone experts n=RANGE k=RANGE``: the optimal mistakes with n experts whose best errs k times --
D_k (a deterministic learner), the volume bound of Cesa-Bianchi et al., R_k (a randomized learner) --
one row per (n, k), written as each cell finishes (so an interrupted run keeps its finished rows).

The numbers come from :func:`solvers.opt.experts.experts`; the ranges are read by the grid parser of
``littlestone table``."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from fractions import Fraction

from ._args import memo_bytes, memory_gb, memory_help, positive_seconds
from ._output import (EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, check_outputs, interrupted_code, json_safe,
                      StreamedOutput, note, stopping)
from .table import _parse_grid_values, check_grid_size

__all__ = ["HELP", "add", "run"]

HELP = "D_k and R_k of n experts whose best errs k times, exactly, against the volume bound"


def add(p) -> None:
    p.add_argument("ranges", nargs="*", metavar="n=RANGE k=RANGE",
                   help="the experts and the mistakes of the best one: a..b (inclusive) or comma lists, e.g. n=1..12 k=0..2")
    p.add_argument("--deterministic", action="store_true", help="the deterministic game D_k (default: both games)")
    p.add_argument("--randomized", action="store_true", help="the randomized game R_k (default: both games)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds for the whole run: each cell gets its share of what is left as it begins; a cell "
                        "that runs out shows lo..hi, and the cells not begun in time are named (default: none)")
    p.add_argument("--cell-time-limit", type=positive_seconds, metavar="S",
                   help="seconds per cell (both games of a row), cut at the end of --time-limit (default: none)")
    p.add_argument("--memory", type=memory_gb, metavar="GB",
                   help=memory_help(" (the deterministic memo; the randomized table, refused if larger)"))
    p.add_argument("--format", choices=("md", "csv", "json", "latex"), default="md",
                   help="output format (default md; latex: a booktabs tabular, -o FILE.tex)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table to FILE instead of stdout, a row as each cell finishes")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    from ._store import add_no_store

    add_no_store(p, "experts")


# ---------------------------------------------------------------------------------------- input
def _ranges(items) -> tuple[list[int], list[int]]:
    """``["n=1..12", "k=0..2"]`` -> the n values and the k values (checked: whole numbers, n >= 1, k >= 0, and
    at most ``MAX_GRID_CELLS`` cells, counted before any is listed)."""
    got: dict = {}
    for item in items:
        key, values = _parse_grid_values(item)
        if key not in ("n", "k"):
            raise CLIError(f"{item!r}: the ranges are n=RANGE (the experts) and k=RANGE (the mistakes of the best "
                           "expert), e.g. n=1..12 k=0..2")
        if key in got:
            raise CLIError(f"{key} is given twice; give one range, e.g. {key}=1..5 or {key}=1,3,8")
        nums = []
        for v in values:
            try:
                nums.append(int(v))
            except ValueError:
                raise CLIError(f"{key}={v!r} in {item!r} is not a whole number; write e.g. {key}=1..12") from None
        low = 1 if key == "n" else 0
        bad = [x for x in nums if x < low]
        if bad:
            what = "the number of experts" if key == "n" else "the mistakes of the best expert"
            raise CLIError(f"{key}={bad[0]} is not possible: {key} is {what}, a whole number >= {low}")
        got[key] = list(dict.fromkeys(nums))
    missing = [key for key in ("n", "k") if key not in got]
    if missing:
        raise CLIError(f"give {' and '.join(f'{key}=RANGE' for key in missing)}, e.g. 'littlestone experts n=1..12 k=0..2'")
    check_grid_size([("n", got["n"]), ("k", got["k"])])
    return got["n"], got["k"]


# ---------------------------------------------------------------------------------------- one cell
def _cell(n: int, k: int, games: tuple, time_limit, progress, memo=None) -> dict:
    """Both games of one row within ``time_limit`` seconds together (the deterministic one first)."""
    from solvers.opt.experts import experts

    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    row: dict = {"n": n, "k": k}
    stopped = None
    for randomized in games:
        name = "R" if randomized else "D"
        if stopped == "interrupted":
            row[name] = None
            continue
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        r = experts(n, k, randomized=randomized, time_limit=left, memo_bytes=memo,
                    progress=lambda info, name=name: progress(n, k, name, info))
        row[name] = r
        row["volume"] = r.volume
        stopped = stopped or r.stats["stopped"]
    row["seconds"] = round(time.monotonic() - t0, 4)
    row["stopped"] = stopped
    return row


# ---------------------------------------------------------------------------------------- text
def _frac(v) -> str:
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _value_text(r) -> str:
    """``67/32 (2.09375)`` for a solved randomized value, ``5`` for an integer, ``lo..hi`` when unsolved."""
    from solvers.game_rules import value_text

    if r is None:
        return "?"
    if r.value is not None:
        return value_text(r.value)
    return f"{_frac(r.lower)}..{_frac(r.upper)}"


def _gap_mark(row) -> str:
    d = row.get("D")
    if d is None:
        return ""
    return "<" if d.upper < d.volume else ""


def _ratio(row) -> str:
    d, r = row.get("D"), row.get("R")
    if d is None or r is None or d.value is None or r.value is None:
        return "?"
    if d.value == 0:
        return "-"
    return f"{float(Fraction(r.value) / d.value):.4f}"


def _gap_line(row) -> str | None:
    """``n=3 k=2: D_2 = 5 < 6 = the volume bound`` (or ``D_2 <= 5 < 6`` for an unsolved cell), else None."""
    d = row.get("D")
    if d is None or d.upper >= d.volume:
        return None
    rel = "=" if d.value is not None else "<="
    return f"n={row['n']} k={row['k']}: D_{row['k']} {rel} {d.upper} < {d.volume} = the volume bound"


_LATEX_HEAD = {"D_k": "$D_k$", "R_k": "$R_k$", "R_k / D_k": "$R_k / D_k$"}


def _latex_cells(row, games: tuple) -> list[str]:
    """A row's cells in LaTeX: values as numbers or fractions, unfinished cells as their bounds [lo, hi]."""
    from .table import latex_range

    def game(r):
        return "?" if r is None else latex_range(Fraction(r.lower), Fraction(r.upper))

    return _cells(row, games, value=game, gap="$<$")


def _columns(games: tuple) -> list[tuple[str, int]]:
    """(header, width) of the columns shown for the games chosen."""
    cols = [("n", 6), ("k", 3)]
    if False in games:
        cols += [("D_k", 6), ("volume bound", 12), ("gap", 3)]
    else:
        cols += [("volume bound", 12)]
    if True in games:
        cols += [("R_k", 24)]
    if games == (False, True):
        cols += [("R_k / D_k", 9)]
    return cols + [("seconds", 8)]


def _cells(row, games: tuple, *, value=_value_text, gap: str = "<") -> list[str]:
    """A row's cells: ``value`` writes a game's result (md and csv: :func:`_value_text`), ``gap`` marks D_k below
    the volume bound."""
    out = [str(row["n"]), str(row["k"])]
    if False in games:
        out += [value(row["D"]), str(row["volume"]), gap if _gap_mark(row) else ""]
    else:
        out += [str(row["volume"])]
    if True in games:
        out += [value(row["R"])]
    if games == (False, True):
        out += [_ratio(row)]
    return out + [f"{row['seconds']:.3f}"]


def _json_game(r) -> dict:
    if r is None:
        return {"value": None, "lower": None, "upper": None}
    out = {"value": None if r.value is None else _frac(r.value), "lower": _frac(r.lower), "upper": _frac(r.upper)}
    if r.randomized and r.value is not None:
        out["decimal"] = float(r.value)
    if not r.randomized:
        out = {key: (None if v is None else int(Fraction(v))) for key, v in out.items()}
    out["seconds"] = r.stats.get("seconds")
    return out


class _Writer:
    """The table a row at a time, flushed as each cell finishes; JSON is one object whose ``rows`` are
    written as they come and whose tail (``gaps``, ``complete``) closes it."""

    def __init__(self, fmt: str, games: tuple, out):
        self.fmt, self.games, self.out = fmt, games, out
        self.columns = _columns(games)
        self.rows = 0
        if fmt == "json":
            head = {"command": "experts", "games": ["randomized" if g else "deterministic" for g in games]}
            out.write(json.dumps(head)[:-1] + ', "rows": [\n')
        elif fmt == "csv":
            out.write(self._csv([h for h, _ in self.columns]))
        elif fmt == "latex":
            out.write("% littlestone experts: needs \\usepackage{booktabs}\n\\begin{tabular}{" + "r" * len(self.columns)
                      + "}\n\\toprule\n" + " & ".join(_LATEX_HEAD.get(h, h) for h, _ in self.columns)
                      + " \\\\\n\\midrule\n")
        else:
            out.write("| " + " | ".join(h.rjust(w) for h, w in self.columns) + " |\n")
            out.write("|" + "|".join("-" * (w + 1) + ":" for _, w in self.columns) + "|\n")
        out.flush()

    @staticmethod
    def _csv(cells) -> str:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(cells)
        return buf.getvalue()

    def row(self, row: dict) -> None:
        if self.fmt == "json":
            data = {"n": row["n"], "k": row["k"], "volume": row["volume"]}
            if False in self.games:
                data["D"] = _json_game(row["D"])
            if True in self.games:
                data["R"] = _json_game(row["R"])
            data.update({"seconds": row["seconds"], "stopped": row["stopped"]})
            self.out.write((",\n" if self.rows else "") + json.dumps(json_safe(data)))
        elif self.fmt == "csv":
            self.out.write(self._csv(_cells(row, self.games)))
        elif self.fmt == "latex":
            self.out.write(" & ".join(_latex_cells(row, self.games)) + " \\\\\n")
        else:
            self.out.write("| " + " | ".join(c.rjust(w) for c, (_, w) in zip(_cells(row, self.games), self.columns))
                           + " |\n")
        self.rows += 1
        self.out.flush()

    def close(self, gaps: list, complete: bool, missing=(), interrupted: bool = False) -> None:
        """The end of the table; ``missing``: the cells ``(n, k)`` not begun when --time-limit was up."""
        if self.fmt == "json":
            tail = {"gaps": gaps, "complete": complete,
                    **({"missing": [{"n": n, "k": k, "reason": "time limit"} for n, k in missing]} if missing else {})}
            self.out.write("\n], " + json.dumps(tail)[1:] + "\n")
        elif self.fmt == "md" and gaps:
            self.out.write("\n" + "\n".join(gaps) + "\n")
        elif self.fmt == "latex":
            self.out.write("\\bottomrule\n\\end{tabular}\n" + "".join(f"% {g}\n" for g in gaps)
                           + ("" if complete else "% the time limit was up: the cells not begun are not in the table\n"
                              if missing and not interrupted else
                              "% interrupted: the cells not computed are not in the table\n"))
        self.out.flush()


# ---------------------------------------------------------------------------------------- run
def run(args) -> int:
    """One row per (n, k), n slowest, written as the cell finishes; then a line per row where D_k is below
    the volume bound. A cell out of time shows lo..hi (exit 3), the cells not begun within --time-limit are named
    (exit 3); Ctrl-C keeps the finished rows (exit 130)."""
    from adversary.workspace.cells import Clock, cell_seconds
    from solvers.opt.experts import check_size

    ns, ks = _ranges(args.ranges)
    games = tuple(g for g in (False, True) if (args.randomized if g else args.deterministic)) or (False, True)
    memo = memo_bytes(args)
    for n in ns:  # every cell's size before any computation: one error line for an impossible one
        for k in ks:
            for g in games:
                try:
                    check_size(n, k, randomized=g, memo_bytes=memo)
                except ValueError as e:
                    raise CLIError(f"{e}{' (or give more --memory)' if 'GB' in str(e) else ''}") from None
    ext = ".tex" if args.format == "latex" else f".{args.format}"
    out_path, = check_outputs([(args.output, (ext,), f"the {args.format} output file", "-o")], args=args)
    cells = [(n, k) for n in ns for k in ks]
    bar = Progress(enabled=not args.quiet)
    done: list = []
    missing: list = []  # the cells not begun when --time-limit was up
    interrupted = False
    clock = Clock(args.time_limit, args.cell_time_limit, cells=len(cells))

    def progress(n, k, name, info):
        lo, hi = info.get("lower"), info.get("upper")
        bounds = "?" if lo is None else f"{_frac(lo)}..{_frac(hi)}"
        bar.show(f"{PROG} experts: cell {len(done) + 1}/{len(cells)} (n={n} k={k}): {name}_{k} in {bounds}, "
                 f"{bar.elapsed():.0f} s")

    handle = sys.stdout if out_path is None else StreamedOutput(out_path)
    writer = None
    try:
        writer = _Writer(args.format, games, handle)
        for n, k in cells:
            limits = clock.limits()
            seconds = cell_seconds(limits["seconds"], limits["deadline_at"])
            if seconds is not None and seconds <= 0:
                missing.append((n, k))
                continue
            row = _cell(n, k, games, seconds, progress, memo)
            bar.close()
            if row["stopped"] == "interrupted":
                writer.row(row)  # its bounds are proven; it is not counted as computed
                interrupted = True
                break
            done.append(row)  # (as table does: a finished row is counted with the row written)
            writer.row(row)
            if stopping():  # a Ctrl-C that a finished cell took: no next cell
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    except BaseException:  # a failure: what was written says it is not complete
        interrupted = True
        raise
    finally:
        bar.close()
        gaps = [line for line in map(_gap_line, done) if line]
        try:
            if writer is not None:
                writer.close(gaps if args.format != "csv" else [], complete=not interrupted and not missing,
                             missing=missing, interrupted=interrupted)
        finally:
            if handle is not sys.stdout:
                handle.close()
    if args.format == "csv":
        for line in gaps:
            note(line)
    if out_path is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    if interrupted:
        note(f"interrupted: {len(done)} of {len(cells)} cells computed")
        return interrupted_code()
    unsolved = [r for r in done if r["stopped"]]
    if unsolved:
        memory = sum(1 for r in unsolved if r["stopped"] == "memory")
        why = ("the time limit" if not memory else "the memory this process may use (lower n or k)"
               if memory == len(unsolved) else "the time limit or the memory this process may use")
        note(f"{len(unsolved)} of {len(done)} cells not solved within {why} (shown as lo..hi)")
    if missing:
        left = ", ".join(f"n={n} k={k}" for n, k in missing[:8]) + (" ..." if len(missing) > 8 else "")
        note(f"the time limit of {args.time_limit:g} s was up before {len(missing)} of {len(cells)} cells began, not "
             f"computed: {left} (give more --time-limit)")
    return EXIT_UNSOLVED if unsolved or missing else EXIT_OK
