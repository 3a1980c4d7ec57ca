"""What a row of the results store proves, and how the store knows it without checking it again.

One checker per kind of row (:data:`CHECKERS`): ``opt`` (Opt(C) and the other games) by its mistake tree and its
upper-bound certificate (:mod:`solvers.certificates`, :mod:`solvers.certificates.games`); ``vc`` by its shattered
set, its upper bound by the VC search run again; ``attack`` by its witness replayed (:mod:`adversary.referee`);
``param`` by its witness (:mod:`solvers.certificates.params`). :func:`verified_bounds` runs them.

A row is checked once: when it is written (:func:`seal`, by the command that computed it, the class at hand) or,
for a row written without a seal (by an older littlestone, or imported), when it is first served. What the check
proved is kept with the row as its seal: the proven bounds and a digest (SHA-256) of every column of the row and
of those bounds (:func:`digest`, computed by :mod:`adversary.store.persistence` as it writes the row). Serving a
sealed row compares the digest with the row as read (milliseconds), and runs no checker: a row changed by hand
after it was written (its value, bounds, seconds, certificate, witness, or the seal itself) no longer matches its
digest, is never served (:class:`Tampered`) and is computed again. The digest is not a signature: it catches
a row edited by hand, not a forger who writes the digest of his edit too; ``littlestone store verify`` runs every
checker again from scratch (and ``--verify-store`` does it for each row served).

A side of a row is sealed ``"checked"`` (its certificate checked, or its result computed again by the checker) or
``"computed"`` (taken from the computation that just wrote the row: a side that nothing but computing it again can
prove, as a VC dimension's upper bound or a row kept without certificates, or an upper-bound certificate whose check
would take more than :data:`WRITE_CHECK_FACTOR` times the computation's seconds); ``store verify`` checks those
too."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from fractions import Fraction
from typing import Optional

from .records import KINDS, Record, StoreError, _canonical, canonical_params, class_key, exact, number, recomputed

__all__ = ["CHECKERS", "CHECK_BUDGET", "WRITE_CHECK_FACTOR", "Tampered", "digest", "merged_proof", "seal",
           "served_bounds", "sealed_bounds", "verified_bounds", "check_seconds", "attack_claims", "proof_of"]


class Tampered(StoreError):
    """A row whose seal does not match its content: it was changed after it was written."""


# ---------------------------------------------------------------------------------------- the seal
_DIGEST = b"littlestone store row, seal 1\0"


def digest(row: tuple, proven: dict) -> str:
    """The digest of a row: SHA-256 over its 17 columns as the store keeps them (``key`` ... ``data``, ``extra``; the
    data as its stored bytes) and the bounds its checker ``proven`` (canonical JSON). Each column is written with its type and
    length, so that no two rows give the same text; the seconds as a REAL column gives them back."""
    h = hashlib.sha256(_DIGEST)
    for i, v in enumerate(row):
        if i == 11 and type(v) is int:
            v = float(v)  # (a REAL column returns an int written to it as a float)
        if v is None:
            h.update(b"n;")
        elif isinstance(v, bytes):
            h.update(b"b%d:" % len(v))
            h.update(v)
        elif isinstance(v, str):
            b = v.encode("utf-8", "surrogatepass")
            h.update(b"s%d:" % len(b))
            h.update(b)
        elif isinstance(v, float):
            h.update(b"f" + v.hex().encode() + b";")
        elif isinstance(v, int):
            h.update(b"i%d;" % v)
        else:
            h.update(b"r" + repr(v).encode() + b";")
    h.update(_canonical(proven).encode())
    return h.hexdigest()


def merged_proof(low: Record, high: Record) -> Optional[dict]:
    """What is proven of a row merged from two (:func:`adversary.store.persistence._merge`): its lower bound from
    ``low``'s and its upper bound from ``high``'s, when both were checked (else None: checked when first served)."""
    if low.proven is None or high.proven is None:
        return None
    lo, hi = low.proven.get("lower"), high.proven.get("upper")
    if lo is not None and hi is not None and number(lo) > number(hi):
        return None
    how = {}
    if lo is not None:
        how["lower"] = (low.proven.get("how") or {}).get("lower", "checked")
    if hi is not None:
        how["upper"] = (high.proven.get("how") or {}).get("upper", "checked")
    return {"lower": lo, "upper": hi, "how": how}


def proof_of(lo, hi, how_lower: str = "checked", how_upper: str = "checked") -> dict:
    """A seal's proven bounds: ``lo``, ``hi`` (numbers or None) as exact text, and how each side was proven."""
    how = {}
    if lo is not None:
        how["lower"] = how_lower
    if hi is not None:
        how["upper"] = how_upper
    return {"lower": exact(lo), "upper": exact(hi), "how": how}


