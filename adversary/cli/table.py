"""``littlestone table FAMILY --grid k=RANGE ...``: Opt, floor(log2 |C|) and the VC dimension over a grid
of parameters, a row written as each cell finishes (so an interrupted run keeps its finished rows). With
``--randomized``, ``--errors K`` or ``--horizon T`` a column with that game's value (RL, D_k, R_k, ...)
follows Opt's. ``--format latex`` writes a booktabs ``tabular`` for a paper (exact fractions as ``\\frac{p}{q}``,
an unfinished cell's proven bounds as ``[lo, hi]``), streamed like the others and closed at the end."""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import re
import sys
import time

from ._args import (add_game_options, check_family, families, game_of, memo_bytes, memory_gb, memory_help,
                    parse_params, positive_int, positive_seconds)
from ._cells import Drained, add_backend_options, backend_of, close_all, drain, run_cells, say_store
from ._output import (EXIT_OK, EXIT_UNSOLVED, PROG, CLIError, Progress, StreamedOutput, bounds_text, check_outputs, exc_text,
                      interrupted_code, json_safe, note, params_text, value_text)
from ._store import add_store_options, open_store, proof_seconds

__all__ = ["HELP", "add", "run", "range_text"]

HELP = "Opt, floor(log2 |C|) and the VC dimension over a grid of parameters"
OPT_SHARE = 0.8  # of a table cell's time limit, what Opt may use before the VC search has its turn
GAME_SHARE = 0.5  # with a game column: Opt's share of OPT_SHARE (the game's value has the rest of it, then VC)
EXTENSIONS = {"md": ".md", "csv": ".csv", "json": ".json", "latex": ".tex"}  # --format -> the -o file's extension


def add(p) -> None:
    p.add_argument("target", nargs="+", metavar="FAMILY [k=v]", help="the family, then any fixed parameters")
    p.add_argument("--grid", nargs="+", default=[], metavar="k=RANGE",
                   help="parameters to vary: a..b (inclusive) or comma lists 1,2,5; one table row per combination")
    p.add_argument("--format", choices=tuple(EXTENSIONS), default="md",
                   help="output format (default md; latex: a booktabs tabular for a paper, \\usepackage{booktabs})")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table to FILE instead of stdout, a row as each cell finishes; its extension is the "
                        "format's (.md, .csv, .json, .tex for latex)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="S",
                   help="seconds per cell, for all of it (making the class, Opt and VC); a cell that runs out shows lo..hi "
                        "(default: none)")
    p.add_argument("--jobs", type=positive_int, metavar="N",
                   help="cells computed at once: loky processes on this machine (default 1, at most its usable CPUs), "
                        "or with --backend dask the cells in flight on the cluster (default: its worker threads); "
                        "rows then come as cells finish")
    add_backend_options(p)
    add_game_options(p)
    p.add_argument("--columns", metavar="KEYS",
                   help="more columns: parameters beside Opt, a comma list of dual_vc, threshold, star, td, rtd, "
                        "best_order, worst_order, proper ('littlestone params'); opt and vc are always there")
    p.add_argument("--memory", type=memory_gb, metavar="GB", help=memory_help(" in each cell"))
    add_store_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


# ---------------------------------------------------------------------------------------- the grid
#: The most cells a grid may have (table, attack --grid, experts): a larger one is refused before any cell is made.
MAX_GRID_CELLS = 100_000


