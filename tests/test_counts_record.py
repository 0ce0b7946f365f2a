"""The public count record, ``MacroF1Counts``, and the verbs that take it.

A record counted once gives every verb what the one-shot call on the same
predictions gives: its constructors, equality, repr, pickling and merge rule,
and the errors of a call that mixes the two forms.
"""

from __future__ import annotations

import pickle
import warnings
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    classification_report,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
    fbeta_summary,
)

RNG = np.random.default_rng(7)
Y = RNG.integers(0, 4, 300)
P = np.where(RNG.random(300) < 0.7, Y, RNG.integers(0, 4, 300))
W = RNG.uniform(0.2, 3.0, 300)
WORDS = np.array(["ant", "bee", "cat"])
YS, PS = WORDS[Y % 3], WORDS[P % 3]
YM = RNG.random((120, 5)) < 0.4
PM = YM ^ (RNG.random((120, 5)) < 0.2)
WM = RNG.uniform(0.5, 2.0, 120)

ZERO_DIVISIONS = ("warn", 0.0, 1.0, np.nan)
SUMMARY_FIELDS = (
    "averaged_fbeta",
    "fbeta_of_averages",
    "gap",
    "precision",
    "recall",
    "class_precision",
    "class_recall",
    "class_fbeta",
    "support",
    "true_positives",
    "predicted",
)


