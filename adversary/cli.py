"""The ``littlestone`` command line: a thin layer that parses, calls the library, prints.

Commands (DESIGN.md, section CLI)::

    littlestone families [--json]
    littlestone opt FAMILY k=v ... | --matrix FILE  [--json] [--tree OUT] [--time-limit S] [--jobs N]
                    [--engine auto|search|table] [--memory GB] [--quiet]
    littlestone export FAMILY k=v ... | --matrix FILE  [-o FILE.json]
    littlestone learners [--json]
    littlestone verify TREE.json (FAMILY k=v ... | --matrix FILE)
    littlestone verify WITNESS.json [--exact]
    littlestone table FAMILY [k=v ...] --grid n=2..8 k=1..3  [--format md|csv|json] [--time-limit S] [--jobs N]
                      [--memory GB]
    littlestone attack LEARNER [k=v ...] (--class FAMILY [k=v ...] | --matrix FILE)
                       [--strategy exact|tree|beam|mcts|local|geometric|auto] [--time-limit S] [--seed N]
                       [--jobs N] [--json] [--witness OUT.json] [--quiet]

Each command is a pair of functions, ``_add_<name>(parser)`` declaring its arguments and
``_run_<name>(args) -> int`` running it, listed in :data:`COMMANDS`; a new command (``attack``)
is one more pair and one more row.

Results go to stdout; progress, notes and errors go to stderr. Every error the user can fix is one line
``littlestone: error: <what to change>``. Library errors are ``ValueError`` (``TreeError`` is one)
whose message already says what to change; the CLI prints it on one line. Exit codes
(:data:`EXIT_CODES`): 0 solved, 1 a verification failed (or an output could not be written), 2 bad
input, 3 not solved within the limits given (the proven bounds are printed), 130 interrupted by Ctrl-C
or SIGTERM (after printing what was finished).

Output files (``--tree``, ``--proof``, ``--witness``, ``-o``) are checked before any computation
starts, and written to a temporary file that is renamed into place, so a failed run never leaves half
a file behind.

Examples
--------
>>> main(["opt", "thresholds", "N=7", "--json", "--quiet"])  # doctest: +ELLIPSIS
{"opt": 3, "lower": 3, "upper": 3, "concepts": 8, "points": 7, ...}
0
"""

from __future__ import annotations

import argparse
import csv
import difflib
import io
import itertools
import json
import math
import os
import signal
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

__all__ = ["main", "COMMANDS", "CLIError", "EXIT_CODES"]

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
TREE_FORMATS = (".json", ".dot", ".gv", ".graphml")


class CLIError(Exception):
    """A user error: printed as one line ``littlestone: error: <message>``, exit code 2."""


# ---------------------------------------------------------------------------------------- output helpers
def _one_line(text) -> str:
    """Collapse a message to a single line (library messages may quote multi-line input)."""
    return " ".join(str(text).split())


def _error(message, code: int = EXIT_USAGE) -> int:
    print(f"{PROG}: error: {_one_line(message)}", file=sys.stderr, flush=True)
    return code


def _note(message) -> None:
    print(f"{PROG}: note: {_one_line(message)}", file=sys.stderr, flush=True)


class _Progress:
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


def _bounds_text(lo, hi) -> str:
    lo = "?" if lo is None else lo
    hi = "?" if hi is None else hi
    return f"{lo} <= Opt <= {hi}"


def _range_text(lo, hi) -> str:
    """``3`` when the bounds meet, ``lo..hi`` otherwise (table cells)."""
    if lo is None or hi is None:
        return "?"
    return str(lo) if lo == hi else f"{lo}..{hi}"


def _params_text(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


# ---------------------------------------------------------------------------------------- argument types
def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds; give e.g. 60 or 0.5") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds; give a number > 0")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give a number of worker processes >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} workers is not possible; give a number of worker processes >= 1")
    return value


GIB = 2**30


def _memory_gb(text: str) -> float:
    """``--memory GB``: a positive number of GB (2^30 bytes), at most the machine's memory."""
    from solvers.opt import physical_memory

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of GB; give e.g. 8 or 0.5") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} GB is not a finite positive amount of memory; give a number of GB > 0, e.g. 0.5")
    total = physical_memory()
    if total is not None and value * GIB > total:
        most = math.floor(total / GIB * 10) / 10
        raise argparse.ArgumentTypeError(f"{text} GB is more than this machine's memory ({total / GIB:.2f} GB); "
                                         f"give at most {most:g}")
    return value


def _memory_help(what: str) -> str:
    from solvers.opt import default_memo_bytes, physical_memory

    default = f"{default_memo_bytes() / GIB:.1f} GB, " + (
        "half of this machine's memory" if physical_memory() is not None else "as this machine's memory is unknown")
    return (f"memory the memo of the search may use{what}, in GB (2^30 bytes; default {default}); when it is full "
            "the memo drops its older half, so the search slows down instead of running out of memory")


