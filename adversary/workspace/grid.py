"""The workspace's ``attack_grid``: one attack per cell of a grid of a family's (or the learner's) parameters, as
``table`` computes Opt(C) over one, on the same machinery (:mod:`~adversary.workspace.cells`: a row as each cell
finishes, the results store, Ctrl-C, loky workers or a Dask cluster). The command ``littlestone attack ... --grid``
prints the rows.

    from adversary.workspace import Workspace

    with Workspace("results.db") as ws:
        run = ws.attack_grid("thresholds", {"N": [8, 16]}, "halving")   # recorded; served from the store next time
        [(r["N"], r["mistakes"], r["verdict"]) for r in run.rows]

A grid parameter is the family's (``n``, ``k``, ``N`` ...) or, when the family has no parameter of that name, the
learner's (``{"alpha": [2, 3]}``). A learner parameter whose value names a parameter of the cell's class takes its
value there (``{"n": "n"}``); the dimension ``n`` (or ``d``) is filled from the class by default, as for one attack.

A row's verdict, from the attack's (:data:`adversary.attack.VERDICTS`): ``tight`` (the mistakes meet the bound),
``loose`` (the proven worst case is below it), ``violated`` (more mistakes than the bound, a verified witness),
``unbounded`` (a verified cycle), ``stopped`` (the time limit or Ctrl-C stopped the search below the bound: a lower
bound only), ``below`` (the strategies ran to their end below the bound without proving the worst case).

Its methods are named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

import functools
import itertools
import math
import time
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Sequence

from ._messages import WorkspaceError, note, speaking_to
from .cells import Drained
from .cells import _text as params_text  # k=v k=v
from .table import _Counter, _grid_entries, _reason, check_grid_size

if TYPE_CHECKING:
    from . import Workspace

__all__ = ["METHODS", "attack_grid", "GridRun", "GRID_VERDICTS", "grid_verdict", "AttackGrid", "attack_grid_cells",
           "learner_params_of", "attack_cell", "row_of", "say_skipped"]

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ("attack_grid",)

#: A row's verdict, from the attack's.
GRID_VERDICTS = {"tight": "tight", "violates": "violated", "unbounded": "unbounded", "stopped": "stopped"}


def grid_verdict(verdict: str, exact: bool) -> str:
    """The row's verdict from the attack's ``verdict`` (``below`` is ``loose`` when the worst case is proven)."""
    if verdict == "below":
        return "loose" if exact else "below"
    return GRID_VERDICTS.get(verdict, verdict)


# ---------------------------------------------------------------------------------------- the cells
class AttackGrid(NamedTuple):
    """A grid of attacks as :func:`attack_grid_cells` makes it: the grid's keys, its cells (each ``{"grid": {...},
    "class": {...}, "learner": {...}}``) and the keys that are the learner's."""

    keys: list
    cells: list
    learner_keys: list


