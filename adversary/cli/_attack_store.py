"""What ``attack`` and ``attack --grid`` share: an attack's row in the results store (its task key, its record,
serving a stored one again after its witness is replayed and its bound and verdict derived again) and the
parsing of ``k=v`` items. One module, so that neither command imports the other's."""

from __future__ import annotations

import math
from fractions import Fraction

from ._output import CLIError, json_safe
from ._store import lookup

__all__ = []


# ---------------------------------------------------------------------------------------- the store
def _attack_task(args, learner_params: dict, C) -> dict:
    """What an attack row is keyed by, besides the class (:func:`_task_of` with the command's options)."""
    return _task_of(args.learner, learner_params, C, args.strategy, args.seed, args.errors, args.time_limit,
                    args.maximize)


def _task_of(learner: str, learner_params: dict, C, strategy: str, seed: int, errors: int, time_limit,
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


def _attack_record(C, r, task: dict, matrix=None):
    from pathlib import Path

    from adversary.store import Record, class_key, exact

    summary = {k: v for k, v in r.to_json().items() if k != "witness"}
    mistakes = r.mistakes
    return Record(kind="attack", class_key=class_key(C), task=task,
                  family=r.witness["class"].get("family"), params=dict(r.witness["class"].get("params") or {}),
                  concepts=getattr(C, "n_concepts", None), points=getattr(C, "n_points", None) if getattr(C, "finite", False) else None,
                  value=exact(mistakes), lower=exact(mistakes), upper=None, seconds=r.stats.get("seconds"),
                  engine=r.strategy, lower_cert=r.witness,
                  extra={"result": json_safe(summary), "bound": r.bound.to_json(), "verdict": r.verdict, "exact": r.exact,
                         **({"matrix": Path(matrix).name} if matrix is not None else {})})


def _stored_bound_value(b: dict):
    """The learner's bound as a stored attack result writes it (inf, a Fraction, or a number)."""
    return math.inf if b.get("value") is None else Fraction(b["fraction"]) if "fraction" in b else b["value"]


def _stored_opt(res: dict):
    """Opt(C) (or the game's value) as a stored attack result writes it, or None."""
    return Fraction(res["opt_fraction"]) if res.get("opt_fraction") else res.get("opt")


def _served_attack(found, C, store):
    """The AttackResult of a stored attack, or the reason it cannot be served. Its mistakes are the count of
    its witness replayed (by the look-up); the learner's bound and the verdict are derived again here, and
    Opt(C) is taken from the store's own (re-checked) row or computed again within a second, else left out."""
    from adversary.attack import AttackResult, bound_for
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
        return f"it says the bound is {_number_text(stored_bound)}, and the learner's bound is {_number_text(bound.value)}"
    stats = dict(res.get("stats") or {})
    try:
        verdict, exact = attack_claims(rec, mistakes, bound)
    except Exception as e:  # noqa: BLE001 - a verdict that cannot be derived again is not served
        return f"its verdict cannot be derived again ({e})"
    if stats.get("stopped"):  # (run() searches again; this is a second guard)
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
    from adversary.attack import lemmas_for

    maximize = res.get("maximize", "mistakes")
    lemmas = lemmas_for(model, C, None if game.get("randomized") else w.get("mistakes_by_kind"),
                        errors, proven=maximize if stats.get("maximize_exact") and w.get("cycle") is None else None)
    if lemmas != (res.get("lemmas") or []):
        return "its lemmas' verdicts differ from the learner's lemmas held against its replayed counts"
    return AttackResult(mistakes, Bound(bound.value, bound.formula, bound.source), opt, verdict, w,
                        res["strategy"], exact, stats, res.get("message", ""), errors,
                        game.get("randomized", False), game.get("symbol", "Opt"), lemmas, maximize)


def _stopped_row(rec) -> bool:
    """Whether a stored attack's search was stopped (a time limit on a machine maybe loaded): its count is
    only a lower bound, not served; the attack searches again and the store keeps the better row."""
    res = rec.extra.get("result") if isinstance(rec.extra, dict) else None
    return not isinstance(res, dict) or bool((res.get("stats") or {}).get("stopped"))


def _trusted_attack(rec):
    """The AttackResult of a stored attack as it is stored (--trust-store: nothing re-checked)."""
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


def _opt_again(C, store, game: dict):
    """The game's optimum on ``C`` for a served attack: (value, how) from the store's re-checked row, or
    computed within a second; (None, why not) otherwise."""
    from adversary.store import opt_task
    from solvers.game_rules import Game
    from solvers.opt import opt

    from ._store import lookup

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
        from adversary.store import record_of_opt

        from ._store import put

        put(store, record_of_opt(C, r, proof_seconds=0.5), C)  # sealed: its certificates checked once
    return r.value, "solving it again"


def _known_opt(store, C, args):
    """Opt(C) as the store knows it (an ``opt`` row, its certificates re-checked), for the attack to start from
    its mistake tree; None when the store has no such row (or the attack plays another game)."""
    import time

    from adversary.store import opt_task

    from .opt import _served

    if store is None or args.errors or getattr(C, "n_concepts", None) is None:
        return None
    found = lookup(store, "opt", C, opt_task(), trust=args.trust_store, what="Opt(C)")
    if found.lower is None or found.record.lower_cert is None and found.lower > 0:
        return None
    from solvers.game_rules import Game

    return _served(found, C, Game(), store, args.trust_store, time.monotonic())


# ---------------------------------------------------------------------------------------- k=v items
def _kv_items(items, what: str) -> dict:
    """``["n=5", "alpha=3/2"]`` -> ``{"n": "5", "alpha": "3/2"}`` (the library reads the strings)."""
    out = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CLIError(f"{what} {item!r} is not name=value; write e.g. n=5")
        if key in out:
            raise CLIError(f"{what} {key!r} is given twice; give it once")
        out[key] = value
    return out


def _whole_numbers(params: dict) -> dict:
    """Values that are whole numbers as ints (``n=06`` is n=6, ``alpha=4/2`` is 2); the rest as given (the
    learner reads its own strings exactly)."""
    from adversary.store import canonical_value

    out = {}
    for k, v in params.items():
        c = canonical_value(v)
        out[k] = c if isinstance(c, int) and not isinstance(c, bool) else v
    return out



def _number_text(v) -> str:
    if v is None or (isinstance(v, float) and math.isinf(v)):
        return "none"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.4f}".rstrip("0")
    return str(int(v)) if isinstance(v, float) else str(v)
