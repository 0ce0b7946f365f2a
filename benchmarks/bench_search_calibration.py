"""Calibration of analyze_search's corrected resampled t-test (issue 17).

Each repetition draws a fresh data set of ``n`` samples from one fixed
population (3 Gaussian classes with priors 0.6 / 0.3 / 0.1; two exchangeable
views of 5 features each),
cross-validates two candidates on the same folds with ``cross_validate(...,
scoring=make_macro_f1_scoring(), return_indices=True)`` and runs
``analyze_search({"A": ..., "B": ...})``. The p-value of "A - B = 0" is read
for both formulas (averaged F1 and F1 of averages), corrected (Nadeau-Bengio:
variance ``(1/J + n_test/n_train) s²``) and uncorrected (the plain paired
t-test, ``s²/J``).

- Size: A and B are the same deterministic tree (depth 4), A fitted on view 1
  and B on view 2. The views are identically distributed given the class, so
  the expected macro F1s of A and B are equal exactly, while their predictions
  differ; a calibrated 5% test rejects in about 5% of the repetitions. The
  Monte Carlo standard error of a rate p over R repetitions is
  ``sqrt(p (1 - p) / R)``.
- Power: A is linear discriminant analysis (near optimal for this
  population), B nearest centroids (a small difference) or a strongly
  regularised logistic regression (C=0.01, a large one); the known difference
  is estimated on a large independent test set (5,000 samples) in every
  repetition.

Run:  python benchmarks/bench_search_calibration.py            (~17 min, 2 jobs)
      python benchmarks/bench_search_calibration.py --quick    (smoke run)
Writes ``search_calibration.md`` and ``.json`` to ``--output`` (default
``benchmarks/out/``, not tracked).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import sklearn
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_validate,
)
from sklearn.neighbors import NearestCentroid
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from sklearn_macrof1 import (
    analyze_search,
    averaged_f1_score,
    f1_of_averages_score,
    make_macro_f1_scoring,
)
from sklearn_macrof1._stats._search import corrected_resampled_ttest

PRIORS = np.array([0.6, 0.3, 0.1])
MEANS = np.random.default_rng(0).normal(0.0, 1.0, (3, 5))


def draw(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` samples of the fixed population: two views of 5 features, each
    ``MEANS[y]`` plus independent noise (identically distributed given y)."""
    y = rng.choice(3, size=n, p=PRIORS)
    X = np.hstack([MEANS[y] + rng.normal(0.0, 1.2, (n, 5)) for _ in range(2)])
    return X, y


def on_view(view: int, estimator: object) -> object:
    columns = list(range(5 * view, 5 * view + 5))
    select = ColumnTransformer([("view", "passthrough", columns)])
    return make_pipeline(select, estimator)


def candidates(kind: str) -> tuple[object, object]:
    """The pair compared: under "null" the same deterministic tree on view 1
    (A) and on view 2 (B): the views are exchangeable, so the two expected
    macro F1s are equal exactly, while the predictions differ and the folds
    share training data (the case the correction is for)."""
    if kind == "null":
        tree = DecisionTreeClassifier(max_depth=4, random_state=0)
        return on_view(0, tree), on_view(1, clone(tree))
    if kind == "small":  # linear discriminant (near optimal here) vs centroids
        return LinearDiscriminantAnalysis(), NearestCentroid()
    return LinearDiscriminantAnalysis(), LogisticRegression(C=0.01)