def outcome(function: Any, *args: Any, **kwargs: Any) -> tuple:
    """("value", result, warnings) or ("raise", exception type, message)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = function(*args, **kwargs)
        except (ValueError, TypeError) as exc:
            return "raise", type(exc), str(exc)
    return "value", value, [str(w.message) for w in caught]


def assert_same(got: Any, expected: Any, exact: bool) -> None:
    if hasattr(expected, "averaged_fbeta"):
        for name in SUMMARY_FIELDS:
            assert_same(getattr(got, name), getattr(expected, name), exact)
        assert got.labels.tolist() == expected.labels.tolist()
        return
    if exact:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def assert_same_outcome(got: tuple, expected: tuple, exact: bool = True) -> None:
    assert got[0] == expected[0], (got, expected)
    if got[0] == "raise":
        assert got[1:] == expected[1:]
        return
    assert got[2] == expected[2]  # the same warnings, word for word
    assert_same(got[1], expected[1], exact)


CASES = {
    "int labels": (Y, P, None, None),
    "int labels, weighted": (Y, P, W, None),
    "int labels, fixed labels": (Y, P, None, [3, 0, 7]),
    "string labels": (YS, PS, None, None),
    "string labels, weighted": (YS, PS, W, ["cat", "ant"]),
    "multilabel dense": (YM, PM, None, None),
    "multilabel dense, weighted, fixed columns": (YM, PM, WM, [4, 0, 2]),
    "multilabel sparse": (sp.csr_matrix(YM), sp.csr_matrix(PM), None, [1, 3]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_record_gives_every_verb_what_the_predictions_give(case):
    y, p, w, labels = CASES[case]
    counts = MacroF1Counts.from_predictions(y, p, labels=labels, sample_weight=w)
    multilabel = y.ndim == 2
    averages: tuple = (None, "micro", "macro", "weighted")
    averages += ("samples",) if multilabel else ("binary",)
    for average in averages:
        # the per-sample mean of a histogram adds in another order: rounding
        exact = average != "samples"
        for zero_division in ZERO_DIVISIONS:
            options = {"average": average, "zero_division": zero_division}
            if labels is not None:
                options["labels"] = labels
            for verb in (averaged_f1_score, f1_of_averages_score):
                assert_same_outcome(
                    outcome(verb, counts, **options),
                    outcome(verb, y, p, sample_weight=w, **options),
                    exact,
                )
            for verb in (averaged_fbeta_score, fbeta_of_averages_score, fbeta_summary):
                assert_same_outcome(
                    outcome(verb, counts, beta=0.5, **options),
                    outcome(verb, y, p, beta=0.5, sample_weight=w, **options),
                    exact,
                )
    for zero_division in ("warn", 0.0):
        report = outcome(
            classification_report, counts, output_dict=True, zero_division=zero_division
        )
        direct = outcome(
            classification_report,
            y,
            p,
            labels=labels,
            sample_weight=w,
            output_dict=True,
            zero_division=zero_division,
        )
        assert report[0] == direct[0] == "value" and report[2] == direct[2]
        assert report[1].keys() == direct[1].keys()
        for key, row in direct[1].items():
            got = report[1][key]
            if isinstance(row, dict):
                for column, value in row.items():
                    assert_same(got[column], value, key != "samples avg")
            else:
                assert_same(got, row, True)
    text = classification_report(counts, digits=4)
    assert text == classification_report(y, p, labels=labels, sample_weight=w, digits=4)


def test_explicit_labels_override_the_records_own():
    counts = MacroF1Counts.from_predictions(Y, P, labels=[0, 1, 2, 3])
    assert fbeta_summary(counts, labels=[2, 1]) == fbeta_summary(Y, P, labels=[2, 1])
    ml = MacroF1Counts.from_predictions(YM, PM, labels=[0, 1])
    assert fbeta_summary(ml, labels=[1]) == fbeta_summary(YM, PM, labels=[1])
    # the per-sample counts were made over columns 0 and 1: no other columns
    with pytest.raises(ValueError, match="fixed when the record was counted"):
        fbeta_summary(ml, average="samples", labels=[1, 2])


# ------------------------------------------------------------- the public face


def test_repr_is_short_whatever_the_number_of_classes():
    counts = MacroF1Counts.from_predictions([0, 1, 2, 0], [0, 2, 2, 0])
    assert repr(counts) == (
        "MacroF1Counts(kind='multiclass', n_classes=3, n_samples=4, labels=None, "
        "confusion=True, samples=False, moments=False)"
    )
    many = np.arange(5000)
    big = MacroF1Counts.from_predictions(many, many[::-1], labels=many)
    assert len(repr(big)) < 250
    assert "labels=[0, 1, 2, 3, 4, ...] (5000 labels)" in repr(big)
    ml = MacroF1Counts.from_predictions(YM, PM, moments=True)
    assert repr(ml) == (
        "MacroF1Counts(kind='multilabel-indicator', n_classes=5, n_samples=120, "
        "labels=None, confusion=False, samples=True, moments=True)"
    )


def test_a_record_shows_what_users_read():
    counts = MacroF1Counts.from_predictions(YM, PM, sample_weight=W[: len(YM)])
    assert {name for name in dir(counts) if not name.startswith("_")} == {
        # what was counted
        "kind",
        "classes",
        "n_classes",
        "tp",
        "true",
        "pred",
        "confusion",
        "n_samples",
        "labels",
        "weighted",
        "moments",
        # making, combining and exporting records
        "from_predictions",
        "from_confusion_matrix",
        "from_totals",
        "totals",
        "merge",
    }
    # the internal state still decides equality: the same cells read in
    # another row order make another record (and another report)
    ab = MacroF1Counts.from_confusion_matrix(
        [[3, 1], [0, 2]], rows="true", labels=["a", "b"]
    )
    ba = MacroF1Counts.from_confusion_matrix(
        [[2, 0], [1, 3]], rows="true", labels=["b", "a"]
    )
    assert np.array_equal(ab.confusion, ba.confusion)
    assert ab != ba
    assert classification_report(ab) != classification_report(ba)


def test_equality_is_by_value_and_never_raises():
    a = MacroF1Counts.from_predictions(YS, PS, sample_weight=W)
    b = MacroF1Counts.from_predictions(list(YS), list(PS), sample_weight=list(W))
    assert a == b and not (a != b)
    assert a != MacroF1Counts.from_predictions(YS, PS)  # unweighted counts
    assert a != MacroF1Counts.from_predictions(YS, PS, sample_weight=W, labels=["ant"])
    assert (a == "counts") is False and (a == None) is False  # noqa: E711
    assert a != replace(a, classes=np.array([0, 1, 2]))  # another kind of dtype
    with_nan = replace(a, tp=np.array([np.nan, 1.0, 2.0]))
    assert with_nan == replace(a, tp=np.array([np.nan, 1.0, 2.0]))
    ml = MacroF1Counts.from_predictions(YM, PM, moments=True)
    assert ml == MacroF1Counts.from_predictions(YM, PM, moments=True)
    assert ml != MacroF1Counts.from_predictions(YM, PM)
    assert ml != a  # a multilabel record and a 1-D one
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)


@pytest.mark.parametrize(
    "counts",
    [
        MacroF1Counts.from_predictions(YS, PS, sample_weight=W, moments=True),
        MacroF1Counts.from_predictions(YM, PM, labels=[0, 3], moments=True),
        MacroF1Counts.from_confusion_matrix(
            [[3, 1], [0, 2]], rows="true", labels=["a", "b"]
        ),
    ],
    ids=["1-D weighted", "multilabel", "confusion matrix"],
)
def test_pickling_round_trips(counts):
    restored = pickle.loads(pickle.dumps(counts))
    assert restored == counts and restored is not counts
    assert fbeta_summary(restored) == fbeta_summary(counts)


def test_merge_rule():
    for y, p in ((Y, P), (YS, PS), (YM, PM)):
        head, tail = slice(0, y.shape[0] // 3), slice(y.shape[0] // 3, None)
        whole = MacroF1Counts.from_predictions(y, p)
        a = MacroF1Counts.from_predictions(y[head], p[head])
        b = MacroF1Counts.from_predictions(y[tail], p[tail])
        assert a + b == whole and a.merge(b) == whole
        assert sum([a, b]) == whole
        assert a == MacroF1Counts.from_predictions(y[head], p[head])  # unchanged
    # 1-D records are aligned by label over the union of their classes
    a = MacroF1Counts.from_predictions(["a", "b"], ["a", "a"])
    b = MacroF1Counts.from_predictions(["c", "b"], ["c", "c"])
    assert (a + b).classes.tolist() == ["a", "b", "c"]
    assert a + b == MacroF1Counts.from_predictions(["a", "b", "c", "b"], list("aacc"))
    with pytest.raises(ValueError, match="Mix of label input types"):
        a + MacroF1Counts.from_predictions([1, 2], [1, 1])
    with pytest.raises(ValueError, match="same kind of targets"):
        a + MacroF1Counts.from_predictions(YM, PM)
    with pytest.raises(ValueError, match="same columns"):
        MacroF1Counts.from_predictions(YM, PM) + MacroF1Counts.from_predictions(
            YM[:, :3], PM[:, :3]
        )
    # fixed labels are kept, and must agree
    fixed = MacroF1Counts.from_predictions(["a"], ["b"], labels=["a", "b", "c"])
    same = MacroF1Counts.from_predictions(["c"], ["c"], labels=["a", "b", "c"])
    assert (fixed + same).labels.tolist() == ["a", "b", "c"]
    with pytest.raises(ValueError, match="different fixed labels"):
        fixed + a
    with pytest.raises(TypeError, match="MacroF1Counts"):
        fixed.merge([0, 1])
    assert fixed.__add__([0, 1]) is NotImplemented


def test_from_predictions_checks_what_the_scores_check():
    with pytest.raises(ValueError, match="y_true"):
        MacroF1Counts.from_predictions([0, 1], [0, 1, 1])
    with pytest.raises(TypeError, match="'moments' parameter of MacroF1Counts"):
        MacroF1Counts.from_predictions([0, 1], [0, 1], moments="yes")
    with pytest.raises(TypeError, match="'labels' parameter of MacroF1Counts"):
        MacroF1Counts.from_predictions([0, 1], [0, 1], labels=3)
    with pytest.raises(ValueError, match="non-zero"):
        MacroF1Counts.from_predictions([0, 1], [0, 1], sample_weight=[0, 0])


# ---------------------------------------------------------- confusion matrices


def test_from_confusion_matrix_in_both_orientations():
    m = np.array([[5, 1, 0], [2, 7, 1], [0, 3, 4]])
    names = ["c", "a", "b"]
    by_true = MacroF1Counts.from_confusion_matrix(m, rows="true", labels=names)
    by_pred = MacroF1Counts.from_confusion_matrix(m.T, rows="predicted", labels=names)
    assert by_true == by_pred
    assert by_true.classes.tolist() == ["a", "b", "c"]
    assert by_true.n_samples is None and not by_true.weighted
    y = np.repeat(np.array(names)[[0, 0, 0, 1, 1, 1, 2, 2, 2]], m.ravel())
    p = np.repeat(np.array(names)[[0, 1, 2] * 3], m.ravel())
    assert fbeta_summary(by_true, average=None) == fbeta_summary(y, p, average=None)
    # the report keeps the matrix's order
    text = classification_report(by_true)
    assert [line.split()[0] for line in text.splitlines()[2:5]] == names
    with pytest.raises(ValueError, match="rows must say"):
        MacroF1Counts.from_confusion_matrix(m, rows="columns")
    assert MacroF1Counts.from_confusion_matrix([[0.5, 1], [0, 2]], rows="true").weighted


# ------------------------------------------------------------------- intervals


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_delta_intervals_of_a_record(average):
    plain = MacroF1Counts.from_predictions(Y, P)  # the cells are the moments
    assert fbeta_confidence_interval(plain, average=average) == (
        fbeta_confidence_interval(Y, P, average=average)
    )
    weighted = MacroF1Counts.from_predictions(Y, P, sample_weight=W, moments=True)
    got = fbeta_confidence_interval(weighted, average=average)
    expected = fbeta_confidence_interval(Y, P, sample_weight=W, average=average)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(got, name), getattr(expected, name)
        np.testing.assert_allclose(
            [a.estimate, a.low, a.high], [b.estimate, b.low, b.high], rtol=1e-9
        )
    with pytest.raises(ValueError, match=r"moments=True"):
        fbeta_confidence_interval(
            MacroF1Counts.from_predictions(Y, P, sample_weight=W), average=average
        )
    multilabel = MacroF1Counts.from_predictions(YM, PM, moments=True)
    got = fbeta_confidence_interval(multilabel, average=average)
    expected = fbeta_confidence_interval(YM, PM, average=average)
    np.testing.assert_allclose(
        got.averaged_fbeta.std_error, expected.averaged_fbeta.std_error, rtol=1e-9
    )
    with pytest.raises(ValueError, match=r"moments=True"):
        fbeta_confidence_interval(
            MacroF1Counts.from_predictions(YM, PM), average=average
        )


def test_bootstrap_of_a_record_redraws_cells_or_histogram_rows():
    counts = MacroF1Counts.from_predictions(Y, P)
    options = {"method": "bootstrap", "n_resamples": 50, "random_state": 3}
    assert fbeta_confidence_interval(counts, **options) == (
        fbeta_confidence_interval(Y, P, **options)
    )
    samples = MacroF1Counts.from_predictions(YM, PM)
    got = fbeta_confidence_interval(samples, average="samples", **options)
    assert got.n_samples == 120 and got.averaged_fbeta.low <= got.averaged_fbeta.high
    assert got.averaged_fbeta.estimate == pytest.approx(
        averaged_f1_score(YM, PM, average="samples"), rel=1e-12
    )
    with pytest.raises(ValueError, match="method='delta'"):
        fbeta_confidence_interval(
            MacroF1Counts.from_predictions(Y, P, sample_weight=W), **options
        )
    with pytest.raises(ValueError, match="method='delta'"):
        fbeta_confidence_interval(samples, average="macro", **options)
    report = classification_report(
        counts, confidence=0.9, interval_method="bootstrap", output_dict=True,
        n_resamples=50, random_state=3,
    )  # fmt: skip
    direct = classification_report(
        Y, P, confidence=0.9, interval_method="bootstrap", output_dict=True,
        n_resamples=50, random_state=3,
    )  # fmt: skip
    assert report == direct
    with pytest.raises(ValueError, match="interval_method='delta'"):
        classification_report(samples, confidence=0.9, interval_method="bootstrap")


def test_intervals_of_a_weighted_matrix_are_refused():
    counts = MacroF1Counts.from_confusion_matrix([[1.5, 0.5], [0.25, 2]], rows="true")
    for method in ("delta", "bootstrap"):
        with pytest.raises(ValueError, match="non-integer"):
            fbeta_confidence_interval(counts, method=method)


# ------------------------------------------------------------------ the forms


VERBS = [
    averaged_f1_score,
    f1_of_averages_score,
    fbeta_summary,
    classification_report,
    fbeta_confidence_interval,
]


@pytest.mark.parametrize("verb", VERBS, ids=lambda f: f.__name__)
def test_a_call_takes_one_form_or_the_other(verb):
    counts = MacroF1Counts.from_predictions(Y, P)
    with pytest.raises(TypeError, match=r"\(y_true, y_pred\) or a MacroF1Counts"):
        verb(counts, P)
    with pytest.raises(TypeError, match="no sample_weight with a MacroF1Counts"):
        verb(counts, sample_weight=W)
    with pytest.raises(TypeError, match=r"or a MacroF1Counts in place of y_true"):
        verb(Y)
    with pytest.raises(ValueError, match="'y_pred' parameter"):  # as before
        verb(Y, None)
    for beta_verb in (averaged_fbeta_score, fbeta_of_averages_score):
        with pytest.raises(TypeError, match="sample_weight"):
            beta_verb(counts, beta=2.0, sample_weight=W)


def test_the_accumulators_record_is_the_one_shot_record():
    labels = ["ant", "bee", "cat", "dog"]
    acc = MacroF1Accumulator(labels=labels)
    for part in (slice(0, 100), slice(100, 300)):
        acc.update(YS[part], PS[part], sample_weight=W[part])
    assert acc.counts.labels.tolist() == labels
    for average in (None, "macro", "weighted", "micro"):
        assert_same(  # the batches' weights are summed in another order
            fbeta_summary(acc.counts, average=average),
            fbeta_summary(YS, PS, labels=labels, sample_weight=W, average=average),
            exact=False,
        )
    unweighted = MacroF1Accumulator(labels=labels)
    unweighted.update(YS[:100], PS[:100]).update(YS[100:], PS[100:])
    assert classification_report(unweighted.counts) == classification_report(
        YS, PS, labels=labels
    )


def test_display_from_counts():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from sklearn_macrof1 import MacroF1Display

    counts = MacroF1Counts.from_predictions(YS, PS, sample_weight=W)
    shown = MacroF1Display.from_counts(counts, average="weighted", zero_division=0.0)
    direct = MacroF1Display.from_predictions(
        YS, PS, sample_weight=W, average="weighted", zero_division=0.0
    )
    assert shown.summary == direct.summary
    with pytest.raises(TypeError, match="needs a MacroF1Counts"):
        MacroF1Display.from_counts(YS)
    import matplotlib.pyplot as plt

    plt.close("all")


def test_a_matrix_records_bootstrap_keeps_every_class_in_each_resample() -> None:
    # An empty class (its row and column all zero) is a class of the matrix: a
    # resample keeps it, as the summary's own interval does.
    matrix = [[4, 1, 0], [2, 3, 0], [0, 0, 0]]
    record = MacroF1Counts.from_confusion_matrix(matrix, rows="true")
    options = {"method": "bootstrap", "n_resamples": 200, "random_state": 0}
    direct = fbeta_confidence_interval(record, zero_division=0.0, **options)
    via_summary = fbeta_summary(record, zero_division=0.0).confidence_interval(
        **options
    )
    assert direct == via_summary
    assert direct.averaged_fbeta.low <= direct.averaged_fbeta.estimate
    report = classification_report(
        record,
        confidence=0.9,
        interval_method="bootstrap",
        n_resamples=200,
        random_state=0,
        zero_division=0.0,
        output_dict=True,
    )
    low, high = report["macro avg"]["f1-score-ci"]
    assert low <= report["macro avg"]["f1-score"] <= high


def test_fixed_labels_are_compared_by_value_whatever_their_container():
    # Strings given as an object array (a pandas Series, a list of str objects)
    # are the same fixed labels as a list of str: records counted with either
    # are equal and merge, as the accumulator's record does.
    objects = np.array(["a", "b", "c"], dtype=object)
    plain = MacroF1Counts.from_predictions(["a"], ["b"], labels=["a", "b", "c"])
    boxed = MacroF1Counts.from_predictions(["a"], ["b"], labels=objects)
    assert boxed == plain
    assert (boxed + plain).labels.tolist() == ["a", "b", "c"]
    acc = MacroF1Accumulator(labels=objects)
    acc.update(["c"], ["c"])
    assert (acc.counts + plain).labels.tolist() == ["a", "b", "c"]


def test_from_predictions_refuses_labels_that_are_not_1d():
    # refused when counted, naming the constructor, not later by every verb
    for y, p in (([0, 1], [0, 1]), (YM, PM)):
        with pytest.raises(ValueError, match="'labels' parameter of MacroF1Counts"):
            MacroF1Counts.from_predictions(y, p, labels=[[0, 1]])


def test_matrix_class_names_are_compared_by_value_whatever_their_container():
    matrix = [[2, 1], [0, 3]]
    boxed = MacroF1Counts.from_confusion_matrix(
        matrix, rows="true", labels=np.array(["b", "a"], dtype=object)
    )
    plain = MacroF1Counts.from_confusion_matrix(matrix, rows="true", labels=["b", "a"])
    assert boxed == plain
    counted = MacroF1Counts.from_predictions(list("bbbaaa"), list("bbaaaa"))
    assert boxed + counted == plain + counted


@pytest.mark.filterwarnings("ignore::UserWarning")  # coverage, zero division
def test_a_records_interval_is_refused_exactly_where_it_lacks_what_the_method_reads():
    # what each method reads (requires) against what the record holds
    # (_provides): the interval is computed when the one is in the other, and
    # refused, naming what to count, when not
    from sklearn_macrof1._stats._intervals import requires

    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 400)
    p = np.where(rng.random(400) < 0.7, y, rng.integers(0, 4, 400))
    w = rng.random(400) + 0.1
    ml_true = rng.random((400, 4)) < 0.4
    ml_pred = np.where(rng.random((400, 4)) < 0.8, ml_true, ~ml_true)
    records = []  # (record, the samples it counted)
    for moments in (False, True):
        for weights in (None, w):
            for t, q in ((y, p), (ml_true, ml_pred)):
                record = MacroF1Counts.from_predictions(
                    t, q, sample_weight=weights, moments=moments
                )
                records.append((record, (t, q, weights)))
    totals = MacroF1Counts.from_totals([[3, 6], [5, 7], [4, 8]], labels=[0, 1])
    records.append((totals, None))
    seen = set()
    for record, samples in records:
        averages = ["macro", "micro"]
        if record.kind == "multilabel-indicator":
            averages.append("samples")
        for average in averages:
            for method in ("delta", "bootstrap"):
                needed = requires(
                    method, kind=record.kind, weighted=record.weighted, average=average
                )
                holds = needed <= record._provides
                seen.add(holds)
                options = {"average": average, "method": method, "n_resamples": 20}
                if not holds:
                    with pytest.raises(ValueError, match="record|histogram"):
                        fbeta_confidence_interval(record, random_state=0, **options)
                    continue
                got = fbeta_confidence_interval(record, random_state=0, **options)
                assert samples is not None
                if method == "bootstrap" and average == "samples":
                    continue  # the record redraws its histogram's rows: other draws
                t, q, weights = samples
                expected = fbeta_confidence_interval(
                    t, q, sample_weight=weights, random_state=0, **options
                )
                for name in ("averaged_fbeta", "fbeta_of_averages"):
                    a, b = getattr(got, name), getattr(expected, name)
                    np.testing.assert_allclose(
                        [a.low, a.high, a.std_error],
                        [b.low, b.high, b.std_error],
                        rtol=1e-9,
                    )
    assert seen == {True, False}