def attack_grid_cells(family: str, fixed, grid, learner: str, learner_items=None) -> AttackGrid:
    """The grid's keys, each cell ``{"grid": {...}, "class": {...}, "learner": {...}}`` (the family's parameters
    parsed, the learner's as text), and the grid keys that are the learner's. ``fixed``: the family's parameters
    that do not vary (``{"k": 2}``); ``grid``: as :func:`attack_grid` takes it; ``learner_items``: the learner's
    parameters given (none of them may vary). The number of cells is checked before any is made."""
    from solvers.classes import families as fam

    if isinstance(grid, AttackGrid):
        return grid
    entries = _grid_entries(grid)
    keys = [k for k, _ in entries]
    for k in keys:
        if keys.count(k) > 1:
            raise WorkspaceError(f"grid parameter {k!r} is given more than once; give each parameter once")
    attack_only = family in fam.ATTACK_ONLY
    if attack_only:  # "d gamma R=1"
        class_keys = {w.partition("=")[0] for w in fam.attack_only(family).LISTING["params"].split()}
    elif family in fam.FAMILIES:
        class_keys = {p.name for p in fam.FAMILIES[family].params}
    else:
        raise WorkspaceError(f"unknown family {family!r}; choose one of: {', '.join([*fam.FAMILIES, *fam.ATTACK_ONLY])}")
    if fixed is not None and not hasattr(fixed, "items"):
        raise WorkspaceError(f"fixed={fixed!r}: give the family's fixed parameters as a dict, e.g. {{'k': 2}}")
    fixed = {str(k): str(v) for k, v in (fixed or {}).items()}
    learner_keys = [k for k in keys if k not in class_keys and not attack_only]
    if learner_keys:
        from solvers.learners import LEARNERS

        spec = LEARNERS.get(learner)
        names = {p[0] for p in spec.params} if spec is not None else set()
        bad = [k for k in learner_keys if k not in names]
        if bad:
            raise WorkspaceError(f"grid parameter {bad[0]!r} is neither a parameter of {family} "
                                 f"({', '.join(sorted(class_keys))}) nor of the learner {learner}"
                                 + (f" ({', '.join(sorted(names))})" if names else "") + "; vary one of those")
    for k in keys:
        if k in fixed:
            raise WorkspaceError(f"parameter {k!r} is both fixed and in --grid; give it once")
    for k in learner_keys:
        if k in (learner_items or {}):
            raise WorkspaceError(f"learner parameter {k!r} is both given and in --grid; give it once")
    check_grid_size(entries)  # counted before any cell is made
    cells = []
    for combo in itertools.product(*(vals for _, vals in entries)):
        values = dict(zip(keys, combo))
        cls_items = {**fixed, **{k: v for k, v in values.items() if k not in learner_keys}}
        try:
            if attack_only:
                cls_params = fam.attack_only(family).params_from_text(cls_items)
            else:
                cls_params = dict(fam.parse_params(family, [f"{k}={v}" for k, v in cls_items.items()]))
        except (ValueError, TypeError, KeyError) as e:
            raise WorkspaceError(_reason(e)) from None
        cells.append({"grid": {k: (cls_params[k] if k in cls_params else _number_or_text(v))
                               for k, v in values.items()},
                      "class": cls_params, "learner": {k: v for k, v in values.items() if k in learner_keys}})
    return AttackGrid(keys, cells, learner_keys)


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
                records: bool = False, C=None, known_opt=None, seconds=None, deadline_at=None) -> dict:
    """One attack of the grid (in this process or a worker): the row, and with ``records`` the store's
    record under ``"_records"`` (the client stores it; workers never touch the store). ``served``: the row
    the store already proves (then nothing is computed). A cell whose class or learner cannot be made comes
    back as ``{"grid", "skipped"}``. ``time_limit`` is the cell's limit as asked (the store's task keeps it);
    ``seconds`` (default ``time_limit``) what the run's clock gives the cell, cut at the run's end ``deadline_at``
    (a :func:`time.time`): a cell that begins after it computes nothing (``{"grid", NOT_STARTED: True}``).
    A cell cut short is ``stopped`` as any other, and a stopped row is never served."""
    from adversary.attack import attack
    from adversary.referee import witness_class

    from .cells import NOT_STARTED, cell_seconds

    if served is not None:
        return served
    limit = cell_seconds(time_limit if seconds is None else seconds, deadline_at)
    if limit is not None and limit <= 0:
        return {"grid": cell["grid"], NOT_STARTED: True}
    t0 = time.monotonic()
    try:
        C = witness_class({"family": family, "params": cell["class"]}) if C is None else C
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return {"grid": cell["grid"], "skipped": _reason(e)}
    except MemoryError:
        return {"grid": cell["grid"], "skipped": "out of memory making the class; lower the parameters"}
    params = learner_params_of(learner_items, cell["learner"], dict(getattr(C, "params", {}) or {}))
    optimum = []
    try:
        r = attack(learner, C, learner_params=params, strategy=strategy, time_limit=limit, seed=seed,
                   errors=errors, progress=progress, known_opt=known_opt, maximize=maximize,
                   on_opt=optimum.append if records else None)
    except (ValueError, TypeError) as e:
        return {"grid": cell["grid"], "skipped": _reason(e)}
    row = row_of(cell["grid"], r, seconds=time.monotonic() - t0)
    if records:  # a cell stopped by Ctrl-C too: its witness proves a lower bound (it is not served, only kept)
        from adversary.store import seal

        from .attack import attack_record, opt_records, task_of

        rec = attack_record(C, r, task_of(learner, params, C, strategy, seed, errors, time_limit, maximize))
        rec.extra["cell_seconds"] = row["seconds"]  # (a rerun that serves the cell prints them)
        # its witness replayed once, here: served by its digest from now on; and the optimum it computed, which a
        # rerun serving the cell shows beside it
        row["_records"] = [seal(rec, C)] + [seal(o, C) for o in opt_records(C, optimum)]
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
    from adversary.referee import fraction_text

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


def say_skipped(row: dict) -> None:
    """The note of a cell whose class or learner cannot be made."""
    note(f"skipped {params_text(row['grid'])}: {row['skipped']}")


