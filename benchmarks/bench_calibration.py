"""Calibration benchmark: Monte Carlo coverage of nominal 95% intervals.

The grid (``--populations issue``, the default): k in {2, 5, 20} classes;
class priors uniform, geometric (proportional to 0.5**i) or harmonic
(1/(i+1)); class i predicted correctly with probability from 0.9 (class 0)
down to 0.6 (class k-1), or from 0.99 down to 0.95, errors spread uniformly
over the other classes; n in {50, 100, 200, 500, 2000, 10000};
``labels=None`` and ``labels=range(k)``; ``zero_division=0``; macro average.
216 cells.

The tuning populations (``--populations tuning``), on which the posterior's
priors were chosen, apart from the grid: k in {10, 30}; priors proportional
to 1/sqrt(i+1); accuracies from 0.95 down to 0.7, or from 0.995 down to 0.97;
n in {50, 100, 200, 500, 2000}; both ``labels``. 40 cells.

The population is the table of cell probabilities (true class x predicted
class), scored over all k classes by the package's own aggregation. Each
replication draws the n samples' confusion matrix (a multinomial draw of n
samples over the k*k cells: all replications of a cell at once) and computes
the intervals from its count record, as ``fbeta_confidence_interval`` does for
any record; the coverage is the share of replications whose interval contains
the population score. With ``labels=None`` the record holds the classes that
occur in the sample (as the scores do).

Columns per method: coverage (%) of averaged F1 / F1 of averages, mean width
of both, and "warn": the share of replications with a ``CoverageWarning``.
"min exp": the expected number of true samples of the rarest class (cells
below 5 are outside the target of 93% coverage). The seeds are fixed per cell.

Run:  python benchmarks/bench_calibration.py                      (full grid)
      python benchmarks/bench_calibration.py --quick              (smoke run)
      python benchmarks/bench_calibration.py --reps 2000 --methods delta,posterior
      python benchmarks/bench_calibration.py --populations tuning --reps 1000 \
          --methods posterior                     (the priors' tuning populations)
      python benchmarks/bench_calibration.py --timing             (time per interval)
      python benchmarks/bench_calibration.py --multilabel --reps 1000
                                                  (delta method, multilabel targets)
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
import warnings
import zlib
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from _timing import fmt_time, interleaved, machine, table

from sklearn_macrof1 import CoverageWarning, MacroF1Counts, fbeta_confidence_interval
from sklearn_macrof1._formulas._aggregation import aggregate
from sklearn_macrof1._stats import _intervals

PRIORS = {
    "uniform": lambda i: np.ones_like(i, dtype=float),
    "geometric": lambda i: 0.5**i,
    "1/(i+1)": lambda i: 1.0 / (i + 1),
    "1/sqrt(i+1)": lambda i: 1.0 / np.sqrt(i + 1),
}
ACCURACIES = {
    "0.9-0.6": (0.9, 0.6),
    "0.99-0.95": (0.99, 0.95),
    "0.95-0.7": (0.95, 0.7),
    "0.995-0.97": (0.995, 0.97),
}
LABELS = ("None", "range(k)")
#: The posterior's priors as the package has them (``--priors`` replaces them).
PACKAGE_PRIORS = (_intervals.POSTERIOR_ERRORS, _intervals.POSTERIOR_HITS)
#: The population sets: (classes, priors, accuracies, sample sizes). "issue":
#: the grid the coverage table reports; "tuning": where the posterior's priors
#: were chosen (never the grid).
POPULATIONS = {
    "issue": (
        (2, 5, 20),
        ("uniform", "geometric", "1/(i+1)"),
        ("0.9-0.6", "0.99-0.95"),
        (50, 100, 200, 500, 2000, 10000),
    ),
    "tuning": (
        (10, 30),
        ("1/sqrt(i+1)",),
        ("0.95-0.7", "0.995-0.97"),
        (50, 100, 200, 500, 2000),
    ),
}
METHODS = ("delta", "posterior", "bootstrap")
AVERAGES_ML = ("micro", "macro", "weighted", "samples")


def cell_probabilities(k: int, prior: str, accuracy: str) -> np.ndarray:
    """Rows true, columns predicted; errors uniform over the other classes."""
    i = np.arange(k)
    pi = PRIORS[prior](i)
    pi = pi / pi.sum()
    hi, lo = ACCURACIES[accuracy]
    acc = np.linspace(hi, lo, k)
    confusion = np.repeat(((1 - acc) / (k - 1))[:, None], k, axis=1)
    confusion[i, i] = acc
    return pi[:, None] * confusion


def population_scores(cells: np.ndarray) -> tuple[float, float]:
    tp, true, pred = np.diagonal(cells), cells.sum(axis=1), cells.sum(axis=0)
    a = aggregate(tp, true, pred, average="macro", beta=1.0, zero_division=0.0)
    return float(a.averaged_fbeta), float(a.fbeta_of_averages)


def record(confusion: np.ndarray, labels: str) -> MacroF1Counts:
    """The count record of one replication: every class (``labels=range(k)``)
    or the classes that occur in the sample (``labels=None``)."""
    if labels == "None":
        present = np.flatnonzero(confusion.sum(axis=0) + confusion.sum(axis=1))
        confusion = confusion[np.ix_(present, present)]
        return MacroF1Counts.from_confusion_matrix(
            confusion, rows="true", labels=present
        )
    return MacroF1Counts.from_confusion_matrix(confusion, rows="true")


def run_cell(task: tuple) -> dict:
    """Coverage, mean width and warning rate of each method in one cell."""
    k, prior, accuracy, n, labels, methods, reps, draws, seed, priors = task
    # candidate priors of the posterior (its tuning), else the package's
    _intervals.POSTERIOR_ERRORS, _intervals.POSTERIOR_HITS = priors or PACKAGE_PRIORS
    cells = cell_probabilities(k, prior, accuracy)
    truth = population_scores(cells)
    key = f"{k}|{prior}|{accuracy}|{n}|{labels}"
    rng = np.random.default_rng([seed, zlib.crc32(key.encode())])
    tables = rng.multinomial(n, cells.reshape(-1), size=reps).reshape(reps, k, k)
    out: dict = {"truth": truth}
    for method in methods:
        hits = np.zeros(2)
        width = np.zeros(2)
        warned = 0
        for rep in range(reps):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                ci = fbeta_confidence_interval(
                    record(tables[rep], labels),
                    zero_division=0.0,
                    method=method,
                    n_resamples=draws,
                    random_state=rep,
                )
            warned += any(w.category is CoverageWarning for w in caught)
            for f, s in enumerate((ci.averaged_fbeta, ci.fbeta_of_averages)):
                hits[f] += s.low <= truth[f] <= s.high
                width[f] += s.high - s.low
        out[method] = (100 * hits / reps, width / reps, 100 * warned / reps)
    return out


def grid(populations: str, quick: bool = False) -> list[tuple]:
    ks, priors, accuracies, ns = POPULATIONS[populations]
    if quick:
        ks, ns = ks[:2], ns[1:4:2]
    return list(itertools.product(ks, priors, accuracies, ns, LABELS))


def min_expected(k: int, prior: str, n: int) -> float:
    pi = PRIORS[prior](np.arange(k))
    return float(n * pi.min() / pi.sum())


def coverage_tables(args: argparse.Namespace) -> None:
    methods = args.methods.split(",")
    cells = [
        c
        for c in grid(args.populations, args.quick)
        if args.min_expected <= min_expected(c[0], c[1], c[3]) <= args.max_expected
        and (args.ns is None or c[3] in args.ns)
    ]
    tasks = [
        (*c, methods, args.reps, args.draws, args.seed, args.priors) for c in cells
    ]
    start = time.perf_counter()
    se = 100 * math.sqrt(0.95 * 0.05 / args.reps)
    print(
        f"\n## Coverage of nominal 95% intervals, macro average, zero_division=0 "
        f"{'' if args.populations == 'issue' else '(tuning populations) '}"
        f"({args.reps} replications per cell: standard error ±{se:.1f} points; "
        f"{args.draws} draws per bootstrap/posterior interval)\n"
    )
    header = ["k", "priors", "accuracy", "n", "labels", "min exp"]
    for m in methods:
        header += [f"{m} cover", f"{m} width", f"{m} warn"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header), flush=True)
    worst = {m: [100.0, 100.0] for m in methods}
    warn_high = {m: 0.0 for m in methods}
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    results = pool.map(run_cell, tasks) if pool else map(run_cell, tasks)
    for (k, prior, accuracy, n, labels), res in zip(cells, results, strict=True):
        expected = min_expected(k, prior, n)
        row = [str(k), prior, accuracy, str(n), labels, f"{expected:.1f}"]
        for m in methods:
            cover, width, warned = res[m]
            row += [
                f"{cover[0]:.1f} / {cover[1]:.1f}",
                f"{width[0]:.3f} / {width[1]:.3f}",
                f"{warned:.1f}",
            ]
            if expected >= 5:
                worst[m] = [min(worst[m][f], cover[f]) for f in (0, 1)]
            if expected >= 20:
                warn_high[m] = max(warn_high[m], warned)
        print("| " + " | ".join(row) + " |", flush=True)
    if pool is not None:
        pool.shutdown()
    print()
    for m in methods:
        print(
            f"{m}: lowest coverage where the rarest class expects >= 5 true "
            f"samples: {worst[m][0]:.1f} / {worst[m][1]:.1f}; highest warning "
            f"rate where it expects >= 20: {warn_high[m]:.1f}%"
        )
    print(f"\n{len(cells)} cells in {time.perf_counter() - start:.0f} s.")


def ml_population(q: np.ndarray, flip: float, average: str) -> tuple[float, float]:
    """Exact population scores of independent labels with symmetric flips."""
    L = q.shape[0]
    patterns = np.array(list(itertools.product([0, 1], repeat=2 * L)), dtype=bool)
    yt, yp = patterns[:, :L], patterns[:, L:]
    prob = np.prod(np.where(yt, q, 1 - q) * np.where(yt == yp, 1 - flip, flip), axis=1)
    tp = (prob[:, None] * (yt & yp)).sum(axis=0)
    true = (prob[:, None] * yt).sum(axis=0)
    pred = (prob[:, None] * yp).sum(axis=0)
    a = aggregate(
        tp,
        true,
        pred,
        average=average,
        beta=1.0,
        zero_division=0.0,
        samples=(
            (yt & yp).sum(axis=1) * prob,
            yt.sum(axis=1) * prob,
            yp.sum(axis=1) * prob,
            prob,
        ),
    )
    return float(a.averaged_fbeta), float(a.fbeta_of_averages)


def coverage_ml(n, q, flip, reps, rng):
    truth = {a: ml_population(q, flip, a) for a in AVERAGES_ML}
    hits = {(a, f): 0 for a in AVERAGES_ML for f in (0, 1)}
    for _ in range(reps):
        yt = rng.random((n, q.shape[0])) < q
        yp = yt ^ (rng.random(yt.shape) < flip)
        for a in AVERAGES_ML:
            ci = fbeta_confidence_interval(yt, yp, average=a, zero_division=0.0)
            for f, s in enumerate((ci.averaged_fbeta, ci.fbeta_of_averages)):
                hits[a, f] += s.low <= truth[a][f] <= s.high
    return hits


def multilabel_table(args: argparse.Namespace) -> None:
    """Delta-method coverage for multilabel targets (5 independent labels)."""
    reps = args.reps
    rng = np.random.default_rng(args.seed)
    print(f"\n## Multilabel targets (5 labels, {reps} replicates per row)\n")
    rows = []
    ns = (500, 2000) if args.quick else (500, 2000, 10000)
    for n, (q_scale, flip) in itertools.product(ns, ((0.4, 0.1), (0.15, 0.2))):
        q = q_scale * np.array([1.0, 0.8, 0.6, 0.4, 0.2]) / 0.6
        hits = coverage_ml(n, np.clip(q, 0, 0.95), flip, reps, rng)
        rows.append(
            [str(n), f"{q_scale:.2f}", f"{flip:.1f}"]
            + [f"{100 * hits[a, f] / reps:.1f}" for a in AVERAGES_ML for f in (0, 1)]
        )
    header = ["n", "mean rate", "flip"]
    header += [f"{a} {f}" for a in AVERAGES_ML for f in ("avgF1", "F1(avg)")]
    print(table(header, rows))


def timings(args: argparse.Namespace) -> None:
    print("\n## Time per interval, n = 10000, k = 10 (both formulas, macro)\n")
    rng = np.random.default_rng(args.seed)
    cells = cell_probabilities(10, "1/(i+1)", "0.9-0.6")
    joint = rng.choice(100, size=10000, p=cells.ravel())
    y, p = joint // 10, joint % 10
    contenders = {
        "default (auto: posterior, 1000 draws)": lambda: fbeta_confidence_interval(
            y, p
        ),
        "delta method": lambda: fbeta_confidence_interval(y, p, method="delta"),
        "posterior, 1000 draws": lambda: fbeta_confidence_interval(
            y, p, method="posterior", random_state=0
        ),
        "bootstrap 1000 (cells)": lambda: fbeta_confidence_interval(
            y, p, method="bootstrap", random_state=0
        ),
    }
    times = interleaved(contenders, repeats=3 if args.quick else 5, budget=0.05)
    print(
        table(["method", "time per call"], [[m, fmt_time(t)] for m, t in times.items()])
    )


def _priors(text: str) -> tuple[tuple[float, float], tuple[float, float]]:
    a, b, c, d = (float(x) for x in text.split(","))
    return (a, b), (c, d)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run")
    parser.add_argument("--reps", type=int, default=None, help="replications per cell")
    parser.add_argument("--draws", type=int, default=1000, help="n_resamples")
    parser.add_argument(
        "--methods", default="delta,posterior", help=f"comma-separated, of {METHODS}"
    )
    parser.add_argument(
        "--min-expected",
        type=float,
        default=0.0,
        help="only cells whose rarest class expects at least this many true samples",
    )
    parser.add_argument(
        "--max-expected",
        type=float,
        default=math.inf,
        help="only cells whose rarest class expects at most this many",
    )
    parser.add_argument(
        "--populations",
        choices=tuple(POPULATIONS),
        default="issue",
        help="the coverage grid (issue) or the priors' tuning populations (tuning)",
    )
    parser.add_argument(
        "--ns",
        type=lambda text: tuple(int(n) for n in text.split(",")),
        default=None,
        help="only these sample sizes, comma-separated",
    )
    parser.add_argument(
        "--priors",
        type=_priors,
        default=None,
        help="candidate posterior priors a,b,c,d: max(a/k, b) errors for the lower "
        "bound, max(c/k, d) hits for the upper one (default: the package's)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--timing", action="store_true", help="time per interval only")
    parser.add_argument(
        "--multilabel", action="store_true", help="multilabel coverage table only"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.reps = args.reps or (50 if args.quick else 2000)
    print(machine())
    errors, hits = args.priors or PACKAGE_PRIORS
    print(
        f"posterior priors: max({errors[0]:g}/k, {errors[1]:g}) errors (lower bound), "
        f"max({hits[0]:g}/k, {hits[1]:g}) hits (upper bound)"
    )
    if args.timing:
        timings(args)
    elif args.multilabel:
        multilabel_table(args)
    else:
        coverage_tables(args)


if __name__ == "__main__":
    main()
