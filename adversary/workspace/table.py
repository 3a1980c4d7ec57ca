"""The workspace's ``table``: Opt, floor(log2 |C|) and the VC dimension of a family over a grid of its parameters,
a row as each cell finishes (the command ``littlestone table`` prints them).

    from adversary.workspace import Workspace

    with Workspace("results.db") as ws:
        run = ws.table("intervals", {"N": [10, 20, 30]})      # computed, recorded; served from the store next time
        [(r["params"]["N"], r["opt"]) for r in run.rows]

Each cell makes its class, then shares its time limit between Opt(C) (and a game's value beside it), the VC
dimension and the parameters asked for (``columns``); whatever runs out of time keeps the bounds proven by then. A
store serves what it proves of a cell and warm-starts the rest; what a cell computes is checked once in the cell
(sealed) and written by this process only, whether the cells run here, in loky worker processes, or on a Dask
cluster (:mod:`~adversary.workspace.cells`).

Its methods are named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

import functools
import itertools
import time
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Sequence

from ._messages import WorkspaceError, note, speaking_to
from .cells import Drained
from .cells import _text as params_text  # k=v k=v

if TYPE_CHECKING:
    from solvers.game_rules import Game

    from . import Workspace

__all__ = ["METHODS", "table", "TableRun", "MAX_GRID_CELLS", "parse_grid_values", "check_grid_size", "Grid", "grid_cells",
           "check_columns", "OPT_SHARE", "GAME_SHARE", "MATRIX", "make_class"]

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ("table",)

OPT_SHARE = 0.8  # of a table cell's time limit, what Opt may use before the VC search has its turn
GAME_SHARE = 0.5  # with a game column: Opt's share of OPT_SHARE (the game's value has the rest of it, then VC)

#: The most cells a grid may have (table, attack --grid, experts): a larger one is refused before any cell is made.
MAX_GRID_CELLS = 100_000


# ---------------------------------------------------------------------------------------- the grid
def parse_grid_values(item: str) -> tuple[str, list[str]]:
    """``"n=2..4,7"`` -> ``("n", ["2", "3", "4", "7"])``; each range is counted before it is expanded, so an
    entry with more than :data:`MAX_GRID_CELLS` values is refused without being listed."""
    key, eq, spec = item.partition("=")
    key, spec = key.strip(), spec.strip()
    if not eq or not key or not spec:
        raise WorkspaceError(f"grid entry {item!r} is not name=RANGE; write e.g. n=2..8 or k=1,2,5")
    parts: list = []  # (lo, hi) of a range, or the text of one value
    count = 0
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise WorkspaceError(f"grid entry {item!r} has an empty item in its list; write e.g. {key}=1,2,5")
        if ".." in part:
            a, _, b = part.partition("..")
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                raise WorkspaceError(f"grid range {part!r} in {item!r} is not a..b with whole numbers; write e.g. "
                                     f"{key}=2..8") from None
            if hi < lo:
                raise WorkspaceError(f"grid range {part!r} in {item!r} is empty; write the smaller end first "
                                     f"({key}={hi}..{lo})")
            parts.append((lo, hi))
            count += hi - lo + 1
        else:
            parts.append(part)
            count += 1
    if count > MAX_GRID_CELLS:
        raise WorkspaceError(f"grid entry {item!r} has {count:,} values, over the limit of {MAX_GRID_CELLS:,} cells a "
                             f"grid may have; give a narrower range, e.g. {key}=1..100, or a list of the values wanted")
    values: list[str] = []
    for part in parts:
        values.extend(map(str, range(part[0], part[1] + 1)) if isinstance(part, tuple) else [part])
    return key, values


def check_grid_size(grid) -> int:
    """The number of cells of ``grid`` (``[(key, values), ...]``, as :func:`parse_grid_values` gives them),
    counted without listing them; a WorkspaceError when it is over :data:`MAX_GRID_CELLS`."""
    count = 1
    for _, values in grid:
        count *= len(values)
    if count > MAX_GRID_CELLS:
        sizes = " x ".join(f"{len(values):,} {key}" for key, values in grid)
        raise WorkspaceError(f"the grid has {sizes} = {count:,} cells, over the limit of {MAX_GRID_CELLS:,}; narrow its "
                             "ranges (or split it into several runs)")
    return count


def _grid_entries(grid) -> list:
    """``[(key, [value text, ...]), ...]`` of a grid given as ``{"N": [10, 20]}`` (values a list, a range, or a
    text ``"2..8"``) or as the command line's ``["N=10,20", ...]``."""
    if isinstance(grid, str):
        grid = [grid]
    if not hasattr(grid, "items"):
        return [parse_grid_values(str(item)) for item in grid]
    entries = []
    for key, values in grid.items():
        if isinstance(values, str):
            entries.append(parse_grid_values(f"{key}={values}"))
            continue
        try:
            count = len(values)
        except TypeError:
            values = list(values)
            count = len(values)
        if count > MAX_GRID_CELLS:
            raise WorkspaceError(f"grid entry {key!r} has {count:,} values, over the limit of {MAX_GRID_CELLS:,} cells "
                                 "a grid may have; give fewer values")
        if count == 0:
            raise WorkspaceError(f"grid entry {key!r} has no values; give at least one, e.g. {{{key!r}: [1, 2]}}")
        entries.append((str(key), [str(v) for v in values]))
    return entries


