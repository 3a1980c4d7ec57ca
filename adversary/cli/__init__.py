"""The ``littlestone`` command line: a thin layer that parses, calls the library, prints.

Commands (docs/guide/command-line.md; the reference: docs/cli.md)::

    littlestone families [--json]
    littlestone opt FAMILY k=v ... | --matrix FILE  [--json] [--tree OUT] [--time-limit S] [--jobs N]
                    [--engine auto|search|table|states|packed] [--randomized] [--errors K] [--horizon T] [--memory GB] [--quiet]
    littlestone export FAMILY k=v ... | --matrix FILE  [-o FILE.json]
    littlestone learners [--json]
    littlestone verify TREE.json (FAMILY k=v ... | --matrix FILE)
    littlestone verify WITNESS.json [--exact] [--time-limit S] [--learner MODULE:CLASS]
    littlestone table FAMILY [k=v ...] --grid n=2..8 k=1..3  [--format md|csv|json] [--time-limit S]
                      [--cell-time-limit S] [--jobs N] [--backend loky|dask] [--scheduler ADDR] [--randomized]
                      [--errors K] [--horizon T] [--memory GB]
    littlestone table --matrix FILE ...  [--format md|csv|json|latex] [--jobs N] [--randomized] [--errors K]
                      [--horizon T]   (one row per class file: .json, .csv or .npy)
    littlestone attack LEARNER [k=v ...] (--class FAMILY [k=v ...] | --matrix FILE [--fact r=R|margin=G])
                       [--strategy exact|tree|beam|mcts|local|geometric|auto] [--time-limit S] [--seed N]
                       [--maximize mistakes|false_negative|false_positive] [--jobs N] [--json]
                       [--witness OUT.json] [--quiet]
    littlestone attack LEARNER [k=v ...] --class FAMILY [k=v ...] --grid n=2..12 k=1..3 [--format md|csv|json]
                       [-o FILE] [--time-limit S] [--cell-time-limit S] [--jobs N] [--backend loky|dask]
                       [--scheduler ADDR]
    littlestone experts n=1..12 k=0..2 [--deterministic] [--randomized] [--time-limit S] [--memory GB]
                        [--cell-time-limit S] [--format md|csv|json] [-o FILE] [--quiet]
    littlestone pac LEARNER [k=v ...] (--class FAMILY k=v ... | --matrix FILE) --epsilon E --delta D [--trials T]
                    [--distribution uniform|adversarial|FILE] [--seed S] [--json] [--plot OUT.png]
    littlestone params (FAMILY k=v ... | --matrix FILE) [--only KEYS|all] [--json] [--time-limit S] [--store PATH]
    littlestone separate (A B | --relation 'A<=k*B') --points m [--concepts n] [--time-limit S] [--seed N] [--json]
                         [-o CLASS.json]
    littlestone catalogue import RECORD.json [--n N] [-o CLASS.json]
    littlestone catalogue export [--store PATH] [-o VALUES.json | --dir DIR] [--classes RECORD.json ...]
    littlestone multiclass (FAMILY k=v ... | --matrix FILE) [--game full|bandit|both] [--json] [--tree OUT.json]
                           [--time-limit S]
    littlestone play (FAMILY k=v ... | --matrix FILE) [--as adversary|learner] [--against LEARNER] [--plain]
    littlestone store list|show KEY|export|prune|verify|merge OTHER.db [--store PATH] [--kind K] [--family F] [--format csv|json|md]
    littlestone plot table TABLE.json|.csv [--x PARAM] [--column opt|value|vc] [--group-by PARAM ...] -o OUT.png|.svg
    littlestone plot tightness FILE.csv|.jsonl ... [--x PARAM] -o OUT.png|.svg
    littlestone plot tree TREE.json [FAMILY k=v ... | --matrix FILE] [--max-nodes N] -o OUT.png|.svg

opt, attack and table look each result up in the results store before computing it and write it there
after (``--store PATH``, ``$LITTLESTONE_STORE`` or ``littlestone.db``; ``--no-store`` skips it).

Each command is a module of this package declaring ``HELP``, ``add(parser)`` (its arguments) and
``run(args) -> int``, listed in :data:`COMMANDS`; a new command is one more module and one more line.
The helpers they share: :mod:`._args` (argument types, ``--jobs``, the class a command reads) and
:mod:`._output` (errors, progress, output files).

Results go to stdout; progress, notes and errors go to stderr. Every error the user can fix is one line
``littlestone: error: <what to change>``. Library errors are ``ValueError`` (``TreeError`` is one)
whose message already says what to change; the CLI prints it on one line. Exit codes
(:data:`EXIT_CODES`): 0 solved, 1 a verification failed, 2 bad input (an output file that cannot be
written included), 3 not solved within the limits given (the proven bounds are printed), 130 interrupted by Ctrl-C
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
import os
import sys

from solvers import interrupts

from . import (attack, catalogue, experts, export, families, kernel, learners, multiclass, opt, pac, params, play, plot,
               separate, store, table, verify)
from ._args import Parser
from ._output import (EXIT_CODES, EXIT_FAILED, EXIT_UNSOLVED, EXIT_USAGE, PROG, CLIError, error, interrupted_code,
                      memory_note)

__all__ = ["main", "build_parser", "COMMANDS", "CLIError", "EXIT_CODES", "EXAMPLES"]

#: The commands, in the order ``--help`` lists them: name -> module (``HELP``, ``add``, ``run``).
COMMANDS = {
    "families": families,
    "opt": opt,
    "export": export,
    "learners": learners,
    "verify": verify,
    "attack": attack,
    "table": table,
    "experts": experts,
    "params": params,
    "separate": separate,
    "catalogue": catalogue,
    "multiclass": multiclass,
    "pac": pac,
    "play": play,
    "store": store,
    "plot": plot,
    "kernel": kernel,
}

EXAMPLES = """examples (they run in this order, in an empty directory):
  littlestone families
  littlestone opt thresholds N=7
  littlestone opt intervals N=6 --randomized --errors 1
  littlestone export monotone-disjunctions n=4 k=2 -o class.json
  littlestone opt --matrix class.json --json --tree tree.json --time-limit 60
  littlestone verify tree.json --matrix class.json
  littlestone learners
  littlestone attack winnow2 --class monotone-disjunctions n=5 k=2 --strategy exact --witness witness.json
  littlestone verify witness.json
  littlestone attack perceptron --class margin-halfspaces d=30 gamma=0.2 --time-limit 5
  littlestone table monotone-disjunctions --grid n=2..6 k=1..3 --format md --jobs 2
  littlestone experts n=1..6 k=0..2
  littlestone pac halving --class thresholds N=63 --epsilon 0.1 --delta 0.05 --trials 50
  littlestone store list
