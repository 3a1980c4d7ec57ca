"""The results store: an embedded SQLite database of every result computed, with its certificates.

One row per result, keyed by what was computed: the kind (``"opt"``: Opt(C) or another game's value;
``"vc"``: the VC dimension; ``"attack"``: a learner's worst case found), the class's fingerprint (a hash
of its matrix and points, :meth:`solvers.classes.ConceptClass.fingerprint`; for an implicit class, of its
family and parameters) and the task (the game; the learner, its parameters, the strategy, ...). A row
holds the value and its proven bounds as exact text (``"3"``, ``"7/8"``), the seconds, engine, version
and time of the run, and its certificates (JSON, zlib-compressed): ``lower_cert`` proves the lower
bound (a mistake tree, a shattered set, a witness), ``upper_cert`` the upper bound (an upper-bound
certificate). A row is trusted only as far as its certificates go: :func:`verified_bounds` re-checks
them from scratch against the class with the independent checkers of :mod:`solvers.certificate`,
:mod:`solvers.game_certificates` and :mod:`adversary.referee`.

Writes merge: when a key is written again (a resumed cell, or two runs on the same store at once) the
row keeps the larger lower bound and the smaller upper bound, each with the certificate that proves it,
in one ``BEGIN IMMEDIATE`` transaction, so no row is lost or duplicated. The database runs in WAL mode
(readers do not block the writer); a writer waits up to ``timeout`` seconds for the lock. Nothing but
JSON is ever read back (no pickle).

Examples
--------
>>> import tempfile, os
>>> from solvers.classes.families import make
>>> from solvers.opt import opt
>>> path = os.path.join(tempfile.mkdtemp(), "results.db")
>>> C = make("thresholds", N=7)
>>> with Store(path) as S:
...     _ = S.put(record_of_opt(C, opt(C)))
...     row = S.get("opt", C.fingerprint(), opt_task())
>>> row.value, verified_bounds(row, C)
('3', (3, 3))
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import os
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Iterator, Optional

__all__ = ["Store", "StoreError", "Record", "SCHEMA_VERSION", "DEFAULT_PATH", "KINDS", "result_key", "opt_task",
           "record_of_opt", "verified_bounds", "exact", "number", "class_key"]

SCHEMA_VERSION = 1
DEFAULT_PATH = "littlestone.db"
KINDS = ("opt", "vc", "attack")
APPLICATION_ID = 0x4C53544E  # "LSTN": marks a file as a littlestone store (PRAGMA application_id)

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
    message says what to change."""


# ---------------------------------------------------------------------------------------- values
def exact(v) -> Optional[str]:
    """A value as exact text: ``"3"``, ``"7/8"``; None stays None."""
    if v is None:
        return None
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def number(text):
    """The inverse of :func:`exact`: an int, a Fraction, or None."""
    if text is None:
        return None
    v = Fraction(text)
    return int(v) if v.denominator == 1 else v


def _canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def result_key(kind: str, class_key: str, task: dict) -> str:
    """The row's key: a hash of the kind, the class's fingerprint and the task."""
    return hashlib.sha256(_canonical([kind, class_key, task]).encode()).hexdigest()[:40]


def class_key(C) -> str:
    """The fingerprint of a class: of its matrix and points when it is listed
    (:meth:`~solvers.classes.ConceptClass.fingerprint`), else of its family and parameters."""
    if getattr(C, "finite", False) and hasattr(C, "fingerprint"):
        return C.fingerprint()
    spec = C.to_spec() if hasattr(C, "to_spec") else {"text": str(C)}
    return hashlib.sha256(_canonical(spec).encode()).hexdigest()[:32]


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


