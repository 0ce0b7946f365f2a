"""Parity with scikit-learn over the whole input space of issue 2.

For every input (generated with hypothesis) ``averaged_fbeta_score`` must return
what ``sklearn.metrics.fbeta_score`` returns (|diff| <= 1e-12, nan where nan) and
emit the same warning categories, or raise the same exception type;
``fbeta_of_averages_score`` must return the F-beta of ``precision_score`` and
``recall_score`` called with the same arguments; ``fbeta_summary`` must agree with
``precision_recall_fscore_support``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from _reference import (
    assert_same_outcome,
    assert_same_value,
    expected,
    outcome,
    reference_fbeta_of_averages,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)

from sklearn_macrof1 import (
    averaged_f1_score,
    averaged_fbeta_score,
    f1_of_averages_score,
    fbeta_of_averages_score,
    fbeta_summary,
)


def _scaled(fraction: float) -> int:
    """A fraction of the loaded hypothesis profile's example budget."""
    return max(10, int(settings.default.max_examples * fraction))


AVERAGES = ["binary", "micro", "macro", "weighted", "samples", None]
BETAS = [0.0, 0.5, 1.0, 2.0, math.inf]
ZERO_DIVISIONS = ["warn", 0, 1, 0.0, 1.0, np.nan]

# Label universes of the 1-D targets, by representation.
UNIVERSES = {
    "int": [0, 1, 2, 3, -1, 7],
    "str": ["a", "b", "c", "d", "e"],
    "bool": [False, True],
    "float": [0.0, 1.0, 2.0, 3.0],
    "object-str": ["cat", "dog", "eel", "fox"],
    "numpy-int": [np.int64(0), np.int64(1), np.int64(2), np.int64(5)],
}
# Labels that never occur in the data, by representation.
ABSENT = {
    "int": [9, 4],
    "str": ["z", "y"],
    "bool": [],
    "float": [8.0],
    "object-str": ["yak"],
    "numpy-int": [np.int64(11)],
}


def _container(values: list, rep: str, container: str):
    if rep == "object-str":
        arr = np.array(values, dtype=object)
    elif rep == "bool":
        arr = np.array(values, dtype=bool)
    elif rep == "float":
        arr = np.array(values, dtype=np.float64)
    else:
        arr = np.array(values)
    if container == "list":
        return [v.item() if isinstance(v, np.generic) else v for v in arr.tolist()]
    if container == "array":
        return arr
    if container == "column":
        return arr.reshape(-1, 1)
    if container == "series":
        return pd.Series(arr)
    if container == "tuple":
        return tuple(arr.tolist())
    raise AssertionError(container)


@st.composite
def targets_1d(draw):
    rep = draw(st.sampled_from(sorted(UNIVERSES)))
    universe = UNIVERSES[rep]
    n_classes = draw(st.integers(1, len(universe)))
    classes = universe[:n_classes]
    n = draw(st.integers(1, 14))
    y_true = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    containers = ["list", "array", "column", "series", "tuple"]
    ct = draw(st.sampled_from(containers))
    cp = draw(st.sampled_from([ct, *containers]))
    candidates = list(universe) + ABSENT[rep]
    return (
        _container(y_true, rep, ct),
        _container(y_pred, rep, cp),
        candidates,
        n,
    )


@st.composite
def targets_multilabel(draw):
    n = draw(st.integers(1, 10))
    k = draw(st.integers(2, 5))
    cells = st.lists(st.booleans(), min_size=k, max_size=k)
    y_true = np.array(draw(st.lists(cells, min_size=n, max_size=n)), dtype=bool)
    y_pred = np.array(draw(st.lists(cells, min_size=n, max_size=n)), dtype=bool)
    formats = ["int", "bool", "list", "csr", "csc", "csr_array", "float"]
    ft = draw(st.sampled_from(formats))
    fp = draw(st.sampled_from([ft, *formats]))

    def fmt(y, f):
        if f == "int":
            return y.astype(np.int64)
        if f == "float":
            return y.astype(np.float64)
        if f == "bool":
            return y
        if f == "list":
            return y.astype(int).tolist()
        if f == "csr":
            return sp.csr_matrix(y.astype(np.int64))
        if f == "csc":
            return sp.csc_matrix(y.astype(np.int64))
        if f == "csr_array":
            return sp.csr_array(y.astype(np.int64))
        raise AssertionError(f)

    candidates = list(range(k))
    return fmt(y_true, ft), fmt(y_pred, fp), candidates, n