def _parse_params(family: str, items) -> dict:
    """``["n=8", ...]`` -> ``{"n": 8, ...}`` for ``family``: names and types checked (ranges when the class is made)."""
    from solvers.classes import families

    try:
        return dict(families.parse_params(family, list(items)))
    except (ValueError, TypeError, KeyError) as e:
        raise WorkspaceError(_reason(e)) from None


#: The family name of a table over class files: its cells are ``{"matrix": PATH}``, one row per file.
MATRIX = "matrix"


def make_class(family: str, params: dict):
    """The class of a cell: ``families.make(family, **params)``, or for :data:`MATRIX` the class file
    ``params["matrix"]`` (:meth:`solvers.classes.ConceptClass.from_file`: .json, .csv or .npy)."""
    from solvers.classes import ConceptClass, families

    if family == MATRIX:
        try:
            return ConceptClass.from_file(params["matrix"])
        except OSError as e:
            raise ValueError(f"cannot read {params['matrix']}: {e.strerror or e}") from None
    return families.make(family, **params)


class Grid(NamedTuple):
    """A grid's keys and its cells (each the parameters of one class), as :func:`grid_cells` makes them."""

    keys: list
    cells: list


def grid_cells(family: str, fixed, grid) -> Grid:
    """The grid's keys and its cells: the cartesian product of the values (the first key varies slowest), each
    cell's parameters parsed (names and types checked) with the fixed ones added. The number of cells is checked
    (:func:`check_grid_size`) before any is made. ``fixed``: ``{"k": 2}`` or ``["k=2"]``; ``grid``: see
    :func:`table` (a :class:`Grid` is taken as it is)."""
    if isinstance(grid, Grid):
        if fixed:
            raise WorkspaceError("a Grid has its fixed parameters in its cells; give fixed=None with it")
        return grid
    if family == MATRIX:  # one cell per class file: {"matrix": [PATH, ...]}
        files = grid.get(MATRIX) if isinstance(grid, dict) else None
        if fixed or not isinstance(grid, dict) or set(grid) != {MATRIX} or isinstance(files, str) or not files:
            raise WorkspaceError('a table over class files takes grid={"matrix": [PATH, ...]} (a list of .json, .csv or '
                                 ".npy files, one row each) and no fixed parameters")
        check_grid_size([(MATRIX, list(files))])
        return Grid([MATRIX], [{MATRIX: str(f)} for f in files])
    entries = _grid_entries(grid)
    keys = [k for k, _ in entries]
    fixed = _parse_params(family, [f"{k}={v}" for k, v in fixed.items()] if hasattr(fixed, "items") else fixed or [])
    for k in keys:
        if keys.count(k) > 1:
            raise WorkspaceError(f"grid parameter {k!r} is given more than once; give each parameter once")
        if k in fixed:
            raise WorkspaceError(f"parameter {k!r} is both fixed and in --grid; give it once")
    check_grid_size(entries)
    cells = [{**fixed, **_parse_params(family, [f"{k}={v}" for k, v in zip(keys, combo)])}
             for combo in itertools.product(*(vals for _, vals in entries))]
    return Grid(keys, cells)


