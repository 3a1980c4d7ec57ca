"""What the CLI reads: argument types (seconds, workers, GB), ``--jobs`` capped at the usable CPUs, and
the class a command names (``FAMILY k=v ...`` or ``--matrix FILE``)."""

from __future__ import annotations

import argparse
import difflib
import math
import os

from ._output import EXIT_USAGE, PROG, CLIError, Progress, exc_text, note, one_line, params_text


class Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (``littlestone: error: ...``, exit code 2).

    ``setup(parser)``, when given, adds the parser's arguments the first time they are needed (to parse
    or to print help): a command's arguments, whose help may read the library (the memo's default size,
    the store's file name), cost nothing when another command runs, nor for ``--version``."""

    def __init__(self, *args, setup=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._setup = setup

    def complete(self) -> "Parser":
        """Add the arguments ``setup`` adds (once); returns the parser."""
        setup, self._setup = self._setup, None
        if setup is not None:
            setup(self)
        return self

    def parse_known_args(self, args=None, namespace=None):
        return super(Parser, self.complete()).parse_known_args(args, namespace)

    def format_usage(self):
        return super(Parser, self.complete()).format_usage()

    def format_help(self):
        return super(Parser, self.complete()).format_help()

    def error(self, message):  # noqa: D401 - argparse API
        hint = f" (see '{self.prog} --help')"
        self.exit(EXIT_USAGE, f"{PROG}: error: {one_line(message)}{hint}\n")


# ---------------------------------------------------------------------------------------- argument types
def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds; give e.g. 60 or 0.5") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds; give a number > 0")
    return value


#: The schemes of Dask's addresses (``tcp://`` when none is written; ``inproc://`` names a scheduler in this process)
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def scheduler_address(text: str) -> str:
    """``--scheduler ADDR``: a Dask scheduler's address, ``[SCHEME://]HOST:PORT`` (``tcp://`` by default; an IPv6
    host in brackets), checked for its form only (whether it answers: when the command starts, within
    ``--scheduler-timeout``). Needs no dask."""
    how = "write it as tcp://HOST:PORT, as 'dask scheduler' prints it ('Scheduler at: tcp://...'; port 8786 by default)"
    scheme, sep, location = text.rpartition("://")
    scheme = scheme if sep else "tcp"
    bad = None
    if scheme not in SCHEDULER_SCHEMES:
        bad = f"the scheme {scheme!r} is not one of {', '.join(SCHEDULER_SCHEMES)}"
    elif not location or location != location.strip() or any(c.isspace() for c in location):
        bad = "no host" if not location.strip() else "a space in it"
    elif scheme != "inproc":
        if location.startswith("["):  # [IPv6]:PORT
            host, _, port = location[1:].partition("]")
            port = port[1:] if port.startswith(":") else None
        else:
            host, colon, port = location.rpartition(":")
            host, port = (host, port) if colon else (location, None)
        if ":" in host and not location.startswith("[") or "/" in host:
            bad = "an IPv6 host goes in brackets, e.g. tcp://[::1]:8786" if ":" in host else "a '/' in the host"
        elif not host:
            bad = "no host"
        elif port is None:
            bad = "no port"
        elif not port.isdigit() or not 0 < int(port) < 65536:
            bad = f"the port {port!r} is not a number from 1 to 65535"
    if bad is not None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address ({bad}); {how}")
    return text


def positive(what: str):
    """The argparse type of a whole number >= 1 named ``what`` in its errors (``--trials T``, ``--max-nodes N``)."""
    return whole(what, least=1)


GIB = 2**30


def memory_gb(text: str) -> float:
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


def memory_help(what: str) -> str:
    from solvers.opt import default_memo_bytes, physical_memory

    default = f"{default_memo_bytes() / GIB:.1f} GB, " + (
        "half of this machine's memory" if physical_memory() is not None else "as this machine's memory is unknown")
    return (f"memory the memo of the search may use{what}, in GB (2^30 bytes; default {default}); when it is full "
            "the memo drops its older half, so the search slows down instead of running out of memory")


def add_memory_guard(p) -> None:
    """``--memory GB`` of a command whose searches keep no memo of a set size (attack, params, separate,
    multiclass, pac, verify): the memory the whole run may hold (:func:`solvers.interrupts.memory_guard`)."""
    p.add_argument("--memory", type=memory_gb, metavar="GB",
                   help="memory this run may hold, in GB (2^30 bytes; default: no limit): past it the run stops as "
                        "after a Ctrl-C, printing and writing what it found, exit 3")
    p.set_defaults(memory_guard=True)


