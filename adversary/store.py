"""The results store: an embedded SQLite database of every result computed, with its certificates.

One row per result, keyed by what was computed: the kind (``"opt"``: Opt(C) or another game's value;
``"vc"``: the VC dimension; ``"attack"``: a learner's worst case found), the class's fingerprint (a hash
of its matrix and points, :meth:`solvers.classes.ConceptClass.fingerprint`; for an implicit class, of its
family and parameters) and the task (the game; the learner, its parameters, the strategy, ...). A row
holds the value and its proven bounds as exact text (``"3"``, ``"7/8"``), the seconds, engine, version
and time of the run, and its certificates (JSON, zlib-compressed): ``lower_cert`` proves the lower
bound (a mistake tree, a shattered set, a witness), ``upper_cert`` the upper bound (an upper-bound
certificate). A row is trusted only as far as its certificates go: :func:`verified_bounds` re-checks
them from scratch against the class with the independent checkers of :mod:`solvers.certificates`,
:mod:`solvers.certificates.games` and :mod:`adversary.referee`. A result solved in less than
:data:`CERTIFY_SECONDS` is stored without certificates (:func:`recomputed`), and proven when read by
computing it again.

Writes merge: when a key is written again (a resumed cell, or two runs on the same store at once) the
row keeps the larger lower bound and the smaller upper bound, each with the certificate that proves it,
in one ``BEGIN IMMEDIATE`` transaction, so no row is lost or duplicated (a row kept without certificates
never lends its numbers to another: see :func:`_merge`). The database runs in WAL mode (readers do not block
the writer); a writer waits up to ``timeout`` seconds for the lock. A batched store (``flush_seconds``, as
the commands open it) queues its writes and writes them in one transaction committed at most
``flush_seconds`` after the first, by a background thread when no further write comes, and at ``close``
and the interpreter's exit (a read of this process writes the queue first). A read-only store (``readonly``: SQLite's ``mode=ro``) needs no write
access. Nothing but JSON is ever read back (no pickle). An empty file (0 bytes) is an empty store, read or written.

A row is read in one place (:func:`_decode`), every column checked; a row that does not read (its data not
zlib-compressed JSON, a column of the wrong type, a key that is not its content's) costs no other row: listings
skip it (:attr:`Store.unreadable` says which and why), :meth:`Store.get` refuses it (:class:`UnreadableRow`), a
write under its key replaces it and :meth:`Store.delete` removes it. A store that cannot be written for want of
space (a full disk) says so (``StoreError.unwritable``), and can still be opened ``readonly``.

Keys are canonical: every number of a task or of an implicit class's parameters is read exactly and
written in one form (:func:`canonical_value`), so one mathematical object has one row.

Examples
--------
>>> import tempfile, os
>>> from solvers.classes.families import make
>>> from solvers.opt import opt
>>> path = os.path.join(tempfile.mkdtemp(), "results.db")
>>> C = make("thresholds", N=7)
>>> with Store(path) as S:
...     _ = S.put(record_of_opt(C, opt(C), certify=True))
...     row = S.get("opt", C.fingerprint(), opt_task())
>>> row.value, verified_bounds(row, C)
('3', (3, 3))

A result this fast is stored by the commands without its certificates (:data:`CERTIFY_SECONDS`), and
re-proven by computing it again:

>>> rec = record_of_opt(C, opt(C), certify=False)
>>> recomputed(rec), rec.lower_cert, verified_bounds(rec, C), verified_bounds(rec, C, recompute=True)
(True, None, (None, None), (3, 3))
"""

from __future__ import annotations

import atexit
import datetime
import functools
import hashlib
import json
import os
import re
import sqlite3
import threading
import time
import weakref
import zlib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Iterator, Optional

__all__ = ["STORE_ENV", "Store", "StoreError", "UnreadableRow", "Record", "SCHEMA_VERSION", "DEFAULT_PATH", "KINDS",
           "FLUSH_SECONDS", "result_key", "opt_task", "record_of_opt", "verified_bounds", "exact", "number",
           "class_key", "canonical_params", "read_only_reason", "attack_claims", "CHECK_BUDGET", "CERTIFY_SECONDS",
           "certify_seconds", "recomputed", "param_task", "record_of_param"]