@st.composite
def scenarios(draw, multilabel=None):
    if multilabel is None:
        multilabel = draw(st.booleans())
    y_true, y_pred, candidates, n = draw(
        targets_multilabel() if multilabel else targets_1d()
    )
    kwargs = {}
    labels_kind = draw(st.sampled_from(["none", "none", "subset", "empty"]))
    if labels_kind == "subset":
        kwargs["labels"] = draw(
            st.lists(st.sampled_from(candidates), min_size=1, unique=True)
        )
    elif labels_kind == "empty":
        kwargs["labels"] = []
    if draw(st.booleans()):
        kwargs["pos_label"] = draw(st.sampled_from(candidates))
    weights = draw(st.sampled_from(["none", "ints", "floats", "zeros", "scalar"]))
    if weights == "ints":
        kwargs["sample_weight"] = draw(
            st.lists(st.integers(0, 3), min_size=n, max_size=n)
        )
    elif weights == "floats":
        kwargs["sample_weight"] = np.array(
            draw(
                st.lists(
                    st.floats(0, 5, allow_nan=False, allow_subnormal=False),
                    min_size=n,
                    max_size=n,
                )
            )
        )
    elif weights == "zeros":
        kwargs["sample_weight"] = np.zeros(n)
    kwargs["zero_division"] = draw(st.sampled_from(ZERO_DIVISIONS))
    kwargs["average"] = draw(st.sampled_from(AVERAGES))
    beta = draw(st.sampled_from(BETAS))
    return y_true, y_pred, beta, kwargs


def _check_scores(y_true, y_pred, beta, kwargs):
    kwargs = {"average": "macro", **kwargs}  # sklearn's default is "binary"
    theirs = expected(outcome(fbeta_score, y_true, y_pred, beta=beta, **kwargs), kwargs)
    ours = outcome(averaged_fbeta_score, y_true, y_pred, beta=beta, **kwargs)
    assert_same_outcome(ours, theirs)
    theirs = expected(
        reference_fbeta_of_averages(y_true, y_pred, beta=beta, **kwargs), kwargs
    )
    ours = outcome(fbeta_of_averages_score, y_true, y_pred, beta=beta, **kwargs)
    assert_same_outcome(ours, theirs)


@pytest.mark.slow
@given(scenarios(multilabel=False))
def test_parity_1d(scenario):
    _check_scores(*scenario)


@pytest.mark.slow
@given(scenarios(multilabel=True))
def test_parity_multilabel(scenario):
    _check_scores(*scenario)


@pytest.mark.slow
@settings(max_examples=_scaled(2 / 3))
@given(scenarios())
def test_f1_functions_are_beta_one(scenario):
    y_true, y_pred, _, kwargs = scenario
    assert_same_outcome(
        outcome(averaged_f1_score, y_true, y_pred, **kwargs),
        expected(outcome(f1_score, y_true, y_pred, **kwargs), kwargs),
    )
    assert_same_outcome(
        outcome(f1_of_averages_score, y_true, y_pred, **kwargs),
        expected(
            reference_fbeta_of_averages(y_true, y_pred, beta=1.0, **kwargs), kwargs
        ),
    )


@pytest.mark.slow
@settings(max_examples=_scaled(4 / 5))
@given(scenarios())
def test_summary_matches_precision_recall_fscore_support(scenario):
    y_true, y_pred, beta, kwargs = scenario
    theirs = expected(
        outcome(precision_recall_fscore_support, y_true, y_pred, beta=beta, **kwargs),
        kwargs,
    )
    ours = outcome(fbeta_summary, y_true, y_pred, beta=beta, **kwargs)
    if theirs[0] == "raise":
        assert_same_outcome(ours, theirs)
        return
    assert ours[0] == "ok", ours
    s, (p, r, f, support) = ours[1], theirs[1]
    assert_same_value(s.precision, p)
    assert_same_value(s.recall, r)
    assert_same_value(s.averaged_fbeta, f)
    if kwargs["average"] is None:
        assert_same_value(s.support, support)
        assert_same_value(s.class_precision, p)
        assert_same_value(s.class_recall, r)
        assert_same_value(s.class_fbeta, f)
    ref = reference_fbeta_of_averages(y_true, y_pred, beta=beta, **kwargs)
    assert_same_value(s.fbeta_of_averages, ref[1])


