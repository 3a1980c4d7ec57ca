"""The workspace's ``attack``: :func:`adversary.attack.attack` with the results store.

An attack is looked up in the store first (its row keyed by the class and everything that decides its outcome,
:func:`task_of`). A stored attack is served only when it proves itself again: its witness is replayed (by the
look-up: by its seal, or from scratch), the learner's bound, the verdict and the lemmas are derived again here,
and Opt(C) is taken from the store's own row or computed again within a second (:func:`served_attack`). A row
that does not check is reported in one note and computed again; a row whose search was stopped (a time limit,
Ctrl-C) holds only a lower bound and is never served: the attack searches again and the store keeps the better
row. A computed attack starts from the mistake tree of the store's Opt(C) row when there is one
(:func:`known_opt`) and is recorded, sealed, before it is returned (a stopped one too: its witness proves a
lower bound).

Its methods are named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from ._messages import WorkspaceError, note, speaking_to

if TYPE_CHECKING:
    from adversary.attack import AttackResult

    from . import Workspace
from .storage import CHECKED, SEALED, VERIFIED, lookup, put

__all__ = ["METHODS", "attack", "task_of", "attack_record", "served_attack", "trusted_attack", "stopped_row",
           "known_opt", "number_text", "opt_records"]

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ("attack",)


# ---------------------------------------------------------------------------------------- the method
def attack(ws: Workspace, C: Any, learner: Any, *, learner_params: dict | None = None, params: dict | None = None,
           strategy: str = "auto", seed: int = 0, errors: int = 0, time_limit: float | None = None,
           maximize: str = "mistakes", jobs: int | None = None, progress: Callable[[dict], None] | None = None,
           matrix: str | None = None) -> AttackResult:
    """Search for the sequence that makes ``learner`` err most on ``C``, served from the workspace's store when
    it holds the attack and its witness replays, else computed (:func:`adversary.attack.attack`) and recorded.

    Parameters
    ----------
    ws : Workspace
        The workspace: its store (or none), ``trust`` and ``verify`` (how stored rows are checked), ``jobs``.
    C : a class of :mod:`solvers.classes`, a class spec dict, or a family's name
        The class; a family's name (``"thresholds"``) takes its parameters from ``params``.
    learner : str
        A learner's name (``littlestone learners``); its parameters in ``learner_params`` (``n`` or ``d``
        defaults from the class).
    learner_params, params : dict, optional
        The learner's parameters; the family's parameters when ``C`` is a family's name.
    strategy, seed, errors, time_limit, maximize
        As :func:`adversary.attack.attack` takes them (each is part of the stored row's key).
    jobs : int, optional
        Worker processes of the strategies (default the workspace's ``jobs``; lowered to the usable CPUs,
        with a note).
    progress : callable, optional
        ``progress(info)``, about once a second while the attack is computed (not when it is served):
        ``strategy``, ``mistakes`` (the best so far), ``seconds``, and what the running strategy reports.
    matrix : str or path, optional
        The file the class was read from: its name is kept with the row (``store show`` lists it).

    Returns
    -------
    AttackRun
        An :class:`adversary.attack.AttackResult` with ``store_error``: a write to the store that failed (a locked
        store), in one line, else None (the result is returned all the same). A served attack has
        ``stats["stored"]``: ``time``, ``seconds`` (of the run that found it), ``version``, ``checked`` (False with
        ``trust``) and ``how`` its witness was known (``"witness replayed when stored, digest matches"``).

    Raises
    ------
    WorkspaceError
        ``params`` given with a class that is not a family's name.
    ValueError
        One line saying what to change: an unknown learner, family or strategy, impossible parameters, a
        strategy that does not apply (:func:`adversary.attack.attack`).

    Examples
    --------
    >>> from adversary.workspace import Workspace
    >>> with Workspace() as ws:                        # no store: computed each time
    ...     r = ws.attack("thresholds", "halving", params={"N": 7})
    >>> r.mistakes, r.verdict                          # floor(log2 8) = 3, Halving's bound met
    (3, 'tight')
    """
    from adversary.attack import attack as compute

    from .cells import cap_jobs

    with speaking_to(ws.note):
        C = _class_of(C, params)
        jobs = cap_jobs(ws.jobs if jobs is None else jobs)
        learner_params = dict(learner_params or {})
        store = ws.store
        task = task_of(learner, learner_params, C, strategy, seed, errors, time_limit, maximize)
        served = _served(ws, C, task)
        if served is not None:
            return _run_of(served)
        optimum = []
        r = compute(learner, C, learner_params=learner_params, strategy=strategy, time_limit=time_limit, seed=seed,
                    jobs=jobs, errors=errors, progress=progress,
                    known_opt=known_opt(store, C, errors=errors, trust=ws.trust), maximize=maximize,
                    on_opt=optimum.append)
        failed = None
        if store is not None:  # stopped too (time limit or Ctrl-C): its witness proves a lower bound
            failed = put(store, attack_record(C, r, task, matrix), C)  # sealed, before the caller prints it
            for rec in opt_records(C, optimum):  # the optimum it computed: served to its next run
                failed = failed or put(store, rec, C)
        return _run_of(r, store_error=None if failed is None else str(failed))


_RUN_TYPE: list = []


def _run_type():
    """:class:`AttackRun`, made when first needed (it extends :class:`adversary.attack.AttackResult`, whose import
    is heavy: ``import adversary.workspace`` stays light)."""
    if not _RUN_TYPE:
        from dataclasses import dataclass, field
        from typing import Optional

        from adversary.attack import AttackResult

        @dataclass
        class AttackRun(AttackResult):
            """What :func:`~adversary.workspace.attack.attack` returns: an :class:`~adversary.attack.AttackResult`
            (served from the store when ``stats["stored"]`` is there), and what the workspace did with it.

            Attributes
            ----------
            store_error : str or None
                A write to the store that failed (the result is not stored; computed again next time), else None.
            """

            store_error: Optional[str] = field(default=None, compare=False)

        AttackRun.__module__ = __name__
        _RUN_TYPE.append(AttackRun)
    return _RUN_TYPE[0]


def __getattr__(name):  # AttackRun, made when first asked for (see _run_type)
    if name == "AttackRun":
        return _run_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run_of(r, **extra):
    """``r`` (an AttackResult) as an AttackRun, with ``extra``."""
    from dataclasses import fields

    from adversary.attack import AttackResult

    return _run_type()(**{f.name: getattr(r, f.name) for f in fields(AttackResult)}, **extra)


def _class_of(C, params):
    """The class object of ``C``: a class as it is, a spec dict or a family's name (with ``params``) built."""
    from adversary.referee import witness_class

    if isinstance(C, str):
        return witness_class({"family": C, "params": dict(params or {})})  # WitnessError: one line
    if params is not None:
        raise WorkspaceError("params= are a family's parameters: give the class as the family's name "
                             "(ws.attack('thresholds', 'halving', params={'N': 16})), or drop params")
    return witness_class(C) if isinstance(C, dict) else C


def _served(ws, C, task: dict):
    """The stored attack of ``task`` on ``C`` when its row proves itself again, else None (a row that does not
    check is said in one note and removed: the new result replaces it)."""
    store = ws.store
    found = lookup(store, "attack", C, task, trust=ws.trust, verify=ws.verify, what="attack")
    if found.lower is None or "result" not in found.record.extra or stopped_row(found.record):
        return None  # (a stopped search's row is not served: the attack searches again, and the store keeps the better)
    r = served_attack(found, C, store) if not ws.trust else trusted_attack(found.record)
    if isinstance(r, str):
        note(f"the stored attack in {store.path} does not check ({r}); computing it again")
        if not store.readonly:
            store.delete([found.record.key])
        return None
    if r.stats.get("stored"):
        r.stats["stored"]["how"] = _witness_how(found.how)
    return r


def _witness_how(how: str) -> str:
    """How a served attack's row was known (:attr:`adversary.workspace.storage.Lookup.how`), said of its witness."""
    return {SEALED: "witness replayed when stored, digest matches", CHECKED: "witness replayed",
            VERIFIED: "witness replayed: --verify-store"}.get(how, how)


# ---------------------------------------------------------------------------------------- the row
def task_of(learner: str, learner_params: dict, C, strategy: str, seed: int, errors: int, time_limit,
            maximize: str = "mistakes") -> dict:
    """What an attack row is keyed by, besides the class: everything that decides its outcome, in one
    canonical form (the learner's registered name; its parameters as the learner built on ``C`` reports
    them, defaults filled in and numbers exact: ``winnow1`` and ``winnow1 n=6`` on a class of 6 variables,
    or ``alpha=2``, ``2.0`` and ``4/2``, are one task)."""
    from adversary.referee import build_learner, learner_spec
    from adversary.store import canonical_params, canonical_value

    name, params = learner, dict(learner_params)
    try:
        name, params = learner_spec(build_learner(learner, learner_params, C))
    except Exception:  # noqa: BLE001 - a learner that cannot be built here: the attack itself says why
        pass
    task = {"learner": name, "params": canonical_params(params), "strategy": strategy, "seed": seed,
            "errors": errors, "time_limit": canonical_value(time_limit)}
    if maximize != "mistakes":  # (the rows stored before --maximize keep their keys)
        task["maximize"] = maximize
    return task


def attack_record(C, r, task: dict, matrix=None):
    """The store's row of the attack ``r`` on ``C`` (unsealed: :func:`adversary.workspace.storage.put` seals
    it): its mistakes as a lower bound proven by its witness, its summary (the result without the witness, as
    JSON reads it back), the bound and the verdict; ``matrix``: the file the class was read from."""
    from pathlib import Path

    from adversary.store import Record, class_key, exact

    summary = {k: v for k, v in r.to_json().items() if k != "witness"}
    summary = json.loads(json.dumps(summary, default=str))  # as the store reads it back: lists, text keys
    mistakes = r.mistakes
    return Record(kind="attack", class_key=class_key(C), task=task,
                  family=r.witness["class"].get("family"), params=dict(r.witness["class"].get("params") or {}),
                  concepts=getattr(C, "n_concepts", None),
                  points=getattr(C, "n_points", None) if getattr(C, "finite", False) else None,
                  value=exact(mistakes), lower=exact(mistakes), upper=None, seconds=r.stats.get("seconds"),
                  engine=r.strategy, lower_cert=r.witness,
                  extra={"result": summary, "bound": r.bound.to_json(), "verdict": r.verdict, "exact": r.exact,
                         **({"matrix": Path(matrix).name} if matrix is not None else {})})


def stopped_row(rec) -> bool:
    """Whether a stored attack's search was stopped (a time limit on a machine maybe loaded): its count is
    only a lower bound, not served; the attack searches again and the store keeps the better row."""
    res = rec.extra.get("result") if isinstance(rec.extra, dict) else None
    return not isinstance(res, dict) or bool((res.get("stats") or {}).get("stopped"))


def _stored_bound_value(b: dict):
    """The learner's bound as a stored attack result writes it (inf, a Fraction, or a number)."""
    return math.inf if b.get("value") is None else Fraction(b["fraction"]) if "fraction" in b else b["value"]


def _stored_opt(res: dict):
    """Opt(C) (or the game's value) as a stored attack result writes it, or None."""
    return Fraction(res["opt_fraction"]) if res.get("opt_fraction") else res.get("opt")


# ---------------------------------------------------------------------------------------- serving a row
def served_attack(found, C, store):
    """The AttackResult of a stored attack (``found``, its look-up), or the reason it cannot be served. Its
    mistakes are the count of its witness replayed (by the look-up); the learner's bound, the verdict and the
    lemmas are derived again here, and Opt(C) is taken from the store's own (re-checked) row or computed again
    within a second, else left out."""
    from adversary.attack import AttackResult, bound_for, lemmas_for
    from adversary.referee import build_learner, learner_spec
    from adversary.store import attack_claims
    from solvers.learners.base import Bound

    rec = found.record
    res = rec.extra["result"]
    mistakes = found.lower
    game = res.get("game") or {}
    errors = game.get("errors", 0)
    w = rec.lower_cert
    try:
        name, params = learner_spec(w["learner"])
        model = build_learner(name, params, C)
        bound = bound_for(model, C, errors)
    except Exception as e:  # noqa: BLE001 - a learner that cannot be built again: the row is not served
        return f"its learner cannot be built again ({e})"
    stored_bound = _stored_bound_value(res["bound"])
    if stored_bound != bound.value:
        return f"it says the bound is {number_text(stored_bound)}, and the learner's bound is {number_text(bound.value)}"
    stats = dict(res.get("stats") or {})
    try:
        verdict, exact = attack_claims(rec, mistakes, bound)
    except Exception as e:  # noqa: BLE001 - a verdict that cannot be derived again is not served
        return f"its verdict cannot be derived again ({e})"
    if stats.get("stopped"):  # (the caller searches again; this is a second guard)
        return f"its search was stopped ({stats['stopped']}): its count is only a lower bound"
    if res.get("verdict") != verdict:
        return f"its verdict is {res.get('verdict')!r}, and {mistakes} mistakes against the bound give {verdict!r}"
    opt, why = _opt_again(C, store, game)
    said = _stored_opt(res)
    if said is not None and opt is not None and said != opt:
        return f"it says {game.get('symbol', 'Opt')}(C) = {said}, and {why} gives {opt}"
    stats["stored"] = {"time": rec.time, "seconds": rec.seconds, "version": rec.version, "checked": True}
    if opt is None:
        for k in ("opt_lower", "opt_upper"):
            stats.pop(k, None)
    maximize = res.get("maximize", "mistakes")
    lemmas = lemmas_for(model, C, None if game.get("randomized") else w.get("mistakes_by_kind"),
                        errors, proven=maximize if stats.get("maximize_exact") and w.get("cycle") is None else None)
    if lemmas != (res.get("lemmas") or []):
        return "its lemmas' verdicts differ from the learner's lemmas held against its replayed counts"
    return AttackResult(mistakes, Bound(bound.value, bound.formula, bound.source), opt, verdict, w,
                        res["strategy"], exact, stats, res.get("message", ""), errors,
                        game.get("randomized", False), game.get("symbol", "Opt"), lemmas, maximize)


def trusted_attack(rec):
    """The AttackResult of a stored attack as it is stored (``trust``: nothing re-checked)."""
    from adversary.attack import AttackResult
    from adversary.store import number
    from solvers.learners.base import Bound

    res = rec.extra["result"]
    b = res["bound"]
    value, opt = _stored_bound_value(b), _stored_opt(res)
    game = res.get("game") or {}
    stats = dict(res.get("stats") or {})
    stats["stored"] = {"time": rec.time, "seconds": rec.seconds, "version": rec.version, "checked": False}
    return AttackResult(number(rec.value), Bound(value, b["formula"], b["source"]), opt, res["verdict"], rec.lower_cert,
                        res["strategy"], res["exact"], stats, res.get("message", ""), game.get("errors", 0),
                        game.get("randomized", False), game.get("symbol", "Opt"), list(res.get("lemmas") or []),
                        res.get("maximize", "mistakes"))


def opt_records(C, results) -> list:
    """The store's rows of the game's optimum an attack computed (``results``, what its ``on_opt`` received):
    the solved ones, with their certificates (built within half a second), so that a rerun serving the attack
    finds its optimum stored and writes nothing."""
    from adversary.store import record_of_opt

    return [record_of_opt(C, r, proof_seconds=0.5) for r in results if r.value is not None]


def _opt_again(C, store, game: dict):
    """The game's optimum on ``C`` for a served attack: (value, how) from the store's re-checked row, or
    computed within a second (and stored, sealed); (None, why not) otherwise."""
    from adversary.store import opt_task
    from solvers.game_rules import Game
    from solvers.opt import opt

    if not getattr(C, "finite", False):
        return None, "not a finite class"
    G = Game.of("randomized" if game.get("randomized") else "deterministic", game.get("errors", 0))
    found = lookup(store, "opt", C, opt_task(None if G.standard else G), what=f"{G.symbol}(C)")
    if found.solved:
        return found.value, "the store's re-checked row"
    r = opt(C, time_limit=1.0, game=G.kind, errors=G.errors) if not G.standard else opt(C, time_limit=1.0)
    if r.value is None:
        return None, "not solved again within a second"
    if store is not None and not store.readonly:  # with its certificates: served (re-checked) next time
        for rec in opt_records(C, [r]):
            put(store, rec, C)  # sealed: its certificates checked once
    return r.value, "solving it again"


def known_opt(store, C, *, errors: int = 0, trust: bool = False):
    """Opt(C) as the store knows it (an ``opt`` row, its certificates re-checked: an
    :class:`~solvers.opt.OptResult` with its mistake tree), for the attack to start from its mistake tree; None
    when the store has no such row, or the attack plays another game (``errors``)."""
    import time

    from adversary.store import opt_task
    from solvers.game_rules import Game

    from .opt import served_result

    if store is None or errors or getattr(C, "n_concepts", None) is None:
        return None
    found = lookup(store, "opt", C, opt_task(), trust=trust, what="Opt(C)")
    if found.lower is None or found.record.lower_cert is None and found.lower > 0:
        return None
    return served_result(found, C, Game(), store, trust, time.monotonic())


# ---------------------------------------------------------------------------------------- text
def number_text(v) -> str:
    """A bound or a count for a message: ``none`` for no bound (None or inf), a whole float as an int, else
    four decimals (an exact Fraction as ``p/q``)."""
    if v is None or (isinstance(v, float) and math.isinf(v)):
        return "none"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.4f}".rstrip("0")
    return str(int(v)) if isinstance(v, float) else str(v)