def check_columns(keys, what: str = "columns") -> list:
    """The parameters beside Opt and VC (``columns``), checked: the keys of :data:`solvers.params.KEYS` (``opt``
    and ``vc`` are always there and dropped), each once."""
    from solvers.params import KEYS

    keys = [str(k).strip() for k in ([keys] if isinstance(keys, str) else keys or ()) if str(k).strip()]
    bad = [k for k in keys if k not in ("opt", "vc", *KEYS)]
    if bad:
        raise WorkspaceError(f"unknown column {bad[0]!r} in {what}; choose from: opt, {', '.join(KEYS)}")
    return [k for k in dict.fromkeys(keys) if k not in ("opt", "vc")]


def _reason(e: BaseException) -> str:
    if isinstance(e, KeyError) and e.args:
        return f"missing parameter {e.args[0]!r}" if isinstance(e.args[0], str) else str(e.args[0])
    return str(e) or type(e).__name__


# ---------------------------------------------------------------------------------------- one cell
def table_cell(name: str, params: dict, time_limit, progress=None, memo_bytes=None, game=None, warm=None,
               records: bool = False, C=None, columns=(), deadline_at=None) -> dict:
    """One cell: make the class, solve it, its VC dimension, all within ``time_limit`` seconds together
    (and the value of ``game``, a :class:`solvers.game_rules.Game` other than Opt's, when given).
    Runs in a worker with ``jobs``. A cell whose parameters are impossible (``make`` raises) comes
    back as ``{"params", "skipped"}``; one stopped by Ctrl-C has ``stopped == "interrupted"`` and the
    bounds proven by then (the VC search is then not started). A search that runs out of the process's
    memory (a MemoryError: ``ulimit -v``, the machine's) leaves its part with the bounds known without it
    (0 and the volume bound), ``stopped == "memory"``.
    ``deadline_at`` (a :func:`time.time`): the end of the whole run, which cuts ``time_limit``; a cell that
    begins after it computes nothing and comes back as ``{"params", NOT_STARTED: True}``, unless ``warm``
    proves all of it (it is then served)
    (:func:`adversary.workspace.cells.cell_seconds`).

    ``warm`` (from the store) gives what is already proven: ``{"opt": Lookup, "game": Lookup, "vc":
    Lookup}`` (:class:`adversary.workspace.storage.Lookup`); a solved part is taken as it is, and Opt(C)'s
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

    from .storage import proof_seconds, warm_solver

    from .cells import NOT_STARTED, cell_seconds

    time_limit = cell_seconds(time_limit, deadline_at)
    if time_limit is not None and time_limit <= 0:
        if not (warm and _settled(warm)):
            return {"params": params, NOT_STARTED: True}
        time_limit = 1e-3  # served whole from the store: nothing to compute
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    try:
        C = make_class(name, params) if C is None else C
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return {"params": params, "skipped": _reason(e)}
    except MemoryError:
        return {"params": params, "skipped": "out of memory making the class; lower the parameters"}

    stored_as = None if name == MATRIX else name  # (a class file's rows are stored as opt --matrix stores them)

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
            out_records.append(record_of_opt(C, r, family=stored_as, params=dict(C.params), proof_seconds=proof_s))
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
            v = vc_search(C, time_limit=left(), upper=r.upper)  # VC <= Opt: stop at a shattered set that large
        except MemoryError:
            v = None
            vc_lo, vc_hi = 0, min(C.log2_size(), C.n_points)
            stopped = stopped or "memory"
        if v is not None:
            vc_lo, vc_hi = v.lower, v.upper
            stopped = stopped or v.stats.get("stopped")
        if v is not None and records:
            out_records.append(Record(kind="vc", class_key=class_key(C), task={}, family=stored_as, params=dict(C.params),
                                      concepts=C.n_concepts, points=C.n_points,
                                      value=exact(v.value), lower=exact(v.lower), upper=exact(v.upper),
                                      seconds=v.stats.get("seconds"), engine="vc_search",
                                      lower_cert=bind({"points": [int(j) for j in v.witness]}, C)))
    # VC <= Opt (a shattered set of d points is a mistake tree of depth d): each bound tightens the other
    # when a cell ran out of time.
    lo, hi = max(r.lower, vc_lo), r.upper
    vc_hi = min(vc_hi, hi)
    if columns and stopped != "interrupted":  # the parameters beside Opt (columns), each witness replayed
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
            if p.value is None or not ok:  # its bounds only: the row says why
                stopped = stopped or ("time limit" if ok else "witness failed its check")
            if records and ok and p.witness:
                out_records.append(record_of_param(C, p, family=stored_as, params=dict(C.params)))
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
    # ``stopped`` says why a value of the row is bounds only: a row whose every value is exact (a search that ran out
    # of time while the other's bound closed it, VC <= Opt) is not stopped, whatever stopped a search on the way
    exact_all = (lo == hi and vc_lo == vc_hi and ("symbol" not in extra or extra["value"] is not None)
                 and all(k in extra and extra[k].get("value") is not None for k in columns))
    interrupted = exact_all and stopped == "interrupted"  # (a Ctrl-C while its records were sealed: the run ends)
    if exact_all:
        stopped = None
    return {
        "params": dict(params) if name == MATRIX else dict(C.params), "concepts": C.n_concepts, "points": C.n_points,
        "opt": lo if lo == hi else None, "lower": lo, "upper": hi, "log2_size": C.log2_size(),
        "vc": vc_lo if vc_lo == vc_hi else None, "vc_lower": vc_lo, "vc_upper": vc_hi, **extra,
        "seconds": seconds, "stopped": stopped,
        **({"_records": out_records} if records else {}),
        **({"stored": stored} if (stored := sorted(k for k, f in warm.items() if f is not None and f.solved)) else {}),
        **({"served": True} if served else {}),
        **({"_interrupted": True} if interrupted else {}),
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
    """A solved value served from the store, in the shape of an OptResult for :func:`table_cell`."""

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
    :class:`~adversary.workspace.storage.Lookup` (its ``seconds``: the cell's seconds its row keeps, if any)."""
    from adversary.store import opt_task, param_task

    from .storage import lookup

    try:
        C = make_class(name, params)
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


