"""``littlestone attack LEARNER [k=v ...] --class FAMILY [k=v ...] --grid n=2..12 k=1..3``: one attack per cell of
a grid, as ``table`` does for Opt(C), on the same machinery (:mod:`._cells`: a row written as each cell finishes,
the results store, resume after a kill, Ctrl-C, progress, loky workers or a Dask cluster).

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

import functools
import json
import math
import re
import sys
import time
from fractions import Fraction

from adversary.referee import fraction_text

from ._attack_store import _kv_items
from ._output import (EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, StreamedOutput, exc_text,
                      interrupted_code, json_safe, note, params_text, value_text)
from .table import _csv, _parse_grid_values, check_grid_size

__all__ = ["run_grid", "attack_cell", "grid_verdict", "GRID_VERDICTS"]

#: A row's verdict, from the attack's.
GRID_VERDICTS = {"tight": "tight", "violates": "violated", "unbounded": "unbounded", "stopped": "stopped"}


def grid_verdict(verdict: str, exact: bool) -> str:
    """The row's verdict from the attack's ``verdict`` (``below`` is ``loose`` when the worst case is proven)."""
    if verdict == "below":
        return "loose" if exact else "below"
    return GRID_VERDICTS.get(verdict, verdict)


# ---------------------------------------------------------------------------------------- the cells
def grid_cells(family: str, fixed_items, grid_items, learner: str) -> tuple[list, list, list]:
    """``(keys, cells, learner_keys)``: the grid's keys, each cell ``{"class": {...}, "learner": {...}}`` (the
    family's parameters parsed, the learner's as text), and the grid keys that are the learner's."""
    from ._args import families, parse_params

    import itertools

    fam = families()
    grid = [_parse_grid_values(it) for it in grid_items]
    keys = [k for k, _ in grid]
    for k in keys:
        if keys.count(k) > 1:
            raise CLIError(f"grid parameter {k!r} is given more than once; give each parameter once")
    attack_only = family in fam.ATTACK_ONLY
    if attack_only:  # "d gamma R=1"
        class_keys = {w.partition("=")[0] for w in fam.attack_only(family).LISTING["params"].split()}
    else:
        class_keys = {p.name for p in fam.FAMILIES[family].params}
    fixed = _kv_items(fixed_items, f"{family} parameter")
    learner_keys = [k for k in keys if k not in class_keys and not attack_only]
    if learner_keys:
        from solvers.learners import LEARNERS

        spec = LEARNERS.get(learner)
        names = {p[0] for p in spec.params} if spec is not None else set()
        bad = [k for k in learner_keys if k not in names]
        if bad:
            raise CLIError(f"grid parameter {bad[0]!r} is neither a parameter of {family} ({', '.join(sorted(class_keys))}) "
                           f"nor of the learner {learner}" + (f" ({', '.join(sorted(names))})" if names else "")
                           + "; vary one of those")
    for k in keys:
        if k in fixed:
            raise CLIError(f"parameter {k!r} is both fixed and in --grid; give it once")
    check_grid_size(grid)  # counted before any cell is made
    cells = []
    for combo in itertools.product(*(vals for _, vals in grid)):
        values = dict(zip(keys, combo))
        cls_items = {**fixed, **{k: v for k, v in values.items() if k not in learner_keys}}
        if attack_only:
            cls_params = fam.attack_only(family).params_from_text(cls_items)
        else:
            cls_params = parse_params(family, [f"{k}={v}" for k, v in cls_items.items()])
        cells.append({"grid": {k: (cls_params[k] if k in cls_params else _number_or_text(v))
                               for k, v in values.items()},
                      "class": cls_params, "learner": {k: v for k, v in values.items() if k in learner_keys}})
    return keys, cells, learner_keys


def _number_or_text(v: str):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def learner_params_of(items: dict, cell_learner: dict, class_params: dict) -> dict:
    """The learner's parameters in a cell: the grid's learner values, then the given ones, a value that names a
    parameter of the class taking that parameter's value (``n=n``)."""
    out = {}
    for k, v in {**items, **cell_learner}.items():
        if isinstance(v, str) and v.isidentifier() and v in class_params:
            v = class_params[v]
        out[k] = v
    return out