# --- targeted cases the random search may reach rarely -------------------------

EDGE_CASES = [
    # labels absent from the data, duplicates, a single class present
    ([1, 1, 1], [1, 1, 1], {"average": "macro"}),
    ([1, 1, 1], [1, 1, 1], {"average": "binary"}),
    ([0, 0, 0], [0, 0, 0], {"average": "binary"}),
    ([2, 2], [2, 2], {"average": "binary", "pos_label": 2}),
    (["a", "a"], ["a", "a"], {"average": "binary", "pos_label": "a"}),
    (["a", "a"], ["a", "a"], {"average": "binary"}),
    ([0, 1, 2], [0, 2, 1], {"labels": [0, 0, 1]}),
    ([0, 1, 2], [0, 2, 1], {"labels": [5, 6], "average": None}),
    ([0, 1, 2], [0, 2, 1], {"labels": [5, 6], "average": "weighted"}),
    ([0, 1, 2], [0, 2, 1], {"labels": [], "average": "macro"}),
    ([0, 1, 2], [0, 2, 1], {"labels": [], "average": "micro"}),
    ([0, 1, 2], [0, 2, 1], {"labels": [], "average": None}),
    ([0, 1, 2], [0, 2, 1], {"labels": ["a"], "average": "macro"}),
    (["a", "b"], ["b", "b"], {"labels": [0, 1], "average": "macro"}),
    ([0, 1, 2], [0, 2, 1], {"labels": [0.0, 1.0], "average": None}),
    ([0, 1, 1], [0, 1, 0], {"labels": [True], "average": None}),
    ([0, 1, 1], [0, 1, 0], {"labels": np.array([[0, 1]]), "average": None}),
    # bool and int mixes
    ([True, False, True], [1, 0, 0], {"average": "binary"}),
    ([True, False, True], [1, 0, 2], {"average": "macro"}),
    (np.array([True, False]), np.array([1.0, 0.0]), {"average": "binary"}),
    # weights: all zero, negative, mixed
    ([0, 1, 2, 1], [0, 1, 1, 1], {"sample_weight": [0, 0, 0, 0]}),
    ([0, 1, 2, 1], [0, 1, 1, 1], {"sample_weight": [1, -1, 2, 0.5]}),
    (
        [0, 1, 2, 1],
        [0, 1, 1, 1],
        {"sample_weight": [1, -1, 2, -2], "average": "weighted"},
    ),
    ([0, 1], [0, 1], {"sample_weight": [1, -1], "average": "weighted"}),
    ([0, 1, 0], [1, 1, 0], {"sample_weight": 2.0}),
    # pandas dtypes
    (pd.Series([0, 1, 2], dtype="Int64"), pd.Series([0, 2, 2], dtype="Int64"), {}),
    (
        pd.Series([0, 1, 1], dtype="Int64"),
        pd.Series([0, 1, 0], dtype="Int64"),
        {"average": "binary"},
    ),
    (
        pd.Series([True, False], dtype="boolean"),
        pd.Series([True, True], dtype="boolean"),
        {"average": "binary"},
    ),
    (
        pd.Series(["a", "b", "c"], dtype="string"),
        pd.Series(["a", "b", "b"], dtype="string"),
        {},
    ),
    (
        pd.Series(["a", "b", "c"], dtype="category"),
        pd.Series(["a", "b", "b"], dtype="category"),
        {},
    ),
    (
        pd.Series([0, 1, 2], dtype="category"),
        pd.Series([0, 2, 2], dtype="category"),
        {},
    ),
    (
        pd.Series([0.0, 1.0, 2.0], dtype="Float64"),
        pd.Series([0.0, 1.0, 1.0], dtype="Float64"),
        {},
    ),
    (
        pd.Series([1, 2, 3], index=[10, 11, 12]),
        pd.Series([1, 2, 2], index=[0, 1, 2]),
        {},
    ),
    (pd.DataFrame({"y": [0, 1, 2]}), pd.DataFrame({"y": [0, 1, 1]}), {}),
    # object arrays: strings, ints, mixes
    (
        np.array(["a", "b", "a"], dtype=object),
        ["a", "b", "b"],
        {"average": "binary", "pos_label": "a"},
    ),
    (np.array([0, 1, 2], dtype=object), np.array([0, 1, 1], dtype=object), {}),
    (np.array([0, 1, 1], dtype=object), np.array([0, 1, 1]), {"average": "binary"}),
    (np.array(["a", 1], dtype=object), np.array(["a", 1], dtype=object), {}),
    # large or negative integers, unsigned and small dtypes
    ([10**12, 3, 10**12], [3, 3, 10**12], {"average": "macro"}),
    (np.array([-5, 3, 7], dtype=np.int8), np.array([3, 3, -5], dtype=np.int8), {}),
    (
        np.array([0, 200, 255], dtype=np.uint8),
        np.array([0, 255, 200], dtype=np.uint8),
        {},
    ),
    (np.array([0, 1, 2], dtype=np.uint64), np.array([0, 1, 1], dtype=np.int64), {}),
    # containers and scalar types of the options
    ([0, 1, 2, 1], [0, 1, 1, 1], {"sample_weight": pd.Series([1, 2, 3, 4])}),
    ([0, 1, 2, 1], [0, 1, 1, 1], {"sample_weight": [True, False, True, True]}),
    ([0, 1, 2, 1], [0, 1, 1, 1], {"labels": pd.Index([2, 0])}),
    ([0, 1, 2, 1], [0, 1, 1, 1], {"labels": np.array([2, 0], dtype=np.uint8)}),
    ([0, 1, 2, 1], [0, 1, 1, 1], {"labels": (0, 1), "pos_label": None}),
    ([0, 1, 1], [0, 1, 0], {"average": "binary", "pos_label": 1.0}),
    ([0, 1, 1], [0, 1, 0], {"average": "binary", "pos_label": True}),
    ([0, 1, 1], [0, 1, 0], {"average": "binary", "pos_label": np.int64(1)}),
    (
        ["a", "b", "b"],
        ["a", "b", "a"],
        {"average": "binary", "pos_label": np.str_("b")},
    ),
    (range(3), [0, 1, 1], {}),
    (
        np.array([2**63, 5, 5], dtype=np.uint64),
        np.array([5, 5, 2**63], dtype=np.uint64),
        {},
    ),
    (np.array([-(2**62), 5, 5]), np.array([5, 5, 2**62]), {}),
    (np.array([[0], [1], [1]]), np.array([0, 1, 0]), {"average": "binary"}),
    # multilabel
    (
        sp.coo_matrix(np.eye(3, dtype=int)),
        sp.lil_matrix(np.eye(3, dtype=int)),
        {"average": "samples"},
    ),
    (np.eye(3) * 0.5, np.eye(3), {"average": "macro"}),
    (np.array([[1, 0], [0, 1]]), np.array([[1, 0], [0, 1]]), {"labels": [1.5]}),
    (np.array([[1, 0], [0, 1]]), np.array([[0, 0], [0, 0]]), {"average": "samples"}),
    (
        np.array([[1, 0], [0, 1]]),
        np.array([[1, 0], [0, 1]]),
        {"average": "samples", "sample_weight": [0, 0]},
    ),
    (
        np.array([[1, 0, 1], [0, 1, 1]]),
        np.array([[1, 1, 0], [0, 1, 1]]),
        {"labels": [2, 0], "average": "samples"},
    ),
    (
        np.array([[1, 0, 1], [0, 1, 1]]),
        np.array([[1, 1, 0], [0, 1, 1]]),
        {"labels": [2, 2], "average": None},
    ),
    (
        np.array([[1, 0, 1], [0, 1, 1]]),
        np.array([[1, 1, 0], [0, 1, 1]]),
        {"labels": [], "average": "samples"},
    ),
    (
        np.array([[1, 0, 1], [0, 1, 1]]),
        np.array([[1, 1, 0], [0, 1, 1]]),
        {"labels": [0.0, 1.0], "average": None},
    ),
    (np.array([[2, 0], [0, 1]]), np.array([[1, 0], [0, 1]]), {"average": "macro"}),
    (np.array([[0, 0], [0, 0]]), np.array([[0, 0], [0, 0]]), {"average": "micro"}),
    (np.array([[0, 0], [0, 0]]), np.array([[0, 0], [0, 0]]), {"average": "samples"}),
]