def _parse_grid_values(item: str) -> tuple[str, list[str]]:
    """``"n=2..4,7"`` -> ``("n", ["2", "3", "4", "7"])``; each range is counted before it is expanded, so an
    entry with more than :data:`MAX_GRID_CELLS` values is refused without being listed."""
    key, eq, spec = item.partition("=")
    key, spec = key.strip(), spec.strip()
    if not eq or not key or not spec:
        raise CLIError(f"grid entry {item!r} is not name=RANGE; write e.g. n=2..8 or k=1,2,5")
    parts: list = []  # (lo, hi) of a range, or the text of one value
    count = 0
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise CLIError(f"grid entry {item!r} has an empty item in its list; write e.g. {key}=1,2,5")
        if ".." in part:
            a, _, b = part.partition("..")
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                raise CLIError(f"grid range {part!r} in {item!r} is not a..b with whole numbers; write e.g. {key}=2..8") from None
            if hi < lo:
                raise CLIError(f"grid range {part!r} in {item!r} is empty; write the smaller end first ({key}={hi}..{lo})")
            parts.append((lo, hi))
            count += hi - lo + 1
        else:
            parts.append(part)
            count += 1
    if count > MAX_GRID_CELLS:
        raise CLIError(f"grid entry {item!r} has {count:,} values, over the limit of {MAX_GRID_CELLS:,} cells a grid may "
                       f"have; give a narrower range, e.g. {key}=1..100, or a list of the values wanted")
    values: list[str] = []
    for part in parts:
        values.extend(map(str, range(part[0], part[1] + 1)) if isinstance(part, tuple) else [part])
    return key, values


def check_grid_size(grid) -> int:
    """The number of cells of ``grid`` (``[(key, values), ...]``, as :func:`_parse_grid_values` gives them),
    counted without listing them; a CLIError when it is over :data:`MAX_GRID_CELLS`."""
    count = 1
    for _, values in grid:
        count *= len(values)
    if count > MAX_GRID_CELLS:
        sizes = " x ".join(f"{len(values):,} {key}" for key, values in grid)
        raise CLIError(f"the grid has {sizes} = {count:,} cells, over the limit of {MAX_GRID_CELLS:,}; narrow its "
                       "ranges (or split it into several runs)")
    return count


def _table_cells(name: str, fixed_items, grid_items) -> tuple[list[str], list[dict]]:
    """The grid's keys and its cells: the cartesian product of the ranges (the first key varies
    slowest), each cell's parameters parsed (names and types checked) with the fixed ones added. The
    number of cells is checked (:func:`check_grid_size`) before any is made."""
    grid = [_parse_grid_values(it) for it in grid_items]
    keys = [k for k, _ in grid]
    fixed = parse_params(name, fixed_items)
    for k in keys:
        if keys.count(k) > 1:
            raise CLIError(f"grid parameter {k!r} is given more than once; give each parameter once")
        if k in fixed:
            raise CLIError(f"parameter {k!r} is both fixed and in --grid; give it once")
    check_grid_size(grid)
    cells = []
    for combo in itertools.product(*(vals for _, vals in grid)):
        cells.append({**fixed, **parse_params(name, [f"{k}={v}" for k, v in zip(keys, combo)])})
    return keys, cells


