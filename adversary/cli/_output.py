"""What the CLI gives back: exit codes, one-line errors and notes, progress, text, and output files
checked before the run and written atomically."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from solvers import interrupts
from solvers.files import write_atomic
from solvers.game_rules import value_text  # an exact value for people: 3, or 7/8 (0.875)
from solvers.interrupts import received
from solvers.messages import one_line  # library messages may quote multi-line input

from adversary.workspace import note  # noqa: F401 (the notes, to a workspace's sink: stderr here)

PROG = "littlestone"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNSOLVED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: The exit codes, as ``--help`` and docs/exit-codes.md list them.
EXIT_CODES = (
    (EXIT_OK, "solved (or done)"),
    (EXIT_FAILED, "a verification failed"),
    (EXIT_USAGE, "bad input, or an output file that cannot be written: the one-line error says what to change"),
    (EXIT_UNSOLVED, "not all done within the limits given (--time-limit, --memory), or a certificate (--proof) too "
                    "large to make: what was found is printed and stands (the proven bounds; an attack: the mistakes "
                    "found, a lower bound on the worst case), and a note says what is missing"),
    (EXIT_INTERRUPTED, "interrupted by Ctrl-C (143 for SIGTERM), after printing and writing what was finished"),
)


class CLIError(Exception):
    """A user error: printed as one line ``littlestone: error: <message>``, exit code 2."""


# ---------------------------------------------------------------------------------------- stopping
# main() runs each command inside solvers.interrupts.catching(): SIGINT and SIGTERM are recorded in
# `received` (and raised as KeyboardInterrupt / Terminated), so that a command knows it is being stopped
# even where a library swallowed the exception, and every search stops half a second after it at most.
def stopping() -> bool:
    """Whether a Ctrl-C or SIGTERM came during this run: the command prints what it finished and ends."""
    return interrupts.requested()


def interrupted_how() -> str:
    """"interrupted by Ctrl-C", or "interrupted by SIGTERM" when SIGTERM stopped the run (as the exit code says),
    or "stopped by --memory" when the run passed its memory (:func:`solvers.interrupts.memory_guard`)."""
    if interrupts.memory_stop() is not None:
        return "stopped by --memory"
    return "interrupted by SIGTERM" if signal.SIGTERM in received else "interrupted by Ctrl-C"


def interrupted_code() -> int:
    """130 for Ctrl-C; 128 + 15 = 143 when SIGTERM stopped the run (the shell's conventions); 3 when the run
    passed its ``--memory`` (a limit given, as a time limit: what was proven is printed)."""
    if interrupts.memory_stop() is not None:
        return EXIT_UNSOLVED
    return 128 + signal.SIGTERM if signal.SIGTERM in received else EXIT_INTERRUPTED


def memory_note() -> None:
    """After a run that :func:`solvers.interrupts.memory_guard` stopped: one note saying so (nothing otherwise)."""
    over = interrupts.memory_stop()
    if over is not None:
        seen, limit, started = over
        what = "(what it found is above)" if started else "before the command began"
        note(f"stopped by --memory: this run held {seen / 2**30:.3g} GB, more than the {limit / 2**30:.3g} GB given "
             f"{what}; give more --memory, or a smaller class")


# ---------------------------------------------------------------------------------------- messages

def error(message, code: int = EXIT_USAGE) -> int:
    print(f"{PROG}: error: {one_line(message)}", file=sys.stderr, flush=True)
    return code


def exc_text(e: BaseException) -> str:
    if isinstance(e, KeyError) and e.args:
        return f"missing parameter {e.args[0]!r}" if isinstance(e.args[0], str) else str(e.args[0])
    return str(e) or type(e).__name__


class Progress:
    """Progress on stderr, only after the first ``delay`` seconds (default 1); nothing when disabled
    (``--quiet``). On a terminal it is one line redrawn in place by tqdm; otherwise plain lines, at most one
    a second, with the same facts (a log keeps them).

    It shows one of three things:

    - a line of text, ``show(text)`` (opt, experts, reading a file);
    - a count, with ``total=``: ``count(done)`` of ``total`` things (table's cells), the time elapsed and
      the estimate of the time left (elapsed * left / done);
    - a clock, with ``clock=True``: the time elapsed against ``limit`` seconds when given (attack).

    ``status(text)`` sets what follows the count or the clock: the bounds of the cell in flight, the best
    mistakes so far. ``clear()`` takes the line away before something else is printed (the next update
    draws it again); ``close()`` ends it. On a terminal a count or a clock is redrawn once a second by a
    thread of its own, so its elapsed time moves while the caller waits on a cell.

    Examples
    --------
    >>> bar = Progress(total=3, label="littlestone table")
    >>> bar.count(1, status="n=7 k=3: 3 <= Opt <= 4")  # nothing drawn in the first second
    >>> bar.line()
    'littlestone table: 1/3 cells done, 0 s, about 0 s left; n=7 k=3: 3 <= Opt <= 4'
    """

    TICK = 1.0  # seconds between two plain lines, and between two redraws of a count or clock by the thread
    REDRAW = 0.1  # seconds between two redraws of the terminal line by the caller's updates

    def __init__(self, enabled: bool = True, *, delay: float = 1.0, label: str = PROG, total: int | None = None,
                 unit: str = "cells", clock: bool = False, limit: float | None = None):
        self.enabled = enabled
        self.label, self.total, self.unit, self.clock, self.limit = label, total, unit, clock, limit
        self.t0 = time.monotonic()
        self.start = self.t0 + delay  # nothing before this
        self.next = self.start  # the next plain line or redraw
        self.text = ""  # show(text)
        self.done = 0  # count(done)
        self.postfix = ""  # status(text)
        self.hidden = False  # clear() was called: nothing is drawn until the next update
        self._bar = None  # the tqdm bar, on a terminal, from the first draw
        self._lock = threading.RLock()  # the caller's updates and the redrawing thread
        self._stop = threading.Event()
        self._thread = None
        self._owner = threading.get_ident()

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    # ------------------------------------------------------------------------------ updates
    def show(self, text: str) -> None:
        """A line of text (the whole line: the command's name, the facts, the seconds)."""
        self.text = text
        self._update()

    def count(self, done: int, status: str | None = None) -> None:
        """``done`` of ``total`` things are finished (and ``status``, when given, follows the count)."""
        self.done = done
        if status is not None:
            self.postfix = status
        self._update()

    def status(self, text: str) -> None:
        """What follows the count or the clock. From another thread than the one that made the line (a
        cluster's reports) on a terminal, only the text is set: the line's own redraws show it, so it never
        comes back between a ``clear()`` and what the caller prints after it."""
        self.postfix = text
        if threading.get_ident() == self._owner or not _isatty(sys.stderr):
            self._update()

    def _update(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            self.hidden = False
            tty = _isatty(sys.stderr)
            if tty and self._thread is None and (self.total is not None or self.clock):
                self._thread = threading.Thread(target=self._redraw, name="littlestone-progress", daemon=True)
                self._thread.start()
            now = time.monotonic()
            if now < self.next:
                return
            if tty:
                self.next = now + self.REDRAW
                self._draw()
            else:
                self.next = now + self.TICK
                sys.stderr.write(self.line() + "\n")
                sys.stderr.flush()

    # ------------------------------------------------------------------------------ plain lines
    def line(self) -> str:
        """The facts as one plain line (what a log gets)."""
        elapsed = self.elapsed()
        if self.total is not None:
            text = f"{self.label}: {self.done}/{self.total} {self.unit} done, {elapsed:.0f} s"
            if 0 < self.done < self.total:
                text += f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        elif self.clock:
            text = f"{self.label}: {elapsed:.0f} s" + ("" if self.limit is None else f" of {self.limit:g} s")
        else:
            return self.text
        return f"{text}; {self.postfix}" if self.postfix else text

    # ------------------------------------------------------------------------------ the terminal
    def _draw(self) -> None:
        """Draw the line with tqdm (made at the first draw, on the stderr of that moment)."""
        if self._bar is None:
            if self.total is not None:
                fmt = "{desc}: {percentage:3.0f}%|{bar}| {n}/{total} " + self.unit + " [{elapsed}<{remaining}{postfix}]"
            elif self.clock and self.limit is not None:
                fmt = "{desc}: {percentage:3.0f}%|{bar}| {n:.0f} of {total:g} s{postfix}"
            elif self.clock:
                fmt = "{desc}: {elapsed}{postfix}"
            else:
                fmt = "{desc}"
            # smoothing=0: the estimate is elapsed * left / done, as on the plain lines
            self._bar = _tqdm(total=self.total if self.total is not None else self.limit,
                              desc=self.label if self.total is not None or self.clock else self.text, file=sys.stderr,
                              leave=False, smoothing=0, bar_format=fmt, mininterval=0, **_width(sys.stderr))
            self._bar.start_t = self._bar._time() - self.elapsed()  # tqdm's clock is time.time
        bar = self._bar
        if self.total is not None:
            bar.n = self.done
        elif self.clock and self.limit is not None:
            bar.n = min(self.elapsed(), self.limit)
        if self.total is None and not self.clock:
            bar.set_description_str(self.text, refresh=False)
        bar.set_postfix_str(self.postfix, refresh=False)
        bar.refresh()

    def _redraw(self) -> None:
        """The thread of a count or a clock on a terminal: a redraw once a second from the first ``delay``."""
        wait = max(self.start - time.monotonic(), 0.0)
        while not self._stop.wait(wait):
            wait = self.TICK
            with self._lock:
                if not self.hidden:
                    self._draw()

    def clear(self) -> None:
        """Take the line away so that something else prints on a clean line; the next update draws it
        again (plain lines need nothing)."""
        with self._lock:
            self.hidden = True
            if self._bar is not None:
                self._bar.clear()
                self._bar.fp.flush()

    def close(self) -> None:
        """The end: clear the line (a later update starts a new one)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
            self._stop.clear()
            self.hidden = True
            self.next = max(self.next, self.start)


def _tqdm(**kwargs):
    """A tqdm bar (tqdm is imported when the first bar is drawn, not when the CLI starts)."""
    from tqdm import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread: Progress redraws when it has news, and once a second

    return Bar(**kwargs)


def _width(stream) -> dict:
    """tqdm's width options: follow the terminal's size when it says it (a window resized), else
    $COLUMNS or 80 columns (a terminal of size 0 x 0, as a bare pty, would get nothing drawn)."""
    try:
        size = os.get_terminal_size(stream.fileno())
        if size.columns > 0 and size.lines > 0:
            return {"dynamic_ncols": True}
    except (AttributeError, ValueError, OSError):
        pass
    size = shutil.get_terminal_size()
    return {"ncols": size.columns, "nrows": size.lines}


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
    if p.is_dir():  # before the extension: a directory has none to speak of
        raise CLIError(f"{what} {path!r} is a directory; give a file name in it, e.g. {str(p / ('out' + next(iter(formats))))!r}")
    if p.suffix.lower() not in formats:
        raise CLIError(f"{what} {path!r} has an unknown extension; name it with one of {', '.join(formats)}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CLIError(f"the directory {str(parent)!r} for {what} {path!r} does not exist; create it first")
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".littlestone-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise CLIError(f"cannot write {what} {path!r} ({e.strerror or e}); give a path in a writable directory") from None
    try:
        longest = os.pathconf(parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        longest = 255
    if len(os.fsencode(p.name + PARTIAL)) > longest:  # (the file written while the run goes on has that name)
        raise CLIError(f"the name of {what} {path!r} is too long: with {PARTIAL!r} added (the rows are written to "
                       f"that file as they come) it passes the {longest} bytes a name may have here; give a shorter name")
    if Path(str(p) + PARTIAL).is_dir():
        raise CLIError(f"{str(p) + PARTIAL!r} is a directory, and {what} is written there as it comes; move it away "
                       "or give another file name")
    return p


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_outputs(outputs, inputs=(), args=None) -> list:
    """Check every output file before any computation: ``outputs`` is ``[(path or None, formats, what,
    option)]`` and ``inputs`` ``[(path or None, option)]``. An output must be writable, must not be an
    input, and no two outputs may name one file. With the command's ``args``, the files it reads or keeps
    are inputs too: ``--matrix``, a ``--distribution`` file, and the results store (a tree written over
    the store would destroy every row in it). Returns the outputs as Paths
    (None where not given)."""
    inputs = [(src, option, "the input of " + option) for src, option in inputs]
    if args is not None:
        inputs += _inputs_of(args)
    checked = []
    for path, formats, what, option in outputs:
        if path is None:
            checked.append(None)
            continue
        p = _check_output_path(path, formats, what)
        for q, (other, _, _, other_option) in zip(checked, outputs):
            if q is not None and _same_file(p, q):
                raise CLIError(f"{other_option} and {option} both name {path!r}; give each output its own file")
        for src, src_option, role in inputs:
            if src is not None and _same_file(p, Path(src)):
                if src_option == "--store":
                    raise CLIError(f"{option} {path!r} is {role}; writing it would destroy the stored results, "
                                   f"give {option} another file name")
                raise CLIError(f"{option} {path!r} is {role}; writing it would overwrite it, give another file name")
        checked.append(p)
    return checked


def _inputs_of(args) -> list:
    """The files a command's ``args`` read or keep, as ``(path, option, role)``: ``--matrix``, a
    ``--distribution`` file, and the results store (unless ``--no-store``). (SQLite's files beside the store,
    ``-wal`` and the like, cannot be named: no output format has their extension.)"""
    found = []
    for option, attr in (("--matrix", "matrix"), ("--distribution", "distribution")):
        src = getattr(args, attr, None)
        if isinstance(src, (str, os.PathLike)) and src:
            found.append((src, option, "the input of " + option))
    if hasattr(args, "store") and not getattr(args, "no_store", False):
        from adversary.store import DEFAULT_PATH, STORE_ENV  # (as adversary.cli._store.store_path finds it)

        store = args.store or os.environ.get(STORE_ENV) or DEFAULT_PATH
        found.append((store, "--store", f"the results store {store!r}"))
    return found


#: What the name of a streamed output file gets while the run goes on (:class:`StreamedOutput`).
PARTIAL = ".partial"


class StreamedOutput:
    """An output file written a row at a time as cells finish (``table``, ``attack --grid``, ``experts`` with
    ``-o PATH``): the rows go to ``PATH.partial`` beside it, flushed as each is written (follow it while the run
    goes on), and that file is renamed to ``PATH`` when the run ends, stopped runs included. So ``PATH`` is
    whole or as it was: a kill leaves the finished rows in ``PATH.partial``, and a write that fails (a full
    disk) removes ``PATH.partial`` and is one line, exit 2, with every later write and the close doing
    nothing (the command's other clean-up, the store's included, still runs)."""

    def __init__(self, path):
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + PARTIAL)
        self.failed = False
        try:
            self._file = self._open()
        except OSError as e:
            self._fail(e)

    def _open(self):
        return open(self.partial, "w", encoding="utf-8")

    def write(self, text: str) -> int:
        if self.failed:
            return 0
        try:
            return self._file.write(text)
        except OSError as e:
            self._fail(e)

    def flush(self) -> None:
        if not self.failed:
            try:
                self._file.flush()
            except OSError as e:
                self._fail(e)

    def close(self) -> None:
        """Rename the rows into place (nothing after a failed write)."""
        if self.failed:
            return
        try:
            self._file.close()
            os.replace(self.partial, self.path)
        except OSError as e:
            self._fail(e)

    def _fail(self, e: OSError):
        self.failed = True
        try:
            self._file.close()
        except (OSError, AttributeError):
            pass
        try:
            os.unlink(self.partial)
        except OSError:
            pass
        full = getattr(e, "errno", None) in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
        fix = "free some space or give -o a path on another disk" if full else "give -o another path"
        raise CLIError(f"could not write {str(self.path)!r} ({e.strerror or e}); it is left as it was: {fix}") from None


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text))