@pytest.mark.parametrize("beta", [0.0, 1.0, 2.0, math.inf])
@pytest.mark.parametrize("zero_division", ["warn", 1, np.nan])
@pytest.mark.parametrize("case", range(len(EDGE_CASES)))
def test_edge_case_parity(case, zero_division, beta):
    y_true, y_pred, kwargs = EDGE_CASES[case]
    _check_scores(y_true, y_pred, beta, {**kwargs, "zero_division": zero_division})


def test_precision_and_recall_recoverable_at_beta_limits():
    """beta = 0 gives averaged precision, beta = inf averaged recall (both scores)."""
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 2, 2, 1]
    for average in ["micro", "macro", "weighted"]:
        p = precision_score(y_true, y_pred, average=average)
        r = recall_score(y_true, y_pred, average=average)
        assert fbeta_of_averages_score(y_true, y_pred, beta=0, average=average) == p
        assert averaged_fbeta_score(y_true, y_pred, beta=0, average=average) == p
        assert (
            fbeta_of_averages_score(y_true, y_pred, beta=math.inf, average=average) == r
        )
        assert averaged_fbeta_score(y_true, y_pred, beta=math.inf, average=average) == r


# --- numpy 2's variable-width strings (StringDType) ------------------------------

StringDType = getattr(getattr(np, "dtypes", None), "StringDType", None)  # numpy >= 2
needs_string_dtype = pytest.mark.skipif(
    StringDType is None, reason="StringDType needs numpy >= 2"
)
#: Labels of several lengths and code points (the fixed-width copy is <U5).
STRING_LABELS = ["a", "bb", "", "é\U0001f600", "a b c", "B", "ab"]


