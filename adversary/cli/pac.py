"""``littlestone pac LEARNER --class FAMILY k=v ... --epsilon E --delta D``: A_PAC of the notes (online-to-PAC,
:mod:`solvers.pac`) run against random targets and a distribution over the class's points, trial by trial: the
examples used, the stages, the exact error of the output against eps, and over all trials the fraction eps-bad
against delta and the examples against both sample bounds (the sum that holds and the notes' closed form).
The examples all the runs may use are counted before any is drawn: past :data:`solvers.pac.MAX_SAMPLES` the
command is refused, saying the epsilon (or the trials) that fit."""

from __future__ import annotations

import itertools
import json
import math
import sys
import time
from fractions import Fraction

from ._args import add_memory_guard, positive, positive_seconds, seed
from ._output import (EXIT_OK, PROG, CLIError, Progress, check_outputs, interrupted_code, json_safe, note,
                      params_text, write_atomic)

__all__ = ["HELP", "add", "run"]

HELP = "online-to-PAC: A_PAC from a learner's mistake bound, run against random targets and a distribution"
#: Seconds the adversarial distribution search takes by default, and the trials each candidate is scored on.
SEARCH_SECONDS = 10.0
SEARCH_TRIALS = 12


def add(p) -> None:
    p.add_argument("learner", metavar="LEARNER", help="the online learner (see 'littlestone learners'); one that is "
                                                     "not conservative is made so first (its bound is kept)")
    p.add_argument("learner_params", nargs="*", metavar="k=v", help="the learner's parameters")
    p.add_argument("--class", dest="cls", nargs="+", metavar="FAMILY k=v", help="the class (a family and its parameters)")
    p.add_argument("--matrix", metavar="FILE", help="read the class from a .json, .csv or .npy 0/1 matrix instead")
    p.set_defaults(fact=[])  # (the class is read as attack reads it, which also takes --fact)
    p.add_argument("--epsilon", type=_unit, required=True, metavar="E", help="the accuracy, in (0, 1)")
    p.add_argument("--delta", type=_unit, required=True, metavar="D", help="the confidence, in (0, 1)")
    p.add_argument("--trials", type=positive("a number of trials"), default=100, metavar="T", help="runs of A_PAC (default 100)")
    p.add_argument("--distribution", default="uniform", metavar="uniform|adversarial|FILE",
                   help="over the class's points: uniform (default), adversarial (searched for: the distribution "
                        "on a few points and the target that make A_PAC use the most examples), or a JSON file "
                        '{"weights": [w per point]}')
    p.add_argument("--time-limit", type=positive_seconds, default=SEARCH_SECONDS, metavar="S",
                   help=f"seconds of the adversarial search (default {SEARCH_SECONDS:g})")
    p.add_argument("--seed", type=seed, default=0, metavar="S", help="seed of the targets and the examples (default 0)")
    add_memory_guard(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (trials, eps_bad_fraction, delta, "
                                                       "mistake_bound, samples_bound, ...)")
    p.add_argument("--plot", metavar="OUT.png", help="draw the examples per trial against the bounds, and the error "
                                                     "against eps (needs matplotlib)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    from ._store import add_no_store

    add_no_store(p, "pac")


def _unit(text: str) -> float:
    import argparse

    from solvers.numbers import as_rational

    try:
        v = float(as_rational(text, "it"))  # (refuses 1e400, which overflowed a float, before building it)
    except ValueError as e:
        what = "is not strictly between 0 and 1" if "too large" in str(e) else "is too small" if "too small" in str(
            e) else "is not a number"
        raise argparse.ArgumentTypeError(f"{text!r} {what}; give one in (0, 1), e.g. 0.1") from None
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"{text} is not strictly between 0 and 1; give e.g. 0.1")
    return v


# ---------------------------------------------------------------------------------------- the pieces
def _class(args):
    """The class, read as ``attack`` reads it (``--class FAMILY k=v ...`` or ``--matrix FILE``), listed point by
    point."""
    from .attack import _attack_class

    C, label = _attack_class(args)
    if not getattr(C, "finite", False) or getattr(C, "n_concepts", None) is None:
        raise CLIError(f"pac draws examples from the class's points, and {C} is not listed point by point; give a finite family (lower n) or --matrix FILE")
    return C, label


def _weights(spec: str, C) -> list:
    """The distribution over C's points as exact Fractions summing to 1 (uniform, or a file's weights)."""
    n = C.n_points
    if spec == "uniform":
        return [Fraction(1, n)] * n
    try:
        from solvers.jsontext import loads  # refuses a key given twice (one line)

        with open(spec, encoding="utf-8") as f:
            data = loads(f.read(), f"--distribution {spec}", error=CLIError)
    except OSError as e:
        raise CLIError(f"--distribution {spec}: cannot read it ({e.strerror or e}); give uniform, adversarial or a "
                       'JSON file {"weights": [...]}') from None
    except json.JSONDecodeError as e:
        raise CLIError(f"--distribution {spec} is not JSON ({e}); write {{\"weights\": [w per point]}}") from None
    except UnicodeDecodeError:
        raise CLIError(f"--distribution {spec} is not text: it must be UTF-8 JSON, {{\"weights\": [w per point]}}") from None
    w = data.get("weights") if isinstance(data, dict) else data
    if not isinstance(w, list) or len(w) != n:
        raise CLIError(f"--distribution {spec}: give {n} weights, one per point of the class, as {{\"weights\": [...]}}")
    from solvers.numbers import as_rational

    try:
        q = [as_rational(v if isinstance(v, str) else str(v), "weight") for v in w]
    except ValueError:
        raise CLIError(f"--distribution {spec}: the weights must be numbers (or \"p/q\")") from None
    if any(v < 0 for v in q) or sum(q) == 0:
        raise CLIError(f"--distribution {spec}: the weights must be >= 0 and not all 0")
    total = sum(q)
    return [v / total for v in q]


def _trial(C, name, params, weights, target: int, eps, delta, M: int, rng):
    """One run of A_PAC on examples drawn from ``weights`` and labelled by concept ``target``: (the run, the exact
    error of its output)."""
    import numpy as np

    from adversary.referee import build_learner
    from solvers.pac import a_pac, as_conservative, samples_bound, true_error

    L, _ = as_conservative(build_learner(name, params, C), C)
    p = np.array([float(w) for w in weights])
    p = p / p.sum()
    labels = C.matrix[target]
    idx = iter(())

    def draw():
        nonlocal idx
        j = next(idx, None)
        if j is None:
            idx = iter(rng.choice(len(p), size=256, p=p).tolist())
            j = next(idx)
        return C.points[j], int(labels[j])

    r = a_pac(L, draw, eps, delta, M=M, max_samples=10 * samples_bound(M, eps, delta) + 1000)
    return r, true_error(r.hypothesis, C.points, weights, labels)


def _adversarial(C, name, params, eps, delta, M, seconds, seed):
    """The distribution and target that make A_PAC use the most examples on average over :data:`SEARCH_TRIALS`
    seeded runs, by random search within ``seconds``: the uniform distribution first, then distributions on
    up to M + 1 points (at most 8) with random or geometric weights (a point of weight about 1/m_i ends stage i
    late), each with a random target. Returns (weights, target, mean examples, candidates tried)."""
    import numpy as np

    rng = np.random.default_rng(seed + 1)
    deadline = time.monotonic() + seconds
    best = None
    tried = 0

    def score(weights, target):
        runs = [_trial(C, name, params, weights, target, eps, delta, M, np.random.default_rng(seed * 7919 + t))[0]
                for t in range(SEARCH_TRIALS)]
        return sum(r.samples for r in runs) / len(runs)

    while time.monotonic() < deadline or best is None:
        target = int(rng.integers(C.n_concepts))
        if tried == 0:
            weights = [Fraction(1, C.n_points)] * C.n_points
        else:
            k = int(rng.integers(1, min(M + 1, 8, C.n_points) + 1))
            support = rng.choice(C.n_points, size=k, replace=False).tolist()
            if rng.random() < 0.5:
                raw = [int(v) for v in rng.integers(1, 9, size=k)]
            else:  # geometric: the later points rarer
                raw = [2 ** (k - i) for i in range(k)]
            weights = [Fraction(0)] * C.n_points
            for j, g in zip(support, raw):
                weights[j] = Fraction(g, sum(raw))
        mean = score(weights, target)
        tried += 1
        if best is None or mean > best[2]:
            best = (weights, target, mean)
    return (*best, tried)


def _worst_sequence(C, name, params, eps, delta, M, seconds):
    """The examples an adversary that chooses them (no distribution) feeds A_PAC: the exact attack's mistakes
    on A' (a conservative learner changes only on them), each stage padded first with m_i - 1 examples the
    current hypothesis gets right (where there is one), then the last stage with m_{k+1} of them. Returns (the
    A_PAC run, k = the attack's mistakes, the stages left unpadded): sum_{i <= k+1} ceil(m_i) examples when every
    stage is padded (past the notes' closed form when k = M and M is small)."""
    from adversary.attack import attack
    from adversary.referee import build_learner, replay
    from solvers.pac import a_pac, as_conservative, stage_length

    L, wrapped = as_conservative(build_learner(name, params, C), C)
    # (A' of a conservative learner is the learner itself: attack it as it is)
    r = attack("conservative", C, learner_params={"learner": name, "params": params}, strategy="auto",
               time_limit=seconds) if wrapped else attack(name, C, learner_params=params, strategy="auto",
                                                            time_limit=seconds)
    w = r.witness
    seq = [(tuple(e["x"]), e["y"]) for e in w["sequence"]]
    mistakes = [seq[t] for t in replay(w["learner"], seq, C).rounds]
    target = w["target"]
    state = as_conservative(build_learner(name, params, C), C)[0]

    def right():
        j = next((j for j in range(C.n_points) if state.predict_one(C.points[j]) == int(C.matrix[target, j])), None)
        return None if j is None else (C.points[j], int(C.matrix[target, j]))

    stream, unpadded = [], []  # (example, times): the padding is not listed one example at a time
    for i, (x, y) in enumerate(mistakes, 1):
        ok = right()
        if ok is None:
            unpadded.append(i)
        else:
            stream.append((ok, stage_length(eps, delta, i) - 1))
        stream.append(((x, y), 1))
        state.learn_one(x, y)
    ok = right()
    if ok is None:
        unpadded.append(len(mistakes) + 1)
    else:
        stream.append((ok, stage_length(eps, delta, len(mistakes) + 1)))
    it = itertools.chain.from_iterable(itertools.repeat(e, times) for e, times in stream)
    run = a_pac(L, lambda: next(it), eps, delta, M=M, max_samples=sum(times for _, times in stream))
    return run, len(mistakes), unpadded


# ---------------------------------------------------------------------------------------- run
def run(args) -> int:
    import numpy as np

    from adversary.referee import build_learner, fraction_text
    from solvers.pac import check_samples, notes_samples_bound, samples_bound

    from ._attack_store import _kv_items, _whole_numbers

    plot_path, = check_outputs([(args.plot, (".png", ".svg"), "the picture", "--plot")], args=args)
    C, label = _class(args)
    params = _whole_numbers(_kv_items(args.learner_params, "learner parameter"))
    try:
        L = build_learner(args.learner, params, C)
    except ValueError as e:
        raise CLIError(str(e)) from None
    b = L.bound_on(C)
    if not b.finite:
        raise CLIError(f"A_PAC needs a mistake bound M, and {args.learner} has none on {label} ({b.formula}); choose "
                       "a learner with a bound on this class (see 'littlestone learners')")
    M = math.floor(b.value)
    wrapped = not getattr(L, "conservative", False)
    eps, delta = args.epsilon, args.delta
    # the examples every run may use, before any is drawn (the adversarial search scores its first candidate
    # on SEARCH_TRIALS runs, then the chosen sequence is one more)
    check_samples(M, eps, delta, args.trials, extra=SEARCH_TRIALS + 1 if args.distribution == "adversarial" else 0,
                  names=("--epsilon", "--trials"))
    exact_bound, notes_bound = samples_bound(M, eps, delta), notes_samples_bound(M, eps, delta)
    search = None
    if args.distribution == "adversarial":
        bar = Progress(enabled=not args.quiet, label=f"{PROG} pac", clock=True, limit=args.time_limit)
        bar.status("searching for the distribution and target that cost A_PAC the most examples")
        try:
            weights, target, mean, tried = _adversarial(C, args.learner, params, eps, delta, M, args.time_limit,
                                                        args.seed)
        finally:
            bar.close()
        search = {"target": target, "support": [j for j, w in enumerate(weights) if w],
                  "weights": [str(w) for w in weights if w], "mean_samples": mean, "candidates": tried}
        chosen, forced, unpadded = _worst_sequence(C, args.learner, params, eps, delta, M, args.time_limit)
        search["chosen_examples"] = {"samples": chosen.samples, "stages": chosen.stages, "mistakes": forced,
                                     "unpadded_stages": unpadded,
                                     "past_notes_bound": chosen.samples > notes_bound}
    else:
        weights, target = _weights(args.distribution, C), None
    rng = np.random.default_rng(args.seed)
    trials, interrupted = [], False
    bar = Progress(enabled=not args.quiet, label=f"{PROG} pac", total=args.trials)
    bar.count(0)
    try:
        for t in range(args.trials):
            c = target if target is not None else int(rng.integers(C.n_concepts))
            r, err = _trial(C, args.learner, params, weights, c, eps, delta, M, rng)
            trials.append({"trial": t + 1, "target": c, "samples": r.samples, "stages": len(r.stages),
                           "stage_samples": r.stages, "mistakes": r.mistakes, "error": float(err),
                           "error_fraction": fraction_text(err), "eps_bad": err > eps,
                           "stopped": r.stopped})
            bar.count(t + 1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    if not trials:
        note("interrupted before a trial finished")
        return interrupted_code()
    bad = sum(1 for t in trials if t["eps_bad"]) / len(trials)
    samples = [t["samples"] for t in trials]
    out = {"learner": {"name": args.learner, "params": L.get_params()}, "class": label,
           "wrapped": f"conservative({args.learner})" if wrapped else None, "mistake_bound": M,
           "mistake_bound_formula": b.formula, "epsilon": eps, "delta": delta,
           "distribution": args.distribution if search is None else "adversarial", "search": search,
           "trials": trials, "eps_bad_fraction": bad, "samples_bound": exact_bound,
           "notes_samples_bound": notes_bound, "max_samples": max(samples), "mean_samples": sum(samples) / len(samples),
           "past_notes_bound": sum(1 for s in samples if s > notes_bound), "past_samples_bound": sum(
               1 for s in samples if s > exact_bound), "interrupted": interrupted}
    if args.json:
        print(json.dumps(json_safe(out)))
    else:
        _report(out)
    if plot_path is not None:
        from .plot import _require_matplotlib

        _require_matplotlib()
        from adversary.plot import plot_pac

        write_atomic(plot_path, lambda tmp: plot_pac(out, tmp))
        print(f"wrote the examples and errors of {len(trials)} trials to {plot_path}", file=sys.stderr, flush=True)
    if interrupted:
        note(f"interrupted: {len(trials)} of {args.trials} trials run")
        return interrupted_code()
    return EXIT_OK


def _chosen_text(c: dict) -> str:
    """What the adversary choosing each example made A_PAC use."""
    k = c["mistakes"]
    pads = ("each stage padded first with m_i - 1 examples it gets right" if not c["unpadded_stages"] else
            f"the stages padded with m_i - 1 examples it gets right, but for stage{'s' if len(c['unpadded_stages']) > 1 else ''} "
            f"{', '.join(map(str, c['unpadded_stages']))} (no such example)")
    return (f"an adversary choosing each example (no distribution) forces {k} mistake{'s' if k != 1 else ''}, {pads}: "
            f"{c['samples']} examples in {len(c['stages'])} stages ("
            + ("past" if c["past_notes_bound"] else "within") + " the notes' closed form)")


def _report(out: dict) -> None:
    """The human summary: the run, then the figures against their bounds."""
    rows = [("learner", f"{out['learner']['name']} {params_text(out['learner']['params'])}".strip()
             + (f"  (not conservative: run as {out['wrapped']}, the notes' A', with the same bound)"
                if out["wrapped"] else "")),
            ("class", out["class"]),
            ("mistake bound", f"M = {out['mistake_bound']}  ({out['mistake_bound_formula']})"),
            ("epsilon, delta", f"{out['epsilon']:g}, {out['delta']:g}"),
            ("distribution", out["distribution"] + (
                f": points {out['search']['support']} with weights {', '.join(out['search']['weights'])}, target "
                f"{out['search']['target']} ({out['search']['candidates']} candidates tried, "
                f"{out['search']['mean_samples']:.1f} examples on average)" if out["search"] else "")),
            *([("chosen examples", _chosen_text(out["search"]["chosen_examples"]))] if out["search"] else []),
            ("trials", str(len(out["trials"]))),
            ("eps-bad", f"{out['eps_bad_fraction']:.3f} of the trials output an error > eps (delta = "
                        f"{out['delta']:g}: {'within' if out['eps_bad_fraction'] <= out['delta'] else 'ABOVE'})"),
            ("examples", f"max {out['max_samples']}, mean {out['mean_samples']:.1f}; the bound sum ceil(m_i) = "
                         f"{out['samples_bound']} ({out['past_samples_bound']} past it); the notes' closed form "
                         f"(M/eps)((M+1)/2 + ln(1/delta)) = {out['notes_samples_bound']:.1f} "
                         f"({out['past_notes_bound']} past it)")]
    width = max(len(k) for k, _ in rows) + 2
    for k, v in rows:
        print(f"{k + ':':<{width}}{v}")
    print(f"{'per trial:':<{width}}examples, stages, error (exact)")
    shown = out["trials"][:20]
    for t in shown:
        print(f"  {t['trial']:>4}  {t['samples']:>6} examples  {t['stages']} stage{'s' if t['stages'] != 1 else ' '}  "
              f"error {t['error_fraction']}" + ("  > eps" if t["eps_bad"] else ""))
    if len(out["trials"]) > len(shown):
        print(f"  ... {len(out['trials']) - len(shown)} more (see --json)")
    sys.stdout.flush()
