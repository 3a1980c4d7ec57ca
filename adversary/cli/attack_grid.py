"""``littlestone attack LEARNER [k=v ...] --class FAMILY [k=v ...] --grid n=2..12 k=1..3``: one attack per cell of
a grid, as ``table`` does for Opt(C), on the same machinery (:meth:`adversary.workspace.Workspace.attack_grid`: a
row written as each cell finishes, the results store, resume after a kill, Ctrl-C, progress, loky workers or a Dask
cluster); this module parses the options and writes the rows.

A grid parameter is the family's (``n``, ``k``, ``N`` ...) or, when the family has no parameter of that name, the
learner's (``--grid alpha=2,3``). A learner parameter whose value names a parameter of the cell's class takes its
value there (``winnow1 n=n``); the dimension ``n`` (or ``d``) is filled from the class by default, as for one attack.

Each row: the grid's parameters, the mistakes (the proven worst case when ``exact``; else a lower bound on it,
shown ``>=m``), the learner's bound and its formula, the gap (floor(bound) - mistakes; bound - mistakes for a
randomized learner's expected mistakes), the verdict, Opt(C) of the class (or the game's value) and the seconds.

Verdicts of a row, from the attack's (:data:`adversary.attack.VERDICTS`):

* ``tight``: the mistakes meet the bound (``tight``);
* ``loose``: the proven worst case is below the bound (``below``, exact);
* ``violated``: more mistakes than the bound, a verified witness (``violates``);
* ``unbounded``: a verified cycle, no finite bound;
* ``stopped``: the time limit or Ctrl-C stopped the search below the bound: a lower bound only;
* ``below``: the strategies ran to their end below the bound without proving the worst case (a strategy other
  than ``exact`` named with ``--strategy``).
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction

from ._attack_store import _kv_items, _whole_numbers
from ._output import (EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, StreamedOutput, interrupted_code, json_safe,
                      note, params_text, value_text)
from .table import _csv

__all__ = ["run_grid", "GridWriter"]


# ---------------------------------------------------------------------------------------- the rows written
def _cell_text(row: dict, key: str, fraction_key: str | None = None) -> str:
    v = row.get(key)
    if fraction_key and row.get(fraction_key):
        return value_text(Fraction(row[fraction_key]))
    if v is None:
        return "--"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


class GridWriter:
    """Writes the rows as the cells finish (flushed, so a killed run keeps every finished row): md, csv, json (a
    list of row objects, closed at the end; a killed run leaves it unclosed), or latex (a booktabs tabular whose
    ``\\bottomrule`` comes at the close)."""

    HEAD = ["learner", "mistakes", "u (FN)", "v (FP)", "bound", "gap", "verdict", "lemmas", "Opt", "seconds",
            "bound formula"]

    def __init__(self, fmt: str, keys: list, out):
        self.fmt, self.keys, self.out = fmt, keys, out
        self.rows = 0
        self.widths = None

    def _header(self, row) -> list:
        i = self.HEAD.index("Opt")
        return [*self.keys, *self.HEAD[:i], row.get("opt_symbol") or "Opt", *self.HEAD[i + 1:]]

    def row(self, r: dict) -> None:
        if self.fmt == "json":
            self.out.write(("[\n" if not self.rows else ",\n") + json.dumps(json_safe(r)))
        else:
            body = self.body(r)
            if not self.rows:
                header = self._header(r)
                if self.fmt == "csv":
                    self.out.write(_csv(header, []))
                elif self.fmt == "latex":
                    self.out.write("% littlestone attack --grid: needs \\usepackage{booktabs}\n\\begin{tabular}{"
                                   + "r" * (len(header) - 1) + "l}\n\\toprule\n"
                                   + " & ".join(_tex(c) for c in header) + " \\\\\n\\midrule\n")
                else:
                    self.widths = [max(len(c), len(b), 6) for c, b in zip(header, body)]
                    self.widths[len(self.keys) + 1] = max(self.widths[len(self.keys) + 1], 8)
                    self.out.write("| " + " | ".join(c.rjust(w) for c, w in zip(header, self.widths)) + " |\n")
                    self.out.write("|" + "|".join("-" * (w + 1) + (":" if i < len(header) - 1 else "-")
                                                  for i, w in enumerate(self.widths)) + "|\n")
            if self.fmt == "csv":
                self.out.write(_csv(body, []))
            elif self.fmt == "latex":
                self.out.write(" & ".join(_tex(c) for c in body) + " \\\\\n")
            else:
                cells = [c.replace("|", "\\|") for c in body]
                self.out.write("| " + " | ".join(c.rjust(w) if i < len(cells) - 1 else c.ljust(w)
                                                 for i, (c, w) in enumerate(zip(cells, self.widths))) + " |\n")
        self.rows += 1
        self.out.flush()

    def body(self, r: dict) -> list:
        learner = r["learner"]
        lp = {k: v for k, v in (learner.get("params") or {}).items() if k not in ("seed",)}
        lname = f"{learner['name']} {params_text(lp)}".strip()
        mistakes = _cell_text(r, "mistakes", "expected_mistakes")
        if not r["exact"] and r["verdict"] not in ("violated", "unbounded"):
            mistakes = f">={mistakes}"
        opt = _cell_text(r, "opt", "opt_fraction")
        if r.get("opt") is None and r.get("opt_lower") is not None:
            opt = f"{_cell_text(r, 'opt_lower')}..{_cell_text(r, 'opt_upper')}"
        kinds = r.get("mistakes_by_kind") or {}
        u, v = (_cell_text(kinds, k) if k in kinds else "--" for k in ("false_negative", "false_positive"))
        lemmas = ", ".join(f"{'u' if L['kind'] == 'false_negative' else 'v'} {L['verdict']}"
                           for L in r.get("lemmas") or []) or "--"
        return [*(str(r["grid"].get(k, "")) for k in self.keys), lname, mistakes, u, v,
                _cell_text(r, "bound", "bound_fraction") if r.get("bound") is not None else "none",
                _cell_text(r, "gap", "gap_fraction"), r["verdict"], lemmas, opt, f"{r['seconds']:.3f}", r["formula"]]

    def close(self, complete: bool = True, late: bool = False) -> None:
        """The end of the rows (``late``: the cells missing had not begun when the run's time limit was up)."""
        if self.fmt == "json":
            self.out.write("[\n]\n" if not self.rows else "\n]\n")
        elif self.fmt == "latex" and self.rows:
            self.out.write("\\bottomrule\n\\end{tabular}\n"
                           + ("" if complete else "% the time limit was up: the cells not begun are not in the table\n"
                              if late else "% interrupted: the cells not computed are not in the table\n"))
        self.out.flush()


def _tex(cell: str) -> str:
    """A cell of the md table in LaTeX: a fraction p/q as $\\frac{p}{q}$, bounds lo..hi as $[lo, hi]$, a lower bound
    >=m as $\\geq m$, other text escaped."""
    from solvers.certificates.opt import tex_text

    m = re.fullmatch(r"(-?\d+)/(\d+)( \([\d.]+\))?", cell)  # an exact fraction, its decimal after it
    if m:
        return f"$\\frac{{{m.group(1)}}}{{{m.group(2)}}}$" + (m.group(3) or "")
    m = re.fullmatch(r"([\d/]+)\.\.([\d/]+)", cell)
    if m:
        return f"$[{m.group(1)}, {m.group(2)}]$"
    if cell.startswith(">="):
        return f"$\\geq {cell[2:]}$"
    return tex_text(cell)


# ---------------------------------------------------------------------------------------- run
def run_grid(args) -> int:
    """``attack ... --grid``: the rows (:meth:`adversary.workspace.Workspace.attack_grid`), written as the cells
    finish; exit 0 when every cell's verdict is proven, 3 when some cell was stopped by its time limit, 130 on
    Ctrl-C."""
    from adversary.workspace import Workspace
    from adversary.workspace.grid import attack_grid_cells, say_skipped

    from ._args import check_family, families
    from ._cells import backend_of, close_all, say_store
    from ._output import check_outputs
    from ._store import open_store

    if args.matrix is not None:
        raise CLIError("--grid varies a family's parameters; give --class FAMILY [k=v ...], not --matrix")
    if args.witness is not None:
        raise CLIError("--witness writes one attack's witness; a grid's rows are in -o FILE (each row's witness "
                       "is in the store: 'littlestone store show KEY')")
    if args.json:
        raise CLIError("--json is one attack's output; with --grid give --format json")
    given = list(args.cls or [])
    if not given:
        raise CLIError("give the class with --class FAMILY [k=v ...]; --grid varies its parameters")
    name, fixed = given[0], given[1:]
    if name not in families().ATTACK_ONLY:
        check_family(name)
    ext = ".tex" if args.format == "latex" else f".{args.format}"
    out_path, = check_outputs([(args.output, (ext,), f"the {args.format} output file", "-o")], args=args)
    learner_items = _whole_numbers(_kv_items(args.learner_params, "learner parameter"))
    grid = attack_grid_cells(name, _kv_items(fixed, f"{name} parameter"), args.grid, args.learner,
                             learner_items)  # (checked before the store is opened)
    total = len(grid.cells)
    backend, scheduler = backend_of(args)
    bar = Progress(enabled=not args.quiet, label=f"{PROG} attack", total=total)
    handle = writer = None
    started = False  # the cells began (the workers or the cluster are there)
    skipped: list = []

    def progress(info):
        nonlocal started
        if "cell" in info:  # the cell in flight, here or on a cluster: its best so far
            best = info.get("mistakes", 0)
            best = f"{float(best):.6g}" if isinstance(best, Fraction) else best
            bar.status(f"{params_text(info['cell'])}: {info.get('strategy', '?')}, best {best} mistakes")
        else:
            started = True
            row = info.get("row")
            bar.count(info["done"], status=None if row is None else f"{params_text(row['grid'])} done: {row['verdict']}")

    def emit(row):
        nonlocal handle, writer
        bar.clear()
        if writer is None:
            handle = sys.stdout if out_path is None else StreamedOutput(out_path)
            writer = GridWriter(args.format, grid.keys, handle)
        writer.row(row)

    ws = Workspace(open_store(args), trust=args.trust_store, verify=args.verify_store, jobs=args.jobs or 1,
                   backend=backend, scheduler=scheduler, scheduler_timeout=args.scheduler_timeout)
    run = None
    try:
        try:
            run = ws.attack_grid(name, grid, args.learner, learner_items=learner_items, strategy=args.strategy,
                                 seed=args.seed, errors=args.errors, time_limit=args.time_limit,
                                 cell_time_limit=args.cell_time_limit,
                                 maximize=args.maximize, jobs=args.jobs, progress=progress, on_row=emit,
                                 on_skip=lambda row: (skipped.append(row), bar.clear(), say_skipped(row)))
        finally:
            bar.close()
            # a grid with no cell possible (the workspace's error) or a cluster that never ran a cell writes nothing
            if writer is None and args.format == "json" and started and len(skipped) < total:
                handle = sys.stdout if out_path is None else StreamedOutput(out_path)
                writer = GridWriter(args.format, grid.keys, handle)
            if writer is not None:
                writer.close(complete=run is not None and run.complete,
                             late=run is not None and not run.interrupted and bool(run.missing))
    finally:
        close_all(handle, ws.store)
    store_used = ws.store is not None
    code = say_store(run, ws.store, total, "not re-checked: --trust-store" if args.trust_store else
                     "witnesses replayed: --verify-store" if args.verify_store else
                     "witnesses replayed when stored, digest matches")
    if code is not None:
        return code
    if out_path is not None and writer is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    if run.interrupted:
        note(f"interrupted: {len(run.done)} of {total} cells attacked")
        return interrupted_code()
    if run.stopped:
        note(f"{len(run.stopped)} of {len(run.done)} cells stopped by the time limit (their mistakes are lower bounds, "
             "shown >=m)")
    if run.missing:
        left = ", ".join(params_text(c) for c in run.missing[:8]) + (" ..." if len(run.missing) > 8 else "")
        note(f"the time limit of {args.time_limit:g} s was up before {len(run.missing)} of {total} cells began, not "
             f"attacked: {left} (give more --time-limit"
             f"{'; a rerun takes the cells attacked from the store' if store_used else ''})")
    return EXIT_UNSOLVED if run.stopped or run.missing else EXIT_OK
