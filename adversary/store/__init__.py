"""The results store: an embedded SQLite database of every result computed, with its certificates.

One row per result, keyed by what was computed: the kind (``"opt"``: Opt(C) or another game's value;
``"vc"``: the VC dimension; ``"attack"``: a learner's worst case found), the class's fingerprint (a hash
of its matrix and points, :meth:`solvers.classes.ConceptClass.fingerprint`; for an implicit class, of its
family and parameters) and the task (the game; the learner, its parameters, the strategy, ...). A row
holds the value and its proven bounds as exact text (``"3"``, ``"7/8"``), the seconds, engine, version
and time of the run, and its certificates (JSON, zlib-compressed): ``lower_cert`` proves the lower
bound (a mistake tree, a shattered set, a witness), ``upper_cert`` the upper bound (an upper-bound
certificate). A row is trusted only as far as its certificates go, and they are checked once
(:mod:`adversary.store.trust`): when the row is written (:func:`seal`, with the independent checkers of
:mod:`solvers.certificates`, :mod:`solvers.certificates.games` and :mod:`adversary.referee`), or, for a row
written without a seal (by an older littlestone), when it is first served. The row keeps what the check proved
with a digest of its whole content (its seal); serving it compares the digest (milliseconds), and a row changed by
hand after it was written no longer matches and is not served. :func:`verified_bounds` runs the checkers again
from scratch (``littlestone store verify``).

The package has three parts: :mod:`adversary.store.records` (a row, its key, its exact numbers),
:mod:`adversary.store.persistence` (the SQLite file: schema, migrations, reading, merging) and
:mod:`adversary.store.trust` (one checker per kind of row, the seal).

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
...     _ = S.put(seal(record_of_opt(C, opt(C), certify=True), C))
...     row = S.get("opt", C.fingerprint(), opt_task())
>>> row.value, row.proven["lower"], row.proven["upper"], served_bounds(row, C)[:2], tuple(map(int, verified_bounds(row, C)))
('3', '3', '3', (3, 3), (3, 3))

A row changed by hand no longer matches its seal:

>>> import sqlite3
>>> with sqlite3.connect(path) as db:
...     _ = db.execute("UPDATE results SET value = '2', lower = '2', upper = '2'")
>>> with Store(path, readonly=True) as S:
...     row = S.get("opt", C.fingerprint(), opt_task())
>>> row.tampered, row.proven
(True, None)

A row may keep its numbers only, without its certificates (``certify=False``): it is proven by computing it
again:

>>> rec = record_of_opt(C, opt(C), certify=False)
>>> recomputed(rec), rec.lower_cert, verified_bounds(rec, C), verified_bounds(rec, C, recompute=True)
(True, None, (None, None), (3, 3))
"""

from .persistence import (APPLICATION_ID, FLUSH_SECONDS, MIGRATIONS, READS, SCHEMA_VERSION, Store, _merge,  # noqa: F401 (tests)
                          read_only_reason)
from .records import (CERTIFY_SECONDS, DEFAULT_PATH, KINDS, STORE_ENV, Record, StoreError, UnreadableRow,
                      canonical_params, canonical_value, certify_seconds, class_key, exact, number, opt_task,
                      param_task, record_of_opt, record_of_param, recomputed, result_key)
from .trust import (CHECK_BUDGET, CHECK_SECONDS_PER_ENTRY, CHECKERS, Tampered, attack_claims, check_seconds, proof_of,
                    seal, sealed_bounds, served_bounds, verified_bounds)

__all__ = ["STORE_ENV", "Store", "StoreError", "UnreadableRow", "Record", "SCHEMA_VERSION", "DEFAULT_PATH", "KINDS",
           "FLUSH_SECONDS", "result_key", "opt_task", "record_of_opt", "verified_bounds", "exact", "number",
           "class_key", "canonical_params", "canonical_value", "read_only_reason", "attack_claims", "CHECK_BUDGET",
           "CERTIFY_SECONDS", "certify_seconds", "recomputed", "param_task", "record_of_param", "seal",
           "served_bounds", "sealed_bounds", "Tampered", "CHECKERS", "MIGRATIONS", "READS", "check_seconds", "CHECK_SECONDS_PER_ENTRY",
           "APPLICATION_ID", "proof_of"]
