"""Decision rules tuned for macro F1: held-out gains, vs simpler rules, xCOLUMNs.

Every rule is tuned on validation data and scored on held-out data, under both
formulas (averaged F1 and F1 of averages); mean, standard deviation and, for
differences with argmax, the standard error over seeds.

Tasks (data generated or shipped with scikit-learn, nothing downloaded):

- ``synthetic``: ``make_classification(n_samples=60000, n_classes=10,
  n_informative=10, n_redundant=2, n_clusters_per_class=1, weights=w / w.sum(),
  class_sep=1.0, flip_y=0.02)`` with ``w = 0.5 ** arange(10)``;
  ``LogisticRegression(max_iter=3000)`` fitted on a quarter, rules tuned on a
  quarter, scored on the other half.
- ``balanced``: the same with equal class weights (nothing to gain).
- ``digits``: ``load_digits`` subsampled to a long tail (class sizes 0.6 ** rank
  of a shuffled class order, at least 8), split in halves; standardised
  ``LogisticRegression`` against ``MacroF1TunedClassifierCV`` (5 folds).
- ``multilabel``: ``make_multilabel_classification(n_samples=6000, n_features=20,
  n_classes=12, n_labels=2, allow_unlabeled=False)``, one-vs-rest
  ``LogisticRegression`` fitted on 2000 samples, rules tuned on 2000 and scored on
  2000: thresholds 0.5, ours, and xCOLUMNs (``pip install xcolumns``, a
  benchmark-only dependency): block coordinate ascent for averaged F1 (on the
  test probabilities, its expected-utility mode), Frank-Wolfe (randomised
  classifiers, fitted on the tuning set) for averaged F1 and for F1 of averages.

``--timing``: seconds to tune on n = 15,000 validation samples with k = 10 and
k = 1,000 classes, and on a multilabel matrix with 1,000 labels.

Run:  python benchmarks/bench_decisions.py                 (about 10 minutes)
      python benchmarks/bench_decisions.py --quick         (2 seeds, smaller)
      python benchmarks/bench_decisions.py --timing        (timings only)
      python benchmarks/bench_decisions.py --figure PATH   (also draw the figure)
"""

from __future__ import annotations