@functools.lru_cache(maxsize=1)
def _version() -> str:
    try:
        from importlib.metadata import version

        return version("littlestone")
    except Exception:  # noqa: BLE001 - not installed: the row still says which code wrote it
        return "unknown"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def _merge(old: Record, new: Record) -> Record:
    """The row after writing ``new`` over ``old`` (same key): the better bound of the two on each side,
    with the certificate that proves it; the run's facts (seconds, engine, time) of the one that
    decided the value."""
    def better(a, b, pick):
        if a is None:
            return b
        if b is None:
            return a
        return pick(number(a), number(b))

    lo_new = better(old.lower, new.lower, max)
    hi_new = better(old.upper, new.upper, min)
    lower, lower_cert = (new.lower, new.lower_cert) if number(new.lower) == lo_new and (
        new.lower_cert is not None or old.lower_cert is None or number(old.lower) != lo_new) else (old.lower, old.lower_cert)
    upper, upper_cert = (new.upper, new.upper_cert) if number(new.upper) == hi_new and (
        new.upper_cert is not None or old.upper_cert is None or number(old.upper) != hi_new) else (old.upper, old.upper_cert)
    value = lower if lower is not None and lower == upper else None
    if value is None:  # kinds without an upper bound (attack) carry their value as given
        value = new.value if new.value is not None else old.value
    run = new if new.solved or not old.solved else old
    return replace(run, value=value, lower=lower, upper=upper, lower_cert=lower_cert, upper_cert=upper_cert,
                   extra={**old.extra, **new.extra} if run is new else {**new.extra, **old.extra})


# ---------------------------------------------------------------------------------------- the database
class Store:
    """An embedded SQLite store of results (see the module's docstring).

    Parameters
    ----------
    path : str or Path
        The database file (created with its schema when missing).
    timeout : float
        Seconds a writer waits for another writer's lock before :class:`StoreError`.

    Raises
    ------
    StoreError
        If the file is not a littlestone store, has another schema version, or cannot be written.
    """

    def __init__(self, path, *, timeout: float = 30.0):
        self.path = Path(path)
        self.timeout = timeout
        self.lock = threading.RLock()
        where = self.path.parent if str(self.path.parent) else Path(".")
        if self.path.is_dir():
            raise StoreError(f"the store {str(self.path)!r} is a directory; give a file name, e.g. --store results.db")
        if not where.is_dir():
            raise StoreError(f"the store's folder {str(where)!r} does not exist; create it or give another --store path")
        if self.path.exists() and not os.access(self.path, os.W_OK) or not self.path.exists() and not os.access(where, os.W_OK):
            raise StoreError(f"the store {str(self.path)!r} is read-only; make it writable, or give another --store "
                             "path (or --no-store)")
        try:
            # One connection, used by this process's threads in turn (joblib feeds cells from a thread).
            self.db = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the store {str(self.path)!r}: {e}; give another --store path") from None
        try:
            self._prepare()
        except StoreError:
            self.db.close()
            raise
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise self._error(e) from None

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
        return StoreError(f"the store {str(self.path)!r} failed: {text}; give another --store path (or --no-store)")

    def _prepare(self) -> None:
        db = self.db
        app = self._one("PRAGMA application_id")[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and (app != APPLICATION_ID or "meta" not in tables):
            raise StoreError(f"{str(self.path)!r} is an SQLite database but not a littlestone store; give another "
                             "--store path")
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
                    db.execute("ROLLBACK")
                    raise self.store._error(e) from None
            else:
                db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.DatabaseError):
                    raise self.store._error(exc) from None
            return False

    def _write(self):
        return Store._Tx(self)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # ------------------------------------------------------------------ rows
    _COLUMNS = ("key", "kind", "class_key", "family", "params", "task", "concepts", "points", "value", "lower", "upper",
                "seconds", "engine", "version", "time", "data")

    def _one(self, sql: str, args=()):
        """The first row of a query, its statement finished at once: a statement left open would keep a read
        transaction (an old snapshot) that a later write on this connection could not upgrade."""
        rows = self.db.execute(sql, args).fetchall()
        return rows[0] if rows else None

    @staticmethod
    def _row(r) -> Record:
        data = json.loads(zlib.decompress(r[15]).decode()) if r[15] is not None else {}
        return Record(kind=r[1], class_key=r[2], family=r[3], params=json.loads(r[4]), task=json.loads(r[5]),
                      concepts=r[6], points=r[7], value=r[8], lower=r[9], upper=r[10], seconds=r[11], engine=r[12],
                      version=r[13], time=r[14], lower_cert=data.get("lower_cert"), upper_cert=data.get("upper_cert"),
                      extra=data.get("extra", {}))

    def get(self, kind: str, class_key: str, task: dict) -> Optional[Record]:
        """The stored row for this result, or None."""
        return self.get_key(result_key(kind, class_key, task))

    def get_key(self, key: str) -> Optional[Record]:
        try:
            with self.lock:
                r = self._one(f"SELECT {', '.join(self._COLUMNS)} FROM results WHERE key = ?", (key,))
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None
        return None if r is None else self._row(r)

    def find(self, prefix: str) -> list[Record]:
        """The rows whose key starts with ``prefix`` (as ``store show`` takes them)."""
        rows = self.db.execute(f"SELECT {', '.join(self._COLUMNS)} FROM results WHERE key LIKE ? ORDER BY time",
                               (prefix.replace("%", "").replace("_", "") + "%",)).fetchall()
        return [self._row(r) for r in rows]

    def put(self, rec: Record) -> Record:
        """Write a result, merged with the row already under its key (see :func:`_merge`); returns the row
        as stored."""
        rec = replace(rec, version=rec.version or _version(), time=rec.time or _now())
        key = rec.key
        insert = f"INSERT INTO results ({', '.join(self._COLUMNS)}) VALUES ({', '.join('?' * 16)})"
        with self.lock:
            try:  # a new key: one statement, atomic by itself
                if self.db.execute(insert + " ON CONFLICT (key) DO NOTHING", self._values(rec)).rowcount == 1:
                    return rec
            except sqlite3.DatabaseError as e:
                raise self._error(e) from None
            with self._write():  # the key is there: merge with it in one transaction
                r = self._one(f"SELECT {', '.join(self._COLUMNS)} FROM results WHERE key = ?", (key,))
                if r is not None:
                    rec = _merge(self._row(r), rec)
                self.db.execute(insert.replace("INSERT", "INSERT OR REPLACE", 1), self._values(rec))
        return rec

    def _values(self, rec: Record) -> tuple:
        data = {"lower_cert": rec.lower_cert, "upper_cert": rec.upper_cert}
        if rec.extra:
            data["extra"] = rec.extra
        blob = zlib.compress(json.dumps(data, separators=(",", ":"), default=str).encode(), 6)
        return (rec.key, rec.kind, rec.class_key, rec.family, json.dumps(rec.params, default=str), _canonical(rec.task),
                rec.concepts, rec.points, rec.value, rec.lower, rec.upper, rec.seconds, rec.engine, rec.version,
                rec.time, blob)

    def rows(self, kind: Optional[str] = None, family: Optional[str] = None) -> Iterator[Record]:
        """Every row (of one kind, one family), oldest first."""
        where, args = [], []
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if family is not None:
            where.append("family = ?")
            args.append(family)
        sql = f"SELECT {', '.join(self._COLUMNS)} FROM results"
        if where:
            sql += " WHERE " + " AND ".join(where)
        try:
            with self.lock:  # fetched whole: no statement left open (see _one)
                found = self.db.execute(sql + " ORDER BY rowid", args).fetchall()  # in the order written
            for r in found:
                yield self._row(r)
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None

    def count(self) -> int:
        return self._one("SELECT COUNT(*) FROM results")[0]

    def delete(self, keys) -> int:
        keys = list(keys)
        with self._write():
            for k in keys:
                self.db.execute("DELETE FROM results WHERE key = ?", (k,))
        return len(keys)

    def vacuum(self) -> None:
        try:
            self.db.execute("VACUUM")
        except sqlite3.DatabaseError as e:
            raise self._error(e) from None


