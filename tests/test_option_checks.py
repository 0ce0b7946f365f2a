"""Each public call checks its options once, through the option table.

The table (``sklearn_macrof1._options.OPTIONS``) says for every option
what it accepts and how it is checked; ``check_options_of`` checks the options
of one call and names the public function in every message. Here every public
call is counted: one check, naming the function, covering its options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from _option_checks import counting_option_checks
from sklearn.utils._param_validation import InvalidParameterError

import sklearn_macrof1 as m

# the option table and its checker have no public face (each public function
# reaches them through its own options); tested here directly
from sklearn_macrof1._options import OPTIONS, check_options_of

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

RNG = np.random.default_rng(0)
Y_TRUE = RNG.integers(0, 3, 60)
Y_PRED = np.where(RNG.random(60) < 0.7, Y_TRUE, RNG.integers(0, 3, 60))
Y_OTHER = np.where(RNG.random(60) < 0.7, Y_TRUE, RNG.integers(0, 3, 60))
MATRIX = [[10, 2, 1], [3, 12, 0], [1, 1, 9]]
SUMMARY = m.fbeta_summary(Y_TRUE, Y_PRED)

SCORE = {"beta", "labels", "pos_label", "average", "zero_division"}
INTERVAL = {"confidence", "method", "n_resamples", "verbose"}
REPORT = {"digits", "output_dict", "as_frame", "labels", "zero_division"}


def _display() -> Any:
    pytest.importorskip("matplotlib")  # the [plot] extra
    return m.MacroF1Display.from_predictions(Y_TRUE, Y_PRED)


def _accumulated() -> Any:
    accumulator = m.MacroF1Accumulator()
    accumulator.update(Y_TRUE, Y_PRED)
    return accumulator


#: (public function, call, the options its one check covers)
CHECKED_ONCE: list[tuple[str, Callable[[], Any], set[str]]] = [
    ("averaged_f1_score", lambda: m.averaged_f1_score(Y_TRUE, Y_PRED), SCORE),
    (
        "averaged_fbeta_score",
        lambda: m.averaged_fbeta_score(Y_TRUE, Y_PRED, beta=2),
        SCORE,
    ),
    ("f1_of_averages_score", lambda: m.f1_of_averages_score(Y_TRUE, Y_PRED), SCORE),
    (
        "fbeta_of_averages_score",
        lambda: m.fbeta_of_averages_score(Y_TRUE, Y_PRED, beta=2),
        SCORE,
    ),
    ("fbeta_summary", lambda: m.fbeta_summary(Y_TRUE, Y_PRED), SCORE),
    (
        "fbeta_summary",
        lambda: m.fbeta_summary(
            m.MacroF1Counts.from_confusion_matrix(MATRIX, rows="true")
        ),
        SCORE,
    ),
    (
        "fbeta_summary",
        lambda: m.fbeta_summary(
            m.MacroF1Counts.from_confusion_matrix(MATRIX, rows="true")
        ).gap_attribution(),
        SCORE,
    ),
    ("make_averaged_fbeta_scorer", lambda: m.make_averaged_fbeta_scorer(), SCORE),
    (
        "MacroF1Display.from_predictions",
        lambda: _display(),
        SCORE,
    ),
    ("fbeta_summary", lambda: m.fbeta_summary(_accumulated().counts), SCORE),
    (
        "fbeta_confidence_interval",
        lambda: m.fbeta_confidence_interval(Y_TRUE, Y_PRED),
        SCORE | INTERVAL,
    ),
    (
        "fbeta_confidence_interval",
        lambda: m.fbeta_confidence_interval(
            Y_TRUE, Y_PRED, method="bootstrap", n_resamples=20, random_state=0
        ),
        SCORE | INTERVAL | {"random_state"},
    ),
    (
        "FBetaSummary.confidence_interval",
        lambda: SUMMARY.confidence_interval(),
        INTERVAL,
    ),
    (
        "compare_classifiers",
        lambda: m.compare_classifiers(Y_TRUE, Y_PRED, Y_OTHER),
        SCORE | INTERVAL,
    ),
    (
        "classification_report",
        lambda: m.classification_report(Y_TRUE, Y_PRED),
        REPORT,
    ),
    (
        "classification_report",
        lambda: m.classification_report(Y_TRUE, Y_PRED, confidence=0.95),
        REPORT | INTERVAL - {"method"} | {"interval_method"},
    ),
    (
        "classification_report",
        lambda: m.classification_report(
            m.MacroF1Counts.from_confusion_matrix(MATRIX, rows="true")
        ),
        REPORT,
    ),
    (
        "classification_report",
        lambda: m.classification_report(_accumulated().counts),
        REPORT,
    ),
]


@pytest.mark.parametrize(("name", "call", "options"), CHECKED_ONCE)
def test_each_public_call_checks_its_options_once(
    name: str, call: Callable[[], Any], options: set[str]
) -> None:
    with counting_option_checks() as checks:
        call()
    assert len(checks) == 1, checks
    caller, checked = checks[0]
    assert caller == name
    assert options <= set(checked)


def test_the_counter_sees_every_check() -> None:
    with counting_option_checks() as checks:
        m.averaged_f1_score(Y_TRUE, Y_PRED)
        m.fbeta_summary(Y_TRUE, Y_PRED, average="weighted")
    assert [caller for caller, _ in checks] == ["averaged_f1_score", "fbeta_summary"]
    with counting_option_checks() as checks:
        pass
    assert checks == []


def test_every_option_message_names_the_function_and_what_is_accepted() -> None:
    wrong: dict[str, Any] = {
        "digits": -1,
        "output_dict": "yes",
        "as_frame": 1,
        "beta": -1.0,
        "labels": 3,
        "pos_label": [1],
        "average": "mean",
        "zero_division": 2,
        "confidence": 1.5,
        "method": "exact",
        "interval_method": None,
        "n_resamples": 1,
        "random_state": -3,
        "verbose": -1,
    }
    assert set(wrong) == {option.name for option in OPTIONS}
    for option in OPTIONS:
        value = wrong[option.name]
        with pytest.raises(InvalidParameterError) as info:
            check_options_of("some_function", **{option.name: value})
        assert str(info.value) == (
            f"The '{option.name}' parameter of some_function must be "
            f"{option.accepted}. Got {value!r} instead."
        )


def test_several_wrong_options_name_the_first_in_the_table() -> None:
    with pytest.raises(InvalidParameterError, match="'beta' parameter of f"):
        check_options_of("f", zero_division=2, average="mean", beta=-1)
    with pytest.raises(InvalidParameterError, match="'average' parameter of f"):
        check_options_of("f", zero_division=2, average="mean", beta=1)


def test_values_come_back_normalised() -> None:
    rs = np.random.RandomState(0)
    checked = check_options_of(
        "f",
        beta=np.int64(2),
        zero_division=np.float32(1.0),
        n_resamples=np.int32(10),
        random_state=rs,
        verbose=True,
        average=None,
    )
    assert checked == {
        "beta": 2.0,
        "zero_division": 1.0,
        "n_resamples": 10,
        "random_state": rs,
        "verbose": 1,
        "average": None,
    }
    assert type(checked["beta"]) is float
    assert rs.randint(0, 10) == np.random.RandomState(0).randint(0, 10)  # not drawn


def test_beta_whose_square_overflows() -> None:
    with pytest.raises(OverflowError, match="'beta' parameter of f is too large"):
        check_options_of("f", beta=1e200)
    assert check_options_of("f", beta=np.inf) == {"beta": np.inf}
