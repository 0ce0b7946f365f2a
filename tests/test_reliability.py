"""Reliability: inputs that once crashed the interpreter or gave a wrong number.

Each finding is checked against scikit-learn (same value, or same exception type),
or against the deliberate difference documented in ``docs/differences.md``. Inputs
that once crashed the process run in a subprocess, so that a regression fails
this test instead of taking the test run down.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.metrics import classification_report as sk_report
from sklearn.metrics import f1_score, fbeta_score

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    classification_report,
    f1_of_averages_score,
    fbeta_summary,
)


def _isolated(body: str) -> str:
    """Run ``body`` in a fresh interpreter; return its stdout (fails on a crash)."""
    code = "import numpy as np, scipy.sparse as sp, warnings\n"
    code += "warnings.simplefilter('ignore')\n" + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout.strip()


def _outcome(call) -> str:
    """The value of ``call()`` (rounded, as text) or its exception's type name."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = call()
    except Exception as exc:
        return type(exc).__name__
    return repr(np.round(np.asarray(value, dtype=float), 12).tolist())


_MASKED = {
    "huge": "np.ma.masked_array([0, 1, 1, 10**9], mask=[0, 0, 0, 1])",
    "negative": "np.ma.masked_array([0, 1, 1, -7], mask=[0, 0, 0, 1])",
    "byte-255": "np.ma.masked_array(np.array([0, 1, 1, 255], np.uint8), "
    "mask=[0, 0, 0, 1])",
    "nan": "np.ma.masked_array([0.0, 1.0, 1.0, np.nan], mask=[0, 0, 0, 1])",
}
_PLAIN = "np.array([0, 1, 0, 1])"
_BOOLS = {
    "1d": "np.array([0, 1, 2, 1], np.uint8).view(bool), "
    "np.array([0, 1, 1, 200], np.uint8).view(bool)",
    "multilabel": "np.array([[0, 1], [2, 1]], np.uint8).view(bool), "
    "np.array([[0, 1], [1, 200]], np.uint8).view(bool)",
    "with-ints": "np.array([0, 1, 2, 1], np.uint8).view(bool), np.array([0, 1, 1, 1])",
}
#: Inputs that once crashed the interpreter or wrote out of bounds: name -> the
#: arguments of a call, as source text.
CRASHERS = {
    **{f"masked-{k}-true": f"{v}, {_PLAIN}" for k, v in _MASKED.items()},
    **{f"masked-{k}-pred": f"{_PLAIN}, {v}" for k, v in _MASKED.items()},
    **{f"bool-bytes-{k}": v for k, v in _BOOLS.items()},
    "matrix-true": "np.matrix([[0], [1], [1], [0]]), " + _PLAIN,
    "matrix-pred-long": "np.arange(70000) % 3, np.matrix(np.arange(70000) % 3).T",
}


@pytest.fixture(scope="module")
def ours_isolated() -> dict[str, dict[str, str]]:
    """Outcome of each crasher through three entry points, all in one subprocess
    (a crash there fails every test that uses this fixture)."""
    out = _isolated(
        """
        import json, sys
        sys.path.insert(0, TESTS_DIR)
        from test_reliability import CRASHERS, _outcome
        from sklearn_macrof1 import (
            MacroF1Accumulator, averaged_f1_score, classification_report)
        def accumulate(y_true, y_pred):
            acc = MacroF1Accumulator()
            acc.update(y_true, y_pred)
            return averaged_f1_score(acc.counts, average=None)
        entries = {
            "score": lambda a: averaged_f1_score(*a, average=None),
            "accumulator": lambda a: accumulate(*a),
            "report": lambda a: classification_report(*a, output_dict=True)[
                "macro avg"]["f1-score"],
        }
        results = {}
        for name, args in CRASHERS.items():
            values = eval("(" + args + ")")
            results[name] = {
                entry: _outcome(lambda: call(values)) for entry, call in entries.items()
            }
        print(json.dumps(results))
        """.replace("TESTS_DIR", repr(str(Path(__file__).parent)))
    )
    return json.loads(out.splitlines()[-1])


