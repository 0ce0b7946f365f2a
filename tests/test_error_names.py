"""Errors name the public function the user called, never an internal one."""

from __future__ import annotations

import pytest

import sklearn_macrof1 as m


def _display(y, p, **kwargs):
    matplotlib = pytest.importorskip("matplotlib")  # the [plot] extra
    matplotlib.use("Agg")
    return m.MacroF1Display.from_predictions(y, p, **kwargs)


Y = [0, 1, 2, 2, 1, 0]
P = [0, 2, 2, 1, 1, 0]
CONTINUOUS = [0.5, 1.5, 2.5, 0.1, 0.2, 0.3]

CALLS = {
    "averaged_f1_score": lambda y, p, **k: m.averaged_f1_score(y, p, **k),
    "f1_of_averages_score": lambda y, p, **k: m.f1_of_averages_score(y, p, **k),
    "averaged_fbeta_score": lambda y, p, **k: m.averaged_fbeta_score(
        y, p, beta=1.0, **k
    ),
    "fbeta_of_averages_score": lambda y, p, **k: m.fbeta_of_averages_score(
        y, p, beta=1.0, **k
    ),
    "fbeta_summary": lambda y, p, **k: m.fbeta_summary(y, p, **k),
    "fbeta_confidence_interval": lambda y, p, **k: m.fbeta_confidence_interval(
        y, p, **k
    ),
    "compare_classifiers": lambda y, p, **k: m.compare_classifiers(y, p, p, **k),
    "MacroF1Display.from_predictions": _display,
}


INTERNAL = {"averaged_fbeta_score", "fbeta_of_averages_score", "fbeta_summary"}


@pytest.mark.parametrize("name", list(CALLS))
@pytest.mark.parametrize(
    "kwargs",
    [{"zero_division": "x"}, {"average": "macr"}],
    ids=["zero_division", "average"],
)
def test_option_errors_name_the_called_function(name, kwargs):
    with pytest.raises(ValueError) as info:
        CALLS[name](Y, P, **kwargs)
    message = str(info.value)
    assert name in message, message
    if "average" in kwargs and name.startswith("MacroF1Display"):
        return  # its message recommends fbeta_summary for 'samples'
    for other in INTERNAL - {name}:
        assert other not in message, message


@pytest.mark.parametrize("name", list(CALLS))
def test_target_errors_do_not_name_another_function(name):
    # scikit-learn's own wording, which names no function
    with pytest.raises(ValueError) as info:
        CALLS[name](Y, CONTINUOUS)
    for other in INTERNAL - {name}:
        assert other not in str(info.value), str(info.value)


def test_display_from_estimator_names_itself():
    pytest.importorskip("matplotlib")
    from sklearn.dummy import DummyClassifier

    clf = DummyClassifier().fit([[0]] * 6, Y)
    with pytest.raises(ValueError, match="MacroF1Display.from_estimator"):
        m.MacroF1Display.from_estimator(clf, [[0]] * 6, Y, zero_division="x")


@pytest.mark.parametrize(
    "method",
    [
        "averaged_f1_score",
        "f1_of_averages_score",
        "averaged_fbeta_score",
        "fbeta_of_averages_score",
        "fbeta_summary",
    ],
)
def test_verbs_given_an_accumulators_counts_name_themselves(method):
    acc = m.MacroF1Accumulator().update(Y, P)
    kwargs = {"beta": 1.0} if "fbeta_" in method else {}
    with pytest.raises(ValueError) as info:
        getattr(m, method)(acc.counts, average="macr", **kwargs)
    message = str(info.value)
    assert f"{method} " in message, message


MATRIX_AND_SCORER_CALLS = {
    "fbeta_summary": lambda **k: m.fbeta_summary(
        m.MacroF1Counts.from_confusion_matrix([[2, 1], [0, 3]], rows="true"), **k
    ).gap_attribution(),
    "make_macro_f1_scoring": lambda **k: m.make_macro_f1_scoring(**k),
}


@pytest.mark.parametrize("name", list(MATRIX_AND_SCORER_CALLS))
def test_wrappers_name_themselves_not_what_they_call(name):
    # each builds on another public function; the message names the one called
    with pytest.raises(ValueError) as info:
        MATRIX_AND_SCORER_CALLS[name](zero_division="x")
    message = str(info.value)
    assert f"of {name} " in message, message
    for other in (
        "fbeta_summary_from_confusion_matrix",
        "make_averaged_fbeta_scorer",
        "make_fbeta_of_averages_scorer",
    ):
        assert other not in message, message


def test_a_matrix_record_names_the_verb_for_average_and_beta():
    for kwargs in ({"average": "macr"}, {"beta": -1}):
        with pytest.raises(ValueError, match="of fbeta_summary "):
            m.fbeta_summary(
                m.MacroF1Counts.from_confusion_matrix([[2, 1], [0, 3]], rows="true"),
                **kwargs,
            ).gap_attribution()