def _settled(warm) -> bool:
    return warm is not None and all(f.solved for f in warm.values())


def _light(warm):
    """The bounds of ``warm`` without the stored rows (what a worker needs)."""
    from .storage import Lookup

    return None if warm is None else {k: Lookup(None, f.lower, f.upper, f.how, f.seconds) for k, f in warm.items()}


# ---------------------------------------------------------------------------------------- the run
class TableRun(Drained):
    """What :func:`table` did: its rows (``rows``, in the order the cells finished: iterate the run for them),
    the cells skipped (impossible parameters: ``{"params", "skipped"}``), the cells the run's time limit left out
    (``missing``: their parameters; they had not begun), whether a Ctrl-C ended it, the rows served
    from the store (``served``) and the records written to it (``wrote``), and a store error that stopped the writes
    (``store_error``).

    A row is a dict: ``params`` (the class's, defaults included), ``concepts`` (|C|), ``points`` (|X|), ``opt`` (None
    when not solved) with its proven ``lower`` and ``upper``, ``log2_size``, ``vc`` with ``vc_lower`` and
    ``vc_upper``, with a game: ``symbol`` and ``value`` (``value_lower``, ``value_upper``, exact: an int or the text
    "p/q"), each column's ``{"lower", "upper", "value"}``, the cell's ``seconds``, why a value of the row is bounds
    only (``stopped``: None when every value is exact, else ``"time limit"``, ``"memory"``, ``"interrupted"``),
    and when the store proved parts of it, ``stored`` (their names)
    and ``served`` (True: all of it)."""

    def __init__(self, family: str = "", keys=(), cells: int = 0, symbol=None, columns=()):
        super().__init__()
        self.family, self.keys, self.cells = family, list(keys), cells
        self.symbol, self.columns = symbol, list(columns)

    @property
    def rows(self) -> list:
        return self.done

    def __iter__(self):
        return iter(self.done)

    def __len__(self) -> int:
        return len(self.done)

    @property
    def complete(self) -> bool:
        """Every cell of the grid has its row or is skipped: no Ctrl-C, no cell left out by the time limit."""
        return not self.interrupted and not self.missing

    @property
    def unsolved(self) -> list:
        """The rows with a value not solved (within the time limit or the memory; a column's too): their proven bounds
        are shown, and ``stopped`` says why."""
        return [r for r in self.done if r.get("stopped") is not None]

    def __repr__(self) -> str:
        return (f"TableRun({self.family}: {len(self.done)} of {self.cells} cells, {len(self.skipped)} skipped, "
                f"{self.served} served, {self.wrote} written{', interrupted' if self.interrupted else ''}"
                f"{f', {len(self.missing)} not begun within the time limit' if self.missing else ''})")


