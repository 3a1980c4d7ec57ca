"""The workspace's two ways of speaking: a :class:`WorkspaceError` (bad input or a resource that cannot be used, one
line saying what to change) and a note (something the caller should know that does not stop the work: a store used
read-only, a row computed again, ``jobs`` lowered).

Notes go to the sink a :class:`~adversary.workspace.Workspace` is given (``note=``), by default to standard error as
``littlestone: note: ...``, the way the command line prints them."""

from __future__ import annotations

import sys
import threading
from typing import Callable

from solvers.messages import one_line

__all__ = ["WorkspaceError", "note", "speaking_to", "PROG"]

PROG = "littlestone"


class WorkspaceError(ValueError):
    """Bad input, or a store, cluster or file that cannot be used: one line saying what to change (the command
    line prints it as ``littlestone: error: <message>`` and exits with 2)."""


def _to_stderr(message: str) -> None:
    print(f"{PROG}: note: {message}", file=sys.stderr, flush=True)


_sink: list = [_to_stderr]
_lock = threading.Lock()


def note(message) -> None:
    """Say ``message`` (made one line) to the current sink."""
    _sink[-1](one_line(message))


class speaking_to:
    """``with speaking_to(sink): ...``: the notes of the calls inside go to ``sink(text)`` (None: unchanged)."""

    def __init__(self, sink: Callable[[str], None] | None):
        self.sink = sink

    def __enter__(self):
        if self.sink is not None:
            with _lock:
                _sink.append(self.sink)
        return self

    def __exit__(self, *exc):
        if self.sink is not None:
            with _lock:
                _sink.remove(self.sink)
        return False