# ---------------------------------------------------------------------------------------- the run
class GridRun(Drained):
    """What :func:`attack_grid` did: its rows (``rows``, in the order the cells finished),
    the cells skipped (``{"grid", "skipped"}``: a class or learner that cannot be made), the cells the run's time
    limit left out (``missing``: their grid values; they had not begun), whether a Ctrl-C ended it
    (``interrupted``), the rows served from the store (``served``), the records written to it (``wrote``), and a
    store error that stopped the writes (``store_error``).

    A row is a dict: the grid's parameters (each also under ``grid``), ``learner`` and ``class`` (as the witness
    names them), ``mistakes`` (the proven worst case when ``exact``, else a lower bound on it), ``bound`` (None: no
    finite bound) with its ``formula`` and ``source``, ``gap`` (floor(bound) - mistakes; bound - mistakes for a
    randomized learner's expected mistakes), ``verdict`` (see the module), ``opt`` (Opt(C), or the game's value,
    ``opt_symbol``), ``mistakes_by_kind``, ``lemmas``, ``strategy``, ``stopped``, ``seconds``, and ``served``
    (True) when the store served it."""

    def __init__(self, family: str = "", learner: str = "", keys=(), cells: int = 0, store=None):
        super().__init__(store)  # (the rows the store was given from here on are the run's: a served attack's Opt(C))
        self.family, self.learner, self.keys, self.cells = family, learner, list(keys), cells

    @property
    def rows(self) -> list:
        """The rows, in the order the cells finished."""
        return self.done

    @property
    def complete(self) -> bool:
        """Every cell of the grid has its row or is skipped: no Ctrl-C, no cell left out by the time limit."""
        return not self.interrupted and not self.missing

    @property
    def stopped(self) -> list:
        """The rows whose search the time limit stopped: their mistakes are lower bounds."""
        return [r for r in self.done if r["verdict"] == "stopped"]

    def __repr__(self) -> str:
        return (f"GridRun({self.learner} on {self.family}: {len(self.done)} of {self.cells} cells, "
                f"{len(self.skipped)} skipped, {self.served} served, {self.wrote} written"
                f"{', interrupted' if self.interrupted else ''}"
                f"{f', {len(self.missing)} not begun within the time limit' if self.missing else ''})")


