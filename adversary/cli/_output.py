"""What the CLI gives back: exit codes, one-line errors and notes, progress, text, and output files
checked before the run and written atomically."""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

PROG = "littlestone"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNSOLVED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: The exit codes, as ``--help`` and the README list them.
EXIT_CODES = (
    (EXIT_OK, "solved (or done)"),
    (EXIT_FAILED, "a verification failed, or an output file could not be written"),
    (EXIT_USAGE, "bad input: the one-line error says what to change"),
    (EXIT_UNSOLVED, "not solved within the limits given (--time-limit, --memory): the proven bounds are printed"),
    (EXIT_INTERRUPTED, "interrupted by Ctrl-C (143 for SIGTERM), after printing and writing what was finished"),
)


class CLIError(Exception):
    """A user error: printed as one line ``littlestone: error: <message>``, exit code 2."""


# ---------------------------------------------------------------------------------------- stopping
class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so that a run stopped by ``kill`` prints and writes what it
    finished, exactly as Ctrl-C does."""


received: list = []  # the signals main()'s handler turned into interrupts during this run


def on_sigterm(signum, frame):
    received.append(signum)
    raise Terminated()


def interrupted_code() -> int:
    """130 for Ctrl-C; 128 + 15 = 143 when SIGTERM stopped the run (the shell's conventions)."""
    return 128 + signal.SIGTERM if signal.SIGTERM in received else EXIT_INTERRUPTED


# ---------------------------------------------------------------------------------------- messages
def one_line(text) -> str:
    """Collapse a message to a single line (library messages may quote multi-line input)."""
    return " ".join(str(text).split())


def error(message, code: int = EXIT_USAGE) -> int:
    print(f"{PROG}: error: {one_line(message)}", file=sys.stderr, flush=True)
    return code


def note(message) -> None:
    print(f"{PROG}: note: {one_line(message)}", file=sys.stderr, flush=True)


def exc_text(e: BaseException) -> str:
    if isinstance(e, KeyError) and e.args:
        return f"missing parameter {e.args[0]!r}" if isinstance(e.args[0], str) else str(e.args[0])
    return str(e) or type(e).__name__


class Progress:
    """Progress on stderr: at most once a second and only after the first ``delay`` seconds (default 1);
    one updating line when stderr is a terminal, plain lines otherwise; nothing when disabled (``--quiet``)."""

    def __init__(self, enabled: bool = True, *, delay: float = 1.0):
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.next = self.t0 + delay
        self.dirty = False

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + 1.0
        err = sys.stderr
        if _isatty(err):
            err.write("\r" + text + "\033[K")
            self.dirty = True
        else:
            err.write(text + "\n")
        err.flush()

    def close(self) -> None:
        """Clear the updating line so the result prints on a clean line."""
        if self.dirty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.dirty = False


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------- text
def bounds_text(lo, hi, symbol: str = "Opt") -> str:
    lo = "?" if lo is None else value_text(lo)
    hi = "?" if hi is None else value_text(hi)
    return f"{lo} <= {symbol} <= {hi}"


def value_text(v) -> str:
    """An exact value for people: ``3``, or ``7/8 (0.875)`` for a Fraction that is not whole."""
    from solvers.games import value_text as text

    return text(v)


def params_text(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


_JSON_PLAIN = frozenset({int, float, str, bool, type(None)})


def json_safe(obj):
    """Tuples, sets and anything else JSON does not know (as text)."""
    if type(obj) is list and _JSON_PLAIN.issuperset(map(type, obj)):
        return obj  # a witness's point in high dimension: thousands of numbers, checked in C
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    return str(obj)


def json_lines_text(data: dict, listed: tuple, separators=(",", ":")) -> str:
    """``data`` as a JSON object, one key per line and one item per line for the keys in ``listed``
    (a class's matrix rows and points, a witness's examples): readable, and loads as usual."""
    parts = []
    for key, value in data.items():
        if key in listed and value:
            rows = ",\n    ".join(json.dumps(r, separators=separators) for r in value)
            parts.append(f"  {json.dumps(key)}: [\n    {rows}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(json_safe(value))}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---------------------------------------------------------------------------------------- output files
def _check_output_path(path: str, formats, what: str) -> Path:
    """``path`` as an output file of ``what``: a known extension, in a directory that exists and
    takes a new file (probed by creating and removing one), not a directory itself."""
    p = Path(path)
    if p.suffix.lower() not in formats:
        raise CLIError(f"{what} {path!r} has an unknown extension; name it with one of {', '.join(formats)}")
    if p.is_dir():
        raise CLIError(f"{what} {path!r} is a directory; give a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CLIError(f"the directory {str(parent)!r} for {what} {path!r} does not exist; create it first")
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".littlestone-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise CLIError(f"cannot write {what} {path!r} ({e.strerror or e}); give a path in a writable directory") from None
    return p


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_outputs(outputs, inputs=()) -> list:
    """Check every output file before any computation: ``outputs`` is ``[(path or None, formats, what,
    option)]`` and ``inputs`` ``[(path or None, option)]``. An output must be writable, must not be an
    input, and no two outputs may name one file. Returns the outputs as Paths (None where not given)."""
    checked = []
    for path, formats, what, option in outputs:
        if path is None:
            checked.append(None)
            continue
        p = _check_output_path(path, formats, what)
        for q, (other, _, _, other_option) in zip(checked, outputs):
            if q is not None and _same_file(p, q):
                raise CLIError(f"{other_option} and {option} both name {path!r}; give each output its own file")
        for src, src_option in inputs:
            if src is not None and _same_file(p, Path(src)):
                raise CLIError(f"{option} {path!r} is the input of {src_option}; writing it would overwrite the class, "
                               "give another file name")
        checked.append(p)
    return checked


def write_atomic(path: Path, write) -> None:
    """``write(tmp)`` into a temporary file beside ``path``, then rename it into place (a crash or a
    failed write never leaves half a file at ``path``, nor destroys an older one)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a result file reads as any other file
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text))