def _variable(values: list) -> np.ndarray:
    return np.array(values, dtype=StringDType())


@st.composite
def string_scenarios(draw):
    classes = draw(st.lists(st.sampled_from(STRING_LABELS), min_size=1, unique=True))
    n = draw(st.integers(1, 30))
    y_true = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    kwargs: dict = {
        "average": draw(st.sampled_from(AVERAGES[:-2] + [None])),  # no "samples"
        "zero_division": draw(st.sampled_from(["warn", 0.0, np.nan])),
    }
    if draw(st.booleans()):
        kwargs["labels"] = draw(
            st.lists(st.sampled_from(STRING_LABELS + ["zz"]), min_size=1, unique=True)
        )
    if draw(st.booleans()):
        kwargs["pos_label"] = draw(st.sampled_from(classes + ["zz"]))
    if draw(st.booleans()):
        kwargs["sample_weight"] = draw(
            st.lists(st.integers(1, 4), min_size=n, max_size=n)
        )
    return y_true, y_pred, draw(st.sampled_from(BETAS)), kwargs


@pytest.mark.slow
@needs_string_dtype
@settings(max_examples=_scaled(1 / 2))
@given(string_scenarios())
def test_string_dtype_labels_score_as_their_fixed_width_copy(scenario):
    y_true, y_pred, beta, kwargs = scenario
    fixed = {**kwargs}
    variable = {**kwargs}
    if "labels" in kwargs:
        fixed["labels"] = np.array(kwargs["labels"])
        variable["labels"] = _variable(kwargs["labels"])
    if "pos_label" in kwargs:  # an element of a StringDType array is a str
        variable["pos_label"] = _variable([kwargs["pos_label"]])[0]
    yt_fixed, yp_fixed = np.array(y_true), np.array(y_pred)
    yt_var, yp_var = _variable(y_true), _variable(y_pred)
    assert yt_fixed.dtype.kind == "U" and yt_var.dtype.kind == "T"
    for ours_func, theirs in [
        (
            averaged_fbeta_score,
            outcome(fbeta_score, yt_fixed, yp_fixed, beta=beta, **fixed),
        ),
        (
            fbeta_of_averages_score,
            reference_fbeta_of_averages(yt_fixed, yp_fixed, beta=beta, **fixed),
        ),
    ]:
        ours = outcome(ours_func, yt_var, yp_var, beta=beta, **variable)
        assert_same_outcome(ours, expected(theirs, fixed))
    ours = outcome(fbeta_summary, yt_var, yp_var, beta=beta, **variable)
    same = outcome(fbeta_summary, yt_fixed, yp_fixed, beta=beta, **fixed)
    assert ours[0] == same[0]
    if ours[0] == "ok":
        assert ours[1] == same[1]  # the summaries' equality: every field
        assert ours[1].labels.dtype == same[1].labels.dtype
        assert ours[2] == same[2]
    else:
        assert (ours[1], ours[2]) == (same[1], same[2])