import argparse
import math
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.datasets import (
    load_digits,
    make_classification,
    make_multilabel_classification,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_macrof1 import (
    MacroF1TunedClassifierCV,
    averaged_f1_score,
    f1_of_averages_score,
    tune_decision_rule,
)

try:
    import xcolumns.block_coordinate as xc_bc
    import xcolumns.frank_wolfe as xc_fw
    import xcolumns.metrics as xc_metrics

    XCOLUMNS_ERROR = None
except Exception as exc:  # benchmark-only dependency
    xc_bc = xc_fw = xc_metrics = None
    XCOLUMNS_ERROR = f"{type(exc).__name__}: {exc}"

Scores = dict[str, dict[str, list[float]]]  # rule -> formula -> one per seed
FORMULAS = {"averaged F1": averaged_f1_score, "F1 of averages": f1_of_averages_score}


def _record(scores: Scores, rule: str, y: Any, predicted: Any) -> None:
    for name, score in FORMULAS.items():
        value = score(y, predicted, zero_division=0)
        scores.setdefault(rule, {}).setdefault(name, []).append(value)


# ------------------------------------------------------------------ tasks
def synthetic(seed: int, *, balanced: bool, n: int) -> tuple[Any, ...]:
    w = np.ones(10) if balanced else 0.5 ** np.arange(10)
    X, y = make_classification(
        n_samples=n,
        n_classes=10,
        n_informative=10,
        n_redundant=2,
        n_clusters_per_class=1,
        weights=w / w.sum(),
        class_sep=1.0,
        flip_y=0.02,
        random_state=seed,
    )
    q = n // 4
    model = LogisticRegression(max_iter=3000).fit(X[:q], y[:q])
    return (
        y[q : 2 * q],
        model.predict_proba(X[q : 2 * q]),
        y[2 * q :],
        model.predict_proba(X[2 * q :]),
        model.classes_,
    )


def multiclass_rules(
    scores: Scores, seed: int, y_val: Any, p_val: Any, y_test: Any, p_test: Any
) -> None:
    _record(scores, "argmax", y_test, p_test.argmax(axis=1))
    rules = {
        "tuned: averaged F1": {"formula": "averaged"},
        "tuned: averaged F1, smoothing=0": {"formula": "averaged", "smoothing": 0.0},
        "tuned: F1 of averages (selection)": {"formula": "of_averages"},
        "tuned: F1 of averages, no selection": {
            "formula": "of_averages",
            "selection_cv": None,
        },
    }
    for name, kwargs in rules.items():
        rule = tune_decision_rule(y_val, p_val, random_state=seed, **kwargs)
        _record(scores, name, y_test, rule.predict(p_test))
        if name.endswith("(selection)"):
            scores.setdefault("_chosen", {}).setdefault("procedure", []).append(
                rule.procedure
            )


def long_tailed_digits(seed: int) -> tuple[Any, ...]:
    X, y = load_digits(return_X_y=True)
    rng = np.random.default_rng(seed)
    rank = rng.permutation(10)
    keep = []
    for c in range(10):
        members = np.flatnonzero(y == c)
        size = max(8, int(round(len(members) * 0.6 ** rank[c])))
        keep.append(rng.choice(members, size=size, replace=False))
    index = np.concatenate(keep)
    return train_test_split(
        X[index], y[index], test_size=0.5, stratify=y[index], random_state=seed
    )


def digits_rules(scores: Scores, seed: int) -> None:
    X_train, X_test, y_train, y_test = long_tailed_digits(seed)

    def model() -> Any:
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))

    _record(scores, "argmax", y_test, model().fit(X_train, y_train).predict(X_test))
    for name, formula in [
        ("tuned: averaged F1", "averaged"),
        ("tuned: F1 of averages (selection)", "of_averages"),
    ]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # rare classes in folds
            tuned = MacroF1TunedClassifierCV(
                model(), formula=formula, random_state=seed
            ).fit(X_train, y_train)
        _record(scores, name, y_test, tuned.predict(X_test))


def multilabel(seed: int, n: int) -> tuple[Any, ...]:
    X, Y = make_multilabel_classification(
        n_samples=n,
        n_features=20,
        n_classes=12,
        n_labels=2,
        allow_unlabeled=False,
        random_state=seed,
    )
    third = n // 3
    model = OneVsRestClassifier(LogisticRegression(max_iter=2000))
    model.fit(X[:third], Y[:third])
    return (
        Y[third : 2 * third],
        model.predict_proba(X[third : 2 * third]),
        Y[2 * third :],
        model.predict_proba(X[2 * third :]),
    )