"""


def _epilog() -> str:
    codes = "\n".join(f"  {code:<4} {text}" for code, text in EXIT_CODES)
    return f"{EXAMPLES}\nexit codes:\n{codes}\n"


def _version() -> str:
    from solvers import __version__

    return __version__


class _VersionAction(argparse.Action):
    """``--version``: print ``littlestone VERSION`` and exit 0 (:mod:`solvers._version`, read only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{PROG} {_version()}", flush=True)  # on stdout, as argparse's own version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog=PROG, description="Exact Opt(C) (the Littlestone dimension) of finite concept classes, with certificates.",
                    epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        help_text = command.HELP
        p = sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                           epilog="exit codes: " + "; ".join(f"{c} {t.split(':')[0].split(' (')[0]}" for c, t in EXIT_CODES),
                           setup=command.add)  # the arguments are added when this command runs (or shows its help)
        p.set_defaults(run=command.run, parser=p)
    return parser


def main(argv=None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    with interrupts.catching():  # Ctrl-C and SIGTERM recorded: they stop every search, even if swallowed
        code = _main(argv)
        if interrupts.requested() and "solvers.opt.kernel" in sys.modules:
            sys.modules["solvers.opt.kernel"].end_build(wait=False)  # (a run stopped: the kernel's build it started too)
        return code


def _main(argv) -> int:
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)  # (imports the command's modules: numpy, the solvers)
        if extra:  # reported by the command's own parser, so the hint names its --help
            args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:  # --help (0) or a usage error already printed on one line (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    except KeyboardInterrupt:  # a Ctrl-C while the command starts: nothing was computed
        print(f"{PROG}: interrupted before the command started", file=sys.stderr, flush=True)
        return interrupted_code()
    except Exception as e:  # noqa: BLE001 - a bug in an argument's type: one line, as in the command
        return _internal(e)
    try:
        return _run(args)
    finally:
        memory_note()  # (a run that --memory stopped says so last)


def _run(args) -> int:
    """The command, its errors one line each (the exit codes of :data:`EXIT_CODES`)."""
    from ._args import guard_bytes

    try:
        with interrupts.memory_guard(guard_bytes(args)):  # (--memory of the commands that keep no memo of a set size)
            return args.run(args)
    except CLIError as e:
        return error(e)
    except ValueError as e:  # library errors (TreeError included) say what to change
        return error(e)
    except MemoryError as e:  # past the process's memory (ulimit -v, the machine's): a limit, not bad input
        while e is not None:  # the frames a traceback holds may hold what filled the memory: let them go first
            e.__traceback__, e = None, e.__context__
        return error("out of memory (the process's limit: ulimit -v, or the machine's) before a bound was proven; "
                     "lower the parameters or allow it more memory", EXIT_UNSOLVED)
    except KeyboardInterrupt:
        if interrupts.memory_stop() is None:  # (a stop by --memory said so in its note)
            print(f"{PROG}: interrupted", file=sys.stderr, flush=True)
        return interrupted_code()
    except BrokenPipeError:  # e.g. `littlestone export ... | head`: stop quietly (Python's recipe)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_FAILED
    except OSError as e:
        return error(f"{getattr(e, 'filename', None) or ''} {e.strerror or e}".strip())
    except Exception as e:  # noqa: BLE001 - a bug: still one line, with a way to see the traceback
        return _internal(e)


def _internal(e: Exception) -> int:
    """A bug: one line, exit 1, with a way to see the traceback (which LITTLESTONE_DEBUG=1 raises)."""
    if os.environ.get("LITTLESTONE_DEBUG"):
        raise e
    return error(f"internal error {type(e).__name__}: {e} (set LITTLESTONE_DEBUG=1 for the traceback)", EXIT_FAILED)
