"""Cost of checking a call's options: the option table against scikit-learn's.

Every public function checks its options once, by one table
(``sklearn_macrof1._options.OPTIONS``, entry point
``check_options_of``). This script times, side by side in one run, the table's
entry point on the five options of a score function, the ``check_options``
wrapper the score functions call (the table plus the ``Options`` record), the
same five options checked by scikit-learn's ``validate_params`` (its
decorator on a function that does nothing, with constraints like those of
``sklearn.metrics.fbeta_score``), and a whole ``averaged_f1_score`` call on
integer labels at n = 100 (where the 20x target leaves about 3 us of room).

Run: ``python benchmarks/bench_options.py`` (``--quick``: fewer repetitions).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from _timing import arguments, fmt_time, interleaved
from sklearn.utils._param_validation import (
    Interval,
    Options,
    StrOptions,
    validate_params,
)

from sklearn_macrof1 import averaged_f1_score
from sklearn_macrof1._formulas._evaluation import check_options

try:  # the table's entry point (absent before the table existed)
    from sklearn_macrof1._options import check_options_of
except ImportError:  # pragma: no cover
    check_options_of = None


@validate_params(
    {
        "y_true": ["array-like", "sparse matrix"],
        "y_pred": ["array-like", "sparse matrix"],
        "beta": [Interval(Real, 0.0, None, closed="both")],
        "labels": ["array-like", None],
        "pos_label": [Real, str, "boolean", None],
        "average": [
            StrOptions({"micro", "macro", "samples", "weighted", "binary"}),
            None,
        ],
        "sample_weight": ["array-like", None],
        "zero_division": [Options(Real, {0.0, 1.0}), "nan", StrOptions({"warn"})],
    },
    prefer_skip_nested_validation=True,
)
def _sklearn_checked(
    y_true: object,
    y_pred: object,
    *,
    beta: float = 1.0,
    labels: object = None,
    pos_label: object = 1,
    average: object = "macro",
    sample_weight: object = None,
    zero_division: object = "warn",
) -> None:
    """Nothing: what remains is scikit-learn's parameter validation."""


def main() -> None:
    args = arguments(__doc__)
    rng = np.random.default_rng(0)
    yt = rng.integers(0, 3, 100)
    yp = np.where(rng.random(100) < 0.7, yt, rng.integers(0, 3, 100))
    options = dict(beta=1.0, labels=None, pos_label=1, average="macro")
    contenders = {
        "check_options (score functions)": lambda: check_options(
            caller="averaged_f1_score", zero_division="warn", **options
        ),
        "sklearn validate_params": lambda: _sklearn_checked(
            yt, yp, zero_division="warn", **options
        ),
        "averaged_f1_score n=100": lambda: averaged_f1_score(yt, yp),
    }
    if check_options_of is not None:
        contenders["check_options_of (the table)"] = lambda: check_options_of(
            "averaged_f1_score", zero_division="warn", **options
        )
    times = interleaved(contenders, repeats=3 if args.quick else 9, budget=0.05)
    for name, seconds in times.items():
        print(f"{name:<34} {fmt_time(seconds)}")


if __name__ == "__main__":
    main()