def one_repetition(kind: str, scheme: str, n: int, rep: int) -> dict[str, float]:
    warnings.simplefilter("ignore")
    rng = np.random.default_rng([rep, 17])
    X, y = draw(n, rng)
    if scheme == "5-fold":
        cv = StratifiedKFold(5, shuffle=True, random_state=rep)
    elif scheme == "10-fold":
        cv = StratifiedKFold(10, shuffle=True, random_state=rep)
    else:  # "5x2 repeated"
        cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=rep)
    a, b = candidates(kind)
    results = {
        name: cross_validate(
            est, X, y, cv=cv, scoring=make_macro_f1_scoring(), return_indices=True
        )
        for name, est in (("A", a), ("B", b))
    }
    analysis = analyze_search(results)
    out: dict[str, float] = {}
    i, j = analysis.candidates.index("A"), analysis.candidates.index("B")
    for tag, table in (
        ("averaged", analysis.averaged_scores),
        ("of_averages", analysis.of_averages_scores),
    ):
        d = corrected_resampled_ttest(
            table[i] - table[j], test_train_ratio=analysis.test_train_ratio
        )
        out[f"p_{tag}"] = d.p_value
        out[f"p_plain_{tag}"] = d.uncorrected_p_value
    if kind != "null":  # the population difference, on a large test set
        X_big, y_big = draw(5_000, rng)
        pa = a.fit(X, y).predict(X_big)
        pb = b.fit(X, y).predict(X_big)
        out["true_averaged"] = averaged_f1_score(y_big, pa) - averaged_f1_score(
            y_big, pb
        )
        out["true_of_averages"] = f1_of_averages_score(
            y_big, pa
        ) - f1_of_averages_score(y_big, pb)
    return out


def rate(p: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    r = float(np.mean(p < alpha))
    return r, math.sqrt(r * (1 - r) / p.shape[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 repetitions")
    parser.add_argument("--repetitions", type=int, default=500)
    parser.add_argument("--n-samples", type=int, default=300)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).resolve().parent / "out",
        help="folder for search_calibration.md / .json (created if missing)",
    )
    args = parser.parse_args()
    reps = 40 if args.quick else args.repetitions
    warnings.simplefilter("ignore")
    rows = []
    started = time.perf_counter()
    scenarios = [("null", cv) for cv in ("5-fold", "10-fold", "5x2 repeated")] + [
        ("small", "5-fold"),
        ("large", "5-fold"),
    ]
    names = {
        "null": "equal (tree on view 1 vs 2)",
        "small": "LDA vs nearest centroid",
        "large": "LDA vs logistic C=0.01",
    }
    for kind, scheme in scenarios:
        t0 = time.perf_counter()
        res = Parallel(n_jobs=args.n_jobs)(
            delayed(one_repetition)(kind, scheme, args.n_samples, r)
            for r in range(reps)
        )
        row = {
            "pair": names[kind],
            "cv": scheme,
            "repetitions": reps,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        for tag in ("averaged", "of_averages"):
            for which in ("p", "p_plain"):
                p = np.array([r[f"{which}_{tag}"] for r in res])
                row[f"{which}_{tag}"] = rate(p)
            if kind != "null":
                row[f"true_{tag}"] = float(np.mean([r[f"true_{tag}"] for r in res]))
        rows.append(row)
        print(row, flush=True)

    def cell(v: tuple[float, float]) -> str:
        return f"{100 * v[0]:.1f}% ± {100 * v[1]:.1f}"

    lines = [
        "| pair | cv | reps | averaged F1: corrected | uncorrected | "
        "F1 of averages: corrected | uncorrected | population difference "
        "(averaged / of averages) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        truth = (
            "0 (exchangeable views)"
            if row["pair"].startswith("equal")
            else f"{row['true_averaged']:+.3f} / {row['true_of_averages']:+.3f}"
        )
        lines.append(
            f"| {row['pair']} | {row['cv']} | {row['repetitions']} | "
            f"{cell(row['p_averaged'])} | {cell(row['p_plain_averaged'])} | "
            f"{cell(row['p_of_averages'])} | {cell(row['p_plain_of_averages'])} | "
            f"{truth} |"
        )
    env = (
        f"n = {args.n_samples} samples per data set, rejection at 5%, ± one Monte "
        f"Carlo standard error; Python {platform.python_version()}, scikit-learn "
        f"{sklearn.__version__}, numpy {np.__version__}; {args.n_jobs} jobs, "
        f"{os.cpu_count()} CPUs; total {time.perf_counter() - started:.0f} s."
    )
    table = "\n".join(lines)
    print()
    print(table)
    print(env)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "search_calibration.md").write_text(table + "\n\n" + env + "\n")
    (args.output / "search_calibration.json").write_text(
        json.dumps({"rows": rows, "environment": env}, indent=1)
    )
    print(f"written to {args.output}/search_calibration.md and .json")


if __name__ == "__main__":
    main()
