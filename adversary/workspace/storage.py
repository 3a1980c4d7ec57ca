"""The store as the workspace uses it (:mod:`adversary.store`): opening it, looking a result up before computing
it, and writing it sealed after (the command line's ``--store PATH``, ``--no-store``, ``--verify-store`` and
``--trust-store`` choose these).

A stored result is served only as far as its certificates prove it (:func:`adversary.store.served_bounds`). A
row's certificates are checked once, when it is written (:func:`put` with the class: :func:`adversary.store.seal`);
the row keeps what they proved with a digest of its content, and serving it compares the digest (milliseconds).
A row whose bounds meet is served as solved; otherwise its proven bounds warm-start the computation. A row written
without a seal (by an older littlestone) is checked when first served, as before, and sealed then. A row changed
by hand after it was written (its digest no longer matches), a row whose certificate is wrong, and a row that cannot
be read at all are reported in one line and computed again (the new result replaces it).

``--verify-store`` (for the paranoid) checks every row served from scratch, sealed or not, with no time limit;
``--trust-store`` serves a row written without a seal as it states, unchecked (a sealed row is still compared with
its digest: a row changed by hand is never served). ``littlestone store verify`` checks the whole store.

Writes are batched (:data:`adversary.store.FLUSH_SECONDS`: committed within half a second, and on exit,
Ctrl-C and SIGTERM); a store that cannot be written (read-only, or none in a read-only folder) is used
read-only or not at all, in one note, and the results are printed as usual; so is a store on a full disk (its
results are still served), and a write that finds the disk full is one note, not an error."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Optional

from ._messages import WorkspaceError, note

__all__ = ["store_at", "default_path", "Lookup", "lookup", "put", "proof_seconds", "say_unwritable", "TIMEOUT_ENV",
           "SEALED", "CHECKED", "VERIFIED", "TRUSTED", "seal_stored", "warm_solver"]

TIMEOUT_ENV = "LITTLESTONE_STORE_TIMEOUT"


def default_path() -> str:
    """The store's path when none is given: ``$LITTLESTONE_STORE``, else ``littlestone.db`` in this folder."""
    from adversary.store import DEFAULT_PATH, STORE_ENV

    return os.environ.get(STORE_ENV) or DEFAULT_PATH


def store_timeout() -> float:
    """Seconds a store waits for another process's lock (``$LITTLESTONE_STORE_TIMEOUT``, default 30)."""
    timeout = os.environ.get(TIMEOUT_ENV, "30")
    try:
        timeout = float(timeout)
        if not timeout > 0 or math.isinf(timeout):
            raise ValueError
    except ValueError:
        raise WorkspaceError(f"{TIMEOUT_ENV}={timeout!r} is not a positive number of seconds; e.g. "
                             f"{TIMEOUT_ENV}=30") from None
    return timeout


def store_at(path, *, readonly: bool = False, say_created: bool = False):
    """The :class:`adversary.store.Store` at ``path`` (None for None); a store that cannot
    be used is a one-line error before any work. ``readonly``: for a command that only reads it (no
    write access needed). A store that cannot be written (a read-only file, or none in a read-only
    folder) is, for a command that computes, read-only or absent: one note says so, and the results are
    computed and printed as usual (not stored). Writes are batched (:data:`adversary.store.FLUSH_SECONDS`).
    ``say_created``: a store this call creates is said in a note (where, and how to keep none): the command line's
    store in this folder, which the user did not name."""
    from pathlib import Path

    from adversary.store import FLUSH_SECONDS, Store, read_only_reason

    if path is None:
        return None
    timeout = store_timeout()
    if readonly:
        return Store(path, timeout=timeout, readonly=True)
    from adversary.store import StoreError, certify_seconds

    try:
        certify_seconds()  # ($LITTLESTONE_CERTIFY_SECONDS read before any work: not after a result is computed)
    except StoreError as e:
        raise WorkspaceError(str(e)) from None
    why = read_only_reason(path)
    if why is not None:
        return _read_only(path, why, "make it writable, or give --store PATH in a writable folder", timeout)
    try:
        store = Store(path, timeout=timeout, flush_seconds=FLUSH_SECONDS)
    except StoreError as e:
        if e.unwritable is None:
            raise
        # A full disk: a read needs no write, so the results it holds are still served (read-only).
        done = "created" if not Path(path).exists() else "written"
        return _read_only(path, f"the store {path!r} cannot be {done} ({e.unwritable})",
                          "free some space, or give another --store PATH", timeout)
    if say_created and store.created:  # said once, by the run that made it
        shown = str(path) if Path(path).parent != Path(".") or str(path).startswith(".") else f"./{path}"
        note(f"results are kept in {shown}, created now (--no-store keeps none; --store PATH puts them elsewhere)")
    return store


