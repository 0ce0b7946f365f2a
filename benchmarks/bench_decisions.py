"""Decision rules tuned for macro F1: held-out gains, vs simpler rules, xCOLUMNs.

Every rule is tuned on validation data and scored on held-out data, under both
formulas (averaged F1 and F1 of averages); mean, standard deviation and, for
differences with argmax, the standard error over seeds.

Tasks (data generated or shipped with scikit-learn, nothing downloaded):

- ``small`` (the estimator with default options, against argmax): per seed a
  stratified 70/30 split of ``load_wine``, ``load_iris`` and ``load_digits``
  subsampled to class sizes ``round(n_c * 0.75 ** rank)`` (at least 12) under a
  random class order; bases ``make_pipeline(StandardScaler(),
  LogisticRegression(max_iter=3000))`` and
  ``HistGradientBoostingClassifier(random_state=0)``; 30 seeds from 1000.
- ``long-tail``: the same protocol on ``make_classification(n_samples=20000,
  n_classes=k, n_features=20, n_informative=12, n_redundant=4,
  n_clusters_per_class=1, weights proportional to 1 / (i + 1), class_sep=s,
  flip_y=0.01)`` for k in (20, 50) and s in (0.5, 1.0), with
  ``LogisticRegression(max_iter=3000)``; 5 seeds from 1000.

  Both run ``MacroF1TunedClassifierCV``'s procedure spelled out (5 stratified
  folds, the rule tuned on the pooled out-of-fold probabilities, the model
  refitted on the whole training part, whose argmax is the baseline), so that
  one set of fits serves every rule compared; the first seed of each set checks
  that ``MacroF1TunedClassifierCV`` predicts the same. Rules: the defaults
  (rule selection on 3 folds), ``selection_cv=None`` (the in-sample optimum)
  and, for F1 of averages, the procedure with the best mean on the selection
  folds without the noise check (``best fold mean``).
- ``synthetic``: ``make_classification(n_samples=60000, n_classes=10,
  n_informative=10, n_redundant=2, n_clusters_per_class=1, weights=w / w.sum(),
  class_sep=1.0, flip_y=0.02)`` with ``w = 0.5 ** arange(10)``;
  ``LogisticRegression(max_iter=3000)`` fitted on a quarter, rules tuned on a
  quarter, scored on the other half; ``balanced``: the same with equal class
  weights (nothing to gain).
- ``multilabel``: ``make_multilabel_classification(n_samples=6000, n_features=20,
  n_classes=12, n_labels=2, allow_unlabeled=False)``, one-vs-rest
  ``LogisticRegression`` fitted on 2000 samples, rules tuned on 2000 and scored on
  2000: thresholds 0.5, ours, and xCOLUMNs (``pip install xcolumns``, a
  benchmark-only dependency): block coordinate ascent for averaged F1 (on the
  test probabilities, its expected-utility mode), Frank-Wolfe (randomised
  classifiers, fitted on the tuning set) for averaged F1 and for F1 of averages.
- ``gaming``: ``make_multilabel_classification(n_samples=10000, n_features=50,
  n_classes=50, n_labels=4)``, one-vs-rest ``LogisticRegression`` fitted on
  half, rules tuned and scored on the other half: how many labels each rule
  predicts for more than 90 % of the samples, its mean per-label F1 and its F1
  of averages, and whether it raises ``GamedScoreWarning``.

``--timing``: seconds to tune on n = 15,000 validation samples with k = 10 and
k = 1,000 classes, and on a multilabel matrix with 1,000 labels.

Run:  python benchmarks/bench_decisions.py                 (every section)
      python benchmarks/bench_decisions.py --sections small long-tail
      python benchmarks/bench_decisions.py --quick         (few seeds, smaller)
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
    load_iris,
    load_wine,
    make_classification,
    make_multilabel_classification,
)
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_macrof1 import (
    GamedScoreWarning,
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


# ----------------------------------------------- small and long-tailed data
SMALL = ("wine", "iris", "long-tailed digits")
LONG_TAILS = ((20, 0.5), (20, 1.0), (50, 0.5), (50, 1.0))
BASES: dict[str, Callable[[], Any]] = {
    "LogisticRegression": lambda: make_pipeline(
        StandardScaler(), LogisticRegression(max_iter=3000)
    ),
    "HistGradientBoosting": lambda: HistGradientBoostingClassifier(random_state=0),
}


def small_data(name: str, seed: int) -> tuple[Any, Any]:
    if name == "wine":
        return load_wine(return_X_y=True)
    if name == "iris":
        return load_iris(return_X_y=True)
    X, y = load_digits(return_X_y=True)
    rng = np.random.default_rng(seed)
    rank = rng.permutation(10)
    keep = []
    for c in range(10):
        members = np.flatnonzero(y == c)
        size = max(12, round(len(members) * 0.75 ** rank[c]))
        keep.append(rng.choice(members, size=size, replace=False))
    index = np.sort(np.concatenate(keep))
    return X[index], y[index]


def long_tail_data(k: int, sep: float, seed: int) -> tuple[Any, Any]:
    w = 1 / np.arange(1, k + 1)
    return make_classification(
        n_samples=20000,
        n_classes=k,
        n_features=20,
        n_informative=12,
        n_redundant=4,
        n_clusters_per_class=1,
        weights=w / w.sum(),
        class_sep=sep,
        flip_y=0.01,
        random_state=seed,
    )


def estimator_rules(
    scores: Scores, X: Any, y: Any, make: Callable[[], Any], seed: int, check: bool
) -> None:
    """Held-out scores of argmax and of the rules ``MacroF1TunedClassifierCV``
    (``random_state=seed``) tunes, from one set of fits: its out-of-fold
    probabilities (5 stratified folds) and its refitted model."""
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=seed
    )
    folds = list(StratifiedKFold(5).split(X_train, y_train))
    rows = np.concatenate([test for _, test in folds])
    oof = np.concatenate(
        [
            make().fit(X_train[train], y_train[train]).predict_proba(X_train[test])
            for train, test in folds
        ]
    )
    model = make().fit(X_train, y_train)
    p_test, classes = model.predict_proba(X_test), model.classes_
    # the estimator draws the seed of a fractional cv's split, then the
    # rule selection's: the same seeds here
    draw = np.random.RandomState(seed)
    draw.randint(np.iinfo(np.int32).max)
    tune_seed = draw.randint(np.iinfo(np.int32).max)
    _record(scores, "argmax", y_test, classes[p_test.argmax(axis=1)])

    def tune(formula: str, **kwargs: Any) -> Any:
        return tune_decision_rule(
            y_train[rows],
            oof,
            formula=formula,
            classes=classes,
            random_state=tune_seed,
            **kwargs,
        )

    for formula in ("averaged", "of_averages"):
        rule = tune(formula)
        predicted = rule.predict(p_test)
        _record(scores, f"{formula}: default", y_test, predicted)
        if check:
            tuned = MacroF1TunedClassifierCV(
                make(), formula=formula, random_state=seed
            ).fit(X_train, y_train)
            assert np.array_equal(tuned.predict(X_test), predicted), (
                "the spelled-out procedure differs from the estimator's"
            )
        free = tune(formula, selection_cv=None).predict(p_test)
        _record(scores, f"{formula}: selection_cv=None", y_test, free)
        if formula == "of_averages":
            selection = rule.selection
            best = selection["procedure"][int(np.argmax(selection["mean_score"]))]
            no_check = (
                classes[p_test.argmax(axis=1)]
                if best == "argmax"
                else tune(best, selection_cv=None).predict(p_test)
            )
            _record(scores, f"{formula}: best fold mean", y_test, no_check)


GAIN_RULES = {
    "averaged: default": "averaged F1",
    "averaged: selection_cv=None": "averaged F1",
    "of_averages: default": "F1 of averages",
    "of_averages: selection_cv=None": "F1 of averages",
    "of_averages: best fold mean": "F1 of averages",
}


def gain_rows(title: str, scores: Scores) -> list[str]:
    """One row per rule: the held-out gain over argmax for the formula it was
    tuned for, mean ± standard error (points), and the worst seed."""
    rows = []
    for rule, formula in GAIN_RULES.items():
        if rule not in scores:
            continue
        diff = 100 * (np.asarray(scores[rule][formula]) - scores["argmax"][formula])
        se = diff.std(ddof=1) / math.sqrt(len(diff))
        rows.append(
            f"| {title} | {rule} | {formula} | {diff.mean():+.2f} ± {se:.2f} | "
            f"{diff.min():+.1f} | {len(diff)} |"
        )
    return rows


GAIN_HEADER = (
    "| data, base | rule | held-out score | gain over argmax (mean ± s.e.) "
    "| worst seed | seeds |\n|---|---|---|---|---|---|"
)


def small_section(seeds: range) -> None:
    print("\n### small data sets: gain over argmax (points, x 100)\n")
    print(GAIN_HEADER, flush=True)
    for name in SMALL:
        for base, make in BASES.items():
            results: Scores = {}
            for seed in seeds:
                X, y = small_data(name, seed)
                estimator_rules(results, X, y, make, seed, check=seed == seeds[0])
            print("\n".join(gain_rows(f"{name}, {base}", results)), flush=True)


def long_tail_section(seeds: range) -> None:
    print("\n### long-tailed make_classification: gain over argmax (points)\n")
    print(GAIN_HEADER, flush=True)
    for k, sep in LONG_TAILS:
        results: Scores = {}
        for seed in seeds:
            X, y = long_tail_data(k, sep, seed)
            estimator_rules(
                results,
                X,
                y,
                lambda: LogisticRegression(max_iter=3000),
                seed,
                check=False,
            )
        title = f"k={k}, class_sep={sep}, LogisticRegression"
        print("\n".join(gain_rows(title, results)), flush=True)


def gaming_section(seed: int = 0) -> None:
    X, Y = make_multilabel_classification(
        n_samples=10000, n_features=50, n_classes=50, n_labels=4, random_state=seed
    )
    model = OneVsRestClassifier(LogisticRegression(max_iter=2000))
    model.fit(X[:5000], Y[:5000])
    y_val, p_val = Y[5000:7500], model.predict_proba(X[5000:7500])
    y_test, p_test = Y[7500:], model.predict_proba(X[7500:])
    print("\n### gaming F1 of averages (multilabel, 50 labels, held out)\n")
    print(
        "| rule | labels predicted for > 90 % of samples | mean per-label F1 "
        "| F1 of averages | GamedScoreWarning |\n|---|---|---|---|---|"
    )
    rules: dict[str, Any] = {"thresholds 0.5": (p_test > 0.5).astype(int)}
    warned: dict[str, str] = {"thresholds 0.5": ""}
    for formula in ("averaged", "of_averages"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rule = tune_decision_rule(y_val, p_val, formula=formula, random_state=0)
        name = f"tuned for {FORMULA_NAMES[formula]}"
        rules[name] = rule.predict(p_test)
        warned[name] = (
            "yes" if any(w.category is GamedScoreWarning for w in caught) else "no"
        )
    for name, predicted in rules.items():
        share = np.asarray(predicted).mean(axis=0)
        print(
            f"| {name} | {int((share > 0.9).sum())} | "
            f"{averaged_f1_score(y_test, predicted, zero_division=0):.3f} | "
            f"{f1_of_averages_score(y_test, predicted, zero_division=0):.3f} | "
            f"{warned[name]} |"
        )


FORMULA_NAMES = {"averaged": "averaged F1", "of_averages": "F1 of averages"}


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
    print("| case | formula | seconds | CPU seconds |\n|---|---|---|---|")
    for k in (10, 1000):
        prior = 0.7 ** (np.arange(k) % 12)
        prior /= prior.sum()
        y = rng.choice(k, size=n, p=prior)
        logits = rng.normal(size=(n, k)) + 2.0 * np.eye(k, dtype=np.float32)[y]
        proba = np.exp(logits + np.log(prior))
        proba /= proba.sum(axis=1, keepdims=True)
        for formula, selection in [
            ("averaged", None),
            ("averaged", "auto"),
            ("of_averages", None),
            ("of_averages", "auto"),
        ]:
            start, cpu = time.perf_counter(), time.process_time()
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
                f"{time.perf_counter() - start:.2f} | "
                f"{time.process_time() - cpu:.2f} |",
                flush=True,
            )
    n_labels = 1000
    marginal = 0.2 * 0.995 ** np.arange(n_labels)
    Y = (rng.random((n, n_labels)) < marginal).astype(np.int8)
    scores = np.clip(
        marginal + 0.3 * (Y - marginal) + rng.normal(0, 0.1, Y.shape), 0, 1
    )
    for formula, average, selection in [
        ("averaged", "macro", None),
        ("averaged", "micro", None),
        ("averaged", "samples", None),
        ("of_averages", "macro", None),
        ("averaged", "macro", "auto"),
        ("of_averages", "macro", "auto"),
    ]:
        start, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GamedScoreWarning)
            tune_decision_rule(
                Y,
                scores,
                formula=formula,
                average=average,
                selection_cv=selection,
                random_state=0,
            )
        label = f"{formula} ({average})" + (
            " + selection (3 folds)" if selection else ""
        )
        print(
            f"| multilabel n={n:,} L={n_labels:,} | {label} | "
            f"{time.perf_counter() - start:.2f} | "
            f"{time.process_time() - cpu:.2f} |",
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


SECTIONS = ("small", "long-tail", "synthetic", "multilabel", "gaming")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few seeds, smaller")
    parser.add_argument("--timing", action="store_true", help="timings only")
    parser.add_argument(
        "--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS)
    )
    parser.add_argument("--seeds", type=int, default=5, help="synthetic, multilabel")
    parser.add_argument("--small-seeds", type=int, default=30)
    parser.add_argument("--long-tail-seeds", type=int, default=5)
    parser.add_argument("--seed-start", type=int, default=1000, help="small, long-tail")
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
    start = args.seed_start
    if "small" in args.sections:
        small_section(range(start, start + (3 if args.quick else args.small_seeds)))
    if "long-tail" in args.sections:
        n = 2 if args.quick else args.long_tail_seeds
        long_tail_section(range(start, start + n))
    seeds = range(2 if args.quick else args.seeds)
    if "synthetic" in args.sections:
        n = 20000 if args.quick else 60000
        for title, balanced in [("synthetic (long tail)", False), ("balanced", True)]:
            results: Scores = {}
            for seed in seeds:
                data = synthetic(seed, balanced=balanced, n=n)
                multiclass_rules(results, seed, *data[:4])
            print(f"\n### {title}, {len(seeds)} seeds (points, x 100)\n")
            print(table(results, "argmax"))
            print(
                "\nprocedure chosen for F1 of averages:",
                results["_chosen"]["procedure"],
            )
            print(
                paired(
                    results, "tuned: F1 of averages (selection)", "tuned: averaged F1"
                )
            )
    if "multilabel" in args.sections:
        results = {}
        for seed in seeds:
            data = multilabel(seed, 3000 if args.quick else 6000)
            multilabel_rules(results, seed, *data)
        print(f"\n### multilabel, {len(seeds)} seeds\n")
        print(table(results, "threshold 0.5"))
        print(
            paired(results, "tuned: F1 of averages (selection)", "tuned: averaged F1")
        )
        if "xCOLUMNs BCA, averaged F1" in results:
            print(paired(results, "tuned: averaged F1", "xCOLUMNs BCA, averaged F1"))
        if XCOLUMNS_ERROR:
            print(f"\nxCOLUMNs not run: {XCOLUMNS_ERROR}")
    if "gaming" in args.sections:
        gaming_section()
    if args.figure:
        figure(args.figure)


if __name__ == "__main__":
    main()