#: scikit-learn releases before 1.9 score some of these inputs (a masked array's
#: hidden data, odd bool bytes as other classes): the live comparison needs 1.9.
NEW_SKLEARN = tuple(int(p) for p in sklearn.__version__.split(".")[:2]) >= (1, 9)


def _theirs(name: str) -> str:
    return _outcome(lambda: f1_score(*eval(CRASHERS[name]), average=None))


@pytest.mark.parametrize("name", [n for n in CRASHERS if n.startswith("masked")])
def test_masked_entries_are_refused_as_in_scikit_learn(name, ours_isolated):
    expected = "ValueError" if "nan" in name else "TypeError"  # NaN is found first
    if NEW_SKLEARN:
        assert _theirs(name) == expected
    assert set(ours_isolated[name].values()) == {expected}


@pytest.mark.parametrize("name", [n for n in CRASHERS if n.startswith("bool")])
def test_bool_arrays_with_odd_bytes_read_as_numpy_reads_them(name, ours_isolated):
    # numpy reads any nonzero byte as True: the same arrays with bytes 0/1
    as_read = [
        np.asarray(y).view(np.uint8) != 0 if np.asarray(y).dtype == bool else y
        for y in eval(CRASHERS[name])
    ]
    expected = _outcome(lambda: f1_score(*as_read, average=None))
    assert expected.startswith("[")
    if NEW_SKLEARN:
        assert _theirs(name) == expected
    assert ours_isolated[name]["score"] == expected
    assert ours_isolated[name]["accumulator"] == expected


@pytest.mark.parametrize("name", [n for n in CRASHERS if n.startswith("matrix")])
def test_np_matrix_is_refused_with_type_error(name, ours_isolated):
    assert _theirs(name) == "TypeError"
    assert set(ours_isolated[name].values()) == {"TypeError"}


def test_masked_array_without_masked_entries_is_its_data():
    y_true = np.ma.masked_array([0, 1, 1, 2], mask=[0, 0, 0, 0])
    y_pred = np.array([0, 1, 0, 2])
    assert averaged_f1_score(y_true, y_pred) == f1_score(
        y_true, y_pred, average="macro"
    )


class _Lying(np.ndarray):
    """A subclass whose reductions disagree with its buffer."""

    def max(self, *args, **kwargs):
        return 1

    def min(self, *args, **kwargs):
        return 0


def test_subclass_is_read_through_its_buffer():
    y_true = np.array([0, 1, 5, 1]).view(_Lying)
    y_pred = np.array([0, 1, 5, 0])
    expected = f1_score(np.asarray(y_true), y_pred, average="macro")
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(expected, abs=1e-15)


def test_memmap_is_scored(tmp_path):
    y = np.memmap(tmp_path / "y", dtype=np.int64, mode="w+", shape=(4,))
    y[:] = [0, 1, 2, 1]
    assert averaged_f1_score(y, np.array([0, 1, 2, 2])) == pytest.approx(
        f1_score(np.asarray(y), [0, 1, 2, 2], average="macro"), abs=1e-15
    )


def test_byte_swapped_multilabel_is_refused_as_in_scikit_learn():
    y_true = np.array([[0, 1], [1, 1]], ">i8")
    y_pred = np.array([[0, 1], [1, 0]])
    with pytest.raises(ValueError):
        f1_score(y_true, y_pred, average="macro")
    with pytest.raises(ValueError, match="y_true.*dtype"):
        averaged_f1_score(y_true, y_pred)