#: At a write, an upper-bound certificate whose check would take more than this many times the computation's
#: seconds (and more than :data:`CHECK_BUDGET`) is not checked then: its side is sealed ``"computed"``.
WRITE_CHECK_FACTOR = 10.0


def seal(rec: Record, C) -> Record:
    """``rec``, a row just computed on ``C`` by this process, checked once (:func:`verified_bounds`): ``rec.proven``
    set to the bounds its certificates prove, a side that only computing it again could prove taken from the
    computation that made it (``"computed"``). A row whose certificate does not check keeps no seal (it is checked
    again when first served, and computed again then). Returns ``rec``."""
    from solvers.certificates import TreeError

    if rec.kind not in CHECKERS:
        return rec
    budget = max(CHECK_BUDGET, WRITE_CHECK_FACTOR * (rec.seconds or 0.0))
    try:
        lo, hi = verified_bounds(rec, C, upper_budget=budget, computed=True)
    except (TreeError, StoreError, KeyError, TypeError, AttributeError, IndexError, ValueError):
        rec.proven = None
        return rec
    claimed_lo, claimed_hi = number(rec.lower), number(rec.upper)
    how_lo = how_hi = "checked"
    if lo is None and claimed_lo is not None:
        lo, how_lo = claimed_lo, "computed"
    if hi is None and claimed_hi is not None:
        hi, how_hi = claimed_hi, "computed"
    rec.proven = proof_of(lo, hi, how_lo, how_hi)
    return rec


def served_bounds(rec: Record, C, *, verify: bool = False, trust: bool = False, notes: Optional[list] = None) -> tuple:
    """The bounds a stored row may be served with on ``C``: ``(lower, upper, fresh)``, None on a side not proven;
    ``fresh``: the proof of a check run here, to seal the row with (``store.reseal``), or None.

    A sealed row: the bounds of its seal (its digest matched the row as read; nothing is run). A row whose seal
    does not match: :class:`Tampered`. A row with no seal: checked now (:func:`verified_bounds`, an upper-bound
    certificate within ``max(1, 2 x its seconds)``, as the commands always did), ``fresh`` when nothing was left
    unchecked for time; with ``trust`` (``--trust-store``) served as it states. ``verify`` (``--verify-store``):
    every row checked now, sealed or not, with no time limit (a sealed row must prove what its seal says).
    Raises :class:`solvers.certificates.TreeError` (a certificate that does not check) or :class:`StoreError`."""
    if rec.class_key != class_key(C):
        raise StoreError("the stored row was computed on another class (fingerprints differ)")
    if rec.tampered:
        raise Tampered("it was changed after it was written: its digest does not match its content")
    if verify:
        lo, hi = verified_bounds(rec, C, recompute=True, notes=notes)
        return lo, hi, (proof_of(lo, hi) if not notes else None)
    if rec.proven is not None:
        return number(rec.proven.get("lower")), number(rec.proven.get("upper")), None
    if trust:
        return number(rec.lower), number(rec.upper), None
    mine: list = []
    lo, hi = verified_bounds(rec, C, upper_budget=max(1.0, 2 * (rec.seconds or 0.0)), notes=mine)
    if notes is not None:
        notes.extend(mine)
    return lo, hi, (proof_of(lo, hi) if not mine and not recomputed(rec) else None)


