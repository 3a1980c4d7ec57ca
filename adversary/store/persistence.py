"""The results store's persistence: the SQLite file, its schema and its forward migrations, reading a row
(every column checked) and merging a row written again. What a row proves is not decided here
(:mod:`adversary.store.trust`): a row is written with the seal its writer gives it (the bounds a checker proved,
and a digest of the whole row, computed here at the write), and read back with that seal only while the digest
still matches the row's content.

Schema versions: 1 (littlestone before the seals), 2 (a ``seal`` column, and an ``extra`` column that keeps a
row's extra data out of its certificates' blob, so that a sealed row is served without reading its certificates:
they are read when first used). A store of version 1 opened for writing
is migrated in place (one ``ALTER TABLE``: its rows keep everything, and have no seal until they are checked); one
opened read-only is read as it is."""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import sqlite3
import threading
import time
import weakref
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, Optional

from .records import (_COMPACT, Record, StoreError, UnreadableRow, _canonical, _now, _version, number, recomputed,
                      result_key)
from .trust import digest, merged_proof

SCHEMA_VERSION = 2
#: The schema versions this littlestone opens: an older one is migrated forward (:data:`MIGRATIONS`).
READS = (1, 2)
APPLICATION_ID = 0x4C53544E  # "LSTN": marks a file as a littlestone store (PRAGMA application_id)
#: A batched store (``Store(..., flush_seconds=FLUSH_SECONDS)``, as the commands open it) commits its writes at
#: most this many seconds after the first of them: a killed process loses at most the rows of its last half second.
FLUSH_SECONDS = 0.5

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
    data       BLOB,
    extra      TEXT,
    seal       TEXT
);
CREATE INDEX IF NOT EXISTS results_kind_family ON results (kind, family);
"""

#: The statements that take a store from one schema version to the next (version -> to version + 1), run in one
#: transaction with the version's update when a store of an older version is opened for writing.
MIGRATIONS = {1: ("ALTER TABLE results ADD COLUMN extra TEXT", "ALTER TABLE results ADD COLUMN seal TEXT")}


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
    :class:`_Malformed` says what is wrong. The seal (column 17) is read by :func:`_unseal`: a seal that does
    not match the row leaves the row readable, ``tampered`` and not proven. The certificates of a row whose seal
    matches (so its data is as this littlestone wrote it) and whose extra data has its own column (16) are read
    when first used."""
    if len(r) < 18:
        raise _Malformed(f"it has {len(r)} columns, not 18")
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
    seal = _unseal(r)
    extra = None if r[16] is None else _json_object(_text(r, 16, "extra data"), "extra data")
    if extra is not None and seal.get("proven") is not None:  # read as it was written: its certificates when used
        rec = Record(kind=kind, class_key=ckey, family=family, params=params, task=task, concepts=counts[0],
                     points=counts[1], value=numbers[0], lower=numbers[1], upper=numbers[2], seconds=seconds,
                     engine=engine, version=version, time=when, extra=extra, **seal)
        rec._defer_certificates(functools.partial(_certificates, r[15]))
        return rec
    data = _certificates(r[15])
    if extra is None:
        extra = data.get("extra", {})
        if not isinstance(extra, dict):
            raise _Malformed("its extra data is not a JSON object")
    return Record(kind=kind, class_key=ckey, family=family, params=params, task=task, concepts=counts[0],
                  points=counts[1], value=numbers[0], lower=numbers[1], upper=numbers[2], seconds=seconds,
                  engine=engine, version=version, time=when, lower_cert=data.get("lower_cert"),
                  upper_cert=data.get("upper_cert"), extra=extra, **seal)


def _certificates(blob) -> dict:
    """The data column of a row (zlib-compressed JSON, or its JSON text), read: its certificates checked to be
    objects."""
    if blob is None:
        return {}
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
    return data