def test_byte_swapped_and_strided_labels_are_scored():
    y_true = np.arange(20, dtype=">i4")[::2] % 3
    y_pred = (np.arange(20, dtype="<i8")[::2] // 2) % 3
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(
        f1_score(y_true.astype(int), y_pred, average="macro"), abs=1e-15
    )


@pytest.mark.parametrize("fmt", ["dok", "lil", "csc", "coo", "bsr", "dia"])
def test_every_sparse_format_is_scored(fmt):
    y_true = sp.csr_matrix(np.array([[0, 1], [1, 1], [1, 0]])).asformat(fmt)
    y_pred = sp.csr_matrix(np.array([[0, 1], [1, 0], [1, 1]])).asformat(fmt)
    assert averaged_f1_score(y_true, y_pred) == f1_score(
        y_true, y_pred, average="macro"
    )


def test_object_array_mixing_str_and_int_is_a_type_error():
    y = np.array(["a", 1, "a"], dtype=object)
    with pytest.raises(TypeError):
        f1_score(y, np.array(["a", 1, 1], dtype=object), average="macro")
    with pytest.raises(TypeError):
        averaged_f1_score(y, np.array(["a", 1, 1], dtype=object))


@pytest.mark.parametrize("as_objects", [True, False])
def test_strings_with_nul_characters(as_objects):
    y_true, y_pred = ["a", "a\0", "b", "a\0"], ["a", "a\0", "a", "b"]
    if as_objects:  # 'a' and 'a\0' are two labels
        y_true, y_pred = np.array(y_true, object), np.array(y_pred, object)
    # (from lists, numpy's string arrays drop trailing NULs: one label)
    assert averaged_f1_score(y_true, y_pred) == pytest.approx(
        f1_score(y_true, y_pred, average="macro"), abs=1e-15
    )


@pytest.mark.parametrize(
    ("y_true", "y_pred", "labels"),
    [
        ([1, 2, 1, 2], [1, 2, 2, 2], ["1", "2"]),
        ([1, 2, 1, 2], [1, 2, 2, 2], ["2", "1"]),
        ([1, 2, 1, 2], [1, 2, 2, 2], ["1", "5"]),
        (["1", "2", "1", "2"], ["1", "2", "2", "2"], [1, 2]),
        ([1.0, 2.0, 1.0, 2.0], [1.0, 2.0, 2.0, 2.0], ["1.0", "2.0"]),
        ([1.0, 2.0, 1.0, 2.0], [1.0, 2.0, 2.0, 2.0], ["1", "2"]),
        ([True, False, True], [True, True, True], ["True"]),
    ],
)
def test_labels_of_the_other_kind_compare_as_strings(y_true, y_pred, labels):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in ("macro", None):
            np.testing.assert_allclose(
                averaged_f1_score(y_true, y_pred, labels=labels, average=average),
                f1_score(y_true, y_pred, labels=labels, average=average),
                atol=1e-15,
            )


def test_huge_integers_with_floats_are_refused():
    """Deliberate difference: scikit-learn makes one float64 of 2**53 + 1 and
    2.0**53 and then counts that class twice (per-class [1, 1, 1])."""
    y_true = np.array([2**53 + 1, 0, 2**53 + 1, 0])
    y_pred = np.array([2.0**53, 0.0, 2.0**53, 0])
    with pytest.raises(ValueError, match="2\\*\\*53"):
        averaged_f1_score(y_true, y_pred, average=None)


def test_int64_with_uint64_at_2_63_stays_exact():
    """Deliberate difference: scikit-learn's float64 label set holds 2**63 twice
    and counts that class twice (per-class [1, 1, 1] for the 3 labels)."""
    y_true = np.array([2**63 - 1, 0, 2**63 - 1], np.int64)
    y_pred = np.array([2**63, 0, 2**63], np.uint64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = fbeta_summary(y_true, y_pred, average=None)
    np.testing.assert_array_equal(got.averaged_fbeta, [1.0, 0.0, 0.0])
    assert got.labels.tolist() == [0, 2**63 - 1, 2**63]


def test_pandas_nullable_integers_read_as_scikit_learn_reads_them():
    y_true = pd.Series([1, 2, 1], dtype="Int64")
    y_pred = pd.Series([1, 2, 2], dtype="Int64")
    assert averaged_f1_score(y_true, y_pred) == f1_score(
        y_true, y_pred, average="macro"
    )
    ours = classification_report(y_true, y_pred, output_dict=True)
    theirs = sk_report(y_true, y_pred, output_dict=True)
    assert list(ours)[:2] == list(theirs)[:2] == ["1.0", "2.0"]


def test_pandas_int64_beyond_2_53_is_refused_not_merged():
    """Deliberate difference: scikit-learn converts to float64 and merges the
    labels 2**53 and 2**53 + 1 (score 1.0 for a wrong prediction)."""
    y_true = pd.Series([2**53 + 1, 2**53, 2**53 + 1], dtype="Int64")
    y_pred = pd.Series([2**53 + 1, 2**53, 2**53], dtype="Int64")
    with pytest.raises(ValueError, match="2\\*\\*53"):
        averaged_f1_score(y_true, y_pred)
    exact = averaged_f1_score(y_true.to_numpy("int64"), y_pred.to_numpy("int64"))
    assert exact == pytest.approx(2 / 3)


def test_pandas_uint64_at_2_63_is_continuous_as_in_scikit_learn():
    y_true = pd.Series([2**63, 0, 2**63], dtype="UInt64")
    y_pred = pd.Series([2**63, 0, 0], dtype="UInt64")
    with pytest.raises(ValueError):
        f1_score(y_true, y_pred, average="macro")
    with pytest.raises(ValueError, match="continuous"):
        averaged_f1_score(y_true, y_pred)


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [
        (np.array([True, False, True]), np.array([1.0, 0.0, 0.0])),
        (np.array([True, True, True]), np.array([1.0, 0.0, 2.0])),
        (np.array([1, 0, 1]), np.array([True, False, False])),
        (np.array([1.0, 0, 1]), np.array([True, False, False])),
        (np.array([True, False]), np.array([1, 0])),
    ],
)
def test_report_keys_follow_scikit_learns_label_set(y_true, y_pred):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = classification_report(y_true, y_pred, output_dict=True)
        theirs = sk_report(y_true, y_pred, output_dict=True)
    assert list(ours)[: len(theirs) - 3] == list(theirs)[: len(theirs) - 3]


@pytest.mark.parametrize("value", [np.int64(1), np.float32(0.0), np.float32(1.0)])
def test_numpy_scalar_zero_division_means_its_value(value):
    """Deliberate difference: scikit-learn uses nan for numpy scalars other than
    float64 (0.667 here for both); ours uses the value asked for."""
    y_true, y_pred = [0, 1, 1], [0, 1, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = averaged_f1_score(y_true, y_pred, labels=[0, 1, 2], zero_division=value)
        expected = f1_score(
            y_true,
            y_pred,
            labels=[0, 1, 2],
            zero_division=float(value),
            average="macro",
        )
    assert got == pytest.approx(expected, abs=1e-15)


def test_csr_stored_zero_means_label_not_set():
    """Deliberate difference: scikit-learn counts a stored 0 as a prediction
    ([0.5, 1.0] here); ours reads it as the dense matrix holds it."""
    y_true = sp.csr_matrix(np.array([[1, 0], [1, 1], [0, 1]]))
    y_pred = sp.csr_matrix(
        (np.array([1, 0, 1, 1]), np.array([0, 0, 1, 1]), np.array([0, 1, 3, 4])),
        shape=(3, 2),
    )
    got = averaged_f1_score(y_true, y_pred, average=None)
    dense = f1_score(y_true.toarray(), y_pred.toarray(), average=None)
    np.testing.assert_allclose(got, dense, atol=1e-15)
    np.testing.assert_allclose(got, [2 / 3, 1.0], atol=1e-15)


@pytest.mark.parametrize("beta", [1e200, 1e160])
def test_beta_whose_square_overflows_raises_overflow_error(beta):
    with pytest.raises(OverflowError):
        fbeta_score([0, 1, 1], [0, 1, 0], beta=beta, average="macro")
    for function in (averaged_fbeta_score, fbeta_summary):
        with pytest.raises(OverflowError, match="beta"):
            function([0, 1, 1], [0, 1, 0], beta=beta)


def test_malformed_csr_is_refused_before_any_allocation():
    """(classification_report once tried to allocate 6.8 GiB for this one.)"""
    bad = sp.csr_matrix(np.array([[1, 0], [0, 1]]))
    bad.indices = np.array([0, 10**9], dtype=bad.indices.dtype)
    good = sp.csr_matrix(np.array([[1, 0], [0, 1]]))
    for args in ((bad, good), (good, bad)):
        with pytest.raises(ValueError, match="malformed"):
            classification_report(*args)
        with pytest.raises(ValueError, match="malformed"):
            averaged_f1_score(*args)
    bad_coo = sp.coo_matrix(np.array([[1, 0], [0, 1]]))
    bad_coo.col[0] = 5
    with pytest.raises(ValueError, match="malformed"):
        averaged_f1_score(bad_coo, good)


@pytest.mark.parametrize(
    "matrix",
    [
        np.full((2, 2), 2**62, dtype=np.int64),
        np.full((2, 2), 2**63, dtype=np.uint64),
        np.full((2, 2), 1e308),
        np.array([[1e300, 1e300], [0.0, 1.0]]),
    ],
)
def test_confusion_matrix_sums_never_overflow_silently(matrix):
    with pytest.raises(ValueError, match="too large"):
        fbeta_summary(MacroF1Counts.from_confusion_matrix(matrix, rows="true"))


def test_large_but_safe_confusion_matrix_is_exact():
    matrix = np.full((2, 2), 2**60, dtype=np.int64)
    summary = fbeta_summary(MacroF1Counts.from_confusion_matrix(matrix, rows="true"))
    assert summary.averaged_fbeta == 0.5
    assert summary.support.tolist() == [2**61, 2**61]


def test_accumulator_reads_targets_like_the_scores():
    acc = MacroF1Accumulator()
    acc.update(np.array([0, 1, 2, 1], np.uint8).view(bool), np.array([0, 1, 1, 1]))
    assert averaged_f1_score(acc.counts) == f1_score(
        np.array([False, True, True, True]), [0, 1, 1, 1], average="macro"
    )
    with pytest.raises(TypeError):
        acc.update(np.matrix([[0], [1]]), np.array([0, 1]))


def test_f1_of_averages_sees_the_same_reading():
    y_true = np.ma.masked_array([0, 1, 1, 0])  # nothing masked: its data
    assert f1_of_averages_score(y_true, [0, 1, 0, 0]) == f1_of_averages_score(
        [0, 1, 1, 0], [0, 1, 0, 0]
    )


@pytest.mark.parametrize(
    "values",
    [[None, "a", None], [1, "a", 2.0], [None, None], [1, 2], [True, 3]],
)
def test_object_arrays_scikit_learn_cannot_type_are_refused_alike(values):
    y = np.array(values, dtype=object)
    expected = "ValueError" if values in ([1, 2], [True, 3]) else "TypeError"
    if NEW_SKLEARN:  # (before 1.9 scikit-learn raised ValueError for all)
        assert _outcome(lambda: f1_score(y, y, average="macro")) == expected
    assert _outcome(lambda: averaged_f1_score(y, y)) == expected


def test_bool_labels_of_multilabel_targets_are_column_indices():
    y_true, y_pred = np.array([[0, 1], [1, 1]]), np.array([[0, 1], [1, 0]])
    for labels in ([True], [False, True]):
        np.testing.assert_allclose(
            averaged_f1_score(y_true, y_pred, labels=labels, average=None),
            f1_score(y_true, y_pred, labels=labels, average=None),
            atol=1e-15,
        )