# ---------------------------------------------------------------------------------------- one cell
def _table_cell(name: str, params: dict, time_limit, progress=None, memo_bytes=None, game=None, warm=None,
                records: bool = False, C=None, columns=()) -> dict:
    """One cell: make the class, solve it, its VC dimension, all within ``time_limit`` seconds together
    (and the value of ``game``, a :class:`solvers.game_rules.Game` other than Opt's, when given).
    Runs in a joblib worker with --jobs. A cell whose parameters are impossible (``make`` raises) comes
    back as ``{"params", "skipped"}``; one stopped by Ctrl-C has ``stopped == "interrupted"`` and the
    bounds proven by then (the VC search is then not started). A search that runs out of the process's
    memory (a MemoryError: ``ulimit -v``, the machine's) leaves its part with the bounds known without it
    (0 and the volume bound), ``stopped == "memory"``.

    ``warm`` (from the store) gives what is already proven: ``{"opt": Lookup, "game": Lookup, "vc":
    Lookup}`` (:class:`adversary.cli._store.Lookup`); a solved part is taken as it is, and Opt(C)'s
    search starts from its proven bounds. With ``records`` the row carries ``"_records"``: the
    :class:`adversary.store.Record` of each part computed here, with its certificates, checked once here (after the
    cell's seconds are taken: :func:`adversary.store.seal`) and sealed, for the client to store (workers never
    touch the store); each keeps the cell's seconds (``extra["cell_seconds"]``). A cell whose every part is served
    from the store shows the seconds its rows keep (:func:`_served_seconds`): a rerun prints the same table."""
    from adversary.store import Record, class_key, exact, record_of_opt
    from solvers import interrupts
    from solvers.certificates import bind
    from solvers.opt import opt
    from solvers.vc import vc_search

    from .opt import warm_solver

    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    try:
        C = families().make(name, **params) if C is None else C
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return {"params": params, "skipped": exc_text(e)}
    except MemoryError:
        return {"params": params, "skipped": "out of memory making the class; lower the parameters"}

    def left(share: float = 1.0):  # opt needs a positive limit; an exhausted cell still gets its cheap bounds
        return None if deadline is None else max((deadline - time.monotonic()) * share, 1e-3)

    def until(share: float):  # the time left until the share `share` of the cell's limit has passed
        return None if deadline is None else max(t0 + time_limit * share - time.monotonic(), 1e-3)

    warm = warm or {}
    out_records = []

    def solve(part, G, share, report):
        """Opt(C) (G None) or the game's value: from the store when it is solved there, else computed."""
        found = warm.get(part)
        if found is not None and found.solved:
            return _Stored(found)
        kw = {} if G is None else {"game": G.kind, "errors": G.errors, "horizon": G.horizon}
        try:
            solver = warm_solver(C, found, memo_bytes) if G is None and found is not None else None
            r = opt(C, time_limit=until(share), jobs=1, progress=report, memo_bytes=memo_bytes, solver=solver, **kw)
        except MemoryError:  # its memory freed with the search: the cell goes on (nothing to store)
            return _OutOfMemory(C, G)
        if records:
            proof_s = proof_seconds(r, time_limit)
            out_records.append(record_of_opt(C, r, family=name, params=dict(C.params), proof_seconds=proof_s))
        return r

    # Opt(C) first, the game (if any) next, then VC: each gets the share of the cell's time left to it.
    r = solve("opt", None, OPT_SHARE if game is None else OPT_SHARE * GAME_SHARE, progress)
    # A Ctrl-C that came while Opt's certificate was written (and was taken there) stops the cell too.
    stopped = "interrupted" if interrupts.requested() else r.stats.get("stopped")
    extra = {}
    if game is not None and stopped != "interrupted":
        g = solve("game", game, OPT_SHARE,
                  None if progress is None else lambda info: progress({**info, "symbol": game.symbol}))
        extra = {"game": game.to_json(), "symbol": game.symbol, "value": _exact(g.value), "value_lower": _exact(g.lower),
                 "value_upper": _exact(g.upper), "value_float": None if g.value is None else float(g.value)}
        stopped = "interrupted" if interrupts.requested() else stopped or g.stats.get("stopped")
    stored_vc = warm.get("vc")
    if stored_vc is not None and stored_vc.solved:
        vc_lo = vc_hi = stored_vc.value
    elif stopped == "interrupted":
        vc_lo, vc_hi = 0, min(C.log2_size(), C.n_points)
    else:
        try:
            v = vc_search(C, time_limit=left())
        except MemoryError:
            v = None
            vc_lo, vc_hi = 0, min(C.log2_size(), C.n_points)
            stopped = stopped or "memory"
        if v is not None:
            vc_lo, vc_hi = v.lower, v.upper
            stopped = stopped or v.stats.get("stopped")
        if v is not None and records:
            out_records.append(Record(kind="vc", class_key=class_key(C), task={}, family=name, params=dict(C.params),
                                      concepts=C.n_concepts, points=C.n_points,
                                      value=exact(v.value), lower=exact(v.lower), upper=exact(v.upper),
                                      seconds=v.stats.get("seconds"), engine="vc_search",
                                      lower_cert=bind({"points": [int(j) for j in v.witness]}, C)))
    # VC <= Opt (a shattered set of d points is a mistake tree of depth d): each bound tightens the other
    # when a cell ran out of time.
    lo, hi = max(r.lower, vc_lo), r.upper
    vc_hi = min(vc_hi, hi)
    if columns and stopped != "interrupted":  # the parameters beside Opt (--columns), each witness replayed
        from solvers.certificates.params import check
        from solvers.params import compute

        from adversary.store import record_of_param

        for key in columns:
            found = warm.get(f"param:{key}")
            if found is not None and found.solved:
                extra[key] = {"lower": found.value, "upper": found.value, "value": found.value}
                continue
            p = compute(C, [key], time_limit=left())[key]
            ok = not p.witness or check(C, key, p.to_json())[0]
            extra[key] = {"lower": p.lower, "upper": p.upper, "value": p.value} if ok else {"lower": None, "upper": None,
                                                                                           "value": None}
            if records and ok and p.witness:
                out_records.append(record_of_param(C, p, family=name, params=dict(C.params)))
    seconds = round(time.monotonic() - t0, 4)
    served = bool(warm) and _settled(warm)
    if served:
        seconds = _served_seconds(warm, seconds)
    if records:
        from adversary.store import seal

        for rec in out_records:
            rec.extra["cell_seconds"] = seconds
        try:
            for rec in out_records:  # checked once, here, and served by their digest from now on
                seal(rec, C)
        except KeyboardInterrupt:  # the rows are kept; those not sealed yet are checked when first served
            stopped = "interrupted"
    return {
        "params": dict(C.params), "concepts": C.n_concepts, "points": C.n_points,
        "opt": lo if lo == hi else None, "lower": lo, "upper": hi, "log2_size": C.log2_size(),
        "vc": vc_lo if vc_lo == vc_hi else None, "vc_lower": vc_lo, "vc_upper": vc_hi, **extra,
        "seconds": seconds, "stopped": stopped,
        **({"_records": out_records} if records else {}),
        **({"stored": stored} if (stored := sorted(k for k, f in warm.items() if f is not None and f.solved)) else {}),
        **({"served": True} if served else {}),
    }


