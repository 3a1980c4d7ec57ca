"""The ``littlestone`` executable's entry point.

The command line's modules are imported inside a guard: a Ctrl-C in the first fraction of a second, before
:func:`adversary.cli.main` has its handlers in place, exits 130 with one line instead of an import's traceback
(issue 18: a Ctrl-C always works, including at once).
"""

from __future__ import annotations

import sys

__all__ = ["main"]

INTERRUPTED = 130  # adversary.cli's EXIT_INTERRUPTED, not imported from there: that import is what is guarded


def main(argv=None) -> int:
    """``adversary.cli.main(argv)``, or 130 after a Ctrl-C while it is being imported."""
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        print("littlestone: interrupted before the command started", file=sys.stderr, flush=True)
        return INTERRUPTED
    return run(argv)