# ---------------------------------------------------------------------------------------- opt rows
def record_of_opt(C, r, *, family: Optional[str] = None, params: Optional[dict] = None, proof_limit: int = 100_000,
                  proof_seconds: Optional[float] = None) -> Record:
    """The row of an :func:`solvers.opt.opt` result ``r`` on ``C``: its bounds, the tree of its lower bound
    and the certificate of its upper bound (when the solver can write one within ``proof_limit`` entries
    and ``proof_seconds``; a row without it proves only its lower bound on load)."""
    from solvers.certificate import ProofTooLarge
    from solvers.opt import SearchStop

    G = r.game
    upper_cert = None
    try:
        if proof_seconds is None or not hasattr(r.solver, "limits"):
            upper_cert = r.upper_certificate(limit=proof_limit)
        else:
            with r.solver.limits(deadline=time.monotonic() + proof_seconds):
                upper_cert = r.upper_certificate(limit=proof_limit)
    except (ProofTooLarge, ValueError, SearchStop):
        upper_cert = None  # ValueError: an unsolved game keeps no refutation
    except KeyboardInterrupt:
        upper_cert = None
    stats = r.stats
    return Record(kind="opt", class_key=class_key(C), task=opt_task(G), family=family or C.family,
                  params=dict(params if params is not None else C.params), concepts=C.n_concepts, points=C.n_points,
                  value=exact(r.value), lower=exact(r.lower), upper=exact(r.upper), seconds=stats.get("seconds"),
                  engine=stats.get("engine"), lower_cert=None if r.tree is None else r.tree.to_json(),
                  upper_cert=upper_cert, extra={"stopped": stats.get("stopped")} if stats.get("stopped") else {})