def _served_seconds(warm, measured: float) -> float:
    """The seconds of a cell served whole from the store: the cell's seconds its rows keep (the largest: from the
    run that computed its last part), or, when no table wrote them, the sum of their computations' seconds
    (:func:`_looked_up`); ``measured`` when the store says nothing."""
    kept = [f.seconds for f in warm.values() if f.seconds is not None]
    return max(kept) if kept else measured


class _OutOfMemory:
    """A part whose search ran out of memory, in the shape of an OptResult: the bounds known without a search,
    0 and the volume bound (floor(log2 |C|) for Opt; with K label errors the bound of
    :func:`solvers.game_rules.volume_bound`, which the randomized value is below too; at most the horizon)."""

    def __init__(self, C, G=None):
        from solvers.game_rules import volume_bound

        self.value, self.lower = None, 0
        self.upper = volume_bound([0] * (0 if G is None else G.errors) + [C.n_concepts])
        if G is not None and G.horizon is not None:
            self.upper = min(self.upper, G.horizon)
        self.stats = {"stopped": "memory"}


class _Stored:
    """A solved value served from the store, in the shape of an OptResult for :func:`_table_cell`."""

    def __init__(self, found):
        self.value = self.lower = self.upper = found.value
        self.stats = {"stopped": None}


def _exact(v):
    """A game's value for a row: an int, the text "p/q" of a Fraction, or None (JSON keeps it exact)."""
    from fractions import Fraction

    if v is None or not isinstance(v, Fraction):
        return v
    return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# ---------------------------------------------------------------------------------------- the store