def guard_bytes(args) -> int | None:
    """The limit of :func:`solvers.interrupts.memory_guard` for these arguments: ``--memory`` in bytes for a
    command that took :func:`add_memory_guard` (None otherwise: there ``--memory`` sizes the search's memo)."""
    return memo_bytes(args) if getattr(args, "memory_guard", False) else None


def memo_bytes(args) -> int | None:
    """``--memory`` in bytes (None: the library's default)."""
    gb = getattr(args, "memory", None)
    return None if gb is None else max(1, int(gb * GIB))


def whole(what: str, most: int | None = None, *, least: int = 0):
    """The argparse type of a whole number >= ``least`` (and <= ``most``) named ``what`` in its errors
    (``--errors K``, ``--horizon T``; :func:`positive`)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give {what} >= {least}") from None
        if value < least:
            said = "is negative" if value < 0 and least == 0 else "is not possible"
            raise argparse.ArgumentTypeError(f"{value} {said}; give {what} >= {least}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{value} is more than the games take; give {what} <= {most}")
        return value

    return parse


def label_errors():
    """The argparse type of ``--errors K``: 0 .. :data:`solvers.game_rules.MAX_ERRORS`."""
    from solvers.game_rules import MAX_ERRORS

    return whole("the label errors K", MAX_ERRORS)


#: ``--jobs N``: a number of worker processes >= 1.
positive_int = positive("a number of worker processes")

#: ``--seed N`` of every command that takes one (attack, pac, separate): a whole number >= 0.
seed = whole("a seed")


def add_game_options(p) -> None:
    """``--randomized``, ``--errors K``, ``--horizon T``: which game's value (solvers.game_rules)."""
    p.add_argument("--randomized", action="store_true",
                   help="the optimal expected mistakes of a randomized learner, RL(C) (Filmus et al., COLT 2023), "
                        "exact, printed as a fraction and a decimal")
    p.add_argument("--errors", type=label_errors(), default=0, metavar="K",
                   help="the adversary may mislabel K examples (the best concept makes at most K mistakes): "
                        "D_K(C), or R_K(C) with --randomized (default 0)")
    p.add_argument("--horizon", type=whole("the rounds T"), metavar="T",
                   help="the game stops after T rounds (default: no limit)")


def game_of(args):
    """The :class:`solvers.game_rules.Game` the options name."""
    from solvers.game_rules import Game

    return Game(bool(getattr(args, "randomized", False)), getattr(args, "errors", 0) or 0, getattr(args, "horizon", None))


# ---------------------------------------------------------------------------------------- --jobs
from adversary.workspace.cells import cap_jobs, usable_cpus  # noqa: E402,F401 (the commands' --jobs)


# ---------------------------------------------------------------------------------------- families
# solvers.classes.families: make(name, **params), FAMILIES (name -> Family), parse_params(name, ["k=v", ...])
# and describe() (one row per family).
def families():
    from solvers.classes import families

    return families


def unknown_family(name: str, names) -> CLIError:
    """The error for a family name not in ``names``, with the closest name as a hint."""
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return CLIError(f"unknown family {name!r}; {hint}choose one of: {', '.join(names)} (see 'littlestone families')")


def check_family(name: str) -> None:
    fam = families()
    if name in fam.ATTACK_ONLY:
        raise CLIError(f"{name} is an infinite class, for attacks only (e.g. '{fam.attack_only(name).LISTING['example']}'); "
                       "opt, export and table need a finite family (see 'littlestone families')")
    if "=" in name:
        raise CLIError(f"{name!r} is a parameter, not a family; give the family name first, e.g. 'thresholds N=7'")
    names = list(fam.FAMILIES)
    if name not in names:
        raise unknown_family(name, names)


def parse_params(name: str, items) -> dict:
    """``["n=8", "k=2"]`` -> ``{"n": 8, "k": 2}`` for family ``name``: names and types are checked here,
    ranges when the class is made."""
    try:
        return dict(families().parse_params(name, list(items)))
    except (ValueError, TypeError, KeyError) as e:
        raise CLIError(exc_text(e)) from None