def _read_only(path, why: str, fix: str, timeout: float):
    """A store that cannot be written, for a command that computes: read-only where it exists (its results are
    served), else none; one note says which, ``why`` and how to ``fix`` it."""
    from pathlib import Path

    from adversary.store import Store

    if not Path(path).exists():
        note(f"{why}; running without a store (nothing is read or written: {fix}, or --no-store)")
        return None
    note(f"{why}: its results are served, new ones are not written ({fix}, or --no-store)")
    return Store(path, timeout=timeout, readonly=True)


@dataclass
class Lookup:
    """What the store knows of one result: the row (or None), the bounds it proves (by its seal, checked now, or
    as stored with --trust-store; None on a side it does not prove), whether that settles the value, and ``how`` the
    bounds were known (a few words for the command's report)."""

    record: object = None
    lower: object = None
    upper: object = None
    how: str = ""
    #: (table) the seconds of the cell its row keeps, for a cell served whole
    seconds: Optional[float] = None

    @property
    def solved(self) -> bool:
        return self.lower is not None and self.upper is not None and self.lower == self.upper

    @property
    def value(self):
        return self.lower if self.solved else None


#: How a served row's bounds were known (``Lookup.how``).
SEALED = "certificates checked when stored, digest matches"
CHECKED = "certificates checked now"
VERIFIED = "certificates re-checked: --verify-store"
TRUSTED = "not checked: --trust-store"


def lookup(store, kind: str, C, task: dict, *, trust: bool = False, verify: bool = False,
           what: str = "result") -> Lookup:
    """The stored row of ``kind``/``task`` on ``C`` with the bounds it proves (see the module's docstring): by its
    seal; checked now (a row without a seal, which is sealed then; every row with ``verify``); or as it states
    (a row without a seal, with ``trust``)."""
    from adversary.store import StoreError, Tampered, UnreadableRow, class_key, served_bounds
    from solvers.certificates import TreeError

    if store is None:
        return Lookup()
    try:
        rec = store.get(kind, class_key(C), task)
    except UnreadableRow as e:
        note(f"the stored {what} in {store.path} (row {e.key[:12]}) cannot be read ({e.why}); computing it again")
        _forget(store, e.key)
        return Lookup()
    if rec is None:
        return Lookup()
    sealed = rec.proven is not None
    try:
        # A row without a seal: an upper-bound certificate that would take much longer to check than its value
        # took to compute is left unchecked (the value is computed again from the bounds that are checked).
        lo, hi, fresh = served_bounds(rec, C, verify=verify, trust=trust)
    except Tampered:
        note(f"the stored {what} in {store.path} (row {rec.key[:12]}) was changed after it was written (its digest "
             "does not match its content); computing it again")
        _forget(store, rec.key)
        return Lookup()
    except (TreeError, StoreError, KeyError, TypeError, AttributeError, IndexError, ValueError) as e:
        # (a certificate that is not the shape its checker reads, whatever it raises, does not check either)
        note(f"the stored {what} in {store.path} does not check ({e}); computing it again")
        _forget(store, rec.key)  # the new result replaces it (a write would merge with the wrong bounds)
        return Lookup()
    if fresh is not None and fresh != rec.proven and not store.readonly:
        _reseal(store, rec, fresh)
    how = VERIFIED if verify else SEALED if sealed else TRUSTED if trust else CHECKED
    return Lookup(rec, lo, hi, how)


