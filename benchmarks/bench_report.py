"""Report benchmark: the classification report, with and without intervals.

Integer labels, k = 10 classes, n = 1e6. Contenders, timed side by side in one
run (interleaved, median of repeated measurements):

- ``averaged_f1_score(y_true, y_pred)``: one score;
- ``classification_report(y_true, y_pred, output_dict=True)``;
- the same report with ``confidence=0.95`` and the default interval method
  ("auto": the Dirichlet posterior for unweighted 1-D labels, 1000 draws of
  the occupied cells per row), which needs only the confusion matrix the
  report already counted;
- as information, the report with ``confidence=0.95`` and the delta method,
  with ``sample_weight`` ("auto" is then the delta method, which reads the
  per-cell sums of squared weights counted with the confusion matrix) and with
  the bootstrap (1000 multinomial replicates of the confusion matrix).

Targets: the report at most 1.3x one ``averaged_f1_score``; the report with
``confidence=0.95`` (default method) at most 1.5x the report without it.

As information too, a multilabel table (dense int64 indicators, n = 1e5, L = 50):
the report with ``confidence=0.95`` (delta method, which reads the 3L x 3L
second moments counted with the counts), without and with ``sample_weight``,
against the report without intervals.

Run: ``python benchmarks/bench_report.py`` (add ``--quick`` for fewer repetitions).
"""

from __future__ import annotations

import numpy as np
from _timing import arguments, fmt_ratio, fmt_time, interleaved, machine, table

from sklearn_macrof1 import averaged_f1_score, classification_report

K = 10
N = 1_000_000
ML_N, ML_L = 100_000, 50


def contenders(y_true: np.ndarray, y_pred: np.ndarray, weights: np.ndarray) -> dict:
    def report(**options):
        return lambda: classification_report(
            y_true, y_pred, output_dict=True, **options
        )

    return {
        "score": lambda: averaged_f1_score(y_true, y_pred),
        "report": report(),
        "report_ci": report(confidence=0.95),
        "report_ci_delta": report(confidence=0.95, interval_method="delta"),
        "report_ci_weighted": report(confidence=0.95, sample_weight=weights),
        "report_ci_bootstrap": report(
            confidence=0.95, interval_method="bootstrap", random_state=0
        ),
    }


def run(repeats: int) -> str:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, K, N)
    y_pred = np.where(rng.random(N) < 0.7, y_true, rng.integers(0, K, N))
    weights = rng.random(N)
    times = interleaved(
        contenders(y_true, y_pred, weights), repeats=repeats, budget=0.1
    )
    report_vs_score = times["report"] / times["score"]
    ci_vs_report = times["report_ci"] / times["report"]
    rows = [
        [
            "report / averaged_f1_score",
            fmt_time(times["report"]),
            fmt_ratio(report_vs_score),
        ],
        [
            "report, confidence=0.95 (auto: delta above 1e5 samples) / report",
            fmt_time(times["report_ci"]),
            fmt_ratio(ci_vs_report),
        ],
        [
            "report, confidence=0.95, delta / report",
            fmt_time(times["report_ci_delta"]),
            fmt_ratio(times["report_ci_delta"] / times["report"]),
        ],
        [
            "report, confidence=0.95, sample_weight (auto: delta) / report",
            fmt_time(times["report_ci_weighted"]),
            fmt_ratio(times["report_ci_weighted"] / times["report"]),
        ],
        [
            "report, confidence=0.95, bootstrap / report",
            fmt_time(times["report_ci_bootstrap"]),
            fmt_ratio(times["report_ci_bootstrap"] / times["report"]),
        ],
    ]
    header = ["case (n=1e6, k=10)", "time", "ratio"]
    # as information: the largest n at which "auto" is the posterior
    small = N // 10
    at_limit = interleaved(
        {
            "report": lambda: classification_report(
                y_true[:small], y_pred[:small], output_dict=True
            ),
            "report_ci": lambda: classification_report(
                y_true[:small], y_pred[:small], output_dict=True, confidence=0.95
            ),
        },
        repeats=repeats,
        budget=0.1,
    )
    rows.append(
        [
            "n=1e5: report, confidence=0.95 (auto: posterior) / report",
            fmt_time(at_limit["report_ci"]),
            fmt_ratio(at_limit["report_ci"] / at_limit["report"]),
        ]
    )
    return f"averaged_f1_score: {fmt_time(times['score'])}\n" + table(header, rows)


def run_multilabel(repeats: int) -> str:
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 2, (ML_N, ML_L))
    y_pred = np.where(rng.random((ML_N, ML_L)) < 0.8, y_true, 1 - y_true)
    weights = rng.random(ML_N)

    def report(**options):
        return lambda: classification_report(
            y_true, y_pred, output_dict=True, zero_division=0.0, **options
        )

    times = interleaved(
        {
            "report": report(),
            "report_ci": report(confidence=0.95),
            "report_ci_weighted": report(confidence=0.95, sample_weight=weights),
        },
        repeats=repeats,
        budget=0.1,
    )
    rows = [
        [name, fmt_time(times[key]), fmt_ratio(times[key] / times["report"])]
        for name, key in (
            ("report", "report"),
            ("report, confidence=0.95 (auto: delta) / report", "report_ci"),
            (
                "report, confidence=0.95, sample_weight / report",
                "report_ci_weighted",
            ),
        )
    ]
    return table(["case (multilabel n=1e5, L=50)", "time", "ratio"], rows)


def main() -> None:
    args = arguments(__doc__)
    print(machine())
    print(run(repeats=3 if args.quick else 7))
    print(run_multilabel(repeats=3 if args.quick else 7))


if __name__ == "__main__":
    main()