class _Counter:
    """The cells' count for :func:`~adversary.workspace.cells.drain`, passed on to the caller's ``progress``."""

    def __init__(self, progress, total: int):
        self.progress, self.total = progress, total

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass

    def count(self, done: int, status=None) -> None:
        if self.progress is not None:
            self.progress({"done": done, "total": self.total, **({"row": status} if status is not None else {})})


def table(ws: Workspace, family: str, grid: Mapping[str, Any] | Sequence[str] | Grid, *,
          fixed: Mapping[str, Any] | Sequence[str] | None = None, game: str | Game = "deterministic",
          errors: int = 0, horizon: int | None = None, time_limit: float | None = None,
          cell_time_limit: float | None = None, memo_bytes: int | None = None, columns: Sequence[str] = (),
          jobs: int | None = None, progress: Callable[[dict], None] | None = None,
          on_row: Callable[[dict], None] | None = None, on_skip: Callable[[dict], None] | None = None) -> TableRun:
    """Opt(C), floor(log2 |C|) and the VC dimension of ``family`` at every cell of ``grid``, a row as each cell
    finishes; served from the workspace's store where it proves them, recorded there otherwise.

    Parameters
    ----------
    family : str
        A finite family of :mod:`solvers.classes.families` (``"intervals"``, ``"thresholds"``, ...), or
        :data:`MATRIX` (``"matrix"``) for a table over class files: ``grid={"matrix": [PATH, ...]}``, one row per
        .json, .csv or .npy file, its ``params`` ``{"matrix": PATH}``.
    grid : dict or list of str
        The parameters to vary: ``{"N": [10, 20, 30]}`` (values a list, a range, or a text ``"2..8"`` /
        ``"1,2,5"``), the command line's ``["N=10..30"]``, or a :class:`Grid` (:func:`grid_cells`). One cell per combination (the first key varies
        slowest), at most :data:`MAX_GRID_CELLS`; an empty grid is the one cell of ``fixed``.
    fixed : dict or list of str, optional
        The parameters that do not vary (``{"k": 2}`` or ``["k=2"]``); the others keep the family's defaults.
    game, errors, horizon
        With a game other than Opt's (``game="randomized"``, ``errors=K``, ``horizon=T``), its value follows Opt's:
        RL, D_K, R_K (:meth:`solvers.game_rules.Game.of`); a :class:`~solvers.game_rules.Game` is taken as well.
    time_limit : float, optional
        Seconds for the whole run. Without ``cell_time_limit`` each cell gets its share of the seconds left as it
        begins (what a quick cell leaves goes to the next ones); a cell that runs out keeps its proven bounds (``opt``
        None, ``lower`` < ``upper``, ``stopped`` "time limit"), and the cells that had not begun when the time was
        up are listed in ``missing`` (:class:`~adversary.workspace.cells.Clock`).
    cell_time_limit : float, optional
        Seconds per cell, for all of it (making the class, Opt, the game, VC, the columns), cut at the run's end
        when ``time_limit`` is given too.
    memo_bytes : int, optional
        The memory each cell's search may keep in its memo.
    columns : sequence of str
        Parameters beside Opt (:data:`solvers.params.KEYS`: ``dual_vc``, ``threshold``, ``td``, ...).
    jobs : int, optional
        Cells at once: loky processes (default: the workspace's ``jobs``), or on a Dask cluster (the workspace's
        ``backend``/``scheduler``) the cells in flight (default: its worker threads).
    progress : callable, optional
        ``progress(info)``: while a cell runs here or on a cluster, ``info`` has its ``cell`` (parameters) and the
        live ``lower``/``upper`` (with a game, its ``symbol``); after each cell, ``done`` of ``total`` (and the
        finished ``row``).
    on_row, on_skip : callable, optional
        ``on_row(row)`` as each cell finishes (a cell stopped by Ctrl-C too, its bounds proven), ``on_skip(row)``
        for a cell whose parameters are impossible (default: a note ``skipped ...``).

    Returns
    -------
    TableRun
        Its ``rows`` (iterate it), ``skipped``, ``missing``, ``complete``, ``interrupted``, ``served``, ``wrote``,
        ``store_error``.

    Raises
    ------
    WorkspaceError
        A grid or parameter that is not one (one line saying what to change), a grid over the limit, every cell
        impossible, a cluster that cannot be used.

    Examples
    --------
    >>> from adversary.workspace import Workspace
    >>> with Workspace() as ws:
    ...     run = ws.table("thresholds", {"N": [3, 7]})
    >>> [(r["params"]["N"], r["opt"], r["vc"]) for r in run]
    [(3, 2, 1), (7, 3, 1)]
    """
    from solvers.game_rules import Game

    from .cells import Clock, check_time_limit, drain, run_cells, where

    with speaking_to(ws.note):
        check_time_limit(time_limit, "time_limit")
        check_time_limit(cell_time_limit, "cell_time_limit")
        try:
            G = game if isinstance(game, Game) else Game.of(game, errors, horizon)
        except ValueError as e:
            raise WorkspaceError(str(e)) from None
        G = None if G.standard else G
        keys, cells = grid_cells(family, fixed, grid)
        columns = check_columns(columns)
        backend, scheduler, jobs = where(ws, jobs)
        store, trust, verify = ws.store, ws.trust, ws.verify
        run = TableRun(family, keys, len(cells), None if G is None else G.symbol, columns)
        clock = Clock(time_limit, cell_time_limit, cells=len(cells))

        def prepare(c, here: bool) -> dict:
            """The cell's seconds (:class:`~adversary.workspace.cells.Clock`), and what the store proves of cell ``c``, looked up just before
            it starts (so a cell that another run on the same store has finished meanwhile is served too);
            ``here``: the cell runs in this process (it then takes the class the look-up built). A cell the store
            proves whole is served after the run's time limit too."""
            limits = clock.limits()
            limits = {"time_limit": limits["seconds"], "deadline_at": limits["deadline_at"]}
            if store is None:
                return limits
            C, warm = _looked_up(store, family, c, G, trust, columns, verify)
            return {**limits, **({"warm": warm, "records": True, "C": C} if here else
                                 {"warm": _light(warm), "records": True})}

        def live(cell, info):  # inside the cell being solved, here or on a cluster
            progress({**info, "cell": cell})

        cell = functools.partial(table_cell, family, time_limit=cell_time_limit, memo_bytes=memo_bytes, game=G,
                                 columns=columns)
        runs = run_cells(cell, cells, jobs=jobs, backend=backend, scheduler=scheduler, timeout=ws.scheduler_timeout,
                         progress=None if progress is None else live, prepare=prepare,
                         on_jobs=clock.running)  # a cluster may stop here
        counter = _Counter(progress, len(cells))
        counter.count(0)

        def skip(row):
            (on_skip or (lambda r: note(f"skipped {params_text(r['params'])}: {r['skipped']}")))(row)

        drain(runs, run, store=store, emit=on_row or (lambda row: None), skip=skip, bar=counter,
              status=lambda row: row)
        if not run.done and run.skipped and len(run.skipped) == len(cells) and not run.interrupted:
            raise WorkspaceError(f"every cell of the grid is impossible, e.g. {params_text(run.skipped[0]['params'])}: "
                                 f"{run.skipped[0]['skipped']}")
        return run
