"""Scores from a confusion matrix equal scores from the labels behind it, in both
orientations; bad matrices get a clear ValueError."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from _reference import assert_same_value
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from sklearn_macrof1 import (
    MacroF1Counts,
    fbeta_summary,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning"),
    pytest.mark.filterwarnings("ignore:A single label was found:UserWarning"),
]

FIELDS = [
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
]


@st.composite
def labelled_data(draw):
    names = draw(st.sampled_from([[0, 1, 2, 3, 4], ["ant", "bee", "cat", "dog"]]))
    k = draw(st.integers(2, len(names)))
    n = draw(st.integers(1, 25))
    y_true = draw(st.lists(st.sampled_from(names[:k]), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(names[:k]), min_size=n, max_size=n))
    weight = draw(
        st.one_of(
            st.none(),
            st.lists(st.floats(0.1, 4.0), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(any),
        )
    )
    average = draw(st.sampled_from(["macro", "micro", "weighted", None, "binary"]))
    beta = draw(st.sampled_from([0.5, 1.0, 2.0]))
    zero_division = draw(st.sampled_from(["warn", 0, 1, np.nan]))
    return y_true, y_pred, weight, average, beta, zero_division


@pytest.mark.slow
@given(labelled_data(), st.booleans())
def test_matrix_input_equals_label_input(data, labels_subset):
    y_true, y_pred, weight, average, beta, zero_division = data
    classes = np.unique(np.concatenate([np.asarray(y_true), np.asarray(y_pred)]))
    kw = {"beta": beta, "zero_division": zero_division, "average": average}
    if average == "binary":
        if classes.shape[0] != 2:
            return
        kw["pos_label"] = classes[1]
    elif labels_subset:
        kw["labels"] = list(classes[::2])
    from_labels = fbeta_summary(y_true, y_pred, sample_weight=weight, **kw)
    m = confusion_matrix(y_true, y_pred, labels=classes, sample_weight=weight)
    for rows, matrix in [("true", m), ("predicted", m.T)]:
        from_matrix = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(matrix, rows=rows, labels=classes), **kw
        )
        for name in FIELDS:
            assert_same_value(getattr(from_matrix, name), getattr(from_labels, name))
        np.testing.assert_array_equal(from_matrix.labels, from_labels.labels)
        np.testing.assert_allclose(from_matrix.confusion_matrix, m, rtol=1e-12)


def test_float_matrix_equals_sample_weight_input():
    y_true = [0, 0, 1, 2, 2, 2, 1]
    y_pred = [0, 1, 1, 2, 0, 2, 2]
    w = [0.5, 2.0, 1.5, 0.25, 3.0, 1.0, 0.75]
    m = confusion_matrix(y_true, y_pred, sample_weight=w)
    assert m.dtype.kind == "f"
    a = fbeta_summary(MacroF1Counts.from_confusion_matrix(m, rows="true"))
    b = fbeta_summary(y_true, y_pred, sample_weight=w)
    assert a.averaged_fbeta == pytest.approx(b.averaged_fbeta, abs=1e-12)
    assert a.fbeta_of_averages == pytest.approx(b.fbeta_of_averages, abs=1e-12)


def test_matrix_with_empty_class_keeps_it():
    """An all-zero row and column is a class, as in confusion_matrix(labels=...)."""
    m = np.array([[3, 1, 0], [2, 4, 0], [0, 0, 0]])
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=0
    )
    assert s.n_classes == 3
    y_true, y_pred = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 0, 0, 1, 1, 1, 1]
    t = fbeta_summary(y_true, y_pred, labels=[0, 1, 2], zero_division=0)
    assert s.averaged_fbeta == pytest.approx(t.averaged_fbeta, abs=1e-12)
    assert s.fbeta_of_averages == pytest.approx(t.fbeta_of_averages, abs=1e-12)


def test_sparse_and_list_matrices():
    m = [[5, 1], [2, 7]]
    a = fbeta_summary(MacroF1Counts.from_confusion_matrix(m, rows="true"))
    b = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(sp.csr_matrix(m), rows="true")
    )
    c = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(np.array(m, dtype=np.int32), rows="true")
    )
    assert a.averaged_fbeta == b.averaged_fbeta == c.averaged_fbeta


@pytest.mark.parametrize(
    "matrix, words",
    [
        ([[1, -1], [0, 2]], "negative"),
        ([[1, np.nan], [0, 2]], "finite"),
        ([[1, np.inf], [0, 2]], "finite"),
        ([[1, 2, 3], [4, 5, 6]], "square"),
        ([1, 2, 3, 4], "square"),
        (np.zeros((2, 2, 2)), "square"),
        (np.zeros((0, 0)), "empty"),
        ([], "square|empty"),
        ([[0, 0], [0, 0]], "no samples|zero"),
        ([["a", "b"], ["c", "d"]], "number"),
    ],
)
def test_bad_matrix(matrix, words):
    with pytest.raises(ValueError, match=words) as info:
        fbeta_summary(MacroF1Counts.from_confusion_matrix(matrix, rows="true"))
    assert "matrix" in str(info.value)


@pytest.mark.parametrize("rows", ["rows", "TRUE", "pred", None, 0, "gold"])
def test_invalid_rows(rows):
    with pytest.raises(ValueError, match="rows"):
        fbeta_summary(MacroF1Counts.from_confusion_matrix([[1, 0], [0, 1]], rows=rows))


def test_rows_is_required():
    with pytest.raises(TypeError, match="rows"):
        fbeta_summary(MacroF1Counts.from_confusion_matrix([[1, 0], [0, 1]]))  # type: ignore[call-arg]


def test_samples_average_refused():
    with pytest.raises(ValueError, match="samples"):
        fbeta_summary(
            MacroF1Counts.from_confusion_matrix([[1, 0], [0, 1]], rows="true"),
            average="samples",
        )


@pytest.mark.parametrize(
    "class_names, words",
    [([0, 1, 2], "labels must name"), ([1, 1], "distinct"), ([[0, 1]], "labels")],
)
def test_bad_class_names(class_names, words):
    with pytest.raises(ValueError, match=words):
        fbeta_summary(
            MacroF1Counts.from_confusion_matrix(
                [[1, 0], [0, 1]], rows="true", labels=class_names
            )
        )


def test_class_names_reorder_consistently():
    m = np.array([[5, 1, 0], [2, 7, 1], [0, 3, 4]])
    names = ["c", "a", "b"]  # rows/columns in this order
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true", labels=names), average=None
    )
    np.testing.assert_array_equal(s.labels, ["a", "b", "c"])
    # class "c" is row/column 0: P = 5/7, R = 5/6
    assert s.class_precision[2] == pytest.approx(5 / 7)
    assert s.class_recall[2] == pytest.approx(5 / 6)
