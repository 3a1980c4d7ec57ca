"""Reading JSON files whose nesting could exceed Python's recursion limit.

``json.loads`` parses nested arrays and objects recursively, and so does much of the code that walks
what it returns (``repr``, ``json.dumps``, networkx's converters): a file nested a few thousand levels
deep ends in ``RecursionError``. littlestone's own files are shallow (a class or a witness 2 to 5
levels, a mistake tree of depth d at d + 2 levels with d <= log2 |C|), so :func:`loads` measures the
nesting first, without recursion, and refuses a file deeper than :data:`MAX_NESTING` with a one-line
error; the limit stays far below the recursion limit so that whatever walks the result later has room.

A key given twice in one object is refused too (``json.loads`` would keep the last one silently: a class
file with two ``"matrix"`` keys would be read as the second). Every JSON file littlestone reads goes
through :func:`loads`.
"""

from __future__ import annotations

import json
import re

import numpy as np

__all__ = ["MAX_NESTING", "nesting_depth", "loads", "unique_keys"]

MAX_NESTING = 200  # levels of [ ] and { }; a mistake tree of depth 198 would need 2^198 concepts

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)


def nesting_depth(text) -> int:
    """The deepest nesting of ``[ ]`` and ``{ }`` in JSON ``text`` (brackets inside strings skipped).

    Vectorised with numpy (a regular expression first drops the strings when the text has escapes);
    no recursion.

    Examples
    --------
    >>> nesting_depth('{"a": [[1], "]]]"], "b": {}}')
    3
    >>> nesting_depth("7")
    0
    """
    if isinstance(text, (bytes, bytearray)):  # json.loads reads bytes too
        text = bytes(text).decode("utf-8", "replace")
    if "[" not in text and "{" not in text:
        return 0
    if "\\" in text:  # escapes: a string may hold an escaped quote, so drop the strings properly
        text = _STRING.sub('""', text)
    b = np.frombuffer(text.encode("utf-8", "replace"), dtype=np.uint8)
    where = np.flatnonzero((b == 0x5B) | (b == 0x7B) | (b == 0x5D) | (b == 0x7D))  # [ { ] }
    quotes = np.flatnonzero(b == 0x22)
    if quotes.size:  # without escapes quotes alternate: a bracket after an odd number of them is in a string
        where = where[(np.searchsorted(quotes, where) & 1) == 0]
    if where.size == 0:
        return 0
    c = b[where]
    steps = np.where((c == 0x5B) | (c == 0x7B), 1, -1).astype(np.int64)
    return max(int(np.cumsum(steps).max()), 0)


def unique_keys(source, error=ValueError):
    """An ``object_pairs_hook`` for ``json.loads``: the object as a dict, or ``error`` (one line naming
    ``source`` and the key) when a key appears twice in it."""

    def hook(pairs):
        out = dict(pairs)
        if len(out) != len(pairs):
            seen = set()
            for key, _ in pairs:
                if key in seen:
                    shown = json.dumps(key) if len(key) <= 60 else json.dumps(key[:57]) + "..."
                    raise error(f"{source}: the key {shown} appears twice in one object; keep one of them")
                seen.add(key)
        return out

    return hook


def loads(text, source, *, error=ValueError, hint: str = ""):
    """``json.loads(text)``, or ``error`` (one line) when ``text`` is nested deeper than :data:`MAX_NESTING`
    or an object in it gives a key twice (:func:`unique_keys`).

    Parameters
    ----------
    text : str or bytes
        The JSON text.
    source : str or path
        Names the text in the message (a file name).
    error : type of ValueError
        The exception to raise (e.g. :class:`solvers.certificates.TreeError`).
    hint : str
        Appended to the message: what a sane file of this kind looks like.

    Raises
    ------
    json.JSONDecodeError
        If the text is not JSON (callers turn it into their own message).
    error
        If the text is nested deeper than :data:`MAX_NESTING` levels, or an object gives a key twice.
    """
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise error(f"{source} is nested {depth} levels deep, more than littlestone reads "
                    f"(at most {MAX_NESTING}){'; ' + hint if hint else ''}")
    try:
        return json.loads(text, object_pairs_hook=unique_keys(source, error))
    except RecursionError:  # only when called with almost no stack left
        raise error(f"{source} is nested too deeply to read here ({depth} levels)") from None
