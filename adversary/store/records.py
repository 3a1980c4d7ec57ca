"""The rows of the results store (:mod:`adversary.store`): what one result is (:class:`Record`), its key, and the
exact text its numbers are kept in. No database and no checker here: :mod:`adversary.store.persistence` keeps the
rows, :mod:`adversary.store.trust` says what a row proves."""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

DEFAULT_PATH = "littlestone.db"
#: The environment variable naming the store the commands use when no --store is given (else DEFAULT_PATH).
STORE_ENV = "LITTLESTONE_STORE"
KINDS = ("opt", "vc", "attack", "param")
#: A solved result computed in less than this many seconds may be stored with its numbers only, without its
#: certificates (``extra["proof"] == "recompute"``). 0, the default: every row keeps its certificates, however
#: fast it was solved, so that it is checked once when written and then served by its digest
#: (:mod:`adversary.store.trust`). ``LITTLESTONE_CERTIFY_SECONDS`` overrides it (a row kept without certificates is
#: sealed with the value its computation found, and ``store verify`` proves it by computing it again).
#: Certificates asked for (``opt --proof``) are always built.
CERTIFY_SECONDS = 0.0


class StoreError(ValueError):
    """A store that cannot be used (not a database, another schema version, locked, read-only); the
    message says what to change. ``unwritable``: for a store that cannot be written for want of space (a full
    disk), SQLite's words (it may still be read)."""

    unwritable: Optional[str] = None


class UnreadableRow(StoreError):
    """A row of the store that does not read (data that is not zlib-compressed JSON, a column of the wrong
    type, a key that is not its content's, ...): ``key`` (its key, as text), ``why`` (one line)."""

    def __init__(self, key: str, why: str, rowid=None):
        super().__init__(f"the row {key[:12]} cannot be read ({why})")
        self.key, self.why, self.rowid = key, why, rowid


# ---------------------------------------------------------------------------------------- values
def exact(v) -> Optional[str]:
    """A value as exact text: ``"3"``, ``"7/8"``; None stays None."""
    if v is None:
        return None
    if type(v) is int:
        return str(v)
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def number(text):
    """The inverse of :func:`exact`: an int, a Fraction, or None."""
    if text is None:
        return None
    v = Fraction(text)
    return int(v) if v.denominator == 1 else v


# Built once: json.dumps with any option builds a new encoder at every call, which costs more than encoding a
# small row (the store's write cost is mostly this encoding).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str, check_circular=False)
_COMPACT = json.JSONEncoder(separators=(",", ":"), default=str, check_circular=False)


def _canonical(obj) -> str:
    return _CANONICAL.encode(obj)


def result_key(kind: str, class_key: str, task: dict) -> str:
    """The row's key: a hash of the kind, the class's fingerprint and the task."""
    return hashlib.sha256(_canonical([kind, class_key, task]).encode()).hexdigest()[:40]