def attack_grid(ws: Workspace, family: str, grid: Mapping[str, Any] | Sequence[str] | AttackGrid, learner: str, *,
                fixed: Mapping[str, Any] | None = None, learner_items: Mapping[str, Any] | None = None,
                strategy: str = "auto", seed: int = 0, errors: int = 0, time_limit: float | None = None,
                cell_time_limit: float | None = None, maximize: str = "mistakes", jobs: int | None = None,
                progress: Callable[[dict], None] | None = None, on_row: Callable[[dict], None] | None = None,
                on_skip: Callable[[dict], None] | None = None) -> GridRun:
    """One attack of ``learner`` per cell of ``grid`` over ``family``, a row as each cell finishes; each served from
    the workspace's store when its stored witness replays, else computed and recorded.

    Parameters
    ----------
    family : str
        A family of :mod:`solvers.classes.families` (``"thresholds"``), or one for attacks only
        (``"margin-halfspaces"``).
    grid : dict or list of str
        The parameters to vary: ``{"N": [8, 16]}`` (values a list, a range, or a text ``"2..8"`` / ``"1,2,5"``) or
        the command line's ``["N=8,16"]``; a key the family does not have is the learner's. One cell per
        combination (the first key varies slowest). An :class:`AttackGrid` (:func:`attack_grid_cells`) is taken
        as it is.
    learner : str
        A learner's name (``littlestone learners``).
    fixed : dict, optional
        The family's parameters that do not vary (``{"k": 2}``).
    learner_items : dict, optional
        The learner's parameters; a value naming a parameter of the class takes its value in each cell
        (``{"n": "n"}``).
    strategy, seed, errors, maximize
        As :func:`adversary.attack.attack` takes them, for each cell.
    time_limit : float, optional
        Seconds for the whole run. Without ``cell_time_limit`` each cell gets its share of the seconds left as it
        begins (what a quick cell leaves goes to the next ones); the cells that had not begun when the time was up
        are listed in ``missing`` (:class:`~adversary.workspace.cells.Clock`).
    cell_time_limit : float, optional
        Seconds per cell (the attack's ``time_limit``; without either, ``auto`` gives itself
        :data:`adversary.attack.AUTO_SECONDS`), cut at the run's end when ``time_limit`` is given too.
    jobs : int, optional
        Cells at once: loky processes (default: the workspace's ``jobs``, lowered to the usable CPUs and the cells
        with a note), or on a Dask cluster (the workspace's ``backend``/``scheduler``) the cells in flight.
    progress : callable, optional
        ``progress(info)``: while a cell runs here or on a cluster, the attack's report with the cell's grid
        values under ``cell`` (``strategy``, ``mistakes``: the best so far); after each cell, ``done`` of
        ``total`` (and the finished ``row``).
    on_row, on_skip : callable, optional
        ``on_row(row)`` as each cell finishes (a cell stopped by Ctrl-C too), ``on_skip(row)`` for a cell whose
        class or learner cannot be made (default: :func:`say_skipped`, a note).

    Returns
    -------
    GridRun
        Its ``rows``, ``skipped``, ``stopped``, ``missing``, ``complete``, ``interrupted``, ``served``, ``wrote``,
        ``store_error``.

    Raises
    ------
    WorkspaceError
        A grid or parameter that is not one (one line saying what to change), a grid over the limit, no cell that
        can be attacked, a cluster that cannot be used.

    Examples
    --------
    >>> from adversary.workspace import Workspace
    >>> with Workspace() as ws:
    ...     run = ws.attack_grid("thresholds", {"N": [3, 7]}, "halving")
    >>> [(r["N"], r["mistakes"], r["bound"], r["verdict"]) for r in run.rows]  # floor(log2 (N + 1)): the bound met
    [(3, 2, 2, 'tight'), (7, 3, 3, 'tight')]
    """
    from .cells import Clock, check_time_limit, drain, run_cells, where

    with speaking_to(ws.note):
        check_time_limit(time_limit, "time_limit")
        check_time_limit(cell_time_limit, "cell_time_limit")
        if learner_items is not None and not hasattr(learner_items, "items"):
            raise WorkspaceError(f"learner_items={learner_items!r}: give the learner's parameters as a dict, e.g. "
                                 "{'alpha': 2}")
        learner_items = dict(learner_items or {})
        if isinstance(grid, AttackGrid) and fixed:
            raise WorkspaceError("an AttackGrid has its fixed parameters in its cells; give fixed=None with it")
        keys, cells, _ = attack_grid_cells(family, fixed, grid, learner, learner_items)
        backend, scheduler, jobs = where(ws, jobs)  # (run_cells lowers loky's jobs to the CPUs and the cells)
        store, trust, verify = ws.store, ws.trust, ws.verify
        run = GridRun(family, learner, keys, len(cells), store)
        clock = Clock(time_limit, cell_time_limit, cells=len(cells))

        def prepare(c, here: bool) -> dict:
            """The cell's seconds (:class:`~adversary.workspace.cells.Clock`), and the row the store proves of cell ``c`` (then the cell computes
            nothing), looked up just before it starts; ``here``: the cell runs in this process (it takes the class
            made here, and Opt(C) as stored). A cell the store proves is served after the run's time limit too."""
            limits = clock.limits()
            if store is None:
                return limits
            return {**limits, **_prepared(c, here, family, learner, learner_items, strategy, seed, errors,
                                          cell_time_limit, maximize, store, trust, verify)}

        def live(cell, info):  # inside the cell being attacked, here or on a cluster
            progress({**info, "cell": cell["grid"]})

        cell_fn = functools.partial(attack_cell, family, learner=learner, learner_items=learner_items,
                                    strategy=strategy, seed=seed, time_limit=cell_time_limit, errors=errors,
                                    maximize=maximize)
        runs = run_cells(cell_fn, cells, jobs=jobs, backend=backend, scheduler=scheduler,
                         timeout=ws.scheduler_timeout, progress=None if progress is None else live, prepare=prepare,
                         on_jobs=clock.running)
        counter = _Counter(progress, len(cells))
        counter.count(0)
        drain(runs, run, store=store, emit=on_row or (lambda row: None), skip=on_skip or say_skipped, bar=counter,
              status=lambda row: row)
        if not run.done and run.skipped and len(run.skipped) == len(cells) and not run.interrupted:
            raise WorkspaceError(f"no cell of the grid can be attacked, e.g. {params_text(run.skipped[0]['grid'])}: "
                                 f"{run.skipped[0]['skipped']}")
        return run


def _prepared(c, here, family, learner, learner_items, strategy, seed, errors, time_limit, maximize, store, trust,
              verify) -> dict:
    """What :func:`attack_grid`'s cell ``c`` takes from the store: the row it proves (``served``), or the class made
    here and Opt(C) as stored (``here``: the cell runs in this process)."""
    from adversary.referee import witness_class

    from .attack import known_opt, served_attack, stopped_row, task_of, trusted_attack
    from .storage import lookup

    try:
        C = witness_class({"family": family, "params": c["class"]})
    except (ValueError, TypeError, KeyError, OverflowError, MemoryError):
        return {"records": True}
    params = learner_params_of(learner_items, c["learner"], dict(getattr(C, "params", {}) or {}))
    task = task_of(learner, params, C, strategy, seed, errors, time_limit, maximize)
    found = lookup(store, "attack", C, task, trust=trust, verify=verify, what=f"attack of cell {params_text(c['grid'])}")
    if found.lower is not None and "result" in found.record.extra and not stopped_row(found.record):
        r = served_attack(found, C, store) if not trust else trusted_attack(found.record)
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
    return {"records": True, "C": C, "known_opt": known_opt(store, C, errors=errors, trust=trust)}