@needs_string_dtype
def test_string_dtype_in_every_entry_point():
    from sklearn.metrics import classification_report as sk_report

    from sklearn_macrof1 import MacroF1Accumulator, classification_report

    rng = np.random.default_rng(0)
    names = np.array(["cat", "dog", "bird", "électron"])
    y_true = rng.choice(names, 5000)  # keyed encoding above 4096 samples
    y_pred = np.where(rng.random(5000) < 0.7, y_true, rng.choice(names, 5000))
    labels = np.array(["dog", "cat", "bird", "électron", "eel"])
    yt, yp, lv = (a.astype(StringDType()) for a in (y_true, y_pred, labels))
    kw = {"labels": labels, "average": None, "zero_division": 0.0}
    expected_f = f1_score(y_true, y_pred, **kw)
    np.testing.assert_array_equal(
        averaged_f1_score(yt, yp, **{**kw, "labels": lv}), expected_f
    )
    ours = classification_report(yt, y_pred, labels=lv, output_dict=True)
    theirs = sk_report(y_true, y_pred, labels=labels, output_dict=True)
    for name in labels:
        for key, value in theirs[name].items():
            assert ours[name][key] == pytest.approx(value, abs=1e-12)
    acc = MacroF1Accumulator(labels=lv)
    for part in np.array_split(np.arange(5000), 3):
        acc.update(yt[part], yp[part])
    assert acc.labels.dtype.kind == "U"
    np.testing.assert_array_equal(
        averaged_f1_score(acc.counts, average=None, zero_division=0.0), expected_f
    )
    assert repr(acc).startswith("MacroF1Accumulator(labels=['dog', 'cat', 'bird'")
    discovered = MacroF1Accumulator()  # batches with different label sets
    for part in (slice(0, 7), slice(7, 4000), slice(4000, 5000)):
        discovered.update(yt[part], yp[part])
    assert discovered.counts.classes.tolist() == sorted(names.tolist())
    assert f1_of_averages_score(discovered.counts) == pytest.approx(
        f1_of_averages_score(y_true, y_pred), abs=1e-12
    )


@needs_string_dtype
def test_string_dtype_labels_that_no_fixed_width_array_holds():
    # Two labels that differ by a trailing NUL would be one label in the <U copy
    # (and in scikit-learn): refused. A single label ending in NUL is harmless.
    nul = _variable(["a\x00", "a", "b", "a"])
    for kwargs in ({"y_true": nul}, {"y_pred": nul}, {"labels": nul}):
        args = {"y_true": _variable(["a", "b"] * 2), "y_pred": _variable(["b"] * 4)}
        args.update(kwargs)
        name = next(iter(kwargs))
        with pytest.raises(ValueError, match=f"{name} holds labels that differ only"):
            averaged_f1_score(**args)
    lone = _variable(["a\x00", "b", "b"])
    assert averaged_f1_score(lone, lone[::-1].copy()) == f1_score(
        np.array(["a", "b", "b"]), np.array(["b", "b", "a"]), average="macro"
    )
    # A missing value (na_object): refused as scikit-learn refuses the object copy.
    for na in (None, np.nan, ""):
        missing = np.array(["a", na, "b"], dtype=StringDType(na_object=na))
        objects = missing.astype(object)
        theirs = outcome(f1_score, ["a", "b", "b"], objects, average="macro")
        ours = outcome(averaged_f1_score, ["a", "b", "b"], missing)
        if na == "":  # a string sentinel: the empty string is a label
            assert_same_outcome(ours, theirs)
            continue
        assert_same_outcome(ours, theirs)
        assert "y_pred holds missing values" in ours[2]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("n_labels", [2, 3, 40])
def test_weighted_dense_multilabel_counts_are_scikit_learns_bit_for_bit(
    order, n_labels
):
    """Weighted indicator counts add each sample's weight in sample order, as
    scikit-learn's bincount does: equal to the last bit, on every machine (a
    matrix product's sums depend on the BLAS kernel and its threads)."""
    from sklearn.metrics import multilabel_confusion_matrix
    from sklearn.utils.sparsefuncs import count_nonzero

    rng = np.random.default_rng(n_labels)
    n = 3000
    y_true = np.asarray(rng.random((n, n_labels)) < 0.3, dtype=int, order=order)
    y_pred = np.asarray(rng.random((n, n_labels)) < 0.3, dtype=int, order=order)
    weights = rng.random(n) * 3
    summary = fbeta_summary(
        y_true, y_pred, sample_weight=weights, average="macro", zero_division=0
    )
    reference = multilabel_confusion_matrix(y_true, y_pred, sample_weight=weights)
    tp = reference[:, 1, 1]
    np.testing.assert_array_equal(summary.true_positives, tp)
    for ours, y in ((summary.support, y_true), (summary.predicted, y_pred)):
        sums = count_nonzero(sp.csr_matrix(y), axis=0, sample_weight=weights)
        # as scikit-learn sums them, and as its scores see them: tp + (sum - tp)
        np.testing.assert_array_equal(ours, tp + (sums - tp))
    _, _, _, support = precision_recall_fscore_support(
        y_true, y_pred, sample_weight=weights, zero_division=0
    )
    np.testing.assert_array_equal(summary.support, support)