def sealed_bounds(rec: Record) -> Optional[tuple]:
    """What a row's seal proves, read without its class and without any checker (as :func:`served_bounds` serves a
    sealed row): ``(lower, upper, how)``, None on a side the seal does not prove, ``how`` each proven side's
    ``"checked"`` or ``"computed"``; None for a row with no seal (to be checked from its certificates). Raises
    :class:`Tampered` for a row whose seal does not match its content. The listings of the store (``store show``,
    ``export``, ``prune``, ``plot --from-store``) read rows this way: milliseconds a row, where the checkers take
    seconds.

    Examples
    --------
    >>> rec = Record(kind="opt", class_key="k", task={}, value="3", lower="3", upper="3")
    >>> sealed_bounds(rec) is None
    True
    >>> rec.proven = proof_of(3, 3, how_upper="computed")
    >>> sealed_bounds(rec)
    (3, 3, {'lower': 'checked', 'upper': 'computed'})
    """
    if rec.tampered:
        raise Tampered("it was changed after it was written: its digest does not match its content")
    if rec.proven is None:
        return None
    return number(rec.proven.get("lower")), number(rec.proven.get("upper")), dict(rec.proven.get("how") or {})


# ---------------------------------------------------------------------------------------- the checkers
#: Seconds the checkers take per entry of an upper-bound certificate (measured on intervals N=150 and R_1 of
#: intervals N=6; the packed engine's, whose entries each filter the class's truth tables and may carry a leaf's
#: certificate, on halfspaces n=6, 239 s for 14,116 entries, and decision lists n=6, 56 s for 2,036), to tell
#: when re-checking a certificate would cost more than computing the value again.
CHECK_SECONDS_PER_ENTRY = {"standard": 2.5e-4, "game": 7e-4, "packed": 2e-2}


def check_seconds(rec: Record) -> float:
    """About how long re-checking the row's upper-bound certificate takes."""
    p = rec.upper_cert
    n = len(p.get("entries", [])) if isinstance(p, dict) and isinstance(p.get("entries"), list) else 0
    if isinstance(p, dict) and "packed" in (p.get("rule"), p.get("form")):  # format 2 names its rule; 1 its form
        return n * CHECK_SECONDS_PER_ENTRY["packed"]
    standard = rec.task.get("game", "deterministic") == "deterministic" and not rec.task.get("errors")
    return n * CHECK_SECONDS_PER_ENTRY["standard" if standard else "game"]


def _claimed(rec: Record) -> tuple:
    """The row's numbers (value, lower, upper), read; a row whose numbers do not read or do not agree with
    each other (a value that is not both bounds, a lower bound above the upper) is wrong."""
    from solvers.certificates import TreeError

    try:
        value, lower, upper = (number(t) for t in (rec.value, rec.lower, rec.upper))
    except (ValueError, TypeError, ZeroDivisionError):
        raise TreeError(f"the row's numbers do not read: value {rec.value!r}, bounds {rec.lower!r}..{rec.upper!r}") \
            from None
    if lower is not None and upper is not None and lower > upper:
        raise TreeError(f"the row's lower bound {rec.lower} is above its upper bound {rec.upper}")
    if value is not None and rec.kind != "attack" and (value != lower or value != upper):
        raise TreeError(f"the row's value {rec.value} is not both its bounds ({rec.lower}..{rec.upper})")
    return value, lower, upper


def _same(proven, claimed, what: str) -> None:
    """A certificate proves exactly the bound its row states (a row that says more, or less, than its
    certificate is not what was computed)."""
    from solvers.certificates import TreeError

    if claimed is None or proven != claimed:
        raise TreeError(f"the stored {what} certificate proves {exact(proven)}, and the row says "
                        f"{'nothing' if claimed is None else exact(claimed)}")