SCHEMA_VERSION = 1
DEFAULT_PATH = "littlestone.db"
#: The environment variable naming the store the commands use when no --store is given (else DEFAULT_PATH).
STORE_ENV = "LITTLESTONE_STORE"
KINDS = ("opt", "vc", "attack", "param")
APPLICATION_ID = 0x4C53544E  # "LSTN": marks a file as a littlestone store (PRAGMA application_id)
#: A batched store (``Store(..., flush_seconds=FLUSH_SECONDS)``, as the commands open it) commits its writes at
#: most this many seconds after the first of them: a killed process loses at most the rows of its last half second.
FLUSH_SECONDS = 0.5
#: A solved result computed in less than this many seconds is stored with its numbers only, without its
#: certificates (``extra["proof"] == "recompute"``): building and encoding the certificates costs from a
#: tenth of the computation to as much again (measured on ``scripts/bench_store.py``'s instances), and
#: checking them would take about as long as computing the value again, which is how such a row is re-proven when read (:func:`verified_bounds` with ``recompute``; a
#: command that finds it computes the result again). ``LITTLESTONE_CERTIFY_SECONDS`` overrides it (0: every
#: row keeps its certificates). Certificates asked for (``opt --proof``) are always built.
CERTIFY_SECONDS = 0.05

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    key        TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    class_key  TEXT NOT NULL,
    family     TEXT,
    params     TEXT NOT NULL,
    task       TEXT NOT NULL,
    concepts   INTEGER,
    points     INTEGER,
    value      TEXT,
    lower      TEXT,
    upper      TEXT,
    seconds    REAL,
    engine     TEXT,
    version    TEXT,
    time       TEXT,
    data       BLOB
);
CREATE INDEX IF NOT EXISTS results_kind_family ON results (kind, family);
"""


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

    @property
    def key(self) -> str:
        return result_key(self.kind, self.class_key, self.task)

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


_EXACT = re.compile(r"-?[0-9]+(/[0-9]+)?")


class _Malformed(ValueError):
    """What is wrong with a row that does not read (one line)."""


def _key_text(raw) -> str:
    """A key column as text (a key spoilt into bytes or a number, as its hex or digits)."""
    if isinstance(raw, str):
        return raw
    return raw.hex() if isinstance(raw, bytes) else str(raw)


def _text(r, i: int, name: str, *, optional: bool = True) -> Optional[str]:
    v = r[i]
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise _Malformed(f"its {name} is {type(v).__name__ if v is not None else 'missing'}, not text")
    return v


def _json_object(text, name: str) -> dict:
    try:
        obj = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        raise _Malformed(f"its {name} is not JSON") from None
    if not isinstance(obj, dict):
        raise _Malformed(f"its {name} is a JSON {type(obj).__name__}, not an object")
    return obj


def _decode(r) -> Record:
    """The row ``r`` (the columns of :attr:`Store._COLUMNS`) as a Record, every column checked: text where
    text is kept, a count or nothing for ``concepts`` and ``points``, a finite number of seconds, exact numbers
    for the value and bounds, JSON objects for ``params``, ``task`` and the data (zlib-compressed, or as its
    JSON text), certificates that are objects, and a key that is the hash of the kind, class and task.
    :class:`_Malformed` says what is wrong."""
    if len(r) < 16:
        raise _Malformed(f"it has {len(r)} columns, not 16")
    key = _text(r, 0, "key", optional=False)
    kind, ckey = _text(r, 1, "kind", optional=False), _text(r, 2, "class key", optional=False)
    params = _json_object(_text(r, 4, "params", optional=False), "params")
    task = _json_object(_text(r, 5, "task", optional=False), "task")
    try:
        same = result_key(kind, ckey, task) == key
    except (TypeError, ValueError):
        same = False
    if not same:
        raise _Malformed("its key is not the hash of its kind, class and task")
    counts = []
    for i, name in ((6, "concepts"), (7, "points")):
        v = r[i]
        if v is not None and (type(v) is not int or v < 0):
            raise _Malformed(f"its {name} is {v!r:.40}, not a count")
        counts.append(v)
    numbers = [_text(r, i, name) for i, name in ((8, "value"), (9, "lower bound"), (10, "upper bound"))]
    for text, name in zip(numbers, ("value", "lower bound", "upper bound")):
        try:  # as exact() writes them ("3", "-7/8"; not "1e999999999", which would take forever to read)
            if text is not None and (not _EXACT.fullmatch(text) or number(text) is None):
                raise ValueError
        except (ValueError, ZeroDivisionError):
            raise _Malformed(f"its {name} {text!r:.40} is not an exact number") from None
    seconds = r[11]
    if seconds is not None:
        if type(seconds) not in (int, float) or not 0 <= seconds < float("inf"):
            raise _Malformed(f"its seconds {seconds!r:.40} are not a number of seconds")
        seconds = float(seconds)
    family, engine, version, when = (_text(r, i, name) for i, name in ((3, "family"), (12, "engine"),
                                                                      (13, "version"), (14, "time")))
    blob = r[15]
    if blob is None:
        data = {}
    else:
        if isinstance(blob, str):
            blob = blob.encode()
        if not isinstance(blob, bytes):
            raise _Malformed(f"its data is {type(blob).__name__}, not a blob")
        if blob[:1] != b"{":
            try:
                blob = zlib.decompress(blob)
            except (zlib.error, ValueError):
                raise _Malformed("its data is not zlib-compressed JSON") from None
        data = _json_object(blob, "data")
    for name in ("lower_cert", "upper_cert"):
        if data.get(name) is not None and not isinstance(data[name], dict):
            raise _Malformed(f"its {name.replace('_cert', '-bound certificate')} is not a JSON object")
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise _Malformed("its extra data is not a JSON object")
    return Record(kind=kind, class_key=ckey, family=family, params=params, task=task, concepts=counts[0],
                  points=counts[1], value=numbers[0], lower=numbers[1], upper=numbers[2], seconds=seconds,
                  engine=engine, version=version, time=when, lower_cert=data.get("lower_cert"),
                  upper_cert=data.get("upper_cert"), extra=extra)


@functools.lru_cache(maxsize=1)
def _version() -> str:
    from solvers._version import __version__

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


def _attack_rank(rec: Record) -> tuple:
    """How good an attack row is: its proven count (its witness's), then a search that ran to its end."""
    try:
        count = number(rec.lower)
    except (ValueError, TypeError, ZeroDivisionError):
        count = None
    result = rec.extra.get("result") if isinstance(rec.extra, dict) else None
    stopped = bool(((result or {}).get("stats") or {}).get("stopped")) if isinstance(result, dict) else True
    return (count is not None, count if count is not None else 0, not stopped)


def _merge(old: Record, new: Record) -> Record:
    """The row after writing ``new`` over ``old`` (same key): the better bound of the two on each side,
    with the certificate that proves it; the run's facts (seconds, engine, time) of the one that
    decided the value. An attack row is one witness and what was said of it (its count, verdict, bound):
    the whole row with the larger proven count is kept (on a tie, one whose search was not stopped, else
    the new one), never a mix of the two; a parameter's row likewise (the solved one, else the new one)."""
    if old.kind == "attack" or new.kind == "attack":
        return old if _attack_rank(old) > _attack_rank(new) else new
    if old.kind == "param" or new.kind == "param":  # one witness states both bounds: a whole row, never a mix
        return old if old.solved and not new.solved else new
    # A row kept without certificates (recomputed) holds numbers nothing proves until they are computed
    # again: a row written over it replaces it, and it replaces a row over which it is written (it was just
    # computed), unless that row proves the same value with its certificates.
    if recomputed(new):
        keep = old.solved and not recomputed(old) and old.value == new.value and old.upper_cert is not None and (
            old.lower_cert is not None or number(old.lower) == 0)
        return old if keep else new
    if recomputed(old):
        return new
    def better(a, b, pick):  # the better bound, as a number (a side that states none gives the other's)
        if a is None or b is None:
            return number(b if a is None else a)
        return pick(number(a), number(b))

    lo_new = better(old.lower, new.lower, max)
    hi_new = better(old.upper, new.upper, min)
    lower, lower_cert = (new.lower, new.lower_cert) if number(new.lower) == lo_new and (
        new.lower_cert is not None or old.lower_cert is None or number(old.lower) != lo_new) else (old.lower, old.lower_cert)
    upper, upper_cert = (new.upper, new.upper_cert) if number(new.upper) == hi_new and (
        new.upper_cert is not None or old.upper_cert is None or number(old.upper) != hi_new) else (old.upper, old.upper_cert)
    value = lower if lower is not None and lower == upper else None
    run = new if new.solved or not old.solved else old
    return replace(run, value=value, lower=lower, upper=upper, lower_cert=lower_cert, upper_cert=upper_cert,
                   extra={**old.extra, **new.extra} if run is new else {**new.extra, **old.extra})


# ---------------------------------------------------------------------------------------- the database
def read_only_reason(path) -> Optional[str]:
    """Why the store at ``path`` cannot be written (a read-only file, or no file in a read-only folder), or
    None when it can."""
    path = Path(path)
    where = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not where.is_dir():
        return None  # not a question of access: Store says what is wrong
    if path.exists():
        if not os.access(path, os.W_OK):
            return f"the store {str(path)!r} is read-only"
        if not os.access(where, os.W_OK) and not Path(str(path) + "-wal").exists():
            return (f"the store {str(path)!r} is in a read-only folder (SQLite writes its -wal file beside it), so it "
                    "cannot be written")
        return None
    if not os.access(where, os.W_OK):
        return (f"there is no store {str(path)!r}, and its folder {str(where.resolve())!r} is read-only, so it cannot "
                "be created")
    return None


class Store:
    """An embedded SQLite store of results (see the module's docstring).

    Parameters
    ----------
    path : str or Path
        The database file (created with its schema when missing, unless ``readonly``).
    timeout : float
        Seconds a writer waits for another writer's lock before :class:`StoreError`.
    readonly : bool
        Open the file for reading only (SQLite's ``mode=ro``): no write access is needed, and
        :meth:`put` and :meth:`delete` refuse. The file must exist.
    flush_seconds : float
        0 (the default): every :meth:`put` is committed at once. Otherwise writes are batched in one
        transaction, committed at most ``flush_seconds`` after its first write (by a background thread
        when no further write comes), by :meth:`flush`, and by :meth:`close` (also at the interpreter's
        exit): a killed process loses at most its last ``flush_seconds`` of rows. The rows are queued and
        written at the commit (or before a read of this process), so this process holds the store's write
        lock only while it writes them (other processes' writers wait for it, readers do not).

    Raises
    ------
    StoreError
        If the file is not a littlestone store, has another schema version, or cannot be written
        (read: cannot be read, with ``readonly``).
    """

    def __init__(self, path, *, timeout: float = 30.0, readonly: bool = False, flush_seconds: float = 0.0):
        self.path = Path(path)
        self.timeout = timeout
        self.readonly = readonly
        self.flush_seconds = float(flush_seconds)
        self.lock = threading.RLock()
        self._batch_started: Optional[float] = None  # monotonic time of the open batch's first write
        self._queue: list[tuple[str, Record]] = []  # the open batch's rows not yet written to its transaction
        self._queued_keys: set = set()  # their keys
        self._flush_error: Optional[StoreError] = None  # a background commit that failed, raised at the next call
        self._flusher: Optional[threading.Thread] = None
        self._wake = threading.Condition(self.lock)
        self._closed = False
        #: The rows read so far that do not read (key -> what is wrong with it, one line): skipped by :meth:`rows`,
        #: :meth:`find` and :meth:`rows_of`, refused by :meth:`get` (:class:`UnreadableRow`), replaced by
        #: :meth:`put`, removed by :meth:`delete`.
        self.unreadable: dict[str, str] = {}
        self._unreadable_rows: dict[str, tuple] = {}  # key -> (rowid, the key column as stored)
        #: Why writing was stopped (:meth:`stop_writing`), or None.
        self.unwritable: Optional[str] = None
        where = self.path.parent if str(self.path.parent) else Path(".")
        if self.path.is_dir():
            raise StoreError(f"the store {str(self.path)!r} is a directory; give a file name, e.g. --store results.db")
        if not where.is_dir():
            raise StoreError(f"the store's folder {str(where)!r} does not exist; create it or give another --store path")
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{str(self.path)!r} is not a regular file (a device, a pipe or a socket), so not a "
                             "store; give a file path, e.g. --store results.db")
        created = [f for f in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")) if not f.exists()]
        if readonly:
            if not self.path.exists():
                raise StoreError(f"there is no store at {str(self.path)!r}; run opt, attack or table first, or give "
                                 "--store PATH")
        elif not self.path.exists() and not os.access(where, os.W_OK):
            raise StoreError(f"the store {str(self.path)!r} does not exist and its folder {str(where)!r} is read-only, "
                             "so it cannot be created there; give a --store path in a writable folder (or --no-store)")
        elif self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(f"the store {str(self.path)!r} is read-only; make it writable, or give another --store "
                             "path (or --no-store)")
        try:
            # One connection, used by this process's threads in turn (joblib feeds cells from a thread).
            if readonly:
                self.db = self._connect_readonly()
            else:
                self.db = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None,
                                          check_same_thread=False)
        except sqlite3.Error as e:
            self._remove_new(created, e)
            raise StoreError(f"cannot open the store {str(self.path)!r}: {e}; give another --store path") from None
        try:
            self._prepare()
        except (StoreError, sqlite3.DatabaseError) as e:
            self.db.close()
            self._remove_new(created, e)
            raise e if isinstance(e, StoreError) else self._error(e) from None
        if self.flush_seconds > 0:
            _OPEN.add(self)  # flushed at the interpreter's exit if not closed

    def _remove_new(self, created, e) -> None:
        """A store this call created and could not make (a full disk): its empty files are removed, so that a failed
        run leaves no 0-byte store behind (not when the file is locked: another process is making it)."""
        if "locked" in str(e) or "busy" in str(e) or self.path not in created:
            return  # (SQLite's files beside a store another process made may be in use there)
        try:
            if not (self.path.is_file() and self.path.stat().st_size == 0):
                return
            self.path.unlink()
        except OSError:
            return
        for f in created:  # the store was this call's: so are the files beside it
            try:
                if f != self.path and f.is_file() and f.stat().st_size == 0:
                    f.unlink()
            except OSError:
                pass

    def _connect_readonly(self):
        """A read-only connection: ``mode=ro``, or, where SQLite cannot even create its shared-memory file
        beside a WAL store (a read-only folder), ``immutable=1`` (which reads the file as it is)."""
        from urllib.parse import quote

        uri = "file:" + quote(str(self.path.resolve()))
        db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=self.timeout, isolation_level=None,
                             check_same_thread=False)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()
            return db
        except sqlite3.DatabaseError as e:
            db.close()
            if "not a database" in str(e) or "encrypted" in str(e):
                raise
        return sqlite3.connect(uri + "?immutable=1", uri=True, timeout=self.timeout, isolation_level=None,
                               check_same_thread=False)

    def _error(self, e: Exception) -> StoreError:
        text = str(e)
        if "not a database" in text or "malformed" in text or "file is encrypted" in text:
            return StoreError(f"{str(self.path)!r} is not a littlestone store (not an SQLite database); give another "
                              "--store path, or move the file away")
        if "locked" in text or "busy" in text:
            return StoreError(f"the store {str(self.path)!r} stayed locked by another process for more than "
                              f"{self.timeout:g} s; wait for it, or give another --store path (or --no-store)")
        if "readonly" in text or "read-only" in text:
            return StoreError(f"the store {str(self.path)!r} is read-only; make it writable, or give another --store "
                              "path (or --no-store)")
        if "full" in text or "disk I/O" in text:  # a full disk (SQLite's own, or creating its files beside the store)
            e = StoreError(f"the store {str(self.path)!r} cannot be written ({text}); free some space, or give another "
                           "--store path (or --no-store)")
            e.unwritable = text
            return e
        return StoreError(f"the store {str(self.path)!r} failed: {text}; give another --store path (or --no-store)")

    def _prepare(self) -> None:
        db = self.db
        # The tables first, then the id: another process creating the store writes both in one transaction, so
        # tables seen here mean its id is there too (read the other way round, a store created between the two
        # reads looked like another program's database).
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        app = self._one("PRAGMA application_id")[0]
        if tables and (app != APPLICATION_ID or "meta" not in tables):
            raise StoreError(f"{str(self.path)!r} is an SQLite database but not a littlestone store; give another "
                             "--store path")
        if self.readonly and not tables:
            # An empty file (a 0-byte one included) is an empty store, as a command that writes makes it one: read
            # as such from an empty store in memory.
            db.close()
            self.db = db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            for stmt in _SCHEMA.strip().split(";"):
                if stmt.strip():
                    db.execute(stmt)
            db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            return
        if not self.readonly:
            # Switching to WAL takes the file for a moment, and SQLite does not wait for a lock held by another
            # process (two runs opening a new store at once): retry until the timeout.
            deadline = time.monotonic() + self.timeout
            while self._one("PRAGMA journal_mode")[0].lower() != "wal":
                try:
                    db.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError as e:
                    if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
            db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a killed process; fsync at checkpoints
        if not tables:
            with self._write():
                if not {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}:
                    for stmt in _SCHEMA.strip().split(";"):
                        if stmt.strip():
                            db.execute(stmt)
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('created', ?)", (_now(),))
        row = self._one("SELECT value FROM meta WHERE key = 'schema_version'")
        found = row[0] if row else "none"
        if found != str(SCHEMA_VERSION):
            raise StoreError(f"the store {str(self.path)!r} has schema version {found}, and this littlestone reads "
                             f"version {SCHEMA_VERSION}; give another --store path (or export it with the littlestone "
                             "that wrote it)")

    class _Tx:
        def __init__(self, store):
            self.store = store

        def __enter__(self):
            self.store.flush()  # a batch open on this connection is committed first
            try:
                self.store.db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as e:
                raise self.store._error(e) from None

        def __exit__(self, kind, exc, tb):
            db = self.store.db
            if kind is None:
                try:
                    db.execute("COMMIT")
                except sqlite3.DatabaseError as e:
                    _rollback(db)
                    raise self.store._error(e) from None
            else:
                _rollback(db)
                if isinstance(exc, sqlite3.DatabaseError):
                    raise self.store._error(exc) from None
            return False

    def _write(self):
        if self.readonly:
            raise StoreError(f"the store {str(self.path)!r} was opened read-only; nothing can be written to it")
        return Store._Tx(self)

    # ------------------------------------------------------------------ batches
    def _begin_batch(self) -> None:
        """Open the batch when none is open; start the background flusher once."""
        if self._batch_started is not None:
            return
        self._batch_started = time.monotonic()
        if self._flusher is None:
            self._flusher = threading.Thread(target=self._flush_loop, name="littlestone-store-flush", daemon=True)
            self._flusher.start()
        self._wake.notify()

    def _drain(self) -> None:
        """Write the batch's queued rows into its transaction (opened here: the write lock), uncommitted: done
        at its commit, and before any read, so that this process reads what it wrote. Writing the rows of
        half a second together, not one by one as they come, is most of what batching saves."""
        if not self._queue:
            return
        if not self.db.in_transaction:
            try:
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as e:
                self._queue.clear()  # (the batch is lost: said by the StoreError)
                self._queued_keys.clear()
                raise self._error(e) from None
        try:
            # The keys not in the store (each one's first row): inserted in one statement; the others merged.
            keys = list({key for key, _ in self._queue})
            there = set()
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                there.update(r[0] for r in self.db.execute(
                    f"SELECT key FROM results WHERE key IN ({', '.join('?' * len(chunk))})", chunk).fetchall())
            new, rest = [], []
            for key, rec in self._queue:
                if key in there:
                    rest.append((key, rec))
                else:
                    there.add(key)
                    new.append(self._values(rec, key))
            self.db.executemany(self._INSERT, new)
            self._queue[:] = rest
            while self._queue:
                key, rec = self._queue[0]
                self._merge_in(rec, key)
                del self._queue[0]  # written (a Ctrl-C between the two writes it again: a merge of a row with itself)
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None
        self._queued_keys.clear()

    def _flush_loop(self) -> None:
        """The background thread: commits an open batch ``flush_seconds`` after its first write."""
        with self.lock:
            while not self._closed:
                if self._batch_started is None:
                    self._wake.wait()
                    continue
                left = self._batch_started + self.flush_seconds - time.monotonic()
                if left > 0:
                    self._wake.wait(left)
                    continue
                try:
                    self._commit()
                except StoreError as e:
                    self._flush_error = e

    def _commit(self) -> None:
        """Commit the open batch: any transaction open on the connection (so a batch whose start was not
        recorded, or a signal between the two, is committed, not rolled back at close); the batch is over
        only once COMMIT (or its ROLLBACK) has run."""
        if self._batch_started is None and not self.db.in_transaction and not self._queue:
            return
        try:
            self._drain()
            self.db.execute("COMMIT")
        except (sqlite3.DatabaseError, StoreError) as e:
            self._queue.clear()
            self._queued_keys.clear()
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
            raise (e if isinstance(e, StoreError) else self._error(e)) from None
        finally:
            if not self.db.in_transaction and not self._queue:
                self._batch_started = None

    def _raise_flush_error(self) -> None:
        e, self._flush_error = self._flush_error, None
        if e is not None:
            again = StoreError(f"{e} (the rows of the last {self.flush_seconds:g} s were not stored)")
            again.unwritable = e.unwritable
            raise again

    def flush(self) -> None:
        """Commit the open batch, if any (a store that commits every write has none)."""
        with self.lock:
            self._commit()
            self._raise_flush_error()

    @property
    def pending(self) -> bool:
        """Whether written rows wait for their commit."""
        return self._batch_started is not None

    def close(self) -> None:
        """Commit what is pending and close the file; a failed commit is raised (:class:`StoreError`) after the
        file is closed."""
        with self.lock:
            if self._closed:
                return
            try:
                self.flush()
            finally:
                self._closed = True
                self._wake.notify_all()
                _OPEN.discard(self)
                self.db.close()

    def stop_writing(self, why: str) -> None:
        """Read the store and write nothing more to it (a write found the disk full): it is read-only from now on,
        ``unwritable`` saying why."""
        with self.lock:
            self._queue.clear()
            self._queued_keys.clear()
            _rollback(self.db)
            self._batch_started = None
            self.readonly, self.unwritable = True, why

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # ------------------------------------------------------------------ rows
    _COLUMNS = ("key", "kind", "class_key", "family", "params", "task", "concepts", "points", "value", "lower", "upper",
                "seconds", "engine", "version", "time", "data")

    _SELECT = f"SELECT {', '.join(_COLUMNS)}, rowid FROM results"

    def _one(self, sql: str, args=()):
        """The first row of a query, its statement finished at once: a statement left open would keep a read
        transaction (an old snapshot) that a later write on this connection could not upgrade."""
        with self.lock:
            rows = self.db.execute(sql, args).fetchall()
        return rows[0] if rows else None

    def _records(self, where: str = "", args=()) -> list[Record]:
        """The rows a query over the whole row (``SELECT <every column> FROM results`` + ``where``) finds, read
        under the lock after the queued rows are written (this process reads what it wrote), fetched whole
        (see :meth:`_one`)."""
        try:
            with self.lock:
                self._drain()
                found = self.db.execute(f"{self._SELECT} {where}", args).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None
        out = []
        for r in found:
            try:
                out.append(self._row(r))
            except UnreadableRow as e:  # skipped (and listed in self.unreadable): one bad row costs no other
                self._unread(e, r[0])
        return out

    @staticmethod
    def _row(r) -> Record:
        """The row ``r`` (the columns of :attr:`_SELECT`) as a Record; :class:`UnreadableRow` when it does not read
        (:func:`_decode`)."""
        try:
            return _decode(r)
        except _Malformed as e:
            raise UnreadableRow(_key_text(r[0]), str(e), r[16] if len(r) > 16 else None) from None

    def _unread(self, e: "UnreadableRow", raw_key) -> None:
        """Remember a row that does not read (for :attr:`unreadable` and :meth:`delete`)."""
        self.unreadable[e.key] = e.why
        self._unreadable_rows[e.key] = (e.rowid, raw_key)

    def get(self, kind: str, class_key: str, task: dict) -> Optional[Record]:
        """The stored row for this result, or None."""
        return self.get_key(result_key(kind, class_key, task))

    def get_key(self, key: str) -> Optional[Record]:
        try:
            with self.lock:
                if key in self._queued_keys:
                    self._drain()  # read what this process wrote (merged with the row there)
                r = self._one(f"{self._SELECT} WHERE key = ?", (key,))
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None
        if r is None:
            return None
        try:
            return self._row(r)
        except UnreadableRow as e:
            self._unread(e, r[0])
            e.args = (f"the row {e.key[:12]} of the store {str(self.path)!r} cannot be read ({e.why})",)
            raise

    def find(self, prefix: str) -> list[Record]:
        """The rows whose key starts with ``prefix`` (as ``store show`` takes them)."""
        return self._records("WHERE key LIKE ? ORDER BY time", (prefix.replace("%", "").replace("_", "") + "%",))

    def put(self, rec: Record) -> Record:
        """Write a result, merged with the row already under its key (see :func:`_merge`); returns the row
        as stored. ``rec.version`` and ``rec.time``, when None, are set to this littlestone's and now. In a
        batched store (``flush_seconds``) the row is queued, and written and committed with its batch (the
        rows of half a second together: most of what batching saves); the row returned is then ``rec``
        (merged when the batch is written)."""
        if self.readonly:
            raise StoreError(f"the store {str(self.path)!r} was opened read-only; nothing can be written to it")
        if rec.version is None:
            rec.version = _version()
        if rec.time is None:
            rec.time = _now()
        if self.flush_seconds <= 0:
            return self._put_now(rec)
        key = rec.key
        with self.lock:
            self._raise_flush_error()
            self._begin_batch()
            self._queue.append((key, rec))
            self._queued_keys.add(key)
            if time.monotonic() - self._batch_started >= self.flush_seconds:
                self._commit()
        return rec

    def _put_now(self, rec: Record) -> Record:
        with self.lock:
            try:  # a new key: one statement, atomic by itself
                if self.db.execute(self._INSERT + " ON CONFLICT (key) DO NOTHING", self._values(rec)).rowcount == 1:
                    return rec
            except sqlite3.DatabaseError as e:
                raise self._error(e) from None
            with self._write():  # the key is there: merge with it in one transaction
                return self._merge_in(rec)

    def _merge_in(self, rec: Record, key: Optional[str] = None) -> Record:
        """Inside an open transaction: write ``rec`` merged with the row under its key (:func:`_merge`);
        returns the row as written."""
        key = rec.key if key is None else key
        r = self._one(f"{self._SELECT} WHERE key = ?", (key,))
        if r is not None:
            try:
                rec = _merge(self._row(r), rec)
            except UnreadableRow:
                pass  # a row that does not read is replaced
        self.unreadable.pop(key, None)
        self._unreadable_rows.pop(key, None)
        self.db.execute(self._INSERT.replace("INSERT", "INSERT OR REPLACE", 1), self._values(rec, key))
        return rec

    _INSERT = f"INSERT INTO results ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"

    def _values(self, rec: Record, key: Optional[str] = None) -> tuple:
        data = {}
        if rec.lower_cert is not None:
            data["lower_cert"] = rec.lower_cert
        if rec.upper_cert is not None:
            data["upper_cert"] = rec.upper_cert
        if rec.extra:
            data["extra"] = rec.extra
        text = _COMPACT.encode(data).encode()
        # A row without certificates is a few dozen bytes: kept as its JSON text (read back by its first byte,
        # "{", which no zlib stream starts with), not compressed.
        blob = text if len(text) < 256 else zlib.compress(text, 1)
        return (rec.key if key is None else key, rec.kind, rec.class_key, rec.family, _COMPACT.encode(rec.params), _canonical(rec.task),
                rec.concepts, rec.points, rec.value, rec.lower, rec.upper, rec.seconds, rec.engine, rec.version,
                rec.time, blob)

    def rows_of(self, kind: str, class_key: str) -> list[Record]:
        """The rows of one kind on one class (the parts of a spread search, :mod:`solvers.opt.distributed`)."""
        self.flush()
        return self._records("WHERE kind = ? AND class_key = ?", (kind, class_key))

    def rows(self, kind: Optional[str] = None, family: Optional[str] = None) -> Iterator[Record]:
        """Every row (of one kind, one family), oldest first."""
        where, args = [], []
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if family is not None:
            where.append("family = ?")
            args.append(family)
        yield from self._records((" WHERE " + " AND ".join(where) if where else "") + " ORDER BY rowid", args)

    def count(self) -> int:
        with self.lock:
            self._drain()
            return self._one("SELECT COUNT(*) FROM results")[0]

    def delete(self, keys) -> int:
        """Remove the rows of these keys (a row that does not read by the key :attr:`unreadable` gives it)."""
        keys = list(keys)
        with self.lock, self._write():
            for k in keys:
                self.db.execute("DELETE FROM results WHERE key = ?", (k,))
                if k in self._unreadable_rows:  # its key column may not be this text: by its rowid
                    rowid, raw = self._unreadable_rows.pop(k)
                    self.db.execute("DELETE FROM results WHERE rowid = ? AND key IS ?", (rowid, raw))
                    self.unreadable.pop(k, None)
        return len(keys)

    def vacuum(self) -> None:
        with self.lock:
            self.flush()
            try:
                self.db.execute("VACUUM")
            except sqlite3.DatabaseError as e:
                raise self._error(e) from None