# The example of a user: with float weights, a score that differed in the last bit.
ISSUE_TRUE = [0, 0, 0, 1, 2, 1, 0, 1, 1, 2]
ISSUE_PRED = [2, 2, 0, 2, 0, 1, 0, 0, 1, 0]
ISSUE_WEIGHTS = [0.5, 1.3, 2.0, 1.3, 1.9, 2.9, 2.0, 1.2, 0.6, 1.0]


def _weighted_case(rng, form):
    n = int(rng.integers(2, 80))
    weights = np.round(rng.uniform(0.1, 3.0, n), int(rng.integers(1, 4)))
    if form in ("1d", "far-apart"):
        k = int(rng.integers(2, 8))
        y_true = rng.integers(0, k, n)
        y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, k, n))
        if form == "far-apart":  # a few classes among many codes: other counting
            y_true, y_pred = y_true * 10**6, y_pred * 10**6
        return y_true, y_pred, weights, ["micro", "macro", "weighted", None]
    k = int(rng.integers(2, 8))
    y_true = (rng.random((n, k)) < 0.4).astype(int)
    y_pred = (rng.random((n, k)) < 0.4).astype(int)
    if form == "sparse":
        y_true, y_pred = sp.csr_matrix(y_true), sp.csr_matrix(y_pred)
    return y_true, y_pred, weights, ["micro", "macro", "weighted", "samples", None]


@pytest.mark.parametrize("form", ["1d", "far-apart", "multilabel", "sparse"])
def test_float_weights_give_scikit_learns_scores_bit_for_bit(form):
    """Each class's weights are added in sample order and read as scikit-learn
    reads them (tp + fp, tp + fn): every score and support is scikit-learn's to the
    last bit, not only within rounding."""
    assert (
        averaged_f1_score(ISSUE_TRUE, ISSUE_PRED, sample_weight=ISSUE_WEIGHTS)
        == 0.43746055786949384
    )
    rng = np.random.default_rng(["1d", "far-apart", "multilabel", "sparse"].index(form))
    for _ in range(12):
        y_true, y_pred, weights, averages = _weighted_case(rng, form)
        for beta in (1.0, 2.0):
            for average in averages:
                options = {"beta": beta, "average": average, "zero_division": 0}
                ours = fbeta_summary(y_true, y_pred, sample_weight=weights, **options)
                theirs = precision_recall_fscore_support(
                    y_true, y_pred, sample_weight=weights, **options
                )
                if average is None:
                    got = (
                        ours.class_precision,
                        ours.class_recall,
                        ours.class_fbeta,
                        ours.support,
                    )
                    for a, b in zip(got, theirs, strict=True):
                        np.testing.assert_array_equal(a, b)
                else:
                    assert (ours.precision, ours.recall, ours.averaged_fbeta) == (
                        theirs[:3]
                    )


def test_overflowing_weighted_sums_are_nan_as_in_scikit_learn():
    """A class whose weights overflow float64 (1e308 + 1e308): scikit-learn reads
    its support as inf - inf, nan; so does this package (with numpy's warnings)."""
    from sklearn.metrics import classification_report as sk_report

    from sklearn_macrof1 import classification_report

    y, weights = [0, 1, 0], np.full(3, 1e308)
    with np.errstate(all="ignore"):
        ours = classification_report(y, y, sample_weight=weights, output_dict=True)
        theirs = sk_report(y, y, sample_weight=weights, output_dict=True)
    assert math.isnan(ours["0"]["support"]) and ours["1"]["support"] == 1e308
    for key, row in theirs.items():
        if isinstance(row, dict):
            for column, value in row.items():
                assert ours[key][column] == value or (
                    math.isnan(ours[key][column]) and math.isnan(value)
                ), (key, column)