#: Seconds ``store show``, ``export``, ``prune`` and ``plot --from-store`` give the upper bound of a row they re-check
#: (a row with no seal; every row with ``--recheck`` or ``--verify-store``; a sealed row is read by its seal,
#: :func:`sealed_bounds`): an upper-bound certificate that would take longer, or the VC search run again for this long
#: without settling, leaves the bound "not re-checked", never FAILED, so a large store is re-checked in minutes.
CHECK_BUDGET = 2.0


def verified_bounds(rec: Record, C, *, upper_budget: Optional[float] = None, notes: Optional[list] = None,
                    recompute: bool = False, computed: bool = False) -> tuple:
    """The bounds a row proves on ``C``, each re-checked from its certificate: ``(lower, upper)`` with
    None for a side that nothing proves. An upper-bound certificate whose check would take more than
    ``upper_budget`` seconds (:func:`check_seconds`) is not checked, and proves nothing.

    Every number of the row is held against what proves it: a certificate must prove exactly the bound
    the row states, the value must be both bounds, and an attack's value is the count of its witness
    replayed (with the witness made on this class, by the row's learner). Raises
    :class:`solvers.certificates.TreeError` when a certificate is present but wrong or a number of the row
    is not what its certificate proves (the row is then not to be trusted at all), and :class:`StoreError`
    when the row was computed on another class (the fingerprints differ).

    Kinds: ``opt`` (Opt(C) and the other games: RL, D_k, R_k, horizons) by its tree and upper-bound
    certificate; ``vc`` by its shattered set and, as the VC search writes no certificate of its upper
    bound, by the search run again within ``upper_budget`` (or a second) when the row is solved;
    ``attack`` by its witness.

    A row kept without certificates (:func:`recomputed`) proves nothing by itself: with ``recompute`` its
    result is computed again within ``upper_budget`` seconds (or a second) and must be the row's value;
    without, its bounds are ``(None, None)`` (a command that finds such a row computes the result anyway).

    ``notes``, a list: where an upper bound is left unproven for want of time (a certificate over
    ``upper_budget``, the VC search not settled within it), one line saying so is appended.

    ``computed``: the row was just computed by this process (:func:`seal`): what only computing it again would prove
    (a VC upper bound, a parameter's side its witness leaves open) is not computed again, and is left None."""
    from solvers.certificates import TreeError

    if rec.class_key != class_key(C):
        raise StoreError("the stored row was computed on another class (fingerprints differ)")
    value, lower, upper = _claimed(rec)
    if rec.kind not in CHECKERS:
        raise TreeError(f"unknown kind {rec.kind!r} in the store (written by another littlestone?)")
    return CHECKERS[rec.kind](rec, C, value, lower, upper, upper_budget, notes, recompute, computed)


def _check_opt(rec: Record, C, value, lower, upper, upper_budget, notes, recompute, computed) -> tuple:
    """The checker of an ``opt`` row (Opt(C) or another game's value)."""
    if recomputed(rec):
        if computed or not recompute:
            if notes is not None:
                notes.append("the row keeps no certificates: its result is proven by computing it again")
            return None, None
        return _verified_by_recomputing(rec, C, value, upper_budget, notes)
    if upper_budget is not None and rec.upper_cert is not None and check_seconds(rec) > upper_budget:
        if notes is not None:
            notes.append(f"its upper-bound certificate would take about {check_seconds(rec):.3g} s to check, "
                         f"over {upper_budget:g} s")
        rec = replace(rec, upper_cert=None)
    lo, hi = _verified_game(rec, C, lower, upper)
    if (lo is None or hi is None) and recompute and not computed:
        # a side kept without its certificate (one that would have taken longer than the run allowed to write):
        # a solved row's value is computed again; a stopped search's bound is not (a shorter run proves less)
        if value is not None:
            v, _ = _verified_by_recomputing(rec, C, value, upper_budget, notes)
            if v is not None:
                return (v if lo is None else lo), (v if hi is None else hi)
        elif notes is not None:
            notes.append("a bound kept without its certificate by a stopped search is not computed again")
    return lo, hi