def _unseal(r) -> dict:
    """``proven`` and ``tampered`` of the row ``r`` from its seal (column 17): the proven bounds when the seal's
    digest is the digest of the row's columns and of those bounds, else ``tampered`` (a row with no seal is
    neither: it is checked when it is first served)."""
    text = r[17]
    if text is None:
        return {}
    try:
        seal = json.loads(text) if isinstance(text, (str, bytes)) else None
    except (ValueError, TypeError, RecursionError):
        seal = None
    if not isinstance(seal, dict) or not isinstance(seal.get("digest"), str):
        return {"tampered": True}
    proven = {k: seal.get(k) for k in ("lower", "upper", "how")}
    ok = all(v is None or isinstance(v, str) and _EXACT.fullmatch(v) for v in (proven["lower"], proven["upper"]))
    if not ok or not isinstance(proven["how"], dict) or digest(r[:17], proven) != seal["digest"]:
        return {"tampered": True}
    return {"proven": proven}



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
    low = new if number(new.lower) == lo_new and (
        new.lower_cert is not None or old.lower_cert is None or number(old.lower) != lo_new) else old
    high = new if number(new.upper) == hi_new and (
        new.upper_cert is not None or old.upper_cert is None or number(old.upper) != hi_new) else old
    lower, lower_cert, upper, upper_cert = low.lower, low.lower_cert, high.upper, high.upper_cert
    value = lower if lower is not None and lower == upper else None
    run = new if new.solved or not old.solved else old
    # What the checker proved of each side goes with the certificate of that side (a mix of two rows is proven
    # where both of its sides were: :func:`adversary.store.trust.merged_proof`).
    proven = merged_proof(low, high)
    return replace(run, value=value, lower=lower, upper=upper, lower_cert=lower_cert, upper_cert=upper_cert,
                   extra={**old.extra, **new.extra} if run is new else {**new.extra, **old.extra}, proven=proven,
                   tampered=False)



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
        #: The rows this store object was given to write (:meth:`put`) since it was opened, whoever gave them: a run
        #: that says how many results it wrote counts them here (the difference of two readings), not its own puts
        #: only (a served attack's Opt(C), computed again and written while its grid runs, is a row written too).
        self.written = 0
        #: The schema version of the file as opened (:data:`SCHEMA_VERSION` once migrated; 1 read-only as it is).
        self.schema_version = SCHEMA_VERSION
        where = self.path.parent if str(self.path.parent) else Path(".")
        if self.path.is_dir():
            raise StoreError(f"the store {str(self.path)!r} is a directory; give a file name, e.g. --store results.db")
        if not where.is_dir():
            raise StoreError(f"the store's folder {str(where)!r} does not exist; create it or give another --store path")
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{str(self.path)!r} is not a regular file (a device, a pipe or a socket), so not a "
                             "store; give a file path, e.g. --store results.db")
        created = [f for f in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")) if not f.exists()]
        #: Whether opening it made the file (a new store: the command says where its results are kept).
        self.created = not readonly and self.path in created
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
        if found not in map(str, READS):
            raise StoreError(f"the store {str(self.path)!r} has schema version {found}, and this littlestone reads "
                             f"versions {', '.join(map(str, READS))}; give another --store path (or export it with the "
                             "littlestone that wrote it)")
        self.schema_version = int(found)
        if self.schema_version < SCHEMA_VERSION and not self.readonly:
            self._migrate()

    def _migrate(self) -> None:
        """Take the store forward to :data:`SCHEMA_VERSION`, one version at a time (:data:`MIGRATIONS`), each step
        in one transaction (another process migrating it at once: the version is read again inside it)."""
        while self.schema_version < SCHEMA_VERSION:
            with self._write():
                row = self._one("SELECT value FROM meta WHERE key = 'schema_version'")
                at = int(row[0])
                if at == self.schema_version:
                    for stmt in MIGRATIONS[at]:
                        self.db.execute(stmt)
                    self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(at + 1),))
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"migrated_to_{at + 1}", _now()))
            self.schema_version = int(self._one("SELECT value FROM meta WHERE key = 'schema_version'")[0])

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
                "seconds", "engine", "version", "time", "data", "extra", "seal")

    _SELECT = f"SELECT {', '.join(_COLUMNS)}, rowid FROM results"
    #: A store of schema version 1 read without being migrated (read-only): no seal column.
    _SELECT_V1 = f"SELECT {', '.join(_COLUMNS[:-2])}, NULL, NULL, rowid FROM results"

    @property
    def _select(self) -> str:
        return self._SELECT_V1 if self.schema_version == 1 else self._SELECT

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
                found = self.db.execute(f"{self._select} {where}", args).fetchall()
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
            raise UnreadableRow(_key_text(r[0]), str(e), r[18] if len(r) > 18 else None) from None

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
                r = self._one(f"{self._select} WHERE key = ?", (key,))
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
            rec = self._put_now(rec)
            self.written += 1
            return rec
        key = rec.key
        with self.lock:
            self._raise_flush_error()
            self._begin_batch()
            self._queue.append((key, rec))
            self._queued_keys.add(key)
            self.written += 1
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
        text = _COMPACT.encode(data).encode()
        # A row without certificates is a few dozen bytes: kept as its JSON text (read back by its first byte,
        # "{", which no zlib stream starts with), not compressed.
        blob = text if len(text) < 256 else zlib.compress(text, 1)
        seconds = None if rec.seconds is None else float(rec.seconds)  # (as a REAL column gives it back)
        row = (rec.key if key is None else key, rec.kind, rec.class_key, rec.family, _COMPACT.encode(rec.params),
               _canonical(rec.task), rec.concepts, rec.points, rec.value, rec.lower, rec.upper, seconds, rec.engine,
               rec.version, rec.time, blob, _COMPACT.encode(rec.extra or {}))
        return row + (self._seal_text(row, rec.proven),)

    @staticmethod
    def _seal_text(row: tuple, proven: Optional[dict]) -> Optional[str]:
        """The seal column of the row whose other columns are ``row``: the bounds ``proven`` and the digest of the row
        and of them (:func:`adversary.store.trust.digest`); None for a row not checked."""
        if proven is None:
            return None
        proven = {"lower": proven.get("lower"), "upper": proven.get("upper"), "how": dict(proven.get("how") or {})}
        return _canonical({**proven, "digest": digest(row, proven)})

    def reseal(self, rec: Record) -> bool:
        """Write ``rec.proven`` (what a checker proved of ``rec``) as the seal of its row, if the row is still ``rec``
        (not written again, nor merged with another, meanwhile); returns whether it was. A row written as ``rec``
        would be gets its seal column only; a row that reads as ``rec`` but is laid out otherwise (written by an
        older littlestone: its extra data inside its blob) is written again whole, sealed."""
        if self.readonly or rec.proven is None:
            return False
        key = rec.key
        with self.lock, self._write():
            r = self._one(f"{self._SELECT} WHERE key = ?", (key,))
            if r is None:
                return False
            values = self._values(rec, key)
            if tuple(r[:17]) == values[:17]:
                self.db.execute("UPDATE results SET seal = ? WHERE key = ?", (values[17], key))
                return True
            try:
                same = self._row(r) == rec
            except UnreadableRow:
                return False
            if not same:
                return False
            self.db.execute(self._INSERT.replace("INSERT", "INSERT OR REPLACE", 1), values)
        return True

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

    def delete(self, keys: Iterable[str]) -> int:
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