def canonical_value(v):
    """One text per number, so that one mathematical object has one key: ``2``, ``2.0``, ``"02"`` and ``"4/2"``
    are the int 2, ``0.1``, ``"0.10"`` and ``"1/10"`` the text ``"1/10"``; other values as they are (lists and
    dicts item by item).

    Examples
    --------
    >>> [canonical_value(v) for v in (2, 2.0, "02", "4/2", 0.1, "1/10", Fraction(3, 2), True, "divide")]
    [2, 2, 2, 2, '1/10', '1/10', '3/2', True, 'divide']
    """
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): canonical_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [canonical_value(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):  # a numpy scalar
        v = v.item()
        if isinstance(v, bool):
            return v
    try:
        if isinstance(v, float):
            q = Fraction(repr(v))  # the decimal it prints as (as the learners read it: solvers.numbers)
        elif isinstance(v, (int, Fraction)):
            q = Fraction(v)
        elif isinstance(v, str):
            from solvers.numbers import huge_exponent

            if huge_exponent(v):  # (1e9999999999 would take hours to build: the text is its key, the learner refuses it)
                return v.strip()
            q = Fraction(v.strip())
        else:
            return v
    except (ValueError, ZeroDivisionError, OverflowError):
        return v.strip() if isinstance(v, str) else v
    return q.numerator if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def canonical_params(params: Optional[dict]) -> dict:
    """Parameters with every number in one canonical form (:func:`canonical_value`)."""
    return {str(k): canonical_value(v) for k, v in (params or {}).items()}


def class_key(C) -> str:
    """The fingerprint of a class: of its matrix and points when it is listed
    (:meth:`~solvers.classes.ConceptClass.fingerprint`), else of its family and parameters, the parameters'
    numbers in canonical form (:func:`canonical_params`: gamma=0.1 and gamma=1/10 are one class)."""
    if getattr(C, "finite", False) and hasattr(C, "fingerprint"):
        return C.fingerprint()
    spec = C.to_spec() if hasattr(C, "to_spec") else {"text": str(C)}
    if isinstance(spec, dict) and isinstance(spec.get("params"), dict):
        spec = {**spec, "params": canonical_params(spec["params"])}
    return hashlib.sha256(_canonical(spec).encode()).hexdigest()[:32]


def param_task(key: str) -> dict:
    """The task of a ``"param"`` row: which parameter beside Opt (:data:`solvers.params.KEYS`)."""
    return {"param": key}


def opt_task(game=None) -> dict:
    """The task of an ``"opt"`` row: the game (``None``: Opt(C) itself)."""
    if game is None:
        return {"game": "deterministic", "errors": 0, "horizon": None}
    return game.to_json()


# ---------------------------------------------------------------------------------------- a row
@dataclass
class Record:
    """One stored result. ``value``, ``lower`` and ``upper`` are exact text (:func:`exact`); the
    certificates are JSON objects (or None); ``extra`` holds what else the kind keeps (an attack's
    verdict and bound, ...)."""

    kind: str
    class_key: str
    task: dict
    family: Optional[str] = None
    params: dict = field(default_factory=dict)
    concepts: Optional[int] = None
    points: Optional[int] = None
    value: Optional[str] = None
    lower: Optional[str] = None
    upper: Optional[str] = None
    seconds: Optional[float] = None
    engine: Optional[str] = None
    version: Optional[str] = None
    time: Optional[str] = None
    lower_cert: Optional[dict] = None
    upper_cert: Optional[dict] = None
    extra: dict = field(default_factory=dict)
    #: What the trust checker proved of this row's content (:func:`adversary.store.trust.seal`):
    #: ``{"lower": text or None, "upper": text or None, "how": {"lower": "checked" or "computed", ...}}``, written
    #: with a digest of the whole row (:func:`adversary.store.trust.digest`); read back only when the digest still
    #: matches the row. None: not checked yet (a row written by an older littlestone, or by a caller that had no class).
    proven: Optional[dict] = field(default=None, compare=False)
    #: Read: the row carries a digest that does not match its content (it was changed after it was written).
    tampered: bool = field(default=False, compare=False)

    @property
    def key(self) -> str:
        return result_key(self.kind, self.class_key, self.task)

    # A row read from the store with a seal that matches may leave its certificates unread until they are used
    # (:mod:`adversary.store.persistence`): serving it needs only its numbers and its seal.
    def _defer_certificates(self, load) -> None:
        del self.__dict__["lower_cert"], self.__dict__["upper_cert"]
        self.__dict__["_load_certificates"] = load

    def __getstate__(self):
        self.lower_cert  # (read before it is pickled)
        return self.__dict__

    @property
    def solved(self) -> bool:
        return self.value is not None

    def summary(self) -> dict:
        """The row without its certificates (for listings and exports)."""
        return {"key": self.key, "kind": self.kind, "family": self.family, "params": self.params, "task": self.task,
                "concepts": self.concepts, "points": self.points, "value": self.value, "lower": self.lower,
                "upper": self.upper, "seconds": self.seconds, "engine": self.engine, "version": self.version,
                "time": self.time, "class_key": self.class_key,
                "certificates": [k for k, c in (("lower", self.lower_cert), ("upper", self.upper_cert)) if c is not None],
                **({"extra": self.extra} if self.extra else {})}



class _Certificate:
    """A certificate field of :class:`Record`, read from its row's data when first used where the row deferred it."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return None  # (the field's default)
        d = obj.__dict__
        if self.name not in d:
            data = d.pop("_load_certificates")()
            d.setdefault("lower_cert", data.get("lower_cert"))
            d.setdefault("upper_cert", data.get("upper_cert"))
        return d[self.name]

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


Record.lower_cert = _Certificate("lower_cert")
Record.upper_cert = _Certificate("upper_cert")


@functools.lru_cache(maxsize=1)
def _version() -> str:
    from solvers import __version__

    return __version__


_NOW = (0, "")  # the last second written, and its text (one tuple: threads read it whole)


def _now() -> str:
    """The time in UTC to the second, ISO 8601 (``2026-11-25T12:00:00+00:00``); one text per second."""
    global _NOW
    second = int(time.time())
    last = _NOW
    if second != last[0]:
        last = _NOW = (second, datetime.datetime.fromtimestamp(second, datetime.timezone.utc).isoformat())
    return last[1]



# ---------------------------------------------------------------------------------------- rows of results
def certify_seconds() -> float:
    """:data:`CERTIFY_SECONDS`, or ``$LITTLESTONE_CERTIFY_SECONDS`` when set (a number of seconds)."""
    text = os.environ.get("LITTLESTONE_CERTIFY_SECONDS")
    if text is None:
        return CERTIFY_SECONDS
    try:
        return max(0.0, float(text))
    except ValueError:
        raise StoreError(f"LITTLESTONE_CERTIFY_SECONDS={text!r} is not a number of seconds; set it to 0 to keep "
                         "every certificate, or unset it") from None


def recomputed(rec: "Record") -> bool:
    """Whether the row keeps no certificates and is re-proven by computing its result again."""
    return rec.extra.get("proof") == "recompute"


def record_of_param(C, p, *, family: Optional[str] = None, params: Optional[dict] = None) -> Record:
    """The row of a parameter ``p`` (a :class:`solvers.params.ParamResult`) of ``C``: its bounds, and its JSON with the
    witness as the certificate (re-checked by :func:`solvers.certificates.params.check_bounds` when read)."""
    return Record(kind="param", class_key=class_key(C), task=param_task(p.key), family=family or C.family,
                  params=canonical_params(params if params is not None else dict(C.params)), concepts=C.n_concepts,
                  points=C.n_points, value=exact(p.value), lower=exact(p.lower), upper=exact(p.upper),
                  seconds=p.seconds, engine=f"params.{p.key}", version=_version(), time=_now(),
                  lower_cert=p.to_json() if p.witness else None)


def record_of_opt(C, r, *, family: Optional[str] = None, params: Optional[dict] = None, proof_limit: int = 100_000,
                  proof_seconds: Optional[float] = None, certify: Optional[bool] = None,
                  written: bool = False, upper_cert: Optional[dict] = None) -> Record:
    """The row of an :func:`solvers.opt.opt` result ``r`` on ``C``: its bounds, the tree of its lower bound
    and the certificate of its upper bound (when the solver can write one within ``proof_limit`` entries
    and ``proof_seconds``; a row without it proves only its lower bound on load).

    ``certify``: whether to build the certificates; by default, unless the result is solved and took less
    than :func:`certify_seconds` to compute, in which case the row keeps its numbers only and is re-proven
    by computing it again (:func:`recomputed`).

    ``written``: the caller already wrote the certificates (``opt --proof``, a script that checked them): the row
    keeps the tree and ``upper_cert`` (None: no upper-bound certificate), and none is built again."""
    from solvers.certificates import ProofTooLarge
    from solvers.opt import SearchStop

    stats = r.stats
    extra = {"stopped": stats.get("stopped")} if stats.get("stopped") else {}
    if written:
        return _opt_record(C, r, family, params, None if r.tree is None else r.tree.to_json(), upper_cert, extra)
    if certify is None:
        certify = r.value is None or (stats.get("seconds") or 0.0) >= certify_seconds()
    lower_cert = upper_cert = None
    if not certify:
        extra["proof"] = "recompute"
    else:
        lower_cert = None if r.tree is None else r.tree.to_json()
        try:
            if proof_seconds is None or not hasattr(r.solver, "limits"):
                upper_cert = r.upper_certificate(limit=proof_limit)
            else:
                with r.solver.limits(deadline=time.monotonic() + proof_seconds):
                    upper_cert = r.upper_certificate(limit=proof_limit)
        except ProofTooLarge:
            extra["no_upper_cert"] = no_certificate_reason("too large", limit=proof_limit)
        except SearchStop:
            extra["no_upper_cert"] = no_certificate_reason("time limit", seconds=proof_seconds)
        except KeyboardInterrupt:
            extra["no_upper_cert"] = no_certificate_reason("interrupted")
        except ValueError:
            pass  # an unsolved game keeps no refutation
    return _opt_record(C, r, family, params, lower_cert, upper_cert, extra)


def no_certificate_reason(stop: str, *, limit: int | None = None, seconds: float | None = None) -> str:
    """Why a solved result's upper-bound certificate was not written, as its row keeps it (``extra["no_upper_cert"]``)
    and the commands say it: ``stop`` is "too large" (past ``limit`` entries), "time limit" (past ``seconds``) or
    "interrupted"."""
    if stop == "too large":
        return f"its certificate needs more than {limit:,} entries"
    if stop == "time limit":
        return f"its certificate was not written within {seconds:.0f} s"
    return "its certificate was interrupted"


def certificate_stop(reason: str) -> str:
    """The ``stop`` that :func:`no_certificate_reason` worded as ``reason``: "too large", "time limit" or
    "interrupted" (so that a command's advice follows the reason a row keeps, read in one place)."""
    if reason.startswith("its certificate needs more than"):
        return "too large"
    if reason.startswith("its certificate was not written within"):
        return "time limit"
    return "interrupted"


def _opt_record(C, r, family, params, lower_cert, upper_cert, extra) -> Record:
    return Record(kind="opt", class_key=class_key(C), task=opt_task(r.game), family=family or C.family,
                  params=dict(params if params is not None else C.params), concepts=C.n_concepts, points=C.n_points,
                  value=exact(r.value), lower=exact(r.lower), upper=exact(r.upper), seconds=r.stats.get("seconds"),
                  engine=r.stats.get("engine"), lower_cert=lower_cert, upper_cert=upper_cert, extra=extra)

