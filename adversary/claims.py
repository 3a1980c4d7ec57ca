"""What a witness says of itself beyond its replay (its learner's bound, the verdict, Opt(C)), derived again.

:func:`adversary.referee.verify_witness` replays a witness and counts its mistakes; an attack also writes what
it concluded (``"bound"``, ``"verdict"``, ``"opt"``, ...). :func:`check_claims` (``littlestone verify``) derives
each of those again from the class and the learner, as :mod:`adversary.attack` derived them, or refuses the
file. It sits beside both modules (it uses the attack's rules and the referee's readers), so that neither
imports the other's way back.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from solvers.game_rules import value_text
from solvers.messages import one_line
from solvers.numbers import json_type as _type
from solvers.numbers import point_text as _show

from .attack import COUNTERS, VERDICTS, bound_for, json_value, opt_applies, verdict_of
from .referee import (VerifyResult, WitnessError, build_learner, learner_spec, read_fraction, witness_class,
                      witness_errors)
from .strategies import STRATEGY_NAMES

__all__ = ["WITNESS_KEYS", "Claims", "check_claims"]


#: Every key a witness may have: the referee's own (checked by :func:`~adversary.referee.verify_witness`), and
#: what an attack says of it (``bound``, ``verdict``, ``opt``, ``opt_symbol``, ``opt_fraction``, ``strategy``,
#: ``lemmas``, ``maximize``: checked by :func:`check_claims`), and ``note``, words for people.
WITNESS_KEYS = ("kind", "learner", "class", "made_for", "sequence", "target", "mistakes", "mistakes_by_kind", "errors",
                "expected_mistakes", "expected_mistakes_by_kind", "cycle", "bound", "verdict", "opt", "opt_symbol",
                "opt_fraction", "strategy", "lemmas", "maximize", "note")
_BOUND_KEYS = ("value", "fraction", "formula", "source")
#: The formulas of a bound an attack could not compute (its value then null, a claim of nothing).
_NOT_COMPUTED = (": not computed within the time limit", ": not computed (interrupted)")


@dataclass(frozen=True)
class Claims:
    """The outcome of :func:`check_claims`.

    Attributes
    ----------
    status : str
        ``"ok"`` (every claim derived again and equal), ``"failed"`` (``message`` says which claim is wrong) or
        ``"unchecked"`` (a claim that could not be derived within the time limit: ``message`` says which, and
        the bounds found).
    message : str
        One line, when not ok.
    lines : tuple of str
        What was derived again (``bound ...``, ``verdict ...``, ``Opt(C) = ...``), for the report.
    """

    status: str
    message: str = ""
    lines: tuple = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def check_claims(w: dict, result: "VerifyResult", *, time_limit: Optional[float] = None) -> Claims:
    """Derive again what a witness says of itself beyond its replay, after
    :func:`~adversary.referee.verify_witness` accepted it (``result``): every claim is computed from the class
    and the learner, or refused.

    * Its keys: one that littlestone does not write (:data:`WITNESS_KEYS`) is refused.
    * ``"bound"`` (``{"value", "formula", "source"}``, and ``"fraction"`` for an exact fraction): the learner's
      bound on the class (:func:`adversary.attack.bound_for`, the learner rebuilt by name), which must be the
      same in every field. A bound the attack could not compute in its time (value null, formula "...: not
      computed within the time limit") claims nothing and is accepted as such.
    * ``"verdict"``: derived from the mistakes replayed (a randomized learner's exact expectation) against that
      bound, as the attack derives it: ``unbounded`` for a verified cycle, ``violates`` above the bound,
      ``tight`` at floor(bound) (exactly the bound for an expectation), else ``below``, or ``stopped`` (an
      attack stopped by its time limit says only "at least": the same count, below the bound).
    * ``"opt"`` (and ``"opt_symbol"``, ``"opt_fraction"``), the game's optimum (Opt(C); RL(C), D_k(C), R_k(C)
      for a randomized learner or label errors): computed again by :func:`solvers.opt.opt` within
      ``time_limit``. A value it settles must be equal; one outside the bounds it proves is refused; one within
      them, unsettled in the time, is ``unchecked`` (a longer time limit may settle it). null claims nothing.
      A class littlestone computes no optimum for (margin halfspaces, a {0,1}^n family too large to list that
      its symmetry search does not handle) refuses any value.
    * ``"strategy"`` must name a strategy (or ``forced``, ``none``: the sure mistakes, or nothing to gain);
      ``"maximize"`` a counter; ``"note"`` must be a string. ``"lemmas"`` are checked by the CLI's verify.

    The bound and the optimum share ``time_limit`` (None: no limit).
    """
    from solvers.game_rules import Game

    deadline = None if time_limit is None else time.monotonic() + time_limit
    unknown = [k for k in w if k not in WITNESS_KEYS]
    if unknown:
        return Claims("failed", f"the witness has the field {json.dumps(unknown[0])[:60]}, which littlestone does not "
                                "write and verify cannot check; drop it")
    try:
        _check_words(w)
        name, params = learner_spec(w["learner"])
        cls = witness_class(w["class"])
        errors = witness_errors(w.get("errors", 0))
        lines = []
        bound, why = _bound_claim(w, name, params, cls, errors, deadline, lines)
        if why is not None:
            return why
        if "verdict" in w:
            why = _verdict_claim(w["verdict"], result, bound, lines)
            if why is not None:
                return Claims("failed", why)
        game = Game(randomized=result.expected is not None, errors=errors)
        return _opt_claim(w, cls, game, deadline, lines) or Claims("ok", lines=tuple(lines))
    except WitnessError as e:
        return Claims("failed", one_line(e))


def _check_words(w: dict) -> None:
    """``strategy``, ``maximize`` and ``note``: names littlestone writes, or WitnessError."""
    for key, known in (("strategy", (*STRATEGY_NAMES, "forced", "none")), ("maximize", COUNTERS)):
        if key in w and w[key] not in known:
            raise WitnessError(f"{key} {_show(w[key])} is not one of {', '.join(known)}")
    if "note" in w and not isinstance(w["note"], str):
        raise WitnessError(f'"note" must be a string, got {_type(w["note"])}')


def _bound_claim(w: dict, name: str, params: dict, cls, errors: int, deadline, lines: list):
    """(the learner's bound as derived again, or None when not computed in the time; a Claims when the
    witness's ``"bound"`` is wrong or cannot be checked, else None)."""
    from solvers.learners.base import Bound
    from solvers.opt.memo import SearchStop

    claimed = w.get("bound")
    if claimed is None and "verdict" not in w:
        return None, None
    if claimed is not None:
        if not isinstance(claimed, dict):
            raise WitnessError(f'"bound" must be {{"value": number or null, "formula": text, "source": text}}, got '
                               f"{_type(claimed)}")
        extra = [k for k in claimed if k not in _BOUND_KEYS]
        if extra:
            raise WitnessError(f'"bound" has the field {json.dumps(extra[0])[:60]}; a bound is '
                               '{"value", "formula", "source"} (and "fraction" for an exact fraction)')
    model = build_learner(name, params, cls)
    if deadline is not None and hasattr(model, "set_deadline"):
        model.set_deadline(deadline)
    try:
        derived = bound_for(model, cls, errors)
    except SearchStop:
        derived = None
    except (ValueError, TypeError) as e:
        raise WitnessError(f"the learner's bound cannot be derived again ({one_line(e)})") from None
    finally:
        if deadline is not None and hasattr(model, "set_deadline"):
            model.set_deadline(None)
    formula = getattr(model, "bound_formula", "")
    vacuous = [{"value": None, "formula": formula + end, "source": getattr(model, "bound_source", "")}
               for end in _NOT_COMPUTED]
    if claimed is not None and claimed in vacuous:  # the attack computed none: the witness claims no bound
        lines.append(f"bound: none claimed ({claimed['formula']})")
        return Bound(math.inf, claimed["formula"], claimed["source"]), None
    if derived is None:
        return None, Claims("unchecked", f"the learner's bound ({formula}) could not be derived again within the time "
                                         "limit; give a longer --time-limit")
    again = derived.to_json()
    if claimed is not None:
        for key in _BOUND_KEYS:
            if claimed.get(key) != again.get(key):
                what = "" if key == "formula" else f" ({again['formula']})"
                raise WitnessError(f"the witness says bound {key} {_show(claimed.get(key))}, and {name}'s bound on "
                                   f"{cls} is {_show(again.get(key))}{what}")
        lines.append(f"bound {_bound_text(derived)} ({again['formula']}), derived again from {name} on {cls}")
    return derived, None


def _bound_text(bound) -> str:
    return _number(bound.value) if bound.finite else "none"


def _number(v) -> str:
    """A count or a bound as the reports print it: an int or an exact fraction as it is, a float to 6 digits."""
    return f"{v:g}" if isinstance(v, float) else value_text(v)


def _verdict_claim(claimed, result: "VerifyResult", bound, lines: list) -> Optional[str]:
    """What is wrong with a witness's ``"verdict"`` against the replay and the bound, or None."""
    if claimed not in VERDICTS:
        return f"verdict {_show(claimed)} is not one of {', '.join(VERDICTS)}"
    expected = result.expected is not None
    counted = result.expected if expected else result.mistakes
    again = verdict_of(counted, bound, result.cycle is not None, expected)
    allowed = ("below", "stopped") if again == "below" else (again,)
    count = value_text(counted) if expected else str(counted)
    noun = "expected mistakes" if expected else ("mistake" if counted == 1 else "mistakes")
    if again == "unbounded":
        how = "a verified cycle: no finite mistake bound"
    elif not bound.finite:
        how = f"{count} {noun}, and no bound is proven"
    else:
        sign = {"violates": ">", "tight": "=", "below": "<"}[again]
        shown = _number(bound.value) if expected or again != "tight" else str(math.floor(bound.value))
        how = f"{count} {noun} {sign} the bound {shown}"
    if claimed not in allowed:
        return f"the witness says verdict {claimed!r}, and {how} gives {again!r}"
    lines.append(f"verdict {claimed}: {how}")
    return None


def _float(q: Fraction) -> float:
    """``float(q)``, or infinity for a fraction past a float's range (a witness may be crafted)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf


def _opt_claim(w: dict, cls, game, deadline, lines: list) -> Optional[Claims]:
    """A Claims when the witness's ``"opt"`` (``"opt_symbol"``, ``"opt_fraction"``) is wrong or cannot be checked
    in the time, else None (the value derived again goes to ``lines``)."""
    symbol = w.get("opt_symbol")
    if symbol is not None and symbol != game.symbol:
        raise WitnessError(f"opt_symbol {_show(symbol)} names another game: this witness's learner and label errors "
                           f"play {game.symbol}")
    value = w.get("opt")
    if value is None:
        if w.get("opt_fraction") is not None:
            raise WitnessError('"opt_fraction" is for a value of "opt", and the witness has none; drop it')
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise WitnessError(f'"opt" must be a number >= 0 (or null: not computed), got {_show(value)}')
    exact = Fraction(value) if isinstance(value, int) else None
    if w.get("opt_fraction") is not None:
        exact = read_fraction(w["opt_fraction"], "opt_fraction")
        if _float(exact) != value:  # ("opt" is the fraction written as a float)
            raise WitnessError(f'"opt_fraction" {_show(w["opt_fraction"])} is not "opt" {value}: both write the same '
                               "optimum, the fraction exactly")
    if not (cls.finite or opt_applies(cls, game)):
        raise WitnessError(f"the witness says {game.symbol}(C) = {value}, and littlestone computes no optimum for "
                           f"{cls}; drop it")
    from solvers.opt import opt

    left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
    r = opt(cls, time_limit=left) if game.standard else opt(cls, time_limit=left, game=game.kind, errors=game.errors)
    shown = value_text(exact) if exact is not None else str(value)
    claim = exact if exact is not None else value
    if r.value is not None:
        if (exact is not None and Fraction(r.value) != exact) or (exact is None and json_value(r.value) != value):
            raise WitnessError(f"the witness says {game.symbol}(C) = {shown}, and it is {value_text(r.value)}")
        lines.append(f"{game.symbol}(C) = {shown}, computed again")
        return None
    lo, hi = r.lower, r.upper
    if (lo is not None and claim < lo) or (hi is not None and claim > hi):
        raise WitnessError(f"the witness says {game.symbol}(C) = {shown}, and {value_text(lo)} <= {game.symbol}(C) <= "
                           f"{value_text(hi)}")
    return Claims("unchecked", f"the witness says {game.symbol}(C) = {shown}; within the time limit {value_text(lo)} <= "
                               f"{game.symbol}(C) <= {value_text(hi)}, which does not settle it; give a longer "
                               "--time-limit")