def _check_vc(rec: Record, C, value, lower, upper, upper_budget, notes, recompute, computed) -> tuple:
    """The checker of a ``vc`` row."""
    return _verified_vc(rec, C, lower, upper, upper_budget, notes, computed=computed)


def _check_attack(rec: Record, C, value, lower, upper, upper_budget, notes, recompute, computed) -> tuple:
    """The checker of an ``attack`` row: its lower bound is its witness's count (no upper bound)."""
    return _verified_attack(rec, C, value, lower), None


def _check_param(rec: Record, C, value, lower, upper, upper_budget, notes, recompute, computed) -> tuple:
    """The checker of a ``param`` row."""
    return _verified_param(rec, C, lower, upper, upper_budget, notes, computed=computed)


#: One checker per kind of row: ``(rec, C, value, lower, upper, upper_budget, notes, recompute, computed) ->
#: (lower, upper)`` proven (see :func:`verified_bounds`).
CHECKERS = {"opt": _check_opt, "vc": _check_vc, "attack": _check_attack, "param": _check_param}
assert set(CHECKERS) == set(KINDS)


def _verified_game(rec: Record, C, lower, upper) -> tuple:
    from solvers.certificates import TreeError, verify_tree, verify_upper
    from solvers.certificates.games import read_game, verify_error_tree, verify_game_upper, verify_randomized_tree
    from solvers.game_rules import Game

    try:
        G = Game.of(rec.task.get("game", "deterministic"), rec.task.get("errors", 0), rec.task.get("horizon"))
    except (ValueError, TypeError, AttributeError) as e:
        raise TreeError(f"the row's game does not read ({e})") from None
    lo = hi = None
    t = rec.lower_cert
    if t is not None:
        if read_game(t) != G:
            raise TreeError("the stored tree is for another game than its row's")
        if t.get("kind") == "randomized-tree":
            lo = verify_randomized_tree(t, C)
        elif G.standard:
            lo = verify_tree(t, C)
        else:
            lo = verify_error_tree(t, C, G.errors, G.horizon)
        if lower is not None and lo < lower:
            raise TreeError(f"the stored tree proves {exact(lo)}, less than the row's lower bound {rec.lower}")
        _same(lo, lower, "lower-bound (tree)")
    elif lower == 0 and getattr(C, "n_concepts", 1):
        lo = 0  # a class with a concept: Opt >= 0 needs no tree
    p = rec.upper_cert
    if p is not None:
        if read_game(p) != G:
            raise TreeError("the stored upper-bound certificate is for another game than its row's")
        hi = verify_upper(p, C) if G.standard else verify_game_upper(p, C)
        if upper is not None and hi > upper:
            raise TreeError(f"the stored certificate proves {exact(hi)}, more than the row's upper bound {rec.upper}")
        _same(hi, upper, "upper-bound")
    if lo is not None and hi is not None and lo > hi:
        raise TreeError(f"the stored certificates contradict each other ({exact(lo)} > {exact(hi)})")
    return lo, hi


def _verified_by_recomputing(rec: Record, C, value, budget, notes) -> tuple:
    """A row kept without certificates: its game solved again within ``budget`` seconds (at least one) must
    give the row's value; ``(value, value)`` when it does, ``(None, None)`` with a note when it does not
    settle in time, :class:`solvers.certificates.TreeError` when it gives another value."""
    from solvers.certificates import TreeError
    from solvers.game_rules import Game
    from solvers.opt import opt

    if value is None:
        raise TreeError("the row keeps no certificates and states no value")
    try:
        G = Game.of(rec.task.get("game", "deterministic"), rec.task.get("errors", 0), rec.task.get("horizon"))
    except (ValueError, TypeError, AttributeError) as e:
        raise TreeError(f"the row's game does not read ({e})") from None
    limit = max(1.0, 2 * (rec.seconds or 0.0)) if budget is None else max(1.0, budget)
    r = opt(C, time_limit=limit, game=G.kind, errors=G.errors, horizon=G.horizon)
    if r.lower > value or r.upper < value:
        raise TreeError(f"computed again, {G.symbol}(C) is {_bounds_text(r.lower, r.upper)}, and the row says {rec.value}")
    if r.value is None:
        if notes is not None:
            notes.append(f"computed again, {G.symbol}(C) did not settle within {limit:g} s "
                         f"({_bounds_text(r.lower, r.upper)})")
        return None, None
    return value, value