# ---------------------------------------------------------------------------------------- one cell
def attack_cell(family: str, cell: dict, *, learner: str, learner_items: dict, strategy: str, seed: int,
                time_limit, errors: int, maximize: str = "mistakes", progress=None, served=None,
                records: bool = False, C=None, known_opt=None) -> dict:
    """One attack of the grid (in this process or a worker): the row, and with ``records`` the store's
    record under ``"_records"`` (the client stores it; workers never touch the store). ``served``: the row
    the store already proves (then nothing is computed). A cell whose class or learner cannot be made comes
    back as ``{"grid", "skipped"}``."""
    from adversary.attack import attack
    from adversary.referee import witness_class

    if served is not None:
        return served
    t0 = time.monotonic()
    try:
        C = witness_class({"family": family, "params": cell["class"]}) if C is None else C
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return {"grid": cell["grid"], "skipped": exc_text(e)}
    except MemoryError:
        return {"grid": cell["grid"], "skipped": "out of memory making the class; lower the parameters"}
    params = learner_params_of(learner_items, cell["learner"], dict(getattr(C, "params", {}) or {}))
    try:
        r = attack(learner, C, learner_params=params, strategy=strategy, time_limit=time_limit, seed=seed,
                   errors=errors, progress=progress, known_opt=known_opt, maximize=maximize)
    except (ValueError, TypeError) as e:
        return {"grid": cell["grid"], "skipped": exc_text(e)}
    row = row_of(cell["grid"], r, seconds=time.monotonic() - t0)
    if records:  # a cell stopped by Ctrl-C too: its witness proves a lower bound (it is not served, only kept)
        from ._attack_store import _attack_record, _task_of

        from adversary.store import seal

        rec = _attack_record(C, r, _task_of(learner, params, C, strategy, seed, errors, time_limit, maximize))
        rec.extra["cell_seconds"] = row["seconds"]  # (a rerun that serves the cell prints them)
        row["_records"] = [seal(rec, C)]  # its witness replayed once, here: served by its digest from now on
    return row


def _num(v):
    """A number for a row: an int, a float, or None (a Fraction as a float; its text is kept beside)."""
    if v is None or (isinstance(v, float) and math.isinf(v)):
        return None
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    return v