def _looked_up(store, name: str, params: dict, game, trust: bool, columns=(), verify: bool = False):
    """(C, warm): the cell's class (None when it cannot be made: the cell then says why) and what the
    store proves of it, ``{"opt", "game", "vc", "param:KEY" for each of columns}`` ->
    :class:`~adversary.cli._store.Lookup` (its ``seconds``: the cell's seconds its row keeps, if any)."""
    from adversary.store import opt_task, param_task

    from ._store import lookup

    try:
        C = families().make(name, **params)
    except (ValueError, TypeError, KeyError, OverflowError, MemoryError):
        return None, None
    what = f"cell {params_text(params)}"
    kw = {"trust": trust, "verify": verify}
    warm = {"opt": lookup(store, "opt", C, opt_task(), what=f"Opt(C) of the {what}", **kw),
            "vc": lookup(store, "vc", C, {}, what=f"VC dimension of the {what}", **kw)}
    if game is not None:
        warm["game"] = lookup(store, "opt", C, opt_task(game), what=f"{game.symbol}(C) of the {what}", **kw)
    for key in columns:
        warm[f"param:{key}"] = lookup(store, "param", C, param_task(key), what=f"{key} of the {what}", **kw)
    for found in warm.values():
        kept = (found.record.extra or {}).get("cell_seconds") if found.record is not None else None
        found.seconds = kept if isinstance(kept, (int, float)) and not isinstance(kept, bool) else None
    if all(f.seconds is None and f.record is not None for f in warm.values()):
        # rows no table wrote (opt, a merged store, an older littlestone): the seconds their computations took
        warm["opt"].seconds = round(sum(f.record.seconds or 0.0 for f in warm.values()), 4)
    return C, warm


def _how_served(args) -> str:
    """How the cells served from the store were checked, for the closing note."""
    from ._store import SEALED, TRUSTED, VERIFIED

    return VERIFIED if args.verify_store else f"{SEALED}; rows without a seal {TRUSTED}" if args.trust_store else SEALED


def _settled(warm) -> bool:
    return warm is not None and all(f.solved for f in warm.values())


def _light(warm):
    """The bounds of ``warm`` without the stored rows (what a worker needs)."""
    from ._store import Lookup

    return None if warm is None else {k: Lookup(None, f.lower, f.upper, f.how, f.seconds) for k, f in warm.items()}


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
        self.out.flush()

    def _latex_cells(self, r: dict) -> list:
        from solvers.certificates.opt import tex_text

        game = [latex_range(*map(_fraction, (r.get("value_lower"), r.get("value_upper"))))] if self.symbol else []
        return [*(tex_text(r["params"].get(k, "")) for k in self.columns), str(r["concepts"]), str(r["points"]),
                latex_range(r["lower"], r["upper"]), *game, str(r["log2_size"]), latex_range(r["vc_lower"], r["vc_upper"]),
                *(latex_range(r.get(k, {}).get("lower"), r.get(k, {}).get("upper")) for k in self.extra),
                f"{r['seconds']:.3f}"]

    def close(self, skipped: list, complete: bool) -> None:
        if self.fmt == "latex" and self.opened:
            self.out.write("\\bottomrule\n\\end{tabular}\n"
                           + ("" if complete else "% interrupted: the cells not computed are not in the table\n"))
        if self.fmt == "json":
            tail = {"skipped": [{"params": r["params"], "reason": r["skipped"]} for r in skipped], "complete": complete}
            if self.columns is None:
                self.out.write(json.dumps(json_safe({"family": self.name, "grid": self.keys, "rows": [], **tail})) + "\n")
            else:
                self.out.write("\n], " + json.dumps(json_safe(tail))[1:] + "\n")
        self.out.flush()


def _columns(text) -> list:
    """The --columns keys beyond opt and vc, checked."""
    from solvers.params import KEYS

    if not text:
        return []
    keys = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in keys if k not in ("opt", *KEYS)]
    if bad:
        raise CLIError(f"unknown column {bad[0]!r} in --columns; choose from: opt, {', '.join(KEYS)}")
    return [k for k in dict.fromkeys(keys) if k not in ("opt", "vc")]


