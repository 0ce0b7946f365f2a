"""Every public entry point reads and counts its targets once, whatever its options.

The target reading (``read_targets``), the counting core (``count_targets``) and
the matrix reading (``MacroF1Counts.from_confusion_matrix``) are wrapped wherever
the package bound them, and each public call must go through them exactly once:
intervals, comparison, the report's interval columns and every CLI command
derive everything from that one reading. (Dask collections:
``tests/test_dask.py`` counts the counting tasks on the cluster.)
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest
from _program import macrof1

import sklearn_macrof1 as mf
from sklearn_macrof1._counting import _record
from sklearn_macrof1._read import _targets

#: The functions counted, by the name the package binds them to: the target
#: reading and the counting core (``_targets``, ``_record``), units without a
#: public face, wrapped to see that each public call goes through them once.
WATCHED = {
    "read_targets": _targets.read_targets,
    "read_joint_targets": _targets.read_joint_targets,
    "count_targets": _record.count_targets,
}


@pytest.fixture
def calls(monkeypatch) -> Counter:
    """Counter of calls into the watched functions, from any package module."""
    counter: Counter = Counter()

    def watched(name, function):
        def wrapper(*args, **kwargs):
            counter[name] += 1
            return function(*args, **kwargs)

        return wrapper

    originals = dict(WATCHED)
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("sklearn_macrof1"):
            continue
        for name, function in originals.items():
            if getattr(module, name, None) is function:
                monkeypatch.setattr(module, name, watched(name, function))
    reader = mf.MacroF1Counts.from_confusion_matrix.__func__
    monkeypatch.setattr(
        mf.MacroF1Counts,
        "from_confusion_matrix",
        classmethod(watched("MacroF1Counts.from_confusion_matrix", reader)),
    )
    return counter


def _labels(n=600, k=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    return y, p


def _multilabel(n=400, k=5, seed=1):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, (n, k)), rng.integers(0, 2, (n, k))


def _once(calls: Counter) -> None:
    assert calls == Counter({"read_targets": 1, "count_targets": 1}), calls


def test_the_wrapper_sees_a_plain_score(calls):
    y, p = _labels()
    mf.averaged_f1_score(y, p)
    _once(calls)


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
@pytest.mark.parametrize("weighted", [False, True])
def test_report_with_intervals(calls, method, weighted):
    y, p = _labels()
    w = np.linspace(0.5, 2, y.shape[0]) if weighted else None
    report = mf.classification_report(
        y, p, sample_weight=w, confidence=0.95, interval_method=method,
        n_resamples=50, random_state=0, output_dict=True,
    )  # fmt: skip
    assert "f1-score-ci" in report["macro avg"]
    _once(calls)


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_multilabel_report_with_intervals(calls, method):
    y, p = _multilabel()
    w = np.linspace(0.5, 2, y.shape[0])
    report = mf.classification_report(
        y, p, sample_weight=w, labels=[4, 0, 2], confidence=0.9,
        interval_method=method, n_resamples=30, random_state=0, output_dict=True,
        zero_division=0.0,
    )  # fmt: skip
    assert "f1-score-ci" in report["samples avg"]
    _once(calls)


@pytest.mark.parametrize(
    ("average", "weighted", "multilabel"),
    [
        ("macro", False, False),
        ("weighted", True, False),
        ("micro", False, True),
        ("samples", True, True),
    ],
)
@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_fbeta_confidence_interval(calls, average, weighted, multilabel, method):
    y, p = _multilabel() if multilabel else _labels()
    w = np.linspace(0.5, 2, y.shape[0]) if weighted else None
    mf.fbeta_confidence_interval(
        y, p, average=average, sample_weight=w, method=method, n_resamples=30,
        random_state=0, zero_division=0.0,
    )  # fmt: skip
    _once(calls)


def test_summary_and_its_interval(calls):
    y, p = _labels()
    summary = mf.fbeta_summary(y, p)
    summary.confidence_interval(method="bootstrap", n_resamples=30, random_state=0)
    summary.confidence_interval()
    _once(calls)


@pytest.fixture
def conversions(monkeypatch) -> Counter:
    """Counter of the conversions of each argument into an array, by its name."""
    counter: Counter = Counter()
    convert = _targets.to_array

    def counted(y, name):
        counter[name] += 1
        return convert(y, name)

    monkeypatch.setattr(_targets, "to_array", counted)
    return counter


@pytest.fixture
def encodings(monkeypatch) -> Counter:
    """Counter of the encodings of 1-D y_true with predictions (``_read_1d``)."""
    counter: Counter = Counter()
    encode = _targets._read_1d

    def counted(*args, **kwargs):
        counter["_read_1d"] += 1
        return encode(*args, **kwargs)

    monkeypatch.setattr(_targets, "_read_1d", counted)
    return counter


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_classifiers", [2, 3])
def test_comparison_reads_y_true_once_and_counts_each_classifier_once(
    calls, conversions, encodings, method, weighted, n_classifiers
):
    y, a = _labels(seed=2)
    predictions = [a] + [_labels(seed=3 + i)[1] for i in range(n_classifiers - 1)]
    w = np.linspace(0.5, 2, y.shape[0]) if weighted else None
    mf.compare_classifiers(
        y, *predictions, sample_weight=w, method=method, n_resamples=30,
        random_state=0,
    )  # fmt: skip
    # y_true read once with every prediction set, each classifier counted once
    assert calls == Counter(
        {"read_joint_targets": 1, "count_targets": n_classifiers}
    ), calls
    names = [f"y_pred_{c}" for c in "abc"[:n_classifiers]]
    assert conversions == Counter(dict.fromkeys(["y_true", *names], 1)), conversions
    # one encoding of y_true with all the predictions (not one per pair)
    assert encodings == Counter({"_read_1d": 1}), encodings


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_multilabel_comparison_reads_y_true_once(calls, conversions, method):
    y, a = _multilabel()
    _, b = _multilabel(seed=2)
    _, c = _multilabel(seed=3)
    mf.compare_classifiers(
        y, a, b, c, average="macro", method=method, n_resamples=30, random_state=0,
        zero_division=0.0,
    )  # fmt: skip
    assert calls == Counter({"read_joint_targets": 1, "count_targets": 3}), calls
    assert conversions["y_true"] == 1, conversions


def _cli(argv, stdin_text=""):
    status, out, err = macrof1(argv, stdin_text)
    assert status == 0, err
    return out


@pytest.mark.parametrize("extra", [[], ["--confidence", "0.9"]])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_cli_score(calls, tmp_path, extra, fmt):
    y, p = _labels(300)
    t, q = tmp_path / "t.txt", tmp_path / "p.txt"
    t.write_text("\n".join(map(str, y)) + "\n")
    q.write_text("\n".join(map(str, p)) + "\n")
    _cli(["score", str(t), str(q), "--format", fmt, *extra])
    _once(calls)


def test_cli_score_multilabel_intervals(calls, tmp_path):
    table = tmp_path / "sets.csv"
    rows = ["true,pred", "a|b,a", "b,b|c", "c,c", "a|c,a|c", "b,a"] * 20
    table.write_text("\n".join(rows) + "\n")
    _cli(["score", str(table), "--true", "true", "--pred", "pred", "--label-sep",
          "|", "--average", "samples", "--confidence", "0.9"])  # fmt: skip
    _once(calls)


@pytest.mark.parametrize("extra", [[], ["--confidence", "0.9"]])
def test_cli_matrix(calls, extra):
    _cli(["matrix", "2", "100", "10000", "0", "100", "--format", "json", *extra])
    assert calls == Counter({"MacroF1Counts.from_confusion_matrix": 1}), calls


def test_report_from_confusion_matrix_with_intervals(calls):
    mf.classification_report(
        mf.MacroF1Counts.from_confusion_matrix([[50, 3], [7, 40]], rows="true"),
        confidence=0.9,
    )
    assert calls == Counter({"MacroF1Counts.from_confusion_matrix": 1}), calls


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"confidence": 0.95},
        {"confidence": 0.9, "interval_method": "bootstrap", "n_resamples": 20},
    ],
)
@pytest.mark.parametrize("multilabel", [False, True])
def test_report_selects_and_aggregates_its_rows_once(monkeypatch, options, multilabel):
    """The rows and their intervals come from one selection of the labels and
    one aggregation of every row."""
    # the label selection and row aggregation have no public face: counted
    from sklearn_macrof1._formulas import _evaluation

    counter: Counter = Counter()
    for name in ("select", "evaluate_averages"):
        function = getattr(_evaluation, name)

        def wrapper(*args, _name=name, _function=function, **kwargs):
            counter[_name] += 1
            return _function(*args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("sklearn_macrof1"):
                if getattr(module, name, None) is function:
                    monkeypatch.setattr(module, name, wrapper)
    y, p = _multilabel() if multilabel else _labels()
    mf.classification_report(y, p, zero_division=0.0, random_state=0, **options)
    assert counter == Counter({"select": 1, "evaluate_averages": 1}), counter