def _rollback(db) -> None:
    """Roll back the open transaction, if any: SQLite may have rolled it back itself (a full disk), and the error
    that did it is the one to report, not "cannot rollback"."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass


#: The batched stores not closed yet: their pending rows are committed at the interpreter's exit.
_OPEN: "weakref.WeakSet[Store]" = weakref.WeakSet()


@atexit.register
def _flush_open_stores() -> None:
    for S in list(_OPEN):
        try:
            S.close()
        except Exception:  # noqa: BLE001 - at exit there is nobody left to tell
            pass


# ---------------------------------------------------------------------------------------- opt rows
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
    """The row of a parameter ``p`` (a :class:`solvers.params.Param`) of ``C``: its bounds, and its JSON with the
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

    G = r.game
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
        except (ProofTooLarge, ValueError, SearchStop, KeyboardInterrupt):
            upper_cert = None  # ValueError: an unsolved game keeps no refutation
    return _opt_record(C, r, family, params, lower_cert, upper_cert, extra)


def _opt_record(C, r, family, params, lower_cert, upper_cert, extra) -> Record:
    return Record(kind="opt", class_key=class_key(C), task=opt_task(r.game), family=family or C.family,
                  params=dict(params if params is not None else C.params), concepts=C.n_concepts, points=C.n_points,
                  value=exact(r.value), lower=exact(r.lower), upper=exact(r.upper), seconds=r.stats.get("seconds"),
                  engine=r.stats.get("engine"), lower_cert=lower_cert, upper_cert=upper_cert, extra=extra)


