"""Bad input: the exception scikit-learn raises (or a subclass), and a message that
names the argument at fault.

Each case calls ``sklearn.metrics.fbeta_score`` and our three entry points with
the same arguments; scikit-learn must raise (else the case is not bad input), ours
must raise an exception of the same type (or a subclass of it) whose message
mentions the ``names`` given.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from _reference import outcome, public_type
from sklearn.metrics import fbeta_score

from sklearn_macrof1 import (
    averaged_fbeta_score,
    fbeta_of_averages_score,
    fbeta_summary,
)

SKLEARN_VERSION = tuple(int(p) for p in sklearn.__version__.split(".")[:2])

OURS = [averaged_fbeta_score, fbeta_of_averages_score, fbeta_summary]

Y3 = [0, 1, 2, 1]
ML_T = np.array([[1, 0, 1], [0, 1, 0]])
ML_P = np.array([[1, 1, 0], [0, 1, 1]])

# (id, y_true, y_pred, kwargs, words the message must contain (any of each tuple))
CASES = [
    ("length-mismatch", [0, 1, 1], [0, 1], {}, [("y_true",), ("y_pred",)]),
    ("empty", [], [], {}, [("empty", "0 samples")]),
    ("empty-arrays", np.array([]), np.array([]), {}, [("empty", "0 samples")]),
    ("mixed-binary-multilabel", [0, 1], ML_T[:, :2], {}, [("y_true",), ("y_pred",)]),
    ("mixed-multiclass-multilabel", [0, 1], ML_T, {}, [("y_true",), ("y_pred",)]),
    ("mixed-str-int", ["a", "b", "a"], [0, 1, 0], {}, [("y_true",), ("y_pred",)]),
    ("0-d-true", np.array(1), [1], {}, [("y_true",), ("dimension",)]),
    ("0-d-pred", [1], np.array(1), {}, [("y_pred",), ("dimension",)]),
    (
        "mixed-str-int-inside",
        np.array(["a", 1], dtype=object),
        ["a", "a"],
        {},
        [("y_true",)],
    ),
    ("continuous-true", [0.5, 1.0, 2.0], [0, 1, 2], {}, [("y_true",), ("continuous",)]),
    ("continuous-pred", [0, 1, 2], [0.1, 1, 2], {}, [("y_pred",), ("continuous",)]),
    ("nan-label", [0.0, np.nan, 1.0], [0, 1, 1], {}, [("y_true",), ("NaN", "nan")]),
    ("inf-label", [0, 1, 1], [0.0, np.inf, 1.0], {}, [("y_pred",), ("inf",)]),
    (
        "multiclass-multioutput",
        np.array([[0, 2], [1, 0]]),
        np.array([[0, 2], [1, 1]]),
        {},
        [("y_true",), ("multioutput",)],
    ),
    (
        "three-d",
        np.zeros((2, 2, 2), dtype=int),
        np.zeros((2, 2, 2), dtype=int),
        {},
        [("y_true",)],
    ),
    (
        "bytes-vs-str",
        np.array([b"a", b"b"]),
        np.array(["a", "b"]),
        {},
        [("y_true", "y_pred")],
    ),
    ("legacy-sequences", [[0, 1], [1]], [[0], [1]], {}, [("y_true",), ("sequence",)]),
    ("scalar-y_true", 1, [1], {}, [("y_true",)]),
    ("none-y_pred", [0, 1], None, {}, [("y_pred",)]),
    ("unknown-average", Y3, Y3, {"average": "mean"}, [("average",)]),
    ("average-upper", Y3, Y3, {"average": "MACRO"}, [("average",)]),
    ("negative-beta", Y3, Y3, {"beta": -1.0}, [("beta",)]),
    ("nan-beta", Y3, Y3, {"beta": math.nan}, [("beta",)]),
    ("str-beta", Y3, Y3, {"beta": "1"}, [("beta",)]),
    ("none-beta", Y3, Y3, {"beta": None}, [("beta",)]),
    ("zero_division-2", Y3, Y3, {"zero_division": 2}, [("zero_division",)]),
    ("zero_division-str", Y3, Y3, {"zero_division": "ignore"}, [("zero_division",)]),
    ("zero_division-none", Y3, Y3, {"zero_division": None}, [("zero_division",)]),
    ("weight-length", Y3, Y3, {"sample_weight": [1, 2]}, [("sample_weight",)]),
    ("weight-2d", Y3, Y3, {"sample_weight": np.ones((4, 1))}, [("sample_weight",)]),
    ("weight-nan", Y3, Y3, {"sample_weight": [1, np.nan, 1, 1]}, [("sample_weight",)]),
    ("weight-inf", Y3, Y3, {"sample_weight": [1, np.inf, 1, 1]}, [("sample_weight",)]),
    (
        "weight-str",
        Y3,
        Y3,
        {"sample_weight": ["a", "b", "c", "d"]},
        [("sample_weight",)],
    ),
    ("weight-scalar", Y3, Y3, {"sample_weight": 2.0}, [("sample_weight",)]),
    (
        "weight-sparse",
        Y3,
        Y3,
        {"sample_weight": sp.csr_matrix(np.ones((1, 4)))},
        [("sample_weight",)],
    ),
    ("binary-on-multiclass", Y3, Y3, {"average": "binary"}, [("average",)]),
    ("binary-on-multilabel", ML_T, ML_P, {"average": "binary"}, [("average",)]),
    ("samples-on-1d", Y3, Y3, {"average": "samples"}, [("samples",)]),
    ("pos_label-absent", [0, 2, 2], [0, 2, 0], {"average": "binary"}, [("pos_label",)]),
    (
        "pos_label-str-on-ints",
        [0, 1, 1],
        [0, 1, 0],
        {"average": "binary", "pos_label": "yes"},
        [("pos_label",)],
    ),
    (
        "pos_label-list",
        [0, 1, 1],
        [0, 1, 0],
        {"average": "binary", "pos_label": [1]},
        [("pos_label",)],
    ),
    (
        "labels-too-large",
        ML_T,
        ML_P,
        {"labels": [0, 3], "average": "macro"},
        [("labels",)],
    ),
    (
        "labels-negative",
        ML_T,
        ML_P,
        {"labels": [-1, 0], "average": "macro"},
        [("labels",)],
    ),
    ("labels-2d", Y3, Y3, {"labels": [[0, 1]], "average": "macro"}, [("labels",)]),
    ("labels-scalar", Y3, Y3, {"labels": 1, "average": "macro"}, [("labels",)]),
    (
        "labels-incomparable",
        ["a", "b"],
        ["a", "b"],
        {"labels": np.array(["a", None], dtype=object), "average": None},
        [("labels",)],
    ),
    ("multilabel-width", ML_T, ML_P[:, :2], {}, [("y_true", "columns", "labels")]),
    (
        "weight-complex",
        Y3,
        Y3,
        {"sample_weight": [1 + 0j, 2, 3, 4]},
        [("sample_weight",)],
    ),
    (
        "weight-object",
        Y3,
        Y3,
        {"sample_weight": np.array([1, 2, 3, 4], dtype=object)},
        [("sample_weight",)],
    ),
    ("weight-ragged", Y3, Y3, {"sample_weight": [1, 2, 3, [4]]}, [("sample_weight",)]),
    ("y-string", "abc", "abd", {}, [("y_true",), ("array-like", "string")]),
    ("y-set", [1, 2, 3], {1, 2, 3}, {}, [("y_pred",)]),
    ("labels-str-multilabel", ML_T, ML_P, {"labels": ["a"]}, [("labels",)]),
    (
        "sparse-1d",
        sp.csr_matrix(np.array([[0, 1, 1]]).T),
        sp.csr_matrix(np.array([[0, 1, 1]]).T),
        {},
        [("y_true", "sparse", "Sparse")],
    ),
]


def _kwargs(kwargs):
    return {"beta": 1.0, "average": "macro", **kwargs}


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs, words",
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
@pytest.mark.parametrize("func", OURS, ids=lambda f: f.__name__)
def test_bad_input_raises_like_sklearn(func, y_true, y_pred, kwargs, words):
    kwargs = _kwargs(kwargs)
    theirs = outcome(fbeta_score, y_true, y_pred, **kwargs)
    if theirs[0] != "raise":
        # Older releases accepted a few inputs that current scikit-learn refuses
        # (2-D sample_weight of shape (n, 1)); we follow the current behaviour.
        assert SKLEARN_VERSION < (1, 9), f"scikit-learn accepted: {theirs[1]!r}"
        pytest.skip(f"scikit-learn {sklearn.__version__} accepts this input")
    ours = outcome(func, y_true, y_pred, **kwargs)
    assert ours[0] == "raise", f"we accepted this input: {ours[1]!r}"
    assert issubclass(ours[1], public_type(theirs[1])), (
        f"we raised {ours[1].__name__}({ours[2]!r}), scikit-learn "
        f"{theirs[1].__name__}({theirs[2]!r})"
    )
    for alternatives in words:
        assert any(word in ours[2] for word in alternatives), (
            f"message {ours[2]!r} should mention one of {alternatives}"
        )


def test_all_zero_sample_weight_is_refused():
    with pytest.raises(ValueError, match="sample_weight"):
        averaged_fbeta_score([0, 1, 1], [0, 1, 0], beta=1, sample_weight=[0, 0, 0])
    with pytest.raises(ValueError, match="sample_weight"):
        fbeta_of_averages_score([0, 1, 1], [0, 1, 0], beta=1, sample_weight=np.zeros(3))


def test_default_average_is_macro_not_binary():
    """Unlike fbeta_score, multiclass targets need no ``average``: macro is default."""
    y_true, y_pred = [0, 1, 2, 1], [0, 2, 2, 1]
    expected = fbeta_score(y_true, y_pred, beta=1, average="macro")
    assert averaged_fbeta_score(y_true, y_pred, beta=1) == expected


def test_beta_is_required():
    with pytest.raises(TypeError):
        averaged_fbeta_score([0, 1], [0, 1])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        fbeta_of_averages_score([0, 1], [0, 1])  # type: ignore[call-arg]


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        averaged_fbeta_score([0, 1], [0, 1], 1.0)  # type: ignore[misc]


_PROBA = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]])


@pytest.mark.parametrize(
    ("y_true", "y_pred", "hint"),
    [
        # class scores of a multiclass (or binary) target: their argmax
        (Y3, _PROBA, r"y_score\.argmax\(axis=1\)"),
        ([0, 1, 0, 1], _PROBA[:, :2], r"y_score\.argmax\(axis=1\)"),
        ([0, 1, 0, 1], _PROBA[:, :1], r"y_score >= 0\.5"),  # one column: threshold
        (
            [0, 1, 0, 1],
            _PROBA[:, 0],
            r"Threshold scores .* \(for example y_score >= 0\.5\)",
        ),
        # the same (n, k) float array against a multilabel target: a threshold
        (
            np.eye(4, 3, dtype=int),
            _PROBA,
            r"0/1 indicator matrix first \(for example y_score >= 0\.5\)",
        ),
    ],
    ids=["multiclass", "binary-2-columns", "column", "binary-1d", "multilabel"],
)
def test_scores_passed_as_labels_say_how_to_make_labels(y_true, y_pred, hint):
    """The (n, k) float array of the multiclass and the multilabel cases is the
    same: y_true decides whether the step is an argmax or a threshold."""
    with pytest.raises(ValueError, match=f"y_pred contains continuous values.*{hint}"):
        averaged_fbeta_score(y_true, y_pred, beta=1)
    if y_true is Y3:
        with pytest.raises(ValueError) as info:
            averaged_fbeta_score(y_true, y_pred, beta=1)
        assert "y_score >= 0.5" not in str(info.value)


def test_scores_passed_as_y_true_name_both_steps():
    with pytest.raises(
        ValueError, match=r"y_true contains continuous.*argmax\(axis=1\).*threshold"
    ):
        averaged_fbeta_score(_PROBA, Y3, beta=1)
