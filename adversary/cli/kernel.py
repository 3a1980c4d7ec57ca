"""``littlestone kernel status|build``: the compiled search kernel's machine code (:func:`solvers.opt.kernel.status`,
:func:`solvers.opt.kernel.build`).

``status`` says where the machine code is kept, whether it is current (made from this source, by these versions of
numba and llvmlite, for this CPU), what ``$LITTLESTONE_KERNEL`` chooses, and, while it is not built, what the first
search that needs it will do; ``build`` makes it up front, once per install, with a progress line. Otherwise the
first search that runs more than a few milliseconds builds it in the background: with a CPU to spare it goes on in
Python meanwhile and hands over when the build lands (on one CPU, past its first two seconds, it waits for the build
instead), and its command waits for the build before it ends.
``$LITTLESTONE_CACHE_DIR`` chooses the folder."""

from __future__ import annotations

import json
import sys

from ._output import EXIT_FAILED, EXIT_OK, PROG, Progress

__all__ = ["HELP", "add", "run"]

HELP = "the compiled search kernel: where its machine code is (status), or build it once, up front (build)"

_MODES = {"auto": "auto (a search hands over to it once it has run as long as loading it takes; LITTLESTONE_KERNEL)",
          "numba": "numba (the compiled kernel for every search; LITTLESTONE_KERNEL)",
          "python": "python (never: LITTLESTONE_KERNEL=python)"}


def add(p) -> None:
    p.add_argument("action", choices=("status", "build"),
                   help="status: where the machine code is and whether it is current; build: compile it now "
                        "(about 20 s, once per install)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the status; after a build, with "
                                                      "its seconds)")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _first_use(st: dict) -> str | None:
    """What the first search that wants the kernel does while it is not current, in words (None: nothing to say)."""
    if st["current"] or st["mode"] == "python" or not st["numba"] or st["path"] is None or st["failed"]:
        return None
    build = (f"builds it in the background (about {st['build_seconds']} s, once) and "
             if not st["building"] else "finds it being built and ")
    if st["cpus"] >= 2:
        return build + "goes on in Python meanwhile, handing over when it lands; the command waits for it at its end"
    return build + (f"past its first {st['wait_after']:g} s in Python waits for it, the two sharing the "
                    f"{st['cpus']:g} CPU here")


def _print(st: dict) -> None:
    rows = [("kernel", _MODES[st["mode"]])]
    if not st["numba"]:
        rows.append(("numba", "not installed: every search runs in Python (pip install numba)"))
    rows.append(("machine code", st["path"] or "not kept here"))
    if st["current"]:
        rows.append(("state", "current (loads in about "
                              + ("half a millisecond, linked for this CPU)" if st["linked"] else "0.05 s)")))
    else:
        rows.append(("state", f"not current: {st['why']}"))
    first = _first_use(st)
    if first is not None:
        rows.append(("first search", first + f"; '{PROG} kernel build' builds it now"))
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