# ---------------------------------------------------------------------------------------- re-checking
#: Seconds the checkers take per entry of an upper-bound certificate (measured on intervals N=150 and R_1 of
#: intervals N=6; the packed engine's, whose entries each filter the class's truth tables and may carry a leaf's
#: certificate, on halfspaces n=6, 239 s for 14,116 entries, and decision lists n=6, 56 s for 2,036), to tell
#: when re-checking a certificate would cost more than computing the value again.
CHECK_SECONDS_PER_ENTRY = {"standard": 2.5e-4, "game": 7e-4, "packed": 2e-2}


def check_seconds(rec: Record) -> float:
    """About how long re-checking the row's upper-bound certificate takes."""
    p = rec.upper_cert
    n = len(p.get("entries", [])) if isinstance(p, dict) and isinstance(p.get("entries"), list) else 0
    if isinstance(p, dict) and p.get("form") == "packed":
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


#: Seconds ``store show``, ``export``, ``prune`` and ``plot --from-store`` give each row's upper bound to be
#: re-checked (an upper-bound certificate that would take longer, or the VC search run again for this long
#: without settling, leaves the bound "not re-checked", never FAILED): a large store is checked in minutes.
CHECK_BUDGET = 2.0


def verified_bounds(rec: Record, C, *, upper_budget: Optional[float] = None, notes: Optional[list] = None,
                    recompute: bool = False) -> tuple:
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
    ``upper_budget``, the VC search not settled within it), one line saying so is appended."""
    from solvers.certificates import TreeError

    if rec.class_key != class_key(C):
        raise StoreError("the stored row was computed on another class (fingerprints differ)")
    value, lower, upper = _claimed(rec)
    if rec.kind == "opt" and recomputed(rec):
        if not recompute:
            if notes is not None:
                notes.append("the row keeps no certificates: its result is proven by computing it again")
            return None, None
        return _verified_by_recomputing(rec, C, value, upper_budget, notes)
    if rec.kind == "opt":
        if upper_budget is not None and rec.upper_cert is not None and check_seconds(rec) > upper_budget:
            if notes is not None:
                notes.append(f"its upper-bound certificate would take about {check_seconds(rec):.3g} s to check, "
                             f"over {upper_budget:g} s")
            rec = replace(rec, upper_cert=None)
        return _verified_game(rec, C, lower, upper)
    if rec.kind == "vc":
        return _verified_vc(rec, C, lower, upper, upper_budget, notes)
    if rec.kind == "attack":
        return _verified_attack(rec, C, value, lower), None
    if rec.kind == "param":
        return _verified_param(rec, C, lower, upper, upper_budget, notes)
    raise TreeError(f"unknown kind {rec.kind!r} in the store (written by another littlestone?)")


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


def _verified_param(rec: Record, C, lower, upper, budget, notes=None) -> tuple:
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
    if lo is not None and hi is not None or lower != upper:
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


def _verified_vc(rec: Record, C, lower, upper, budget, notes=None) -> tuple:
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

    from adversary.referee import WitnessError, load_class, verify_witness

    w = rec.lower_cert
    if w is None:
        if value is not None or lower is not None:
            raise TreeError(f"the row says {rec.value} mistakes and has no witness")
        return None
    if not isinstance(w, dict) or not isinstance(w.get("class"), (dict, str)):
        raise TreeError("the stored witness is not a witness object")
    try:
        made_on = class_key(load_class(w["class"]))
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
    from adversary.attack import _verdict
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
    verdict = _verdict(count, bound, w.get("cycle") is not None, bool(game.get("randomized")))
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
