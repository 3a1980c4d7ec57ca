"""``littlestone table FAMILY --grid k=RANGE ...``: Opt, floor(log2 |C|) and the VC dimension over a grid
of parameters, a row written as each cell finishes (so an interrupted run keeps its finished rows). With
``--randomized``, ``--errors K`` or ``--horizon T`` a column with that game's value (RL, D_k, R_k, ...)
follows Opt's. ``--format latex`` writes a booktabs ``tabular`` for a paper (exact fractions as ``\\frac{p}{q}``,
an unfinished cell's proven bounds as ``[lo, hi]``), streamed like the others and closed at the end."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sys

from adversary.workspace.table import (MAX_GRID_CELLS, check_columns, check_grid_size,  # noqa: F401 (re-exported)
                                       grid_cells, parse_grid_values)

from ._args import (add_game_options, check_family, game_of, memo_bytes, memory_gb, memory_help, positive_int,
                    positive_seconds)
from ._cells import add_backend_options, backend_of, close_all, say_store
from ._output import (EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, StreamedOutput, bounds_text, check_outputs,
                      interrupted_code, json_safe, note, params_text, value_text)
from ._store import add_store_options, open_store

__all__ = ["HELP", "add", "run", "range_text", "latex_range", "check_grid_size", "MAX_GRID_CELLS"]

HELP = "Opt, floor(log2 |C|) and the VC dimension over a grid of parameters"
_parse_grid_values = parse_grid_values  # (the name attack --grid and experts import)
EXTENSIONS = {"md": ".md", "csv": ".csv", "json": ".json", "latex": ".tex"}  # --format -> the -o file's extension


def add(p) -> None:
    p.add_argument("target", nargs="*", metavar="FAMILY [k=v]", help="the family, then any fixed parameters")
    p.add_argument("--matrix", nargs="+", metavar="FILE",
                   help="a table over your own classes instead of a family: one row per .json, .csv or .npy 0/1 "
                        "matrix file (as 'opt --matrix' reads them), e.g. --matrix a.csv b.csv")
    p.add_argument("--grid", nargs="+", default=[], metavar="k=RANGE",
                   help="parameters to vary: a..b (inclusive) or comma lists 1,2,5; one table row per combination")
    p.add_argument("--format", choices=tuple(EXTENSIONS), default="md",
                   help="output format (default md; latex: a booktabs tabular for a paper, \\usepackage{booktabs})")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table to FILE instead of stdout, a row as each cell finishes; its extension is the "
                        "format's (.md, .csv, .json, .tex for latex)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds for the whole run: each cell gets its share of what is left as it begins; a cell that "
                        "runs out shows lo..hi, and the cells not begun in time are named (default: none)")
    p.add_argument("--cell-time-limit", type=positive_seconds, metavar="S",
                   help="seconds per cell, for all of it (making the class, Opt and VC), cut at the end of --time-limit "
                        "(default: none)")
    p.add_argument("--jobs", type=positive_int, metavar="N",
                   help="cells computed at once: loky processes on this machine (default 1, at most its usable CPUs), "
                        "or with --backend dask the cells in flight on the cluster (default: its worker threads); "
                        "rows then come as cells finish")
    add_backend_options(p)
    add_game_options(p)
    p.add_argument("--columns", metavar="KEYS",
                   help="more columns: parameters beside Opt, a comma list of dual_vc, threshold, star, td, rtd, "
                        "best_order, worst_order, proper, dual_opt, threshold_chain, path, eluder, covc, min_star, "
                        "min_td, xtd, nctd, self_directed, mq, peq, mpeq, meq, majority, req, rpeq ('littlestone params'); opt "
                        "and vc are always there")
    p.add_argument("--memory", type=memory_gb, metavar="GB", help=memory_help(" in each cell"))
    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


# ---------------------------------------------------------------------------------------- the streamed table
def range_text(lo, hi) -> str:
    """``3`` when the bounds meet, ``lo..hi`` otherwise (table cells); a Fraction as ``7/8 (0.875)``."""
    if lo is None or hi is None:
        return "?"
    return value_text(lo) if lo == hi else f"{value_text(lo)}..{value_text(hi)}"


def _fraction(v):
    from fractions import Fraction

    return None if v is None else Fraction(v)


def _csv(header, body) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


# LaTeX (--format latex): a booktabs tabular, every column right-aligned, so that it streams like md (no
# column widths to know in advance); only \bottomrule and \end{tabular} wait for the close.
_SYMBOL = re.compile(r"([A-Za-z]+)(?:_(\d+))?(?:\[T=(\d+)\])?")  # a game's symbol: Opt, RL, D_k, R_k, RL[T=5]


def _latex_symbol(symbol: str) -> str:
    """A game's symbol (:attr:`solvers.game_rules.Game.symbol`) in math: ``$\\mathrm{Opt}$``, ``$D_{1}$``,
    ``$\\mathrm{RL}[T=5]$``; another text escaped."""
    from solvers.certificates.opt import tex_text

    m = _SYMBOL.fullmatch(symbol)
    if m is None:
        return tex_text(symbol)
    base, errors, horizon = m.groups()
    return ("$" + (base if len(base) == 1 else f"\\mathrm{{{base}}}") + (f"_{{{errors}}}" if errors else "")
            + (f"[T={horizon}]" if horizon else "") + "$")


def _latex_number(v) -> str:
    """A value inside math: ``3``, ``\\frac{13}{8}``; a fraction longer than value_text shows whole, by its
    decimal (``\\approx 0.123457``)."""
    from fractions import Fraction

    if isinstance(v, Fraction) and v.denominator != 1:
        if len(f"{v.numerator}/{v.denominator}") > 40:
            return f"\\approx {float(v):.6f}".rstrip("0")
        return f"\\frac{{{v.numerator}}}{{{v.denominator}}}"
    return str(int(v))


def latex_range(lo, hi) -> str:
    """A table cell in LaTeX: ``3`` when the bounds meet (``$\\frac{13}{8}$`` for a fraction), the proven bounds
    ``$[lo, hi]$`` of a cell that ran out of time, ``?`` when there are none."""
    if lo is None or hi is None:
        return "?"
    if lo == hi:
        text = _latex_number(lo)
        return text if text.isdigit() else f"${text}$"
    return f"$[{_latex_number(lo)}, {_latex_number(hi)}]$"


class _TableWriter:
    """Writes the table a row at a time, flushed as each cell finishes, so that a run that is killed
    keeps every finished row. The header waits for the first row (its parameter columns, defaults
    included, come from the class); JSON is one object whose ``rows`` are written as they come; LaTeX a
    ``tabular`` whose ``\\bottomrule`` and ``\\end{tabular}`` come at the close."""

    def __init__(self, fmt: str, name: str, keys: list, out, symbol: str | None = None, extra=()):
        self.fmt, self.name, self.keys, self.out, self.symbol = fmt, name, keys, out, symbol
        self.extra = list(extra)  # --columns: the parameters beside Opt
        self.columns = None
        self.widths = None
        self.rows = 0
        self.bounded = 0  # rows with a value known by its bounds only ("stopped" says why)
        self.opened = False  # latex: the tabular is begun (its close ends it)

    def _header(self, row: dict) -> None:
        self.columns = list(dict.fromkeys([*self.keys, *row["params"]]))
        game = [self.symbol] if self.symbol else []
        header = [*self.columns, "|C|", "|X|", "Opt", *game, "floor(log2 |C|)", "VC", *self.extra, "seconds"]
        if self.fmt == "json":
            head = {"family": self.name, "grid": self.keys}
            self.out.write(json.dumps(head)[:-1] + ', "rows": [\n')
        elif self.fmt == "csv":
            self.out.write(_csv(header, []))
        elif self.fmt == "latex":
            from solvers.certificates.opt import tex_text

            heads = [*map(tex_text, self.columns), "$|C|$", "$|X|$", *map(_latex_symbol, ["Opt", *game]),
                     "$\\lfloor \\log_2 |C| \\rfloor$", "VC", *map(tex_text, self.extra), "seconds"]
            self.out.write(f"% littlestone table {tex_text(self.name)}: needs \\usepackage{{booktabs}}\n"
                           f"\\begin{{tabular}}{{{'r' * len(heads)}}}\n\\toprule\n"
                           + " & ".join(heads) + " \\\\\n\\midrule\n")
            self.opened = True
        else:
            esc = [c.replace("|", "\\|") for c in header]
            self.widths = [max(len(c), 6) for c in esc]  # room for "lo..hi" cells without knowing the rows
            if self.symbol:  # room for "7/8 (0.875)"
                self.widths[header.index(self.symbol)] = max(len(self.symbol), 16)
            self.out.write("| " + " | ".join(c.rjust(w) for c, w in zip(esc, self.widths)) + " |\n")
            self.out.write("|" + "|".join("-" * (w + 1) + ":" for w in self.widths) + "|\n")

    def row(self, r: dict) -> None:
        if self.columns is None:
            self._header(r)
        if self.fmt == "json":
            self.out.write((",\n" if self.rows else "") + json.dumps(json_safe(r)))
        elif self.fmt == "latex":
            self.out.write(" & ".join(self._latex_cells(r)) + " \\\\\n")
        else:
            game = [range_text(*map(_fraction, (r.get("value_lower"), r.get("value_upper"))))] if self.symbol else []
            body = [*(str(r["params"].get(k, "")) for k in self.columns), str(r["concepts"]), str(r["points"]),
                    range_text(r["lower"], r["upper"]), *game, str(r["log2_size"]),
                    range_text(r["vc_lower"], r["vc_upper"]),
                    *(range_text(r.get(k, {}).get("lower"), r.get(k, {}).get("upper")) for k in self.extra),
                    f"{r['seconds']:.3f}"]
            if self.fmt == "csv":
                self.out.write(_csv(body, []))
            else:
                body = [c.replace("|", "\\|") for c in body]
                self.out.write("| " + " | ".join(c.rjust(w) for c, w in zip(body, self.widths)) + " |\n")
        self.rows += 1
        self.bounded += r.get("stopped") is not None
        self.out.flush()

    def _latex_cells(self, r: dict) -> list:
        from solvers.certificates.opt import tex_text

        game = [latex_range(*map(_fraction, (r.get("value_lower"), r.get("value_upper"))))] if self.symbol else []
        return [*(tex_text(r["params"].get(k, "")) for k in self.columns), str(r["concepts"]), str(r["points"]),
                latex_range(r["lower"], r["upper"]), *game, str(r["log2_size"]), latex_range(r["vc_lower"], r["vc_upper"]),
                *(latex_range(r.get(k, {}).get("lower"), r.get(k, {}).get("upper")) for k in self.extra),
                f"{r['seconds']:.3f}"]

    def close(self, skipped: list, complete: bool, missing=()) -> None:
        """The end of the table. In JSON: ``complete`` (every cell of the grid has its row or is skipped), ``solved``
        (complete, and every row's values exact: no row ``stopped``), ``missing`` (``(cell, reason)``: the cells a
        Ctrl-C left out, reason "interrupted", or that had not begun when --time-limit was up, "time limit")."""
        if self.fmt == "latex" and self.opened:
            late = bool(missing) and all(why == "time limit" for _, why in missing)
            self.out.write("\\bottomrule\n\\end{tabular}\n"
                           + ("" if complete else "% the time limit was up: the cells not begun are not in the table\n"
                              if late else "% interrupted: the cells not computed are not in the table\n"))
        if self.fmt == "json":
            tail = {"skipped": [{"params": r["params"], "reason": r["skipped"]} for r in skipped], "complete": complete,
                    "solved": complete and not self.bounded,
                    **({"missing": [{"params": c, "reason": why} for c, why in missing]} if missing else {})}
            if self.columns is None:
                self.out.write(json.dumps(json_safe({"family": self.name, "grid": self.keys, "rows": [], **tail})) + "\n")
            else:
                self.out.write("\n], " + json.dumps(json_safe(tail))[1:] + "\n")
        self.out.flush()


# ---------------------------------------------------------------------------------------- run
def run(args) -> int:
    """One row per cell, written as the cell finishes: the parameters, |C|, |X|, Opt (``lo..hi`` if the
    cell ran out of time), floor(log2 |C|), the VC dimension (``lo..hi`` likewise) and the cell's
    seconds (making the class, Opt and VC). An unfinished cell's bounds combine the two searches
    through VC <= Opt (:meth:`adversary.workspace.Workspace.table` computes them). With --jobs the rows come in the
    order the cells finish."""
    from adversary.workspace import Workspace

    name, fixed, grid = _source(args)  # (checked before the store is opened)
    out_path, = check_outputs([(args.output, (EXTENSIONS[args.format],), f"the {args.format} output file", "-o")],
                              args=args, inputs=[(f, "--matrix") for f in args.matrix or []])
    keys, total = grid.keys, len(grid.cells)
    G = game_of(args)
    symbol = None if G.standard else G.symbol
    backend, scheduler = backend_of(args)
    columns = check_columns((args.columns or "").split(","), "--columns")
    handle = writer = None
    started = False  # the cells began (the workers or the cluster are there)
    skipped: list = []
    pending: list[str] = []  # skip notes wait for the first row: a grid with nothing possible ends in one error line

    def emit(row: dict) -> None:
        nonlocal handle, writer
        bar.clear()
        if writer is None:
            handle = sys.stdout if out_path is None else StreamedOutput(out_path)
            writer = _TableWriter(args.format, name, keys, handle, symbol, columns)
            for text in pending:
                note(text)
            pending.clear()
        writer.row(row)

    def skip(row) -> None:
        skipped.append(row)
        bar.clear()
        text = f"skipped {params_text(row['params'])}: {row['skipped']}"
        note(text) if writer is not None else pending.append(text)

    def progress(info: dict) -> None:
        nonlocal started
        if "done" in info:
            started = True
            row = info.get("row")
            bar.count(info["done"], status=None if row is None else
                      f"{params_text(row['params'])} done: Opt = {range_text(row['lower'], row['upper'])}")
        else:  # a cell's live bounds, while it runs here or on a cluster
            bar.status(f"{params_text(info['cell'])}: "
                       f"{bounds_text(info.get('lower'), info.get('upper'), info.get('symbol', 'Opt'))}")

    bar = Progress(enabled=not args.quiet, label=f"{PROG} table", total=total)
    ws = Workspace(open_store(args), trust=args.trust_store, verify=args.verify_store, jobs=args.jobs or 1,
                   backend=backend, scheduler=scheduler, scheduler_timeout=args.scheduler_timeout)
    done = None
    try:
        try:
            done = ws.table(name, grid, game=G, time_limit=args.time_limit, cell_time_limit=args.cell_time_limit,
                            memo_bytes=memo_bytes(args),
                            columns=columns, jobs=args.jobs, progress=progress, on_row=emit, on_skip=skip)
        finally:
            bar.close()
            # what was written says whether it is complete (an error mid-grid: not); a grid with nothing possible
            # (the workspace's error) or a cluster that never ran a cell writes nothing
            impossible = done is None and bool(skipped) and len(skipped) == total
            interrupted = not impossible if done is None else done.interrupted
            late = [] if done is None else done.missing  # not begun within --time-limit
            missing = [(c, "time limit" if c in late else "interrupted")
                       for c in _missing(grid.cells, done, skipped)] if interrupted or late else []
            complete = not interrupted and not late
            if writer is not None:
                writer.close(skipped, complete=complete, missing=missing)
            elif args.format == "json" and started and (interrupted or late or not skipped or
                                                        done is not None and done.done):
                handle = sys.stdout if out_path is None else StreamedOutput(out_path)
                _TableWriter(args.format, name, keys, handle).close(skipped, complete=complete, missing=missing)
    finally:
        close_all(handle, ws.store)
    store_used = ws.store is not None
    code = say_store(done, ws.store, total, _how_served(args))
    if code is not None:
        return code
    for text in pending:
        note(text)
    if out_path is not None and writer is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    left = ", ".join(params_text({k: c[k] for k in keys}) for c, _ in missing[:8]) + (" ..." if len(missing) > 8 else "")
    if done.interrupted:
        note(f"interrupted: {len(done.done)} of {total} cells computed" + (f"; not computed: {left}" if missing else ""))
        return interrupted_code()
    unsolved = done.unsolved
    if unsolved:
        shown = "[lo, hi]" if args.format == "latex" else "lo..hi"
        memory = sum(1 for r in unsolved if r.get("stopped") == "memory")
        why = ("the time limit" if not memory else "the memory this process may use (lower the parameters)"
               if memory == len(unsolved) else "the time limit or the memory this process may use")
        note(f"{len(unsolved)} of {len(done.done)} cells not solved within {why} (shown as {shown})")
    if missing:
        note(f"the time limit of {args.time_limit:g} s was up before {len(missing)} of {total} cells began, not "
             f"computed: {left} (give more --time-limit{'; a rerun takes the cells computed from the store' if store_used else ''})")
    return EXIT_UNSOLVED if unsolved or missing else EXIT_OK


def _source(args):
    """(name, fixed, grid): a family with its fixed parameters and its grid, or the class files of --matrix (the
    workspace's :data:`~adversary.workspace.table.MATRIX` family, a row per file)."""
    from adversary.workspace.table import MATRIX

    if args.matrix is not None:
        if args.target:
            raise CLIError(f"give either a FAMILY or --matrix FILE ..., not both (got {args.target[0]!r} and --matrix)")
        if args.grid:
            raise CLIError("--grid varies a family's parameters; with --matrix each file is a row: drop --grid")
        missing = next((f for f in args.matrix if not os.path.isfile(f)), None)
        if missing is not None:
            raise CLIError(f"--matrix {missing}: no such file; give .json, .csv or .npy class files")
        return MATRIX, [], grid_cells(MATRIX, [], {MATRIX: args.matrix})
    if not args.target:
        raise CLIError("give a FAMILY with --grid k=RANGE (see 'littlestone families') or --matrix FILE ...")
    name, fixed = args.target[0], args.target[1:]
    check_family(name)
    return name, fixed, grid_cells(name, fixed, args.grid)


def _missing(cells: list, done, skipped: list) -> list:
    """The cells of the grid with no row and not skipped (a Ctrl-C came first), in the grid's order."""
    rows = [*(done.done if done is not None else []), *skipped]
    return [c for c in cells if not any(all(r["params"].get(k) == v for k, v in c.items()) for r in rows)]


def _how_served(args) -> str:
    """How the cells served from the store were checked, for the closing note."""
    from ._store import SEALED, TRUSTED, VERIFIED

    return VERIFIED if args.verify_store else f"{SEALED}; rows without a seal {TRUSTED}" if args.trust_store else SEALED