def row_of(grid: dict, r, seconds: float) -> dict:
    """The row of an :class:`~adversary.attack.AttackResult` in cell ``grid``."""
    b = r.bound
    gap = None
    if b.finite and r.verdict != "unbounded":
        top = Fraction(b.value) if r.expected else math.floor(b.value)
        gap = Fraction(top) - Fraction(r.mistakes)
    w = r.witness
    row = {**{k: v for k, v in grid.items()},
           "grid": dict(grid),
           "learner": w["learner"], "class": w["class"],
           "mistakes": _num(r.mistakes), "exact": bool(r.exact),
           "bound": _num(b.value) if b.finite else None, "formula": b.formula, "source": b.source,
           "gap": _num(gap), "verdict": grid_verdict(r.verdict, r.exact), "attack_verdict": r.verdict,
           "opt": _num(r.opt), "opt_symbol": r.opt_symbol,
           "opt_lower": _num(r.stats.get("opt_lower")), "opt_upper": _num(r.stats.get("opt_upper")),
           "strategy": r.strategy, "stopped": r.stats.get("stopped"),
           "seconds": round(seconds if not r.stats.get("stored") else r.stats["stored"].get("seconds") or 0.0, 4)}
    row["mistakes_by_kind"] = {k: _num(v) for k, v in r.mistakes_by_kind.items()}
    row["lemmas"] = list(r.lemmas)
    row["maximize"] = r.maximize
    if r.expected:
        row["expected_mistakes"] = fraction_text(r.mistakes)
    for key, v in (("bound_fraction", b.value if b.finite else None), ("opt_fraction", r.opt), ("gap_fraction", gap)):
        if isinstance(v, Fraction) and v.denominator != 1:
            row[key] = fraction_text(v)
    if r.stats.get("stored"):
        row["served"] = True
    return row


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

    def close(self, complete: bool = True) -> None:
        if self.fmt == "json":
            self.out.write("[\n]\n" if not self.rows else "\n]\n")
        elif self.fmt == "latex" and self.rows:
            self.out.write("\\bottomrule\n\\end{tabular}\n"
                           + ("" if complete else "% interrupted: the cells not computed are not in the table\n"))
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
    """``attack ... --grid``: the rows, written as the cells finish; exit 0 when every cell's verdict is
    proven, 3 when some cell was stopped by its time limit, 130 on Ctrl-C."""
    from ._args import cap_jobs, check_family, families
    from ._cells import Drained, backend_of, close_all, drain, run_cells, say_store
    from ._output import check_outputs
    from ._store import lookup, open_store
    from ._attack_store import _served_attack, _stopped_row, _task_of, _trusted_attack, _whole_numbers

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
    fam = families()
    if name not in fam.ATTACK_ONLY:
        check_family(name)
    ext = ".tex" if args.format == "latex" else f".{args.format}"
    out_path, = check_outputs([(args.output, (ext,), f"the {args.format} output file", "-o")], args=args)
    learner_items = _whole_numbers(_kv_items(args.learner_params, "learner parameter"))
    keys, cells, learner_keys = grid_cells(name, fixed, args.grid, args.learner)
    for k in learner_keys:
        if k in learner_items:
            raise CLIError(f"learner parameter {k!r} is both given and in --grid; give it once")
    backend, scheduler = backend_of(args)
    if backend == "loky" and args.jobs and args.jobs > 1:
        args.jobs = cap_jobs(args.jobs, tasks=len(cells))
    bar = Progress(enabled=not args.quiet, label=f"{PROG} attack", total=len(cells))
    store = open_store(args)
    trust = args.trust_store

    def prepare(c, here: bool) -> dict:
        """The row the store proves of cell ``c`` (then the cell computes nothing), looked up just before it
        starts; ``here``: the cell runs in this process (it takes the class made here, and Opt(C) as stored)."""
        if store is None:
            return {}
        from adversary.referee import witness_class

        try:
            C = witness_class({"family": name, "params": c["class"]})
        except (ValueError, TypeError, KeyError, OverflowError, MemoryError):
            return {"records": True}
        params = learner_params_of(learner_items, c["learner"], dict(getattr(C, "params", {}) or {}))
        task = _task_of(args.learner, params, C, args.strategy, args.seed, args.errors, args.time_limit,
                        args.maximize)
        found = lookup(store, "attack", C, task, trust=trust, verify=args.verify_store,
                       what=f"attack of cell {params_text(c['grid'])}")
        if found.lower is not None and "result" in found.record.extra and not _stopped_row(found.record):
            r = _served_attack(found, C, store) if not trust else _trusted_attack(found.record)
            if not isinstance(r, str):
                kept = found.record.extra.get("cell_seconds")  # the seconds the cell took when computed
                if isinstance(kept, (int, float)) and not isinstance(kept, bool) and r.stats.get("stored"):
                    r.stats["stored"]["seconds"] = kept
                return {"served": row_of(c["grid"], r, 0.0)}
            note(f"the stored attack of cell {params_text(c['grid'])} does not check ({r}); computing it again")
            if not store.readonly:
                store.delete([found.record.key])
        if not here:
            return {"records": True}
        from ._attack_store import _known_opt

        return {"records": True, "C": C, "known_opt": _known_opt(store, C, args)}

    def progress(cell, info):
        best = info.get("mistakes", 0)
        best = f"{float(best):.6g}" if isinstance(best, Fraction) else best
        bar.status(f"{params_text(cell['grid'])}: {info.get('strategy', '?')}, best {best} mistakes")

    cell_fn = functools.partial(attack_cell, name, learner=args.learner, learner_items=learner_items,
                                strategy=args.strategy, seed=args.seed, time_limit=args.time_limit,
                                errors=args.errors, maximize=args.maximize)
    try:
        runs = run_cells(cell_fn, cells, jobs=args.jobs, backend=backend, scheduler=scheduler,
                         timeout=args.scheduler_timeout, progress=progress, prepare=prepare)
    except BaseException:
        if store is not None:
            store.close()
        raise
    handle = writer = None

    def emit(row):
        nonlocal handle, writer
        bar.clear()
        if writer is None:
            handle = sys.stdout if out_path is None else StreamedOutput(out_path)
            writer = GridWriter(args.format, keys, handle)
        writer.row(row)

    bar.count(0)
    seen = Drained()
    try:
        drain(runs, seen, store=store, emit=emit, bar=bar,
              skip=lambda row: note(f"skipped {params_text(row['grid'])}: {row['skipped']}"),
              status=lambda row: f"{params_text(row['grid'])} done: {row['verdict']}")
    finally:
        done, skipped, interrupted = seen.done, seen.skipped, seen.interrupted
        if writer is None and args.format == "json" and not (skipped and len(skipped) == len(cells)):
            handle = sys.stdout if out_path is None else StreamedOutput(out_path)
            writer = GridWriter(args.format, keys, handle)
        try:
            if writer is not None:
                writer.close(complete=not interrupted)
        finally:
            close_all(handle, store)
    code = say_store(seen, store, len(cells), "not re-checked: --trust-store" if trust else "witnesses replayed: "
                          "--verify-store" if args.verify_store else "witnesses replayed when stored, digest matches")
    if code is not None:
        return code
    if not done and skipped and len(skipped) == len(cells) and not interrupted:
        raise CLIError(f"no cell of the grid can be attacked, e.g. {params_text(skipped[0]['grid'])}: "
                       f"{skipped[0]['skipped']}")
    if out_path is not None and writer is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    if interrupted:
        note(f"interrupted: {len(done)} of {len(cells)} cells attacked")
        return interrupted_code()
    stopped = [r for r in done if r["verdict"] == "stopped"]
    if stopped:
        note(f"{len(stopped)} of {len(done)} cells stopped by the time limit (their mistakes are lower bounds, "
             "shown >=m)")
        return EXIT_UNSOLVED
    return EXIT_OK