# ---------------------------------------------------------------------------------------- run
def run(args) -> int:
    """One row per cell, written as the cell finishes: the parameters, |C|, |X|, Opt (``lo..hi`` if the
    cell ran out of time), floor(log2 |C|), the VC dimension (``lo..hi`` likewise) and the cell's
    seconds (making the class, Opt and VC). An unfinished cell's bounds combine the two searches
    through VC <= Opt. With --jobs the rows come in the order the cells finish."""
    name, fixed = args.target[0], args.target[1:]
    check_family(name)
    out_path, = check_outputs([(args.output, (EXTENSIONS[args.format],), f"the {args.format} output file", "-o")], args=args)
    keys, cells = _table_cells(name, fixed, args.grid)
    G = game_of(args)
    game = None if G.standard else G
    backend, scheduler = backend_of(args)
    bar = Progress(enabled=not args.quiet, label=f"{PROG} table", total=len(cells))
    memo = memo_bytes(args)
    handle = None
    writer = None

    pending: list[str] = []  # skip notes wait for the first row: a grid with nothing possible ends in one error line

    def emit(row: dict) -> None:
        nonlocal handle, writer
        bar.clear()
        if writer is None:
            handle = sys.stdout if out_path is None else StreamedOutput(out_path)
            writer = _TableWriter(args.format, name, keys, handle, None if game is None else game.symbol,
                                  _columns(args.columns))
            for text in pending:
                note(text)
            pending.clear()
        writer.row(row)

    store = open_store(args)
    trust = args.trust_store

    def prepare(c, here: bool) -> dict:
        """What the store proves of cell ``c``, looked up just before it starts (so a cell that another run
        on the same store has finished meanwhile is served too); ``here``: the cell runs in this process
        (it then takes the class the look-up built)."""
        if store is None:
            return {}
        C, warm = _looked_up(store, name, c, game, trust, columns, args.verify_store)
        return {"warm": warm, "records": True, "C": C} if here else {"warm": _light(warm), "records": True}

    def progress(cell, info):  # inside the cell being solved, when the cells run in this process
        bar.status(f"{params_text(cell)}: {bounds_text(info.get('lower'), info.get('upper'), info.get('symbol', 'Opt'))}")

    columns = _columns(args.columns)
    cell = functools.partial(_table_cell, name, time_limit=args.time_limit, memo_bytes=memo, game=game,
                             columns=columns)
    try:
        runs = run_cells(cell, cells, jobs=args.jobs, backend=backend, scheduler=scheduler,
                         timeout=args.scheduler_timeout, progress=progress,
                         prepare=prepare)  # a cluster that does not answer stops here
    except BaseException:
        if store is not None:
            store.close()
        raise
    bar.count(0)

    def skip(row):
        text = f"skipped {params_text(row['params'])}: {row['skipped']}"
        note(text) if writer is not None else pending.append(text)

    seen = Drained()
    try:
        drain(runs, seen, store=store, emit=emit, skip=skip, bar=bar,
              status=lambda row: f"{params_text(row['params'])} done: Opt = {range_text(row['lower'], row['upper'])}")
    finally:
        done, skipped, interrupted = seen.done, seen.skipped, seen.interrupted
        try:
            if writer is not None:
                writer.close(skipped, complete=not interrupted)
            elif args.format == "json" and (interrupted or not skipped or done):
                handle = sys.stdout if out_path is None else StreamedOutput(out_path)
                _TableWriter(args.format, name, keys, handle).close(skipped, complete=not interrupted)
        finally:
            close_all(handle, store)
    code = say_store(seen, store, len(cells), _how_served(args))
    if code is not None:
        return code
    if not done and skipped and len(skipped) == len(cells):
        raise CLIError(f"every cell of the grid is impossible, e.g. {params_text(skipped[0]['params'])}: "
                       f"{skipped[0]['skipped']}")
    for text in pending:
        note(text)
    if out_path is not None and writer is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    if interrupted:
        note(f"interrupted: {len(done)} of {len(cells)} cells computed")
        return interrupted_code()
    unsolved = [r for r in done if r["opt"] is None or r["vc"] is None or ("symbol" in r and r["value"] is None)]
    if unsolved:
        shown = "[lo, hi]" if args.format == "latex" else "lo..hi"
        memory = sum(1 for r in unsolved if r.get("stopped") == "memory")
        why = ("the time limit" if not memory else "the memory this process may use (lower the parameters)"
               if memory == len(unsolved) else "the time limit or the memory this process may use")
        note(f"{len(unsolved)} of {len(done)} cells not solved within {why} (shown as {shown})")
        return EXIT_UNSOLVED
    return EXIT_OK