def _memo_bytes(args) -> int | None:
    """``--memory`` in bytes (None: the library's default)."""
    gb = getattr(args, "memory", None)
    return None if gb is None else max(1, int(gb * GIB))


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``littlestone: error: ...``, exit code 2)."""

    def error(self, message):  # noqa: D401 - argparse API
        hint = f" (see '{self.prog} --help')"
        self.exit(EXIT_USAGE, f"{PROG}: error: {_one_line(message)}{hint}\n")


# ---------------------------------------------------------------------------------------- families and VC
# solvers.classes.families: make(name, **params), FAMILIES (name -> Family), parse_params(name, ["k=v", ...])
# and describe() (one row per family); solvers.vc: vc_dimension(C, time_limit=) -> (lower, upper).
def _families():
    from solvers.classes import families

    return families


MARGIN_FAMILY = "margin-halfspaces"  # solvers.classes.margin.MARGIN_FAMILY, without importing the classes here
#: The attack-only family, as ``littlestone families`` lists it.
MARGIN_ROW = {
    "name": MARGIN_FAMILY,
    "params": "d gamma R=1",
    "attack_only": True,
    "description": ("attack only: unit-norm homogeneous halfspaces x -> [<w, x> >= 0] in R^d, every example "
                    "within radius R and at margin >= gamma; an infinite class, so it has no Opt table"),
    "domain": "R^d, |x| <= R",
    "size": "infinite",
    "opt": "",
    "known": "the Perceptron makes at most R^2 / gamma^2 mistakes on it",
    "parameters": [
        {"name": "d", "type": "int", "default": None, "required": True, "doc": "the dimension, >= 1"},
        {"name": "gamma", "type": "float", "default": None, "required": True,
         "doc": "the margin, 0 < gamma <= R (a decimal or p/q)"},
        {"name": "R", "type": "float", "default": 1, "required": False, "doc": "the radius, > 0"},
    ],
}


def _check_family(name: str) -> None:
    if name == MARGIN_FAMILY:
        raise CLIError(f"{MARGIN_FAMILY} is an infinite class, for attacks only (e.g. 'littlestone attack perceptron "
                       f"--class {MARGIN_FAMILY} d=5 gamma=0.2'); opt, export and table need a finite family "
                       "(see 'littlestone families')")
    if "=" in name:
        raise CLIError(f"{name!r} is a parameter, not a family; give the family name first, e.g. 'thresholds N=7'")
    names = list(_families().FAMILIES)
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise CLIError(f"unknown family {name!r}; {hint}choose one of: {', '.join(names)} (see 'littlestone families')")


def _parse_params(name: str, items) -> dict:
    """``["n=8", "k=2"]`` -> ``{"n": 8, "k": 2}`` for family ``name``: names and types are checked here,
    ranges when the class is made."""
    try:
        return dict(_families().parse_params(name, list(items)))
    except (ValueError, TypeError, KeyError) as e:
        raise CLIError(_exc_text(e)) from None


def _exc_text(e: BaseException) -> str:
    if isinstance(e, KeyError) and e.args:
        return f"missing parameter {e.args[0]!r}" if isinstance(e.args[0], str) else str(e.args[0])
    return str(e) or type(e).__name__


def _make(name: str, params: dict):
    """``families.make(name, **params)`` with its errors (impossible values, too large) as CLIError."""
    try:
        return _families().make(name, **params)
    except MemoryError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        text = _exc_text(e)
        raise CLIError(text if text.startswith(name) else f"{name} {_params_text(params)}: {text}") from None


# ---------------------------------------------------------------------------------------- the class a command reads
def _add_class_source(p, *, what: str = "the class") -> None:
    p.add_argument("target", nargs="*", metavar="FAMILY k=v", help=f"{what}: a family name and its parameters")
    p.add_argument("--matrix", metavar="FILE", help=f"read {what} from a .json, .csv or .npy 0/1 matrix instead")


BIG_FILE = 10 * 10**6  # class files larger than this (bytes) show progress while they load


def _read_class_file(path: str, *, quiet: bool = False):
    """``ConceptClass.from_file(path)`` (its ValueError says what is wrong with the file); a file larger
    than :data:`BIG_FILE` reports its progress on stderr, unless ``quiet``."""
    from solvers.classes import ConceptClass

    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0  # from_file says what is wrong
    if quiet or size <= BIG_FILE:
        return ConceptClass.from_file(path)
    bar = _Progress(delay=0.0)

    def progress(done: int, total: int) -> None:
        if done == 0:
            bar.show(f"{PROG}: reading {path} ({total / 1e6:.1f} MB)")
        else:
            bar.show(f"{PROG}: reading {path}: {100 * done // total}% ({done / 1e6:.1f} of {total / 1e6:.1f} MB), "
                     f"{bar.elapsed():.0f} s")

    try:
        return ConceptClass.from_file(path, progress=progress)
    finally:
        bar.close()


def _load_class(args):
    """The class named by ``FAMILY k=v ...`` or ``--matrix FILE``: (C, label, family, params)."""
    target = list(args.target)
    if args.matrix is not None and target:
        raise CLIError(f"give either a FAMILY with parameters or --matrix FILE, not both (got {target[0]!r} and --matrix)")
    if args.matrix is None and not target:
        raise CLIError("give a class: a FAMILY with k=v parameters (see 'littlestone families') or --matrix FILE")
    if args.matrix is not None:
        C = _read_class_file(args.matrix, quiet=getattr(args, "quiet", False))
        return C, f"matrix {args.matrix}", C.family, dict(C.params)
    name, items = target[0], target[1:]
    _check_family(name)
    params = _parse_params(name, items)
    C = _make(name, params)
    params = dict(C.params)  # defaults included
    return C, f"{name} {_params_text(params)}".strip(), name, params


# ---------------------------------------------------------------------------------------- families
def _add_families(p) -> None:
    p.add_argument("--json", action="store_true", help='print one JSON object {"families": [{name, params, size, opt, known, parameters, ...}]}')


def _family_rows() -> list[dict]:
    """``families.describe()``'s rows (name, params, size, opt, known, domain, description), each with
    ``parameters``: every parameter's name, type, default (None when required) and meaning."""
    fam = _families()
    rows = [dict(r) for r in fam.describe()]
    for row in rows:
        row["parameters"] = [
            {"name": p.name, "type": p.type.__name__, "default": p.default, "required": p.required, "doc": p.doc}
            for p in fam.FAMILIES[row["name"]].params
        ]
        row["attack_only"] = False
    return [*rows, dict(MARGIN_ROW)]


def _run_families(args) -> int:
    rows = _family_rows()
    if args.json:
        print(json.dumps({"families": _json_safe(rows)}))
        return EXIT_OK
    for i, r in enumerate(rows):
        if i:
            print()
        params = ", ".join(
            (p["name"] if p["required"] else f"{p['name']}={p['default']}") + (f" ({p['doc']})" if p.get("doc") else "")
            for p in r["parameters"])
        print(f"{r['name']}  {r.get('params', '')}".rstrip() + ("  (attack only)" if r.get("attack_only") else ""))
        for key, label in (("description", ""), ("domain", "domain: "), ("size", "|C| = "),
                           ("opt", "Opt(C) = "), ("known", "known: ")):
            if r.get(key):
                print(f"    {label}{r[key]}")
        if params:
            print(f"    parameters: {params}")
    return EXIT_OK


_JSON_PLAIN = frozenset({int, float, str, bool, type(None)})


