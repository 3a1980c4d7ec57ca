"""What ``attack``, ``attack --grid`` and ``pac`` share on the command line: the parsing of ``k=v`` items. (An
attack's row in the results store, its task key, its record and serving it again, is the workspace's:
:mod:`adversary.workspace.attack`.)"""

from __future__ import annotations

from ._output import CLIError

__all__ = []


# ---------------------------------------------------------------------------------------- k=v items
def _kv_items(items, what: str) -> dict:
    """``["n=5", "alpha=3/2"]`` -> ``{"n": "5", "alpha": "3/2"}`` (the library reads the strings)."""
    out = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise CLIError(f"{what} {item!r} is not name=value; write e.g. n=5")
        if key in out:
            raise CLIError(f"{what} {key!r} is given twice; give it once")
        out[key] = value
    return out


def _whole_numbers(params: dict) -> dict:
    """Values that are whole numbers as ints (``n=06`` is n=6, ``alpha=4/2`` is 2); the rest as given (the
    learner reads its own strings exactly)."""
    from adversary.store import canonical_value

    out = {}
    for k, v in params.items():
        c = canonical_value(v)
        out[k] = c if isinstance(c, int) and not isinstance(c, bool) else v
    return out