def _bounds_text(lo, hi) -> str:
    return exact(lo) if lo == hi else f"between {exact(lo)} and {exact(hi)}"


def _verified_param(rec: Record, C, lower, upper, budget, notes=None, *, computed: bool = False) -> tuple:
    """A parameter's row: its witness replayed by :func:`solvers.certificates.params.check_bounds`, which proves
    some sides on its own (a shattered set, a half graph or a star its lower bound; teaching sets their upper
    bound; an order or a proper mistake tree one side, both where every order or the learner is replayed). A side
    the row states and the witness does not prove is proven by the parameter's search run again within ``budget``
    seconds (at least one), or left unproven."""
    from solvers.certificates import TreeError
    from solvers.certificates.params import check_bounds
    from solvers.params import KEYS

    key = (rec.task or {}).get("param")
    if key not in KEYS:
        raise TreeError(f"the row's parameter {key!r} is not one littlestone computes")
    cert = rec.lower_cert
    if cert is None:
        return None, None
    stated = (number(cert.get("value")), number(cert.get("value"))) if "value" in cert else (
        number(cert.get("lower")), number(cert.get("upper")))
    if stated != (lower, upper):
        raise TreeError(f"the stored {key} witness states {stated[0]}..{stated[1]}, and the row {rec.lower}..{rec.upper}")
    ok, why, lo, hi = check_bounds(C, key, cert)
    if not ok:
        raise TreeError(why)
    if (lo is not None and lo != lower) or (hi is not None and hi != upper):
        raise TreeError(f"the stored {key} witness proves {lo}..{hi}, and the row says {rec.lower}..{rec.upper}")
    if lo is not None and hi is not None or lower != upper or computed:
        return lo, hi
    from solvers.params import compute

    limit = max(1.0, 2 * (rec.seconds or 0.0)) if budget is None else max(1.0, budget)
    again = compute(C, [key], time_limit=limit)[key]
    if again.lower > upper or again.upper < lower:
        raise TreeError(f"the {key} search run again finds {again.lower}..{again.upper}, not the row's {rec.value}")
    if again.value is None:
        if notes is not None:
            notes.append(f"the {key} search run again did not settle within {limit:g} s")
        return lo, hi
    return lower, upper


def _verified_vc(rec: Record, C, lower, upper, budget, notes=None, *, computed: bool = False) -> tuple:
    """A VC row: its lower bound by its shattered set; its upper bound (which no certificate proves) by the
    VC search run again within ``budget`` seconds (at least one), when the row says more than the trivial
    bound min(floor(log2 |C|), |X|)."""
    from solvers.certificates import TreeError

    w = rec.lower_cert
    lo = None
    if w is not None:
        lo = _verify_shattered(w, C)
        _same(lo, lower, "lower-bound (shattered set)")
    elif lower == 0:
        lo = 0
    if upper is None:
        return lo, None
    trivial = min(C.log2_size(), C.n_points)
    if upper >= trivial:
        return lo, trivial if upper == trivial else None
    if computed:
        return lo, None
    from solvers.vc import vc_search

    limit = max(1.0, 2 * (rec.seconds or 0.0)) if budget is None else max(1.0, budget)
    v = vc_search(C, time_limit=limit)
    if v.lower > upper:
        raise TreeError(f"the class shatters {v.lower} points, more than the row's upper bound {rec.upper}")
    if v.value is None:  # not settled again in the time given: the upper bound is not proven
        if notes is not None:
            notes.append(f"the VC search run again did not settle within {limit:g} s")
        return lo, None
    if lo is not None and v.value < lo:
        raise TreeError(f"the VC search finds {v.value}, less than the stored shattered set")
    return lo, upper if upper == v.value else None


