"""The store's options: ``--store PATH``, ``--no-store``, ``--verify-store`` and ``--trust-store``, and the store they
open (:func:`adversary.workspace.storage.store_at`, which the commands' workspace uses)."""

from __future__ import annotations

from typing import Optional

from adversary.workspace.storage import (CHECKED, SEALED, TIMEOUT_ENV, TRUSTED, VERIFIED, Lookup, lookup,  # noqa: F401
                                         proof_seconds, put, say_unwritable, seal_stored)

from ._output import CLIError

__all__ = ["add_store_options", "add_no_store", "store_path", "open_store", "Lookup", "lookup", "put", "proof_seconds",
           "say_unwritable", "TIMEOUT_ENV", "SEALED", "CHECKED", "VERIFIED", "TRUSTED", "seal_stored"]


def add_store_options(p) -> None:
    from adversary.store import DEFAULT_PATH, STORE_ENV

    p.add_argument("--store", metavar="PATH",
                   help=f"the results store (SQLite; default ${STORE_ENV} or {DEFAULT_PATH} in this folder): results "
                        "are looked up before computing and written after")
    p.add_argument("--no-store", action="store_true", help="neither read nor write the results store")
    trust = p.add_mutually_exclusive_group()
    trust.add_argument("--verify-store", action="store_true",
                       help="check the certificates of every stored result served, from scratch (default: a row's "
                            "certificates are checked once, when it is written, and it is served by its digest)")
    trust.add_argument("--trust-store", action="store_true",
                       help="serve stored results written by an older littlestone (without a seal) as they are, "
                            "unchecked (default: checked when first served)")


def add_no_store(p, command: str) -> None:
    """``--no-store`` (and ``--store``) on a command that keeps nothing in the results store (multiclass, experts,
    separate, pac, verify, play, export): ``--no-store`` is accepted, as every command takes it, and ``--store PATH``
    is refused in one line saying so."""
    import argparse

    class NoStore(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            parser.error(f"{command} reads and writes no results store; drop --store (--no-store is accepted)")

    p.add_argument("--no-store", action="store_true",
                   help=f"accepted as every command takes it: {command} reads and writes no results store")
    p.add_argument("--store", action=NoStore, dest="refused_store", metavar="PATH", help=argparse.SUPPRESS)


def store_path(args) -> Optional[str]:
    """The store's path for these arguments, or None with --no-store."""
    from adversary.store import DEFAULT_PATH

    from adversary.workspace.storage import default_path

    if getattr(args, "no_store", False):
        if getattr(args, "store", None) is not None:
            raise CLIError("give --store PATH or --no-store, not both")
        for flag in ("trust_store", "verify_store"):
            if getattr(args, flag, False):
                raise CLIError(f"--{flag.replace('_', '-')} reads the store, and --no-store skips it; drop one")
        return None
    if getattr(args, "store", None) is not None and not str(args.store).strip():
        raise CLIError(f"--store needs a path (e.g. --store {DEFAULT_PATH}), or give --no-store")
    return args.store or default_path()


def open_store(args, *, readonly: bool = False):
    """The store of these arguments (None with --no-store): :func:`adversary.workspace.storage.store_at`. The run
    that creates the store in this folder, not named by --store or $LITTLESTONE_STORE, says so (one note)."""
    import os

    from adversary.store import STORE_ENV
    from adversary.workspace.storage import store_at

    implicit = getattr(args, "store", None) is None and not os.environ.get(STORE_ENV)
    return store_at(store_path(args), readonly=readonly, say_created=implicit)