def _f1_of_averages_on_conf_matrix(tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
    precision = (tp / (tp + fp + 1e-9)).mean()
    recall = (tp / (tp + fn + 1e-9)).mean()
    return 2 * precision * recall / (precision + recall + 1e-9)


def multilabel_rules(
    scores: Scores, seed: int, y_val: Any, p_val: Any, y_test: Any, p_test: Any
) -> None:
    _record(scores, "threshold 0.5", y_test, (p_test > 0.5).astype(int))
    for name, formula in [
        ("tuned: averaged F1", "averaged"),
        ("tuned: F1 of averages (selection)", "of_averages"),
    ]:
        rule = tune_decision_rule(y_val, p_val, formula=formula, random_state=seed)
        _record(scores, name, y_test, rule.predict(p_test))
    if xc_bc is None:
        return
    predicted = xc_bc.predict_optimizing_macro_f1_score_using_bc(p_test, k=0, seed=seed)
    _record(scores, "xCOLUMNs BCA, averaged F1", y_test, _dense(predicted))
    fw_rules: dict[str, Callable[..., Any]] = {
        # xcolumns 0.0.2's find_classifier_optimizing_macro_f1_score_using_fw
        # passes a (y_true, y_pred) metric where a confusion-matrix one is
        # needed (TypeError): the generic entry point with the right metric
        "xCOLUMNs FW, averaged F1": lambda: xc_fw.find_classifier_using_fw(
            y_val, p_val, xc_metrics.macro_f1_score_on_conf_matrix, k=0, seed=seed
        ),
        "xCOLUMNs FW, F1 of averages": lambda: xc_fw.find_classifier_using_fw(
            y_val, p_val, _f1_of_averages_on_conf_matrix, k=0, seed=seed
        ),
    }
    for name, fit in fw_rules.items():
        classifier = fit()
        _record(scores, name, y_test, _dense(classifier.predict(p_test, seed=seed)))


def _dense(matrix: Any) -> Any:
    return matrix.toarray() if hasattr(matrix, "toarray") else np.asarray(matrix)


# ------------------------------------------------------------------ output
def table(scores: Scores, baseline: str) -> str:
    """Mean ± sd over seeds of each rule, and its difference with the baseline
    (mean ± standard error), in points (x 100)."""
    lines = [
        "| rule | averaged F1 | vs " + baseline + " | F1 of averages | vs "
        f"{baseline} |",
        "|---|---|---|---|---|",
    ]
    base = scores[baseline]
    for rule, by_formula in scores.items():
        if rule.startswith("_"):
            continue
        cells = [rule]
        for formula in FORMULAS:
            values = 100 * np.asarray(by_formula[formula])
            cells.append(f"{values.mean():.1f} ± {values.std(ddof=1):.1f}")
            if rule == baseline:
                cells.append("")
                continue
            diff = values - 100 * np.asarray(base[formula])
            se = diff.std(ddof=1) / math.sqrt(len(diff))
            cells.append(f"{diff.mean():+.1f} ± {se:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired(scores: Scores, rule: str, other: str) -> str:
    """Per-seed differences of two rules under both formulas (points)."""
    lines = []
    for formula in FORMULAS:
        diff = 100 * (np.asarray(scores[rule][formula]) - scores[other][formula])
        se = diff.std(ddof=1) / math.sqrt(len(diff))
        lines.append(
            f"{formula}: {rule} minus {other}: {diff.mean():+.2f} ± {se:.2f} "
            f"(per seed: {' '.join(f'{d:+.1f}' for d in diff)})"
        )
    return "\n".join(lines)


def timing() -> None:
    rng = np.random.default_rng(0)
    n = 15_000
    print("| case | formula | seconds |\n|---|---|---|")
    for k in (10, 1000):
        prior = 0.7 ** (np.arange(k) % 12)
        prior /= prior.sum()
        y = rng.choice(k, size=n, p=prior)
        logits = rng.normal(size=(n, k)) + 2.0 * np.eye(k, dtype=np.float32)[y]
        proba = np.exp(logits + np.log(prior))
        proba /= proba.sum(axis=1, keepdims=True)
        for formula, selection in [
            ("averaged", None),
            ("of_averages", None),
            ("of_averages", "auto"),
        ]:
            start = time.perf_counter()
            tune_decision_rule(
                y,
                proba,
                classes=np.arange(k),
                formula=formula,
                selection_cv=selection,
                random_state=0,
            )
            label = formula + (" + selection (3 folds)" if selection else "")
            print(
                f"| multiclass n={n:,} k={k:,} | {label} | "
                f"{time.perf_counter() - start:.2f} |",
                flush=True,
            )
    n_labels = 1000
    marginal = 0.2 * 0.995 ** np.arange(n_labels)
    Y = (rng.random((n, n_labels)) < marginal).astype(np.int8)
    scores = np.clip(
        marginal + 0.3 * (Y - marginal) + rng.normal(0, 0.1, Y.shape), 0, 1
    )
    for formula, average in [
        ("averaged", "macro"),
        ("averaged", "micro"),
        ("averaged", "samples"),
        ("of_averages", "macro"),
    ]:
        start = time.perf_counter()
        tune_decision_rule(
            Y, scores, formula=formula, average=average, selection_cv=None
        )
        print(
            f"| multilabel n={n:,} L={n_labels:,} | {formula} ({average}) | "
            f"{time.perf_counter() - start:.2f} |",
            flush=True,
        )


def figure(path: str, seed: int = 0) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sklearn_macrof1 import averaged_fbeta_score

    y_val, p_val, y_test, p_test, classes = synthetic(seed, balanced=False, n=60000)
    rule = tune_decision_rule(y_val, p_val)
    before = averaged_fbeta_score(y_test, p_test.argmax(axis=1), beta=1, average=None)
    after = averaged_fbeta_score(y_test, rule.predict(p_test), beta=1, average=None)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = np.arange(len(classes))
    left.bar(x - 0.2, before, 0.4, label=f"argmax (macro {before.mean():.3f})")
    left.bar(x + 0.2, after, 0.4, label=f"tuned rule (macro {after.mean():.3f})")
    left.set_xticks(x, [f"{c}\n{100 * np.mean(y_test == c):.1f}" for c in classes])
    left.tick_params(axis="x", labelsize=8)
    left.set_xlabel("class (% of the held-out samples)")
    left.set_ylabel("held-out F1 of the class")
    left.set_title("Synthetic task, seed 0: per-class F1")
    ax2 = left.twinx()
    ax2.plot(x, rule.weights, "k.--", label="learned weight w (right axis)")
    ax2.set_ylabel("weight w (rule: argmax w·p − b)")
    ax2.set_yscale("log")
    bars, names = left.get_legend_handles_labels()
    line, name = ax2.get_legend_handles_labels()
    left.legend(bars + line, names + name, loc="upper center", fontsize=8)
    left.set_ylim(0, 1.15)
    right.set_title("Held-out scores per seed")
    results: Scores = {}
    for s in range(5):
        data = synthetic(s, balanced=False, n=60000)
        multiclass_rules(results, s, *data[:4])
    for rule_name, marker in [
        ("argmax", "o"),
        ("tuned: averaged F1", "s"),
        ("tuned: F1 of averages (selection)", "^"),
    ]:
        for formula, colour in zip(FORMULAS, ("C0", "C1"), strict=True):
            right.plot(
                range(5),
                results[rule_name][formula],
                marker=marker,
                color=colour,
                linestyle="-" if rule_name != "argmax" else ":",
                label=f"{rule_name} — {formula}",
            )
    right.set_xlabel("seed")
    right.set_xticks(range(5))
    right.set_ylabel("held-out score")
    right.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"figure written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds, smaller")
    parser.add_argument("--timing", action="store_true", help="timings only")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--figure", help="also draw the figure to this PNG")
    parser.add_argument(
        "--figure-only", action="store_true", help="draw the figure, no tables"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.timing:
        timing()
        return
    if args.figure_only:
        figure(args.figure or "decisions.png")
        return
    seeds = range(2 if args.quick else args.seeds)
    n = 20000 if args.quick else 60000
    for title, balanced in [("synthetic (long tail)", False), ("balanced", True)]:
        results: Scores = {}
        for seed in seeds:
            data = synthetic(seed, balanced=balanced, n=n)
            multiclass_rules(results, seed, *data[:4])
        print(f"\n### {title}, {len(seeds)} seeds (points, x 100)\n")
        print(table(results, "argmax"))
        print("\nprocedure chosen for F1 of averages:", results["_chosen"]["procedure"])
        print(
            paired(results, "tuned: F1 of averages (selection)", "tuned: averaged F1")
        )
    results = {}
    for seed in range(2 * len(seeds)):
        digits_rules(results, seed)
    print(f"\n### long-tailed load_digits, {2 * len(seeds)} seeds\n")
    print(table(results, "argmax"))
    print(paired(results, "tuned: F1 of averages (selection)", "tuned: averaged F1"))
    results = {}
    for seed in seeds:
        data = multilabel(seed, 3000 if args.quick else 6000)
        multilabel_rules(results, seed, *data)
    print(f"\n### multilabel, {len(seeds)} seeds\n")
    print(table(results, "threshold 0.5"))
    print(paired(results, "tuned: F1 of averages (selection)", "tuned: averaged F1"))
    if "xCOLUMNs BCA, averaged F1" in results:
        print(paired(results, "tuned: averaged F1", "xCOLUMNs BCA, averaged F1"))
    if XCOLUMNS_ERROR:
        print(f"\nxCOLUMNs not run: {XCOLUMNS_ERROR}")
    if args.figure:
        figure(args.figure)


if __name__ == "__main__":
    main()
