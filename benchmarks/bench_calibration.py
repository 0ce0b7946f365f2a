"""Calibration benchmark: Monte Carlo coverage of nominal 95% intervals.

For each scenario (n samples, k classes, accuracy, class skew) the population
is a fixed table of cell probabilities (true class x predicted class); each
Monte Carlo replicate draws n samples from it and computes the intervals; the
coverage is the share of replicates whose interval contains the *population*
score (the score of the probability table, computed by the package's own
aggregation). ``labels=range(k)`` fixes the estimand (a rare class absent from
a small sample still counts) and ``zero_division=0``.

Columns: our delta-method intervals for every average and both formulas, and,
side by side on the same data, the analytic (Takahashi delta method) interval of
the ``confidenceinterval`` package (``pip install confidenceinterval``; the
column is skipped when it is not installed), which exists for averaged F1 with
macro, micro and binary averaging. A second table gives multilabel targets
(micro, macro, weighted, samples), a third the percentile bootstrap, a fourth
the timings.

Run:  python benchmarks/bench_calibration.py          (about 3-5 minutes)
      python benchmarks/bench_calibration.py --quick  (smoke run, ~20 s)
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
import warnings

import numpy as np
from _timing import fmt_time, interleaved, machine, table

from sklearn_macrof1 import fbeta_confidence_interval
from sklearn_macrof1._formulas._aggregation import aggregate

try:
    from confidenceinterval import f1_score as ci_f1_score
except ImportError:  # benchmark-only dependency
    ci_f1_score = None

AVERAGES_1D = ("binary", "micro", "macro", "weighted")
AVERAGES_ML = ("micro", "macro", "weighted", "samples")


def cell_probabilities(k: int, accuracy: float, skew: float) -> np.ndarray:
    """Rows true, columns predicted; prior ∝ exp(-skew i); errors uniform."""
    prior = np.exp(-skew * np.arange(k))
    prior /= prior.sum()
    confusion = np.full((k, k), (1 - accuracy) / (k - 1))
    np.fill_diagonal(confusion, accuracy)
    return prior[:, None] * confusion


def population_scores(cells: np.ndarray, average: str) -> tuple[float, float]:
    tp, true, pred = np.diagonal(cells), cells.sum(axis=1), cells.sum(axis=0)
    if average == "binary":
        tp, true, pred = tp[1:], true[1:], pred[1:]
    a = aggregate(tp, true, pred, average=average, beta=1.0, zero_division=0.0)
    return float(a.averaged_fbeta), float(a.fbeta_of_averages)


def covered(truth: float, low: float, high: float) -> bool:
    return bool(low <= truth <= high)


def pct(hits: int | None, reps: int) -> str:
    return "-" if hits is None else f"{100 * hits / reps:.1f}"


def coverage_1d(n, k, accuracy, skew, reps, ci_reps, rng):
    cells = cell_probabilities(k, accuracy, skew)
    flat = cells.reshape(-1)
    averages = [a for a in AVERAGES_1D if a != "binary" or k == 2]
    truth = {a: population_scores(cells, a) for a in averages}
    hits = {(a, f): 0 for a in averages for f in (0, 1)}
    theirs = {"macro": 0, "micro" if k > 2 else "binary": 0}
    labels = np.arange(k)
    for rep in range(reps):
        joint = rng.choice(k * k, size=n, p=flat)
        y, p = joint // k, joint % k
        for a in averages:
            ci = fbeta_confidence_interval(
                y,
                p,
                average=a,
                labels=None if a == "binary" else labels,
                zero_division=0.0,
            )
            for f, s in enumerate((ci.averaged_fbeta, ci.fbeta_of_averages)):
                hits[a, f] += covered(truth[a][f], s.low, s.high)
        if ci_f1_score is not None and rep < ci_reps:
            for a in theirs:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    _, (low, high) = ci_f1_score(y, p, average=a, confidence_level=0.95)
                theirs[a] += covered(truth[a][0], low, high)
    return hits, theirs


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
                hits[a, f] += covered(truth[a][f], s.low, s.high)
    return hits


def coverage_bootstrap(n, k, accuracy, skew, reps, resamples, rng):
    cells = cell_probabilities(k, accuracy, skew)
    truth = population_scores(cells, "macro")
    hits = [0, 0]
    for _ in range(reps):
        joint = rng.choice(k * k, size=n, p=cells.reshape(-1))
        ci = fbeta_confidence_interval(
            joint // k,
            joint % k,
            labels=np.arange(k),
            zero_division=0.0,
            method="bootstrap",
            n_resamples=resamples,
            random_state=rng,
        )
        for f, s in enumerate((ci.averaged_fbeta, ci.fbeta_of_averages)):
            hits[f] += covered(truth[f], s.low, s.high)
    return hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke run")
    parser.add_argument("--reps", type=int, default=None, help="MC replicates")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    quick = args.quick
    reps = args.reps or (60 if quick else 1000)
    ci_reps = min(reps, 60 if quick else 300)
    ns = (500, 2000) if quick else (500, 2000, 10000)
    ks = (2, 5) if quick else (2, 5, 10)
    scenarios = ((0.7, 0.0), (0.9, 0.0), (0.7, 0.5), (0.9, 0.5))
    if quick:
        scenarios = scenarios[::3]
    rng = np.random.default_rng(args.seed)
    print(machine())
    start = time.perf_counter()

    se = 100 * math.sqrt(0.95 * 0.05 / reps)
    print(
        f"\n## Coverage of nominal 95% intervals, multiclass/binary "
        f"({reps} Monte Carlo replicates per row: standard error ±{se:.1f} points; "
        f"confidenceinterval package: {ci_reps} replicates, "
        f"±{100 * math.sqrt(0.95 * 0.05 / ci_reps):.1f})\n"
    )
    header = [
        "n",
        "k",
        "acc",
        "skew",
        "binary",
        "micro",
        "macro avgF1",
        "macro F1(avg)",
        "weighted avgF1",
        "weighted F1(avg)",
        "CI-pkg macro",
        "CI-pkg micro/bin",
    ]
    rows = []
    ours_big: list[float] = []
    for n, k, (acc, skew) in itertools.product(ns, ks, scenarios):
        hits, theirs = coverage_1d(n, k, acc, skew, reps, ci_reps, rng)

        def get(a: str, f: int, hits: dict = hits) -> str:
            return pct(hits.get((a, f)), reps)

        if n >= 2000:
            ours_big.extend(100 * v / reps for v in hits.values())
        pkg = ci_f1_score is not None
        rows.append(
            [
                str(n),
                str(k),
                f"{acc:.1f}",
                f"{skew:.1f}",
                get("binary", 0),
                get("micro", 0),
                get("macro", 0),
                get("macro", 1),
                get("weighted", 0),
                get("weighted", 1),
                pct(theirs["macro"], ci_reps) if pkg else "n/a",
                pct(theirs["micro" if k > 2 else "binary"], ci_reps) if pkg else "n/a",
            ]
        )
    print(table(header, rows))
    inside = sum(93.5 <= v <= 96.5 for v in ours_big)
    print(
        f"\nOur delta-method coverage for n >= 2000: {min(ours_big):.1f}% to "
        f"{max(ours_big):.1f}%; {inside} of {len(ours_big)} cells within "
        "[93.5%, 96.5%]. (For binary and micro the two formulas coincide: one "
        "column each.)"
    )

    print(f"\n## Multilabel targets (5 labels, {reps} replicates per row)\n")
    ml_rows = []
    for n, (q_scale, flip) in itertools.product(ns, ((0.4, 0.1), (0.15, 0.2))):
        q = q_scale * np.array([1.0, 0.8, 0.6, 0.4, 0.2]) / 0.6
        hits = coverage_ml(n, np.clip(q, 0, 0.95), flip, reps, rng)
        ml_rows.append(
            [str(n), f"{q_scale:.2f}", f"{flip:.1f}"]
            + [pct(hits[a, f], reps) for a in AVERAGES_ML for f in (0, 1)]
        )
    print(
        table(
            ["n", "mean rate", "flip"]
            + [f"{a} {f}" for a in AVERAGES_ML for f in ("avgF1", "F1(avg)")],
            ml_rows,
        )
    )

    b_reps = 60 if quick else 300
    resamples = 200 if quick else 1000
    b_se = 100 * math.sqrt(0.95 * 0.05 / b_reps)
    print(
        f"\n## Percentile bootstrap ({resamples} resamples), macro, n = 2000 "
        f"({b_reps} replicates per row, ±{b_se:.1f})\n"
    )
    b_rows = []
    for k, (acc, skew) in itertools.product(ks, ((0.7, 0.0), (0.7, 0.5))):
        hits_b = coverage_bootstrap(2000, k, acc, skew, b_reps, resamples, rng)
        b_rows.append(
            [str(k), f"{acc:.1f}", f"{skew:.1f}"] + [pct(h, b_reps) for h in hits_b]
        )
    print(table(["k", "acc", "skew", "macro avgF1", "macro F1(avg)"], b_rows))

    print("\n## Time per interval, n = 10000, k = 10 (both formulas, macro)\n")
    joint = rng.choice(100, size=10000, p=cell_probabilities(10, 0.7, 0.5).ravel())
    y, p = joint // 10, joint % 10
    contenders = {
        "ours, delta method": lambda: fbeta_confidence_interval(y, p),
        "ours, bootstrap 1000 (cells)": lambda: fbeta_confidence_interval(
            y, p, method="bootstrap", n_resamples=1000, random_state=0
        ),
        "ours, bootstrap 1000 (samples, weighted)": lambda: fbeta_confidence_interval(
            y,
            p,
            sample_weight=np.ones(10000),
            method="bootstrap",
            n_resamples=1000,
            random_state=0,
        ),
    }
    if ci_f1_score is not None:
        contenders["CI-pkg analytic (macro avgF1 only)"] = lambda: ci_f1_score(
            y, p, average="macro"
        )
    times = interleaved(contenders, repeats=3 if quick else 5, budget=0.05)
    t_rows = [[name, fmt_time(t)] for name, t in times.items()]
    if ci_f1_score is not None:
        t0 = time.perf_counter()
        ci_f1_score(
            y,
            p,
            average="macro",
            method="bootstrap_percentile",
            n_resamples=200 if quick else 1000,
            random_state=np.random.RandomState(0),
        )
        took = time.perf_counter() - t0
        label = f"CI-pkg bootstrap_percentile {200 if quick else 1000} (timed once)"
        t_rows.append([label, fmt_time(took)])
    print(table(["method", "time per call"], t_rows))
    print(
        f"\nTargets: delta < 5 ms, bootstrap (1000, multiclass) < 100 ms. "
        f"Total run time {time.perf_counter() - start:.0f} s."
    )


if __name__ == "__main__":
    main()
