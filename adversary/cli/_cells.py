"""The options of where a command's cells run (``--backend``, ``--scheduler``, ``--scheduler-timeout``; ``--jobs`` is
the command's own), over :mod:`adversary.workspace.cells`, which runs them."""

from __future__ import annotations

from adversary.workspace.cells import (BACKENDS, CONNECT_SECONDS, SCHEDULER_ENV, Drained, answers,  # noqa: F401
                                       close_all, connect, drain, run_cells)

from ._args import positive_seconds, scheduler_address
from ._output import EXIT_USAGE, error, note

__all__ = ["BACKENDS", "SCHEDULER_ENV", "CONNECT_SECONDS", "add_backend_options", "backend_of", "run_cells", "close_all",
           "connect", "answers", "Drained", "drain", "say_store"]


def add_backend_options(p) -> None:
    """``--backend``, ``--scheduler`` and ``--scheduler-timeout`` (``--jobs`` is the command's own)."""
    p.add_argument("--backend", choices=BACKENDS,
                   help="where the cells run: loky, worker processes on this machine (the default), or dask, a "
                        "Dask cluster (the default when --scheduler is given)")
    p.add_argument("--scheduler", metavar="ADDR", type=scheduler_address,
                   help=f"the Dask scheduler's address, e.g. tcp://HOST:8786 (default: ${SCHEDULER_ENV}); start one "
                        "with 'dask scheduler' and its workers with 'dask worker ADDR'")
    p.add_argument("--scheduler-timeout", type=positive_seconds, default=CONNECT_SECONDS, metavar="S",
                   help=f"seconds to wait for the scheduler to answer and for a worker (default {CONNECT_SECONDS:g})")


def backend_of(args) -> tuple[str, str | None]:
    """The backend and the scheduler's address the options (and ``$LITTLESTONE_SCHEDULER``) name
    (:func:`adversary.workspace.cells.scheduler_of`: a scheduler named must answer now)."""
    from adversary.workspace.cells import scheduler_of

    import argparse

    def check_form(address: str) -> None:
        try:
            scheduler_address(address)
        except argparse.ArgumentTypeError as e:
            raise ValueError(str(e)) from None

    return scheduler_of(args.backend, args.scheduler, timeout=getattr(args, "scheduler_timeout", CONNECT_SECONDS),
                        check_form=check_form)


def say_store(seen: Drained, store, cells: int, checked: str):
    """After a grid's run: the exit code 2 with one line when a store write failed (the rows printed, those not
    stored computed again next time), else None and a note of what the store served and took."""
    if seen.store_error is not None:
        return error(f"{seen.store_error} (the rows above were printed; those not stored are computed again next "
                     "time)", EXIT_USAGE)
    text = seen.store_note(store, cells, checked)
    if text is not None:
        note(text)
    return None