def make(name: str, params: dict):
    """``families.make(name, **params)`` with its errors (impossible values, too large) as CLIError."""
    try:
        return families().make(name, **params)
    except MemoryError:
        raise
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        text = exc_text(e)
        raise CLIError(text if text.startswith(name) else f"{name} {params_text(params)}: {text}") from None


def implicit_class(name: str, params: dict):
    """The :class:`~solvers.classes.ImplicitFamily` of a family that opt solves without its points
    (:func:`solvers.opt.disjunctions.handles`), when ``make`` would list more than ``IMPLICIT_ABOVE``
    points; else None."""
    from solvers.classes.implicit import ImplicitFamily, prefers_implicit
    from solvers.opt.disjunctions import FAMILY, MAX_N, handles

    if name != FAMILY:
        return None
    try:
        C = ImplicitFamily(name, params) if prefers_implicit(name, params) else None
    except (ValueError, TypeError):
        return None  # make says what is wrong, in one line
    if C is not None and not handles(C) and C.params.get("n", 0) > MAX_N:
        raise CLIError(f"{FAMILY} with n={C.params['n']}: the exact solver takes n up to {MAX_N} "
                       f"(its concepts are {MAX_N}-bit masks); lower n")
    return C if C is not None and handles(C) else None


# ---------------------------------------------------------------------------------------- the class a command reads
def add_class_source(p, *, what: str = "the class") -> None:
    p.add_argument("target", nargs="*", metavar="FAMILY k=v", help=f"{what}: a family name and its parameters")
    p.add_argument("--matrix", metavar="FILE", help=f"read {what} from a .json, .csv or .npy 0/1 matrix instead")


BIG_FILE = 10 * 10**6  # class files larger than this (bytes) show progress while they load


def read_class_file(path: str, *, quiet: bool = False):
    """``ConceptClass.from_file(path)`` (its ValueError says what is wrong with the file); a file larger
    than :data:`BIG_FILE` reports its progress on stderr, unless ``quiet``."""
    from solvers.classes import ConceptClass

    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0  # from_file says what is wrong
    if quiet or size <= BIG_FILE:
        return ConceptClass.from_file(path)
    bar = Progress(delay=0.0)

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


def class_of_args(args, *, implicit: bool = False, evaluated: bool = False):
    """The class named by ``FAMILY k=v ...`` or ``--matrix FILE``: (C, label, family, params).

    With ``implicit``, a family that :func:`solvers.opt.opt` solves without listing its points
    (``monotone-disjunctions``) is loaded as an :class:`~solvers.classes.ImplicitFamily` when its domain
    is past ``IMPLICIT_ABOVE`` points, as a witness's class spec is (so n = 20 works). With
    ``evaluated``, a family instance too large for ``make``'s matrix that has an evaluated form
    (thresholds, intervals, rectangles) comes as a :class:`solvers.classes.evaluated.EvaluatedClass`
    (for the commands that read one: opt and verify)."""
    target = list(args.target)
    if args.matrix is not None and target:
        raise CLIError(f"give either a FAMILY with parameters or --matrix FILE, not both (got {target[0]!r} and --matrix)")
    if args.matrix is None and not target:
        raise CLIError("give a class: a FAMILY with k=v parameters (see 'littlestone families') or --matrix FILE")
    if args.matrix is not None:
        C = read_class_file(args.matrix, quiet=getattr(args, "quiet", False))
        return C, f"matrix {args.matrix}", C.family, dict(C.params)
    name, items = target[0], target[1:]
    check_family(name)
    params = parse_params(name, items)
    C = implicit_class(name, params) if implicit else None
    if C is None and evaluated:
        C = _evaluated(name, params)
    if C is None:
        C = make(name, params)
    params = dict(C.params)  # defaults included
    return C, f"{name} {params_text(params)}".strip(), name, params


def _evaluated(name: str, params: dict):
    """The EvaluatedClass of ``name`` with ``params`` when the matrix is too large for ``make``, else None."""
    from solvers.classes.evaluated import EvaluatedClass, beyond_matrix

    try:
        return EvaluatedClass(name, params) if beyond_matrix(name, params) else None
    except (ValueError, TypeError) as e:
        text = exc_text(e)
        raise CLIError(text if text.startswith(name) else f"{name} {params_text(params)}: {text}") from None
