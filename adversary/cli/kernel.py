"""``littlestone kernel status|build``: the compiled search kernel's machine code (:func:`solvers.opt.kernel.status`,
:func:`solvers.opt.kernel.build`).

``status`` says where the machine code is kept, whether it is current (made from this source, by these versions of
numba and llvmlite, for this CPU), and what ``$LITTLESTONE_KERNEL`` chooses; ``build`` makes it up front, once per
install, with a progress line (a search otherwise builds it the first time it needs it, and its command waits
for the build before it ends). ``$LITTLESTONE_CACHE_DIR`` chooses the folder."""

from __future__ import annotations

import json
import sys

from ._output import EXIT_FAILED, EXIT_OK, PROG, Progress

__all__ = ["HELP", "add", "run"]

HELP = "the compiled search kernel: where its machine code is (status), or build it once, up front (build)"

_MODES = {"auto": "auto (the compiled kernel once a search has run 0.05 s; LITTLESTONE_KERNEL)",
          "numba": "numba (the compiled kernel for every search; LITTLESTONE_KERNEL)",
          "python": "python (never: LITTLESTONE_KERNEL=python)"}


def add(p) -> None:
    p.add_argument("action", choices=("status", "build"),
                   help="status: where the machine code is and whether it is current; build: compile it now "
                        "(about 20 s, once per install)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the status; after a build, with "
                                                      "its seconds)")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _print(st: dict) -> None:
    rows = [("kernel", _MODES[st["mode"]])]
    if not st["numba"]:
        rows.append(("numba", "not installed: every search runs in Python (pip install numba)"))
    rows.append(("machine code", st["path"] or "not kept here"))
    rows.append(("state", "current (loads in about 0.05 s)" if st["current"] else f"not current: {st['why']}"))
    width = max(len(k) for k, _ in rows) + 2
    for k, v in rows:
        print(f"{k + ':':<{width}}{v}")


def run(args) -> int:
    from solvers.opt import kernel

    if args.action == "status":
        st = kernel.status()
        print(json.dumps(st)) if args.json else _print(st)
        return EXIT_OK
    bar = Progress(enabled=not args.quiet, delay=0.0, clock=True, limit=kernel.BUILD_SECONDS,
                   label=f"{PROG} kernel build: compiling")
    try:
        st = kernel.build(tick=lambda: bar.status("once per install"))
    except kernel.BuildError as e:
        print(f"{PROG}: error: {e}; the search runs in Python", file=sys.stderr)
        return EXIT_FAILED
    finally:
        bar.close()
    if args.json:
        print(json.dumps(st))
    elif st["built"]:
        print(f"{PROG} kernel: built in {st['seconds']:.1f} s: {st['path']}")
    else:
        print(f"{PROG} kernel: built already: {st['path']}")
    return EXIT_OK