# ---------------------------------------------------------------------------------------- re-checking
#: Seconds the checkers take per entry of an upper-bound certificate (measured on intervals N=150 and R_1 of
#: intervals N=6), to tell when re-checking a certificate would cost more than computing the value again.
CHECK_SECONDS_PER_ENTRY = {"standard": 2.5e-4, "game": 7e-4}


def check_seconds(rec: Record) -> float:
    """About how long re-checking the row's upper-bound certificate takes."""
    p = rec.upper_cert
    n = len(p.get("entries", [])) if isinstance(p, dict) and isinstance(p.get("entries"), list) else 0
    standard = rec.task.get("game", "deterministic") == "deterministic" and not rec.task.get("errors")
    return n * CHECK_SECONDS_PER_ENTRY["standard" if standard else "game"]


def verified_bounds(rec: Record, C, *, upper_budget: Optional[float] = None) -> tuple:
    """The bounds a row proves on ``C``, each re-checked from its certificate: ``(lower, upper)`` with
    None for a side without a valid certificate. An upper-bound certificate whose check would take
    more than ``upper_budget`` seconds (:func:`check_seconds`) is not checked, and proves nothing. Raises :class:`solvers.certificate.TreeError` when a
    certificate is present but wrong (the row is then not to be trusted at all), and
    :class:`StoreError` when the row was computed on another class (the fingerprints differ)."""
    from solvers.certificate import TreeError

    if rec.class_key != class_key(C):
        raise StoreError("the stored row was computed on another class (fingerprints differ)")
    if rec.kind == "opt":
        if upper_budget is not None and rec.upper_cert is not None and check_seconds(rec) > upper_budget:
            rec = replace(rec, upper_cert=None)
        return _verified_game(rec, C)
    if rec.kind == "vc":
        w = rec.lower_cert
        lo = None if w is None else _verify_shattered(w, C)
        return lo, number(rec.upper)  # the VC search's upper bound has no certificate (module docstring)
    if rec.kind == "attack":
        from adversary.referee import verify_witness

        if rec.lower_cert is None:
            return None, None
        v = verify_witness(rec.lower_cert)
        if not v.ok:
            raise TreeError(f"the stored witness does not replay: {v.message}")
        return number(rec.lower), None
    raise StoreError(f"unknown kind {rec.kind!r} in the store")


def _verified_game(rec: Record, C) -> tuple:
    from solvers.certificate import TreeError, verify_tree, verify_upper
    from solvers.game_certificates import read_game, verify_error_tree, verify_game_upper, verify_randomized_tree
    from solvers.games import Game

    G = Game.of(rec.task.get("game", "deterministic"), rec.task.get("errors", 0), rec.task.get("horizon"))
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
            lo = verify_error_tree(t, C, G.errors)
        if number(rec.lower) is not None and lo < number(rec.lower):
            raise TreeError(f"the stored tree proves {lo}, less than the row's lower bound {rec.lower}")
    p = rec.upper_cert
    if p is not None:
        if read_game(p) != G:
            raise TreeError("the stored upper-bound certificate is for another game than its row's")
        hi = verify_upper(p, C) if G.standard else verify_game_upper(p, C)
        if number(rec.upper) is not None and hi > number(rec.upper):
            raise TreeError(f"the stored certificate proves {hi}, more than the row's upper bound {rec.upper}")
    return lo, hi


def _verify_shattered(w, C) -> int:
    """Check that the points ``w["points"]`` (column indices) are shattered by ``C``; return how many."""
    import numpy as np

    from solvers.certificate import TreeError

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