def _json_safe(obj):
    """Tuples, sets and anything else JSON does not know (as text)."""
    if type(obj) is list and _JSON_PLAIN.issuperset(map(type, obj)):
        return obj  # a witness's point in high dimension: thousands of numbers, checked in C
    if isinstance(obj, dict):
        return {str(k): _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [_json_safe(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    return str(obj)


# ---------------------------------------------------------------------------------------- opt
def _add_opt(p) -> None:
    _add_class_source(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (opt, lower, upper, concepts, points, seconds, ...)")
    p.add_argument("--tree", metavar="OUT", help="write the mistake tree (certificate of the lower bound) to OUT: .json, .dot or .graphml")
    p.add_argument("--proof", metavar="OUT", help="write the certificate of the upper bound to OUT (.json; check it with verify)")
    p.add_argument("--time-limit", type=_positive_seconds, metavar="S", help="stop after S seconds and report the proven bounds")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument("--engine", choices=("auto", "search", "table"), default="auto",
                   help="search over version spaces, the 3^N table for classes over <= 17 distinct points, or auto (default)")
    p.add_argument("--memory", type=_memory_gb, metavar="GB", help=_memory_help(""))
    p.add_argument("--quiet", action="store_true", help="no progress on stderr (nor while reading a large --matrix file)")


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


def _check_outputs(outputs, inputs=()) -> list:
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


def _write_atomic(path: Path, write) -> None:
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


def _write_text_atomic(path: Path, text: str) -> None:
    _write_atomic(path, lambda tmp: tmp.write_text(text))


def _usable_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _cap_jobs(jobs: int, *, tasks: int | None = None) -> int:
    """``--jobs`` lowered to the usable CPUs (and to the number of tasks), with a note when lowered."""
    cpus = _usable_cpus()
    cap = cpus if tasks is None else max(1, min(cpus, tasks))
    if jobs <= cap:
        return jobs
    why = f"this machine has {cpus} usable CPU{'s' if cpus != 1 else ''}"
    if tasks is not None and tasks < cpus:
        why = f"there {'is' if tasks == 1 else 'are'} only {tasks} cell{'s' if tasks != 1 else ''} to compute"
    _note(f"--jobs {jobs} lowered to {cap}: {why}")
    return cap


def _solve(C, *, time_limit, jobs, progress, engine="auto", memo_bytes=None):
    from solvers.opt import opt

    return opt(C, time_limit=time_limit, jobs=jobs, progress=progress, engine=engine, memo_bytes=memo_bytes)


def _work_text(stats: dict) -> str:
    text = f"{stats.get('nodes', 0):,} search nodes"
    if stats.get("engine") == "table":
        text += f", then the table engine over {stats.get('root_splits')} points ({stats.get('table_sweeps')} sweeps)"
    return text


def _run_opt(args) -> int:
    tree_path, proof_path = _check_outputs(
        [(args.tree, TREE_FORMATS, "the tree file", "--tree"), (args.proof, (".json",), "the certificate file", "--proof")],
        [(args.matrix, "--matrix")])
    C, label, family, params = _load_class(args)
    jobs = _cap_jobs(args.jobs)
    bar = _Progress(enabled=not args.quiet)

    def progress(info):
        parts = [_bounds_text(info.get("lower"), info.get("upper"))]
        parts += [f"{info[k]:,} {what}" for k, what in (("nodes", "nodes"), ("memo", "memo entries"))
                  if isinstance(info.get(k), int)]
        bar.show(f"{PROG} opt: {', '.join(parts)}, {bar.elapsed():.0f} s")

    try:
        r = _solve(C, time_limit=args.time_limit, jobs=jobs, progress=progress, engine=args.engine,
                   memo_bytes=_memo_bytes(args))
    finally:
        bar.close()
    stopped = r.stats.get("stopped")
    tree_error = None
    if tree_path is not None and r.tree is not None:
        try:
            _write_atomic(tree_path, r.tree.write)
        except (OSError, ValueError) as e:
            tree_error = f"could not write the tree to {str(tree_path)!r}: {e}"
    proof_error = None
    if proof_path is not None:
        from solvers.certificate import ProofTooLarge

        try:
            proof = r.solver.upper_proof(r.upper)
            _write_text_atomic(proof_path, json.dumps(proof, separators=(",", ":")) + "\n")
        except ProofTooLarge as e:
            proof_error = f"no upper-bound certificate written: {e}"
        except OSError as e:
            proof_error = f"could not write the certificate to {str(proof_path)!r}: {e.strerror or e}"
    seconds = r.stats.get("seconds")
    if args.json:
        out = {
            "opt": r.value, "lower": r.lower, "upper": r.upper,
            "concepts": C.n_concepts, "points": C.n_points, "seconds": seconds,
            "log2_size": C.log2_size(), "family": family, "params": params,
            "matrix": args.matrix, "engine": r.stats.get("engine"), "nodes": r.stats.get("nodes"),
            "memo": r.stats.get("memo"), "evictions": r.stats.get("evictions"),
            "memo_bytes": r.stats.get("memo_bytes"), "stopped": stopped,
            "tree": str(tree_path) if tree_path is not None and tree_error is None else None,
            "proof": str(proof_path) if proof_path is not None and proof_error is None else None,
        }
        print(json.dumps(_json_safe(out)))
    else:
        if r.value is not None:
            value = str(r.value)
        else:
            why = {"time limit": f"stopped by the time limit of {args.time_limit:g} s" if args.time_limit else "stopped by the time limit",
                   "interrupted": "interrupted by Ctrl-C"}.get(stopped, f"stopped: {stopped}")
            value = f"{_bounds_text(r.lower, r.upper)}  (not solved: {why})"
        rows = [
            ("class", label),
            ("size", f"|C| = {C.n_concepts} concepts, |X| = {C.n_points} points"),
            ("Opt(C)", value),
            ("floor(log2 |C|)", str(C.log2_size())),
            ("time", f"{seconds:.3f} s ({_work_text(r.stats)})"),
        ]
        if tree_path is not None and tree_error is None and r.tree is not None:
            rows.append(("tree", f"mistake tree of depth {r.tree.depth} written to {tree_path}"))
        if proof_path is not None and proof_error is None:
            rows.append(("proof", f"certificate of Opt(C) <= {r.upper} written to {proof_path}"))
        width = max(len(k) for k, _ in rows) + 2
        for k, v in rows:
            print(f"{k + ':':<{width}}{v}")
    sys.stdout.flush()
    if tree_path is None and not args.json and not args.quiet and r.tree is not None and r.lower > 0:
        _note(f"add --tree tree.json to write the mistake tree that proves Opt(C) >= {r.lower} "
              "(check it with 'littlestone verify tree.json' and the class)")
    if tree_error is not None or proof_error is not None:
        return _error(tree_error or proof_error, EXIT_FAILED)
    if stopped == "interrupted":
        return _interrupted_code()
    return EXIT_OK if r.value is not None else EXIT_UNSOLVED


# ---------------------------------------------------------------------------------------- export
def _add_export(p) -> None:
    _add_class_source(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (.json) instead of stdout")


def _class_json_text(data: dict) -> str:
    """The class as JSON, one matrix row and one point per line (readable, and loads with --matrix)."""
    parts = []
    for key, value in data.items():
        if key in ("matrix", "points") and value:
            rows = ",\n    ".join(json.dumps(r, separators=(",", ":")) for r in value)
            parts.append(f"  {json.dumps(key)}: [\n    {rows}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(_json_safe(value))}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _run_export(args) -> int:
    out, = _check_outputs([(args.output, (".json",), "the output file", "-o")], [(args.matrix, "--matrix")])
    C, label, _, _ = _load_class(args)
    text = _class_json_text(C.to_json())
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return EXIT_OK
    try:
        _write_text_atomic(out, text)
    except OSError as e:
        raise CLIError(f"could not write {str(out)!r}: {e.strerror or e}") from None
    print(f"wrote {label} ({C.n_concepts} concepts, {C.n_points} points) to {out}", file=sys.stderr)
    return EXIT_OK


# ---------------------------------------------------------------------------------------- verify
def _add_verify(p) -> None:
    p.add_argument("file", metavar="FILE",
                   help="a certificate to re-check: a mistake tree (.json, with its class) or a witness (carries its class)")
    _add_class_source(p, what="the class of a mistake tree (a witness names its own)")
    p.add_argument("--exact", action="store_true",
                   help="witnesses on margin-halfspaces: check |x| <= R and the margin in exact rational arithmetic")


def _certificate_kind(data) -> str:
    """What a certificate file holds: ``"tree"`` or the file's ``"kind"``."""
    if isinstance(data, dict) and "kind" in data:
        return str(data["kind"])
    return "tree"


def _verify_against_class(args, data, check, what: str, ok_text) -> int:
    """Run a certificate checker that needs the class (a tree or an upper-bound certificate)."""
    from solvers.certificate import TreeError

    C, label, _, _ = _load_class(args)
    try:
        value = check(data, C)
    except TreeError as e:
        print(f"FAILED: {_one_line(e)} ({what} {args.file}, class {label})", flush=True)
        return EXIT_FAILED
    print(f"OK: {ok_text(value)}")
    return EXIT_OK


def _verify_tree_file(args, data) -> int:
    from solvers.certificate import verify_tree

    return _verify_against_class(args, data, verify_tree, "tree",
                                 lambda d: f"mistake tree of depth {d} verified, so Opt(C) >= {d}")


def _verify_witness_file(args, data) -> int:
    """A witness (adversary.referee): replayed from scratch on the class and learner it names."""
    from adversary.referee import verify_witness

    if list(args.target) or args.matrix is not None:
        given = "--matrix" if args.matrix is not None else repr(args.target[0])
        raise CLIError(f"{args.file} is a witness, which names its own class; drop {given} and the class arguments")
    r = verify_witness(data, exact=args.exact)
    if not r.ok:
        print(f"FAILED: {_one_line(r.message)} (witness {args.file})", flush=True)
        return EXIT_FAILED
    print(f"OK: {_one_line(r.message)}")
    return EXIT_OK


def _verify_upper_file(args, data) -> int:
    """An upper-bound certificate (solvers.certificate.verify_upper), checked against its class."""
    from solvers.certificate import verify_upper

    n = len(data.get("entries", [])) if isinstance(data.get("entries"), list) else 0
    return _verify_against_class(args, data, verify_upper, "certificate",
                                 lambda u: f"upper-bound certificate verified ({n} entries), so Opt(C) <= {u}")


# kind -> checker (a file without "kind" is a mistake tree).
VERIFIERS = {"tree": _verify_tree_file, "witness": _verify_witness_file, "upper-bound": _verify_upper_file}


def _run_verify(args) -> int:
    from solvers.certificate import load_tree

    suffix = Path(args.file).suffix.lower()
    if suffix in (".dot", ".gv", ".graphml"):
        raise CLIError(f"{args.file} is a {suffix} drawing; verify reads the .json form of a tree (opt --tree OUT.json)")
    data = load_tree(args.file)  # TreeError (a ValueError) for a missing or non-JSON file
    kind = _certificate_kind(data)
    check = VERIFIERS.get(kind)
    if check is None:
        shown = repr(kind) if len(kind) <= 60 else repr(kind[:57]) + "..."
        raise CLIError(f"{args.file} has kind {shown}; verify knows {', '.join(repr(k) for k in VERIFIERS)}")
    return check(args, data)


# ---------------------------------------------------------------------------------------- learners
# solvers.learners: LEARNERS (CLI name -> LearnerSpec with name, cls, params [(name, default, doc)],
# needs_class, bound_params, bound_formula, source) and make_learner(name, params, C).
def _add_learners(p) -> None:
    p.add_argument("--json", action="store_true",
                   help='print one JSON object {"learners": [{name, params, needs_class, bound, bound_params, source, ...}]}')


def _learner_rows() -> list[dict]:
    """One row per learner: its CLI name, class, one-line description, parameters with defaults,
    whether it needs a finite class, its proven bound (formula, and the target parameters
    ``mistake_bound`` takes) and the seed it comes from."""
    from solvers.learners import LEARNERS

    rows = []
    for spec in dict.fromkeys(LEARNERS.values()):  # each learner once, in registry order
        doc = (getattr(spec.cls, "__doc__", None) or "").strip()
        summary = getattr(spec, "summary", "") or (doc.splitlines()[0].strip() if doc else "")
        rows.append({
            "name": spec.name,
            "aliases": [key for key, s in LEARNERS.items() if s is spec and key != spec.name],
            "class": getattr(spec.cls, "__name__", str(spec.cls)),
            "description": summary,
            "params": [{"name": n, "default": d, "doc": text} for n, d, text in spec.params],
            "needs_class": bool(spec.needs_class),
            "bound": spec.bound_formula,
            "bound_params": list(spec.bound_params),
            "source": spec.source,
        })
    return rows


def _param_text(p: dict) -> str:
    """``n`` for a required parameter, ``alpha=2`` (``strict=false``) for one with a default."""
    if p["default"] is None:
        return p["name"]
    default = str(p["default"]).lower() if isinstance(p["default"], bool) else p["default"]
    return f"{p['name']}={default}"


def _run_learners(args) -> int:
    rows = _learner_rows()
    if args.json:
        print(json.dumps({"learners": _json_safe(rows)}))
        return EXIT_OK
    for i, r in enumerate(rows):
        if i:
            print()
        signature = " ".join(_param_text(p) for p in r["params"])
        aliases = f"  (also: {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['name']}  {signature}".rstrip() + aliases)
        if r["description"]:
            print(f"    {r['description']}")
        if r["params"]:
            width = max(len(_param_text(p)) for p in r["params"]) + 2
            print("    parameters:")
            for p in r["params"]:
                print(f"      {_param_text(p):<{width}}{p['doc'] or ''}".rstrip())
        print("    plays on: " + ("a finite class, which it is built from" if r["needs_class"]
                                   else "0/1 or real vectors of its dimension"))
        print(f"    bound: {r['bound']}")
        if r["bound_params"]:
            print(f"    bound arguments (the target's parameters): {', '.join(r['bound_params'])}")
        print(f"    source: {r['source']}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------- attack
# adversary.attack.attack(learner, C, learner_params=, strategy=, time_limit=, seed=, jobs=, progress=)
# -> AttackResult (mistakes, bound, opt, verdict, witness, strategy, exact, stats, message).
def _add_attack(p) -> None:
    p.add_argument("learner", metavar="LEARNER", help="the learner to attack (see 'littlestone learners')")
    p.add_argument("learner_params", nargs="*", metavar="k=v",
                   help="the learner's parameters; n (or d) defaults from the class")
    p.add_argument("--class", dest="cls", nargs="+", metavar="FAMILY k=v",
                   help="the class: a family and its parameters (see 'littlestone families'), or "
                        "margin-halfspaces d=D gamma=G [R=1]")
    p.add_argument("--matrix", metavar="FILE", help="read the class from a .json, .csv or .npy 0/1 matrix instead")
    p.add_argument("--strategy", default="auto", metavar="S",
                   help="exact, tree, beam, mcts, local, geometric or auto (default)")
    from adversary.attack import AUTO_SECONDS

    p.add_argument("--time-limit", type=_positive_seconds, metavar="S",
                   help=f"stop after S seconds and report the best verified sequence found (default: "
                        f"{AUTO_SECONDS:g} s for auto, no limit for a strategy named with --strategy)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the randomized strategies (default 0)")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (mistakes, bound, verdict, opt, witness, strategy, exact, stats)")
    p.add_argument("--witness", metavar="OUT.json", help="write the verified witness to OUT.json ('littlestone verify' re-checks it)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


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


def _margin_value(text: str):
    """A margin-halfspaces parameter: an int, a decimal (read as it prints) or a rational string."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        f = float(text)
    except ValueError:
        return text  # "1/3": load_class reads rational strings exactly, and says what is wrong otherwise
    return f if repr(f) == text or str(f) == text else text


def _attack_class(args):
    """The class of ``attack``: (class object or spec, label)."""
    from adversary.referee import MARGIN_FAMILY, load_class

    given = list(args.cls or [])
    if args.matrix is not None and given:
        raise CLIError(f"give either --class FAMILY k=v ... or --matrix FILE, not both (got --class {given[0]} and --matrix)")
    if args.matrix is None and not given:
        raise CLIError("give a class: --class FAMILY k=v ... (see 'littlestone families') or --matrix FILE")
    if args.matrix is not None:
        C = _read_class_file(args.matrix, quiet=args.quiet)
        return C, f"matrix {args.matrix}"
    name, items = given[0], given[1:]
    if name == MARGIN_FAMILY:
        params = {k: (int(v) if k == "d" and v.lstrip("-").isdigit() else _margin_value(v))
                  for k, v in _kv_items(items, f"{MARGIN_FAMILY} parameter").items()}
        H = load_class({"family": MARGIN_FAMILY, "params": params})  # WitnessError says what is wrong
        return H, str(H)
    names = [*_families().FAMILIES, MARGIN_FAMILY]
    if "=" not in name and name not in names:
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise CLIError(f"unknown family {name!r}; {hint}choose one of: {', '.join(names)} (see 'littlestone families')")
    _check_family(name)
    params = _parse_params(name, items)
    # load_class builds the family, or for a {0,1}^n family too large to list its implicit form.
    C = load_class({"family": name, "params": params})
    return C, f"{name} {_params_text(dict(C.params))}".strip()


def _number_text(v) -> str:
    if v is None or (isinstance(v, float) and math.isinf(v)):
        return "none"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.4f}".rstrip("0")
    return str(int(v)) if isinstance(v, float) else str(v)


def _point_text(x) -> str:
    if len(x) > LONG_POINT:  # high dimension: the nonzero coordinates only (a line, not pages)
        nonzero = [(i, v) for i, v in enumerate(x) if v not in (0, "0")]
        shown = ", ".join(f"x{i + 1} = {_point_text([v])[1:-1]}" for i, v in nonzero[:LONG_POINT // 2])
        more = f", ... {len(nonzero) - LONG_POINT // 2} more" if len(nonzero) > LONG_POINT // 2 else ""
        return f"({shown}{more}; the other of the {len(x)} coordinates 0)" if nonzero else f"(0, ..., 0: {len(x)} coordinates)"
    items = []
    for v in x:
        if isinstance(v, str):  # a witness's exact rational "p/q"
            try:
                v = float(Fraction(v))
            except (ValueError, ZeroDivisionError):
                pass
        if isinstance(v, float):
            items.append(f"{v:.4g}")
        else:
            items.append(str(v))
    return "(" + ", ".join(items) + ")"


def _verdict_text(r, rounds) -> str:
    """One line: the verdict and why (``rounds``: the 0-based indices of the mistakes)."""
    m, b = r.mistakes, r.bound
    bound = _number_text(b.value)
    if r.verdict == "unbounded":
        s, L = r.cycle
        k = sum(1 for t in rounds if s <= t < s + L)
        return (f"unbounded: no finite mistake bound; the cycle of examples {s + 1}..{s + L} "
                f"({k} mistake{'s' if k != 1 else ''}) can be repeated for ever")
    if r.verdict == "violates":
        return (f"violates: {m} mistakes > the bound {bound}; the bound as stated is wrong for this class "
                "(the witness is verified: re-check it with 'littlestone verify')")
    if r.verdict == "tight":
        return f"tight: {m} mistakes = the bound {bound}" + ("" if b.value == int(b.value) else f" (floor of {bound})")
    if not b.finite:
        return f"below: {m} mistakes; no bound is proven for this learner on this class"
    return f"below: {m} mistakes < the bound {bound}"


def _run_attack(args) -> int:
    from adversary.attack import attack
    from adversary.referee import replay, target_words

    witness_path, = _check_outputs([(args.witness, (".json",), "the witness file", "--witness")],
                                   [(args.matrix, "--matrix")])
    C, label = _attack_class(args)
    jobs = _cap_jobs(args.jobs)
    learner_params = _kv_items(args.learner_params, "learner parameter")
    bar = _Progress(enabled=not args.quiet)

    def progress(info):
        parts = [f"{info.get('strategy', '?')}: best {info.get('mistakes', 0)} mistakes"]
        for key, what in (("nodes", "positions"), ("memo", "memo entries"), ("iterations", "iterations")):
            if isinstance(info.get(key), int):
                parts.append(f"{info[key]:,} {what}")
        if info.get("strategy") == "opt":
            parts = [f"Opt(C): {_bounds_text(info.get('opt_lower'), info.get('opt_upper'))}"]
        bar.show(f"{PROG} attack: {', '.join(parts)}, {bar.elapsed():.0f} s")

    try:
        r = attack(args.learner, C, learner_params=learner_params, strategy=args.strategy,
                   time_limit=args.time_limit, seed=args.seed, jobs=jobs, progress=progress)
    finally:
        bar.close()
    stopped = r.stats.get("stopped")
    witness_error = None
    if witness_path is not None:
        try:
            _write_text_atomic(witness_path, _witness_json_text(r.witness))
        except OSError as e:
            witness_error = f"could not write the witness to {str(witness_path)!r}: {e.strerror or e}"
    if args.json:
        out = r.to_json()
        out["witness_file"] = str(witness_path) if witness_path is not None and witness_error is None else None
        print(json.dumps(_json_safe(out)))
    else:
        w = r.witness
        learner_text = f"{w['learner']['name']} {_params_text(w['learner']['params'])}".strip()
        if getattr(C, "finite", False):
            label = f"{label} ({C.n_concepts} concepts, {C.n_points} points)"
        elif getattr(C, "n_concepts", None) is not None:  # an implicit {0,1}^n class
            label = f"{label} ({C.n_concepts} concepts, 2^{C.facts['n']} points, not listed)"
        how = "the exact worst case" if r.exact and r.verdict != "unbounded" else (
            "a cycle" if r.verdict == "unbounded" else "the best sequence found, not proven worst")
        if stopped == "time limit":
            how += f"; stopped by the time limit of {args.time_limit:g} s" if args.time_limit else "; stopped by its time budget"
        elif stopped == "interrupted":
            how += "; interrupted by Ctrl-C"
        opt_text = str(r.opt) if r.opt is not None else (
            _bounds_text(r.stats.get("opt_lower"), r.stats.get("opt_upper")) + " (not solved in the time given)"
            if "opt_lower" in r.stats else "-- (not a finite class)" if r.witness["class"].get("family") == "margin-halfspaces"
            else "-- (not computed: the class's points are not listed)")
        bound_text = (f"{_number_text(r.bound.value)}  ({r.bound.formula}; {r.bound.source})" if r.bound.finite
                      else f"none  ({r.bound.formula}; {r.bound.source})")
        target = w.get("target")
        words = target_words(w["class"], target)
        target_text = (f"concept {target}" + (f": {words}" if words else "") if isinstance(target, int)
                       else "w = " + _point_text([float(v) if not isinstance(v, str) else float(Fraction(v)) for v in target["w"]]))
        seq = w["sequence"]
        # The predictions of the examples shown, and of the cycle (a long sequence is not replayed in full).
        upto = max(MAX_SHOWN, 0 if r.cycle is None else r.cycle[0] + r.cycle[1])
        rep = replay(w["learner"], seq[:upto], w["class"])
        rows = [("learner", learner_text), ("class", label), ("strategy", f"{r.strategy} ({how})"),
                ("mistakes", str(r.mistakes)), ("bound", bound_text), ("Opt(C)", opt_text),
                ("verdict", _verdict_text(r, rep.rounds)), ("target", target_text)]
        width = max(len(k) for k, _ in rows) + 2
        for k, v in rows:
            print(f"{k + ':':<{width}}{v}")
        print(f"{'sequence:':<{width}}{len(seq)} example{'s' if len(seq) != 1 else ''} (x -> y; * marks a mistake, "
              "with the learner's prediction)")
        cycle = r.cycle
        shown = seq if len(seq) <= MAX_SHOWN else seq[:MAX_SHOWN]
        for t, (ex, p) in enumerate(zip(shown, rep.predictions)):
            mark = f"  *  predicted {p}" if p != ex["y"] else ""
            loop = ""
            if cycle is not None and cycle[1] == 1 and t == cycle[0]:
                loop = "  <- the cycle: repeat this example for ever"
            elif cycle is not None and t == cycle[0]:
                loop = "  <- the cycle starts"
            elif cycle is not None and t == cycle[0] + cycle[1] - 1:
                loop = "  <- the cycle ends: repeat from its start for ever"
            print(f"  {t + 1:>4}  {_point_text(ex['x'])} -> {ex['y']}{mark}{loop}")
        if len(seq) > MAX_SHOWN:
            print(f"  ... {len(seq) - MAX_SHOWN} more (see --json or --witness)")
        if witness_path is not None and witness_error is None:
            print(f"{'witness:':<{width}}written to {witness_path} (check it with 'littlestone verify {witness_path}')")
    sys.stdout.flush()
    if witness_error is not None:
        return _error(witness_error, EXIT_FAILED)
    return _interrupted_code() if stopped == "interrupted" else EXIT_OK


MAX_SHOWN = 200  # examples printed by attack's human output
LONG_POINT = 16  # points with more coordinates are printed by their nonzero coordinates


def _witness_json_text(w: dict) -> str:
    """A witness as JSON, one key per line and one example per line (readable; loads as usual)."""
    parts = []
    for key, value in w.items():
        if key == "sequence" and value:
            rows = ",\n    ".join(json.dumps(ex, separators=(", ", ": ")) for ex in value)
            parts.append(f"  {json.dumps(key)}: [\n    {rows}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(_json_safe(value))}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---------------------------------------------------------------------------------------- table
def _add_table(p) -> None:
    p.add_argument("target", nargs="+", metavar="FAMILY [k=v]", help="the family, then any fixed parameters")
    p.add_argument("--grid", nargs="+", default=[], metavar="k=RANGE",
                   help="parameters to vary: a..b (inclusive) or comma lists 1,2,5; one table row per combination")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md", help="output format (default md)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the table to FILE instead of stdout, a row as each cell finishes")
    p.add_argument("--time-limit", type=_positive_seconds, metavar="S",
                   help="seconds per cell, for all of it (making the class, Opt and VC); a cell that runs out shows lo..hi "
                        "(default: none)")
    p.add_argument("--jobs", type=_positive_int, default=1, metavar="N",
                   help="cells computed in parallel (joblib; at most the usable CPUs); rows then come as cells finish")
    p.add_argument("--memory", type=_memory_gb, metavar="GB", help=_memory_help(" in each cell"))
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _parse_grid_values(item: str) -> tuple[str, list[str]]:
    key, eq, spec = item.partition("=")
    key, spec = key.strip(), spec.strip()
    if not eq or not key or not spec:
        raise CLIError(f"grid entry {item!r} is not name=RANGE; write e.g. n=2..8 or k=1,2,5")
    values: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise CLIError(f"grid entry {item!r} has an empty item in its list; write e.g. {key}=1,2,5")
        if ".." in part:
            a, _, b = part.partition("..")
            try:
                lo, hi = int(a), int(b)
            except ValueError:
                raise CLIError(f"grid range {part!r} in {item!r} is not a..b with whole numbers; write e.g. {key}=2..8") from None
            if hi < lo:
                raise CLIError(f"grid range {part!r} in {item!r} is empty; write the smaller end first ({key}={hi}..{lo})")
            values.extend(str(v) for v in range(lo, hi + 1))
        else:
            values.append(part)
    return key, values


def _table_cells(name: str, fixed_items, grid_items) -> tuple[list[str], list[dict]]:
    """The grid's keys and its cells: the cartesian product of the ranges (the first key varies
    slowest), each cell's parameters parsed (names and types checked) with the fixed ones added."""
    grid = [_parse_grid_values(it) for it in grid_items]
    keys = [k for k, _ in grid]
    fixed = _parse_params(name, fixed_items)
    for k in keys:
        if keys.count(k) > 1:
            raise CLIError(f"grid parameter {k!r} is given more than once; give each parameter once")
        if k in fixed:
            raise CLIError(f"parameter {k!r} is both fixed and in --grid; give it once")
    cells = []
    for combo in itertools.product(*(vals for _, vals in grid)):
        cells.append({**fixed, **_parse_params(name, [f"{k}={v}" for k, v in zip(keys, combo)])})
    return keys, cells


OPT_SHARE = 0.8  # of a table cell's time limit, what Opt may use before the VC search has its turn


def _table_cell(name: str, params: dict, time_limit, progress=None, memo_bytes=None) -> dict:
    """One cell: make the class, solve it, its VC dimension, all within ``time_limit`` seconds together.
    Runs in a joblib worker with --jobs. A cell whose parameters are impossible (``make`` raises) comes
    back as ``{"params", "skipped"}``; one stopped by Ctrl-C has ``stopped == "interrupted"`` and the
    bounds proven by then (the VC search is then not started)."""
    from solvers.vc import vc_search

    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    try:
        C = _families().make(name, **params)
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        return {"params": params, "skipped": _exc_text(e)}
    except MemoryError:
        return {"params": params, "skipped": "out of memory making the class; lower the parameters"}

    def left(share: float = 1.0):  # opt needs a positive limit; an exhausted cell still gets its cheap bounds
        return None if deadline is None else max((deadline - time.monotonic()) * share, 1e-3)

    r = _solve(C, time_limit=left(OPT_SHARE), jobs=1, progress=progress, memo_bytes=memo_bytes)  # VC gets the rest
    stopped = r.stats.get("stopped")
    if stopped == "interrupted":
        vc_lo, vc_hi = 0, min(C.log2_size(), C.n_points)
    else:
        v = vc_search(C, time_limit=left())
        vc_lo, vc_hi = v.lower, v.upper
        stopped = stopped or v.stats.get("stopped")
    # VC <= Opt (a shattered set of d points is a mistake tree of depth d): each bound tightens the other
    # when a cell ran out of time.
    lo, hi = max(r.lower, vc_lo), r.upper
    vc_hi = min(vc_hi, hi)
    return {
        "params": dict(C.params), "concepts": C.n_concepts, "points": C.n_points,
        "opt": lo if lo == hi else None, "lower": lo, "upper": hi, "log2_size": C.log2_size(),
        "vc": vc_lo if vc_lo == vc_hi else None, "vc_lower": vc_lo, "vc_upper": vc_hi,
        "seconds": round(time.monotonic() - t0, 4), "stopped": stopped,
    }


class _TableWriter:
    """Writes the table a row at a time, flushed as each cell finishes, so that a run that is killed
    keeps every finished row. The header waits for the first row (its parameter columns, defaults
    included, come from the class); JSON is one object whose ``rows`` are written as they come."""

    def __init__(self, fmt: str, name: str, keys: list, out):
        self.fmt, self.name, self.keys, self.out = fmt, name, keys, out
        self.columns = None
        self.widths = None
        self.rows = 0

    def _header(self, row: dict) -> None:
        self.columns = list(dict.fromkeys([*self.keys, *row["params"]]))
        header = [*self.columns, "|C|", "|X|", "Opt", "floor(log2 |C|)", "VC", "seconds"]
        if self.fmt == "json":
            head = {"family": self.name, "grid": self.keys}
            self.out.write(json.dumps(head)[:-1] + ', "rows": [\n')
        elif self.fmt == "csv":
            self.out.write(_csv(header, []))
        else:
            esc = [c.replace("|", "\\|") for c in header]
            self.widths = [max(len(c), 6) for c in esc]  # room for "lo..hi" cells without knowing the rows
            self.out.write("| " + " | ".join(c.rjust(w) for c, w in zip(esc, self.widths)) + " |\n")
            self.out.write("|" + "|".join("-" * (w + 1) + ":" for w in self.widths) + "|\n")

    def row(self, r: dict) -> None:
        if self.columns is None:
            self._header(r)
        if self.fmt == "json":
            self.out.write((",\n" if self.rows else "") + json.dumps(_json_safe(r)))
        else:
            body = [*(str(r["params"].get(k, "")) for k in self.columns), str(r["concepts"]), str(r["points"]),
                    _range_text(r["lower"], r["upper"]), str(r["log2_size"]),
                    _range_text(r["vc_lower"], r["vc_upper"]), f"{r['seconds']:.3f}"]
            if self.fmt == "csv":
                self.out.write(_csv(body, []))
            else:
                body = [c.replace("|", "\\|") for c in body]
                self.out.write("| " + " | ".join(c.rjust(w) for c, w in zip(body, self.widths)) + " |\n")
        self.rows += 1
        self.out.flush()

    def close(self, skipped: list, complete: bool) -> None:
        if self.fmt == "json":
            tail = {"skipped": [{"params": r["params"], "reason": r["skipped"]} for r in skipped], "complete": complete}
            if self.columns is None:
                self.out.write(json.dumps(_json_safe({"family": self.name, "grid": self.keys, "rows": [], **tail})) + "\n")
            else:
                self.out.write("\n], " + json.dumps(_json_safe(tail))[1:] + "\n")
        self.out.flush()


def _run_table(args) -> int:
    """One row per cell, written as the cell finishes: the parameters, |C|, |X|, Opt (``lo..hi`` if the
    cell ran out of time), floor(log2 |C|), the VC dimension (``lo..hi`` likewise) and the cell's
    seconds (making the class, Opt and VC). An unfinished cell's bounds combine the two searches
    through VC <= Opt. With --jobs the rows come in the order the cells finish."""
    name, fixed = args.target[0], args.target[1:]
    _check_family(name)
    out_path, = _check_outputs([(args.output, (f".{args.format}",), f"the {args.format} output file", "-o")])
    keys, cells = _table_cells(name, fixed, args.grid)
    jobs = _cap_jobs(args.jobs, tasks=len(cells))
    bar = _Progress(enabled=not args.quiet)
    memo = _memo_bytes(args)
    done: list[dict] = []  # finished cells, in the order they finished
    skipped: list[dict] = []
    interrupted = False
    handle = None
    writer = None

    pending: list[str] = []  # skip notes wait for the first row: a grid with nothing possible ends in one error line

    def emit(row: dict) -> None:
        nonlocal handle, writer
        bar.close()
        if writer is None:
            handle = sys.stdout if out_path is None else open(out_path, "w", encoding="utf-8")
            writer = _TableWriter(args.format, name, keys, handle)
            for text in pending:
                _note(text)
            pending.clear()
        writer.row(row)

    try:
        if jobs > 1 and len(cells) > 1:
            from joblib import Parallel, delayed

            runs = Parallel(n_jobs=jobs, return_as="generator_unordered")(
                delayed(_table_cell)(name, c, args.time_limit, None, memo) for c in cells)
        else:
            def progress(info, _done=done, _skipped=skipped):  # inside the cell being solved
                bar.show(f"{PROG} table: cell {len(_done) + len(_skipped) + 1}/{len(cells)}: "
                         f"{_bounds_text(info.get('lower'), info.get('upper'))}, {bar.elapsed():.0f} s")

            runs = (_table_cell(name, c, args.time_limit, progress, memo) for c in cells)
        for row in runs:
            if "skipped" in row:
                skipped.append(row)
                bar.close()
                text = f"skipped {_params_text(row['params'])}: {row['skipped']}"
                _note(text) if writer is not None else pending.append(text)
                continue
            if row.get("stopped") == "interrupted":
                interrupted = True
                emit(row)  # its bounds are proven; it is not counted as computed
                break
            done.append(row)
            emit(row)
            bar.show(f"{PROG} table: {len(done) + len(skipped)}/{len(cells)} cells done, {bar.elapsed():.0f} s")
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
        if writer is not None:
            writer.close(skipped, complete=not interrupted)
        elif args.format == "json" and (interrupted or not skipped or done):
            _TableWriter(args.format, name, keys, sys.stdout if out_path is None else open(out_path, "w")).close(
                skipped, complete=not interrupted)
        if handle is not None and handle is not sys.stdout:
            handle.close()
    if not done and skipped and len(skipped) == len(cells):
        raise CLIError(f"every cell of the grid is impossible, e.g. {_params_text(skipped[0]['params'])}: "
                       f"{skipped[0]['skipped']}")
    for text in pending:
        _note(text)
    if out_path is not None and writer is not None:
        print(f"wrote {writer.rows} row{'s' if writer.rows != 1 else ''} to {out_path}", file=sys.stderr, flush=True)
    if interrupted:
        _note(f"interrupted: {len(done)} of {len(cells)} cells computed")
        return _interrupted_code()
    unsolved = [r for r in done if r["opt"] is None or r["vc"] is None]
    if unsolved:
        _note(f"{len(unsolved)} of {len(done)} cells not solved within the time limit (shown as lo..hi)")
        return EXIT_UNSOLVED
    return EXIT_OK


def _markdown(header, body) -> str:
    esc = [[c.replace("|", "\\|") for c in row] for row in [header, *body]]
    widths = [max(len(row[i]) for row in esc) for i in range(len(header))]
    lines = ["| " + " | ".join(c.rjust(w) for c, w in zip(row, widths)) + " |" for row in esc]
    lines.insert(1, "|" + "|".join("-" * (w + 1) + ":" for w in widths) + "|")
    return "\n".join(lines) + "\n"


def _csv(header, body) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------- the parser
# (name, help, declare arguments, run).
COMMANDS = [
    ("families", "list the concept-class families, their parameters, sizes and known values", _add_families, _run_families),
    ("opt", "compute Opt(C), the Littlestone dimension, with a mistake-tree certificate", _add_opt, _run_opt),
    ("export", "write a family's class as JSON (loads back with --matrix)", _add_export, _run_export),
    ("learners", "list the online learners, their parameters and proven mistake bounds", _add_learners, _run_learners),
    ("verify", "re-check a certificate: a mistake tree against a class, or a witness against a learner", _add_verify, _run_verify),
    ("attack", "search for the sequence that makes a learner err most, verified and held against its proven bound",
     _add_attack, _run_attack),
    ("table", "Opt, floor(log2 |C|) and the VC dimension over a grid of parameters", _add_table, _run_table),
]


EXAMPLES = """examples (they run in this order, in an empty directory):
  littlestone families
  littlestone opt thresholds N=7
  littlestone export monotone-disjunctions n=4 k=2 -o class.json
  littlestone opt --matrix class.json --json --tree tree.json --time-limit 60
  littlestone verify tree.json --matrix class.json
  littlestone learners
  littlestone attack winnow2 --class monotone-disjunctions n=5 k=2 --strategy exact --witness witness.json
  littlestone verify witness.json
  littlestone attack perceptron --class margin-halfspaces d=5 gamma=0.2 --time-limit 5
  littlestone table monotone-disjunctions --grid n=2..6 k=1..3 --format md --jobs 2
"""


def _epilog() -> str:
    codes = "\n".join(f"  {code:<4} {text}" for code, text in EXIT_CODES)
    return f"{EXAMPLES}\nexit codes:\n{codes}\n"


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("littlestone")
    except (ImportError, PackageNotFoundError):
        return "unknown (not installed; run 'pip install .')"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact Opt(C) (the Littlestone dimension) of finite concept classes, with certificates.",
                     epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text, declare, run in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                           epilog="exit codes: " + "; ".join(f"{c} {t.split(':')[0].split(' (')[0]}" for c, t in EXIT_CODES))
        declare(p)
        p.set_defaults(run=run, parser=p)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an interrupt so that a run stopped by ``kill`` prints and writes what it
    finished, exactly as Ctrl-C does."""


_received: list = []  # the signals main()'s handler turned into interrupts during this run


def _on_sigterm(signum, frame):
    _received.append(signum)
    raise Terminated()


def _interrupted_code() -> int:
    """130 for Ctrl-C; 128 + 15 = 143 when SIGTERM stopped the run (the shell's conventions)."""
    return 128 + signal.SIGTERM if signal.SIGTERM in _received else EXIT_INTERRUPTED


def main(argv=None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    _received.clear()
    previous = None
    try:  # only the main thread may set handlers (a caller may run main() in a thread)
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except (ValueError, OSError):
        pass
    try:
        return _main(argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # reported by the command's own parser, so the hint names its --help
            args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:  # --help (0) or a usage error already printed on one line (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:
        return args.run(args)
    except CLIError as e:
        return _error(e)
    except ValueError as e:  # library errors (TreeError included) say what to change
        return _error(e)
    except MemoryError:
        return _error("out of memory; use a smaller class (lower the parameters)")
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr, flush=True)
        return _interrupted_code()
    except BrokenPipeError:  # e.g. `littlestone export ... | head`: stop quietly (Python's recipe)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_FAILED
    except OSError as e:
        return _error(f"{getattr(e, 'filename', None) or ''} {e.strerror or e}".strip())
    except Exception as e:  # noqa: BLE001 - a bug: still one line, with a way to see the traceback
        if os.environ.get("LITTLESTONE_DEBUG"):
            raise
        return _error(f"internal error {type(e).__name__}: {e} (set LITTLESTONE_DEBUG=1 for the traceback)", EXIT_FAILED)


if __name__ == "__main__":
    sys.exit(main())