def _verified_attack(rec: Record, C, value, lower):
    """An attack row: its witness replays on ``C`` with the row's learner, and its count is the row's value."""
    from solvers.certificates import TreeError

    from adversary.referee import WitnessError, witness_class, verify_witness

    w = rec.lower_cert
    if w is None:
        if value is not None or lower is not None:
            raise TreeError(f"the row says {rec.value} mistakes and has no witness")
        return None
    if not isinstance(w, dict) or not isinstance(w.get("class"), (dict, str)):
        raise TreeError("the stored witness is not a witness object")
    try:
        made_on = class_key(witness_class(w["class"]))
    except (WitnessError, ValueError, TypeError, KeyError) as e:
        raise TreeError(f"the stored witness's class cannot be made ({e})") from None
    if made_on != rec.class_key:
        raise TreeError("the stored witness was made on another class than its row's")
    task = rec.task or {}
    name, params = _learner_of(w)
    if "learner" in task and _learner_name(task["learner"]) != _learner_name(name):
        raise TreeError(f"the stored witness is of the learner {name}, and the row is of {task['learner']}")
    given = canonical_params(task.get("params"))
    played = canonical_params(params)
    if any(played.get(k) != v for k, v in given.items()):
        raise TreeError(f"the stored witness's learner parameters {played} are not the row's {given}")
    if int(w.get("errors", 0) or 0) != int(task.get("errors", 0) or 0):
        raise TreeError("the stored witness allows another number of label errors than its row")
    v = verify_witness(w)
    if not v.ok:
        raise TreeError(f"the stored witness does not replay: {v.message}")
    count = v.expected if v.expected is not None else v.mistakes
    for what, claimed in (("value", value), ("lower bound", lower)):
        if claimed is None or claimed != count:
            raise TreeError(f"the row's {what} is {'nothing' if claimed is None else exact(claimed)} mistakes, and "
                            f"its witness replays {exact(count)}")
    result = rec.extra.get("result") if isinstance(rec.extra, dict) else None
    if isinstance(result, dict):
        said = result.get("expected_mistakes", result.get("mistakes"))
        try:
            said = None if said is None else Fraction(str(said)) if isinstance(said, str) else Fraction(said)
        except (ValueError, ZeroDivisionError):
            said = "?"
        if said is not None and said != count and not (isinstance(said, Fraction) and abs(float(said) - float(count))
                                                        < 1e-9 and count.denominator != 1):
            raise TreeError(f"the stored result says {result.get('mistakes')} mistakes, and its witness replays "
                            f"{exact(count)}")
    _check_attack_claims(rec, w, count)
    return count