def warm_solver(C, found: Lookup, memo_bytes=None, symmetry: bool = True, isomorphism: bool = True):
    """A Solver for Opt(C) that starts from the bounds ``found`` proves (None when it proves none, or C is implicit)."""
    from solvers.opt import Solver

    if found.lower is None and found.upper is None or not getattr(C, "finite", True):
        return None  # (an implicit class is solved by its family's own search)
    S = Solver(C, memo_bytes=memo_bytes, symmetry=symmetry, isomorphism=isomorphism)
    lo, hi = S.bounds(S.full)
    lo = max(lo, found.lower) if found.lower is not None else lo
    hi = min(hi, found.upper) if found.upper is not None else hi
    if lo > hi:
        return None  # not with re-checked bounds; with trust a wrong row is simply not used
    S.record(S.full, lo, hi)
    return S


def _reseal(store, rec, proven) -> None:
    """Seal a row checked here (best effort: a store that cannot be written keeps it unsealed, checked again next
    time)."""
    from dataclasses import replace

    from adversary.store import StoreError

    try:
        store.reseal(replace(rec, proven=proven))
    except StoreError:
        pass


def _forget(store, key) -> None:
    """Remove a row that is computed again (when the store can be written; a write that fails is said when the
    new result is written)."""
    from adversary.store import StoreError

    if not store.readonly:
        try:
            store.delete([key])
        except StoreError:
            pass


#: A solved result's upper-bound certificate may take this many times the search's seconds (at least
#: :data:`PROOF_FLOOR`): most are read off the memo in a fraction of the search, but the randomized game's may
#: search again (monotone disjunctions n=9 k=3: RL in 2.7 s, its certificate over 100 s).
PROOF_FACTOR = 10.0
PROOF_FLOOR = 30.0


def proof_seconds(r, time_limit) -> Optional[float]:
    """The time the upper-bound certificate of a result may take. Unsolved: a tenth of the run's time limit, at
    least half a second. Solved: :data:`PROOF_FACTOR` times the search's seconds (at least :data:`PROOF_FLOOR`),
    and within a time limit no more than what is left of it (at least half a second). Past it the row is stored
    without that certificate, its value as computed (``store verify`` proves it again)."""
    if r.value is None:
        return max(0.5, 0.1 * (time_limit or 5.0))
    spent = float(r.stats.get("seconds") or 0.0)
    budget = max(PROOF_FLOOR, PROOF_FACTOR * spent)
    return budget if time_limit is None else min(budget, max(0.5, time_limit - spent))


def put(store, record, C=None):
    """Write ``record`` to ``store`` (when both are given), sealed (its certificates checked once,
    :func:`adversary.store.seal`) when its class ``C`` is given; returns the StoreError, if any, for the command
    to report after its result (so a store that fails loses nothing printed)."""
    from adversary.store import StoreError, seal

    if store is None or record is None or store.readonly:
        return None
    if C is not None and record.proven is None:
        seal(record, C)
    try:
        store.put(record)
        store.flush()  # one result: committed before it is printed
    except StoreError as e:
        if e.unwritable is not None:
            say_unwritable(store, e)
            return None
        return e
    return None


def seal_stored(store, record, C) -> None:
    """After a result is printed: check the certificates of ``record`` (just written to ``store`` unsealed) once,
    and seal its row (:func:`adversary.store.seal`), so that it is served by its digest from now on. A row merged
    with another meanwhile, or a store that cannot be written, stays unsealed (checked when first served)."""
    from adversary.store import StoreError, seal

    if store is None or record is None or store.readonly or record.proven is not None:
        return
    seal(record, C)
    if record.proven is not None:
        try:
            store.reseal(record)
        except StoreError:
            pass


def say_unwritable(store, e) -> None:
    """A write to ``store`` failed for want of space (``e.unwritable``, a full disk): one note says so, and the
    store is read from and not written for the rest of the run (the results are printed as usual)."""
    note(f"the store {str(store.path)!r} could not be written ({e.unwritable}): the results are printed, not stored "
         "(free some space, or give another --store PATH, or --no-store)")
    store.stop_writing(e.unwritable)  # no further write is tried
