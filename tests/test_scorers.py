"""Scorer objects and scorer names: what get_scorer knows and what it returns."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import sklearn
from sklearn import metrics
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

import sklearn_macrof1
from sklearn_macrof1 import (
    averaged_fbeta_score,
    fbeta_of_averages_score,
    get_scorer,
    get_scorer_names,
    make_averaged_fbeta_scorer,
    make_fbeta_of_averages_scorer,
    make_macro_f1_scoring,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore::sklearn.exceptions.UndefinedMetricWarning"
)

X, Y = load_iris(return_X_y=True)
# a shallow tree: imperfect predictions, every class predicted
TREE = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, Y)
PRED = TREE.predict(X)


def _direct(kind, y_true, y_pred, **kwargs):
    function = averaged_fbeta_score if kind == "averaged" else fbeta_of_averages_score
    kwargs.setdefault("beta", 1.0)
    return function(y_true, y_pred, zero_division=0.0, **kwargs)


@pytest.mark.parametrize(
    ("name", "kind", "beta", "average"),
    [
        ("averaged_f1_macro", "averaged", 1.0, "macro"),
        ("f1_of_averages_macro", "of_averages", 1.0, "macro"),
        ("averaged_f1_weighted", "averaged", 1.0, "weighted"),
        ("f1_of_averages_weighted", "of_averages", 1.0, "weighted"),
        ("averaged_f1_micro", "averaged", 1.0, "micro"),
        ("f2_of_averages_macro", "of_averages", 2.0, "macro"),
        ("averaged_f0.5_macro", "averaged", 0.5, "macro"),
        ("f0.25_of_averages_weighted", "of_averages", 0.25, "weighted"),
        ("averaged_f3_macro", "averaged", 3.0, "macro"),
    ],
)
def test_named_scorer_scores_like_the_function(name, kind, beta, average):
    scorer = get_scorer(name)
    expected = _direct(kind, Y, PRED, beta=beta, average=average)
    with warnings.catch_warnings():
        # the depth-1 tree never predicts one class: sklearn's warning
        warnings.simplefilter("ignore", metrics._classification.UndefinedMetricWarning)
        assert scorer(TREE, X, Y) == pytest.approx(expected, abs=1e-15)
    assert scorer._kwargs["average"] == average
    assert scorer._kwargs.get("beta", 1.0) == beta


def test_the_two_names_give_different_scores():
    """On this tree the two macro F1s differ, so the names cannot be swapped."""
    averaged = get_scorer("averaged_f1_macro")(TREE, X, Y)
    of_averages = get_scorer("f1_of_averages_macro")(TREE, X, Y)
    assert averaged == pytest.approx(
        metrics.f1_score(Y, PRED, average="macro"), abs=1e-15
    )
    assert of_averages > averaged + 0.01


def test_averaged_f1_is_sklearns_f1_scorer():
    for average in ("macro", "micro", "weighted"):
        ours = get_scorer(f"averaged_f1_{average}")(TREE, X, Y)
        theirs = metrics.get_scorer(f"f1_{average}")(TREE, X, Y)
        assert ours == pytest.approx(theirs, abs=1e-15)


def test_binary_and_samples_names_exist():
    for average in ("binary", "samples"):
        assert get_scorer(f"averaged_f1_{average}")._kwargs["average"] == average
        assert get_scorer(f"f1_of_averages_{average}")._kwargs["average"] == average


def test_falls_back_to_sklearn():
    for name in ("accuracy", "f1_macro", "roc_auc", "neg_log_loss"):
        ours, theirs = get_scorer(name), metrics.get_scorer(name)
        assert repr(ours) == repr(theirs)
    assert get_scorer(None) is None
    custom = metrics.make_scorer(metrics.accuracy_score)
    assert get_scorer(custom)(TREE, X, Y) == custom(TREE, X, Y)


@pytest.mark.parametrize(
    "name",
    [
        "f1_of_averages",
        "averaged_f1",
        "f1_of_averages_none",
        "averaged_f0_macro",
        "averaged_f-1_macro",
        "f01_of_averages_macro",
        "no_such_scorer",
    ],
)
def test_unknown_names(name):
    with pytest.raises(ValueError, match="get_scorer_names"):
        get_scorer(name)


def test_get_scorer_names():
    names = get_scorer_names()
    assert names == sorted(names)
    assert set(metrics.get_scorer_names()) <= set(names)
    for name in (
        "averaged_f1_macro",
        "f1_of_averages_macro",
        "f1_of_averages_samples",
        "averaged_f2_weighted",
        "f0.5_of_averages_micro",
        "averaged_f1_binary",
    ):
        assert name in names
    ours = [n for n in names if n not in metrics.get_scorer_names()]
    assert len(ours) == 2 * 3 * 5
    for name in ours:  # every listed name works
        assert callable(get_scorer(name))


def test_factories_validate_when_built():
    with pytest.raises(ValueError, match="average"):
        make_averaged_fbeta_scorer(average="macros")
    with pytest.raises(ValueError, match="beta"):
        make_fbeta_of_averages_scorer(beta=-1)
    with pytest.raises(ValueError, match="zero_division"):
        make_fbeta_of_averages_scorer(zero_division=2)
    with pytest.raises(TypeError, match="pos_label"):
        make_averaged_fbeta_scorer(pos_label=[1])


def test_factory_options_reach_the_score():
    scorer = make_fbeta_of_averages_scorer(
        beta=2.0, average=None, labels=[2, 0], zero_division=1.0
    )
    got = scorer._score_func(Y, PRED, **scorer._kwargs)
    expected = fbeta_of_averages_score(
        Y, PRED, beta=2.0, average=None, labels=[2, 0], zero_division=1.0
    )
    np.testing.assert_array_equal(got, expected)
    binary = make_averaged_fbeta_scorer(average="binary", pos_label="b")
    y = np.array(["a", "b", "b", "a"])
    assert binary._score_func(y, np.array(["a", "b", "a", "a"]), **binary._kwargs) == (
        pytest.approx(2 / 3)
    )


@pytest.mark.parametrize("name", ["f1_of_averages_macro", "averaged_f2_weighted"])
def test_scorers_pickle(name):
    scorer = make_fbeta_of_averages_scorer(zero_division=0.0)
    for s in (scorer, get_scorer(name), make_macro_f1_scoring()["f1_of_averages"]):
        clone = pickle.loads(pickle.dumps(s))
        assert repr(clone) == repr(s)


def test_macro_f1_scoring():
    fresh = make_macro_f1_scoring(zero_division=0.0)
    assert set(fresh) == {"averaged_f1", "f1_of_averages"}
    assert fresh["averaged_f1"](TREE, X, Y) == pytest.approx(
        metrics.f1_score(Y, PRED, average="macro", zero_division=0.0)
    )
    assert fresh["f1_of_averages"](TREE, X, Y) == pytest.approx(
        fbeta_of_averages_score(Y, PRED, beta=1.0, zero_division=0.0)
    )


def test_each_scoring_mapping_has_its_own_scorers():
    first, second = make_macro_f1_scoring(), make_macro_f1_scoring()
    with sklearn.config_context(enable_metadata_routing=True):
        first["averaged_f1"].set_score_request(sample_weight=True)
        configured = first["averaged_f1"].get_metadata_routing().score.requests
        for other in (second, make_macro_f1_scoring()):
            for name, scorer in other.items():
                assert scorer is not first[name]
                requests = scorer.get_metadata_routing().score.requests
                assert requests.get("sample_weight") is None
    assert configured["sample_weight"] is True


def test_public_names():
    for name in (
        "get_scorer",
        "get_scorer_names",
        "make_averaged_fbeta_scorer",
        "make_fbeta_of_averages_scorer",
        "make_macro_f1_scoring",
        "classification_report",
        "MacroF1Counts",
    ):
        assert name in sklearn_macrof1.__all__
    # a module-level mapping of scorer objects would be shared by every user
    # of the process (set_score_request changes it for all): there is none
    assert not hasattr(sklearn_macrof1, "MACRO_F1_SCORING")