def attack_claims(rec: Record, count, bound=None) -> tuple:
    """What an attack row may say of its replayed ``count`` (of the witness's mistakes): ``(verdict, exact)``,
    derived again from the count, the learner's bound (``bound``, a :class:`solvers.learners.base.Bound`; by
    default the bound the row states) and whether its search was stopped, as :func:`adversary.attack.attack`
    derives them: a stopped search that is not proven exact and found fewer mistakes than the bound is
    ``stopped`` (never ``below``). ``exact`` is the row's own word (checked by :func:`_check_attack_claims`:
    a stopped row is exact only when one of its runs finished exactly)."""
    from adversary.attack import verdict_of
    from solvers.certificates import TreeError
    from solvers.learners.base import Bound

    extra = rec.extra if isinstance(rec.extra, dict) else {}
    result = extra.get("result") if isinstance(extra.get("result"), dict) else {}
    if bound is None:
        b = result.get("bound", extra.get("bound"))
        if not isinstance(b, dict):
            raise TreeError("the stored attack states no bound of its learner")
        try:
            value = (float("inf") if b.get("value") is None
                     else Fraction(b["fraction"]) if "fraction" in b else Fraction(str(b["value"])))
        except (ValueError, TypeError, ZeroDivisionError):
            raise TreeError(f"the stored attack's bound {b.get('value')!r} does not read") from None
        bound = Bound(value, b.get("formula", ""), b.get("source", ""))
    stopped = bool((result.get("stats") or {}).get("stopped"))
    game = result.get("game") or {}
    w = rec.lower_cert if isinstance(rec.lower_cert, dict) else {}
    said_exact = result.get("exact", extra.get("exact"))
    verdict = verdict_of(count, bound, w.get("cycle") is not None, bool(game.get("randomized")))
    if verdict == "below" and stopped and not said_exact:
        verdict = "stopped"
    return verdict, bool(said_exact)


def _check_attack_claims(rec: Record, w, count) -> None:
    """An attack row's stated verdict and exactness agree with its replayed count, its bound and its stop."""
    from solvers.certificates import TreeError

    extra = rec.extra if isinstance(rec.extra, dict) else {}
    result = extra.get("result") if isinstance(extra.get("result"), dict) else {}
    if not result and "verdict" not in extra:
        return  # a bare witness row: it says nothing but its count
    verdict, _ = attack_claims(rec, count)
    for where in (result, extra):
        said = where.get("verdict")
        if said is not None and said != verdict:
            raise TreeError(f"the row's verdict is {said!r}, and {exact(count)} mistakes against its bound"
                            f"{' from a stopped search' if verdict == 'stopped' else ''} give {verdict!r}")
    exacts = {bool(where["exact"]) for where in (result, extra) if "exact" in where}
    if len(exacts) > 1:
        raise TreeError("the row says both that its count is the exact worst case and that it is not")
    stats = result.get("stats") or {}
    runs = [r for r in stats.get("runs") or [] if isinstance(r, dict)]
    if True in exacts and (stats.get("stopped") or "runs" in stats) and not any(
            r.get("exact") and (not stats.get("stopped") or not (r.get("stats") or {}).get("stopped")) for r in runs):
        raise TreeError("the row says its count is the exact worst case, and no run of its search "
                        + (f"finished exactly (it was stopped: {stats.get('stopped')})" if stats.get("stopped")
                           else "proved it"))


def _learner_of(w) -> tuple:
    learner = w.get("learner")
    if isinstance(learner, str):
        return learner, {}
    if isinstance(learner, dict):
        return learner.get("name"), learner.get("params") or {}
    return None, {}


def _learner_name(name) -> Optional[str]:
    """A learner's registered name (an alias as the name it stands for)."""
    try:
        from solvers.learners import LEARNERS

        spec = LEARNERS.get(name)
        return spec.name if spec is not None else name
    except Exception:  # noqa: BLE001 - a name the registry cannot read is compared as it is
        return name


def _verify_shattered(w, C) -> int:
    """Check that the points ``w["points"]`` (column indices) are shattered by ``C``; return how many."""
    import numpy as np

    from solvers.certificates import TreeError

    pts = w.get("points") if isinstance(w, dict) else None
    if not isinstance(pts, list) or any(isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < C.n_points
                                        for j in pts) or len(set(pts)) != len(pts) or len(pts) > 62:
        raise TreeError('a stored shattered set is {"points": [distinct column indices]}')
    if not pts:
        return 0
    M = np.asarray(C.matrix, dtype=bool)[:, pts].astype(np.int64)
    codes = M @ (1 << np.arange(len(pts), dtype=np.int64))
    if np.unique(codes).size != 1 << len(pts):
        raise TreeError(f"the stored set of {len(pts)} points is not shattered by the class")
    return len(pts)

