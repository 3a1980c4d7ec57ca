"""``littlestone play (FAMILY k=v ... | --matrix FILE) [--as adversary|learner] [--against LEARNER]``: the mistake-bound game in
the terminal (:mod:`adversary.play`). Keyboard only; ``q`` quits; rich draws the board on a terminal, and when
stdin is not one the moves are read one per line and the board is plain text, so a game can be scripted."""

from __future__ import annotations

import sys

from ._output import EXIT_OK, CLIError, interrupted_code

__all__ = ["HELP", "add", "run"]

HELP = "play the mistake-bound game in the terminal, as the adversary or as the learner"


def add(p) -> None:
    from ._args import add_class_source

    add_class_source(p)  # FAMILY k=v ... or --matrix FILE, read as opt reads them
    p.add_argument("--as", dest="side", choices=("adversary", "learner"), default="adversary",
                   help="your side: the adversary (you show points and labels) or the learner (you predict against "
                        "the optimal adversary); default adversary")
    p.add_argument("--against", default="soa", metavar="LEARNER",
                   help="the learner you play against as the adversary (default soa, the optimal one)")
    p.add_argument("--plain", action="store_true", help="plain text even on a terminal")
    from ._store import add_no_store

    add_no_store(p, "play")


class _Screen:
    """Output: rich on a terminal, plain lines otherwise (or with --plain)."""

    def __init__(self, plain: bool):
        self.rich = None
        if not plain:
            try:
                from rich.console import Console

                self.rich = Console(highlight=False)
            except ImportError:  # pragma: no cover - rich is a dependency
                self.rich = None

    def say(self, text: str, style: str | None = None) -> None:
        if self.rich is not None:
            self.rich.print(text, style=style, markup=False)
        else:
            print(text, flush=True)

    def board(self, rows: list) -> None:
        if self.rich is not None:
            from rich.table import Table

            t = Table(show_header=False, box=None, pad_edge=False)
            t.add_column(style="bold cyan")
            t.add_column()
            for k, v in rows:
                t.add_row(k, v)
            self.rich.print(t)
        else:
            for k, v in rows:
                print(f"{k}: {v}", flush=True)

    def ask(self, prompt: str) -> str:
        if self.rich is not None:
            return self.rich.input(f"[bold]{prompt}[/bold] ")
        print(prompt, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line


def _point_text(p) -> str:
    if len(p) > 1 and all(v in (0, 1) for v in p):
        return "".join(str(v) for v in p)
    return ", ".join(str(v) for v in p) if len(p) > 1 else str(p[0])


def _class(args):
    from ._args import class_of_args

    C, label, _, _ = class_of_args(args)
    if C.n_concepts * C.n_points > 2 * 10**6:
        raise CLIError(f"{C} is too large to play ({C.n_concepts} concepts x {C.n_points} points); lower its parameters")
    return C, label


def run(args) -> int:
    C, label = _class(args)
    plain = args.plain or not sys.stdin.isatty()
    screen = _Screen(plain)
    try:
        if args.side == "adversary":
            return _as_adversary(C, label, args, screen)
        return _as_learner(C, label, screen)
    except KeyboardInterrupt:
        screen.say("stopped (Ctrl-C)")
        return interrupted_code()


def _as_adversary(C, label, args, screen) -> int:
    from adversary.play import AdversaryGame, BadMove, parse_point
    from adversary.referee import build_learner

    try:
        learner = build_learner(args.against, {}, C)
    except ValueError as e:
        raise CLIError(str(e)) from None
    g = AdversaryGame(C, learner)
    screen.say(f"You are the adversary against {args.against} on {label} ({C.n_concepts} concepts, {C.n_points} "
               f"points). Show a point and its label, e.g. '{_point_text(C.points[0])} 1' or '#0 1'; '?' lists the "
               "points both labels are still possible at; 'q' quits.")
    try:
        while not g.over:
            screen.board([("move", str(len(g.moves) + 1)), ("mistakes", str(g.mistakes)),
                          ("|V|", str(g.size)), ("Opt(V)", f"{g.opt()} (what the optimal adversary forces from here)")])
            try:
                text = screen.ask("point label>").strip()
            except EOFError:
                break
            if text.lower() in ("q", "quit"):
                break
            if text == "?":
                screen.say("  " + "  ".join(f"#{j}={_point_text(C.points[j])} (predicts {g.prediction(j)})"
                                            for j in g.splitting()))
                continue
            parts = text.rsplit(None, 1)
            try:
                if len(parts) != 2 or parts[1] not in ("0", "1"):
                    raise BadMove("give a point and a label 0 or 1, e.g. '#3 1'")
                m = g.play(parse_point(parts[0], C), int(parts[1]))
            except BadMove as e:
                screen.say(f"not a move: {e}", style="yellow")
                continue
            verdict = "MISTAKE" if m.mistake else "right"
            screen.say(f"{args.against} predicted {m.prediction} at {_point_text(m.point)}; you said {m.label}: "
                       f"{verdict}", style="bold red" if m.mistake else None)
    finally:
        _adversary_summary(g, args.against, screen)
    return EXIT_OK


def _adversary_summary(g, who: str, screen) -> None:
    screen.say(f"game over: {who} made {g.mistakes} mistake{'s' if g.mistakes != 1 else ''} in {len(g.moves)} "
               f"move{'s' if len(g.moves) != 1 else ''}; Opt(C) = {g.opt(g.C.full)} (what the optimal adversary forces)")
    missed = g.missed()
    if not g.over:
        screen.say(f"(the game was left with Opt(V) = {g.opt()} still to force)")
    if not missed:
        screen.say("no missed chance: every move kept what the optimal adversary can force")
    for t, opt, kept in missed:
        screen.say(f"missed chance at move {t}: Opt(V) was {opt}; the move kept {kept} (its mistake + Opt of the "
                   "version space it left)")


def _as_learner(C, label, screen) -> int:
    from adversary.play import LearnerGame

    g = LearnerGame(C)
    d = g.opt(C.full)
    screen.say(f"You are the learner on {label} ({C.n_concepts} concepts, {C.n_points} points), against the optimal "
               f"adversary: predict 0 or 1 at each point; 'q' quits. Opt(C) = {d}.")
    try:
        while not g.over:
            j = g.next_point()
            screen.board([("move", str(len(g.moves) + 1)), ("your mistakes", str(g.mistakes)), ("|V|", str(g.size)),
                          ("point", f"#{j} = {_point_text(C.points[j])}")])
            try:
                text = screen.ask("your prediction (0/1)>").strip().lower()
            except EOFError:
                break
            if text in ("q", "quit"):
                break
            if text not in ("0", "1"):
                screen.say("not a move: give 0 or 1 (or q)", style="yellow")
                continue
            m = g.answer(j, int(text))
            screen.say(f"the label is {m.label}: {'MISTAKE' if m.mistake else 'right'}",
                       style="bold red" if m.mistake else None)
    finally:
        left = "" if g.over else f" (left after {len(g.moves)} move{'s' if len(g.moves) != 1 else ''})"
        screen.say(f"game over{left}: you made {g.mistakes} mistake{'s' if g.mistakes != 1 else ''}; Opt(C) = {d}: the "
                   "optimal adversary forces at least that on every learner")
        screen.say("the path you walked down (point: your prediction -> the label):")
        for t, m in enumerate(g.moves, 1):
            screen.say(f"  {'  ' * (t - 1)}{_point_text(m.point)}: {m.prediction} -> {m.label}")
    return EXIT_OK
