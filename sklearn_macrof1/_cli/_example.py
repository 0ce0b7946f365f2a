"""The built-in example of ``macrof1``: two macro F1s, two rankings.

Three seeded classifiers are trained on a long-tailed subsample of scikit-learn's
bundled handwritten digits (no download) and scored with both macro F1s. The two
decision trees differ only in ``class_weight``: the balanced one predicts the rare
digits more often, trading precision for recall on them. The averaged F1 (the mean
of the per-class F1, ``sklearn.metrics.f1_score``) prefers the plain tree; the F1 of
averages (harmonic mean of macro precision and macro recall) prefers the balanced
tree. Everything is deterministic (fixed seeds) and runs in about a second.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._results._summary import FBetaSummary

#: Fraction of each digit kept: digit k keeps ``DECAY ** k`` of its images
#: (at least ``MIN_PER_CLASS``), so digit 0 has ~178 images and 4..9 have 10.
DECAY = 0.4
MIN_PER_CLASS = 10
SEED = 2
TREE_DEPTH = 4
DATASET = "sklearn.datasets.load_digits (8x8 handwritten digits, 10 classes)"
SETUP = (
    f"long-tailed subsample (digit k keeps {DECAY}**k of its images, at least "
    f"{MIN_PER_CLASS}), stratified 50/50 train/test split, seed {SEED}, "
    "zero_division=0"
)


@dataclass(frozen=True)
class ExampleRow:
    """One classifier's scores in the example."""

    name: str
    summary: FBetaSummary
    rank_averaged_f1: int
    rank_f1_of_averages: int


@dataclass(frozen=True)
class Disagreement:
    """A pair of classifiers that the two macro F1s order differently."""

    preferred_by_averaged_f1: str
    preferred_by_f1_of_averages: str
    averaged_f1_difference: float
    f1_of_averages_difference: float


@dataclass(frozen=True)
class ExampleResult:
    """Everything the example computed."""

    dataset: str
    setup: str
    n_train: int
    n_test: int
    test_support: list[int]
    rows: list[ExampleRow]
    disagreements: list[Disagreement]


def _classifiers() -> list[tuple[str, Any]]:
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    return [
        (
            f"decision tree (depth {TREE_DEPTH})",
            DecisionTreeClassifier(max_depth=TREE_DEPTH, random_state=SEED),
        ),
        (
            f"decision tree (depth {TREE_DEPTH}, balanced)",
            DecisionTreeClassifier(
                max_depth=TREE_DEPTH, class_weight="balanced", random_state=SEED
            ),
        ),
        ("Gaussian naive Bayes", GaussianNB()),
    ]


def _long_tailed_digits() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    rng = np.random.RandomState(SEED)
    keep = np.zeros(y.shape[0], dtype=bool)
    for k in np.unique(y):
        idx = np.flatnonzero(y == k)
        n = min(idx.shape[0], max(MIN_PER_CLASS, int(idx.shape[0] * DECAY**k)))
        keep[rng.choice(idx, n, replace=False)] = True
    return X[keep], y[keep]


def _ranks(values: list[float]) -> list[int]:
    """1 = best; ties share the better rank."""
    return [1 + sum(other > v for other in values) for v in values]


def run_example() -> ExampleResult:
    """Train the example's classifiers and score them with both macro F1s."""
    from sklearn.model_selection import train_test_split

    from .._results._scores import fbeta_summary

    X, y = _long_tailed_digits()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.5, stratify=y, random_state=SEED
    )
    named = []
    for name, clf in _classifiers():
        y_pred = clf.fit(X_train, y_train).predict(X_test)
        named.append((name, fbeta_summary(y_test, y_pred, zero_division=0.0)))
    averaged = [float(s.averaged_fbeta) for _, s in named]
    of_averages = [float(s.fbeta_of_averages) for _, s in named]
    rank_a, rank_b = _ranks(averaged), _ranks(of_averages)
    rows = [
        ExampleRow(name, s, ra, rb)
        for (name, s), ra, rb in zip(named, rank_a, rank_b, strict=True)
    ]
    disagreements = []
    for i, j in itertools.combinations(range(len(rows)), 2):
        d_avg = averaged[i] - averaged[j]
        d_of = of_averages[i] - of_averages[j]
        if d_avg * d_of < 0:
            first, second = (rows[i], rows[j]) if d_avg > 0 else (rows[j], rows[i])
            disagreements.append(
                Disagreement(first.name, second.name, abs(d_avg), abs(d_of))
            )
    return ExampleResult(
        dataset=DATASET,
        setup=SETUP,
        n_train=int(y_train.shape[0]),
        n_test=int(y_test.shape[0]),
        test_support=np.bincount(y_test).tolist(),
        rows=rows,
        disagreements=disagreements,
    )


def conclusion(result: ExampleResult) -> str:
    """One line saying whether and by how much the two rankings differ."""
    if not result.disagreements:
        return "The two macro F1s rank these classifiers the same way."
    d = max(
        result.disagreements,
        key=lambda d: min(d.averaged_f1_difference, d.f1_of_averages_difference),
    )
    return (
        f"The two macro F1s disagree: averaged F1 prefers {d.preferred_by_averaged_f1}"
        f" by {d.averaged_f1_difference:.4f}, F1 of averages prefers "
        f"{d.preferred_by_f1_of_averages} by {d.f1_of_averages_difference:.4f}."
    )


def format_example(result: ExampleResult, *, digits: int = 4) -> str:
    """The example as a text table and a one-line conclusion."""
    name_width = max(len("classifier"), *(len(r.name) for r in result.rows))
    columns = [
        ("averaged F1", lambda r: r.summary.averaged_fbeta),
        ("rank", lambda r: r.rank_averaged_f1),
        ("F1 of averages", lambda r: r.summary.fbeta_of_averages),
        ("rank", lambda r: r.rank_f1_of_averages),
        ("gap", lambda r: r.summary.gap),
        ("macro P", lambda r: r.summary.precision),
        ("macro R", lambda r: r.summary.recall),
    ]

    widths = [max(len(title), digits + 2) for title, _ in columns]

    def line(first: str, cells: list[str]) -> str:
        padded = (f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
        return f"{first:<{name_width}}  " + "  ".join(padded)

    def cell(value: Any) -> str:
        if isinstance(value, int):  # a rank
            return str(value)
        return "nan" if math.isnan(value) else format(value, f".{digits}f")

    head = line("classifier", [title for title, _ in columns])
    lines = [
        "macrof1 example: the two macro F1s on the same predictions",
        "",
        f"data:    {result.dataset}",
        f"setup:   {result.setup}",
        f"         {result.n_train} training images, {result.n_test} test images; "
        f"test images per digit: {' '.join(map(str, result.test_support))}",
        "",
        head,
        "-" * len(head),
        *(
            line(row.name, [cell(get(row)) for _, get in columns])
            for row in result.rows
        ),
        "",
        "averaged F1:    mean of the per-class F1 (sklearn.metrics.f1_score, "
        "average='macro')",
        "F1 of averages: harmonic mean of macro precision (macro P) and macro "
        "recall (macro R)",
        "",
        conclusion(result),
    ]
    return "\n".join(lines) + "\n"
