"""Parity with scikit-learn on the fast counting paths (benchmarks/ measures speed).

The property-based parity suite draws small inputs; these tests make sure the
paths taken only by larger or particular inputs give scikit-learn's numbers too:
O(n) string encoding (n >= 4096, bucket collisions, keys too wide for 64 bits),
object arrays of strings, small non-negative integer codes (every integer dtype),
dense multilabel column counts (uint8 halving, n not a multiple of 256) and CSR
indicators (repeated entries, more than 64 columns, samples averaging over a
subset of labels).
"""

from __future__ import annotations

import string
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from _reference import assert_same_outcome, outcome, reference_fbeta_of_averages
from sklearn.metrics import confusion_matrix, f1_score, precision_recall_fscore_support

from sklearn_macrof1 import (
    averaged_f1_score,
    f1_of_averages_score,
    fbeta_summary,
)

# Units without a public face: the counting kernels (the joint table block by
# block, column sums of CSR indices), the keyed string encoding and its size
# threshold, and the target reading's codes, each checked where no result shows
# them; the imports inside tests force or watch a path.
from sklearn_macrof1._counting._kernels import (
    _BLOCK,
    _joint_table,
    _weighted_column_sums,
)
from sklearn_macrof1._read._encoding import _MIN_KEYED, encode_by_key
from sklearn_macrof1._read._targets import read_targets

AVERAGES_1D = ["macro", "micro", "weighted", None]


def _same(ours, theirs) -> None:
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def _check_1d(y_true, y_pred) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in AVERAGES_1D:
            _same(
                averaged_f1_score(y_true, y_pred, average=average),
                f1_score(y_true, y_pred, average=average),
            )
        summary = fbeta_summary(y_true, y_pred, average=None)
        _, _, _, support = precision_recall_fscore_support(y_true, y_pred)
    np.testing.assert_array_equal(summary.support, support)


def _random_words(rng, k: int, max_len: int, alphabet: str) -> np.ndarray:
    letters = list(alphabet)
    words = {
        "".join(rng.choice(letters, rng.integers(0, max_len + 1))) for _ in range(k)
    }
    return np.array(sorted(words))


@pytest.mark.parametrize(
    ("k", "max_len", "alphabet", "keyed"),
    [
        (10, 5, "abcdef", True),  # small key range: direct table
        (40, 6, string.ascii_letters, True),  # hashed buckets
        (20, 3, "aé中b\u0100", True),  # non-ASCII code points
        (3000, 12, string.ascii_letters, False),  # bucket collisions: sorted
        (30, 40, string.printable, False),  # keys wider than 64 bits: sorted
    ],
)
def test_numpy_string_labels_large_n(k, max_len, alphabet, keyed):
    rng = np.random.default_rng(k)
    words = _random_words(rng, k, max_len, alphabet)
    n = _MIN_KEYED + 1000
    y_true = words[rng.integers(0, words.shape[0], n)]
    y_pred = words[rng.integers(0, words.shape[0], n)].astype(
        f"U{max_len + 3}"  # a wider dtype than y_true's
    )
    assert (encode_by_key(y_true, y_pred, n) is not None) is keyed
    targets = read_targets(y_true, y_pred)
    np.testing.assert_array_equal(targets.code_labels[targets.true], y_true)
    np.testing.assert_array_equal(targets.code_labels[targets.pred], y_pred)
    assert list(targets.code_labels) == sorted(set(y_true) | set(y_pred))
    _check_1d(y_true, y_pred)


def test_prediction_labels_absent_from_truth_large_n():
    rng = np.random.default_rng(0)
    n = 2 * _MIN_KEYED
    y_true = np.array(["cat", "dog"])[rng.integers(0, 2, n)]
    y_pred = np.array(["cat", "dog", "", "zebra"])[rng.integers(0, 4, n)]
    _check_1d(y_true, y_pred)


def test_object_string_labels_and_mixed_types():
    rng = np.random.default_rng(1)
    words = np.array(["b", "a", "ccc", "dd"], dtype=object)
    y_true = words[rng.integers(0, 4, 5000)]
    y_pred = words[rng.integers(0, 3, 5000)]
    _check_1d(y_true, y_pred)
    _check_1d(list(y_true), y_pred)  # a list of str against an object array
    mixed = y_pred.copy()
    mixed[7] = 3
    for y in (mixed, y_true):
        other = y_true if y is mixed else mixed
        with pytest.raises((TypeError, ValueError)) as ours:
            averaged_f1_score(y, other)
        with pytest.raises((TypeError, ValueError)) as theirs:
            f1_score(y, other, average="macro")
        assert ours.type is theirs.type


@pytest.mark.parametrize(
    "dtype",
    [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64]
    + [">i8", ">u8"],  # byte-swapped
)
@pytest.mark.parametrize(("low", "high"), [(0, 3), (2, 9), (-4, 4)])
def test_integer_dtypes(dtype, low, high):
    if np.dtype(dtype).kind == "u" and low < 0:
        pytest.skip("negative labels need a signed dtype")
    rng = np.random.default_rng(3)
    n = 3001  # odd, above the size where samples are counted in pairs
    y_true = rng.integers(low, high, n).astype(dtype)
    y_pred = rng.integers(low, high, n).astype(dtype)
    _check_1d(y_true, y_pred)
    _check_1d(y_true, y_pred.astype(np.int64))  # mixed dtypes
    weights = rng.random(n) - 0.1  # some negative weights
    _same(
        averaged_f1_score(y_true, y_pred, sample_weight=weights),
        f1_score(y_true, y_pred, average="macro", sample_weight=weights),
    )


def _indicators(rng, n: int, n_labels: int, density: float):
    y_true = rng.random((n, n_labels)) < density
    y_pred = y_true ^ (rng.random((n, n_labels)) < density / 2)
    return y_true, y_pred


@pytest.mark.parametrize(
    ("n", "n_labels", "fmt"),
    [
        (256 * 9 + 13, 7, "dense"),
        (1000, 300, "dense"),
        (256 * 9 + 13, 50, "csr"),
        (700, 64, "csr"),
        (700, 65, "csr"),
        (500, 3, "csc"),
    ],
)
@pytest.mark.parametrize("average", ["macro", "micro", "weighted", "samples", None])
def test_multilabel_counts(n, n_labels, fmt, average):
    rng = np.random.default_rng(n_labels)
    y_true, y_pred = _indicators(rng, n, n_labels, 0.1)
    if fmt != "dense":
        y_true, y_pred = sp.csr_matrix(y_true), sp.csr_matrix(y_pred)
        if fmt == "csc":
            y_true, y_pred = y_true.tocsc(), y_pred.tocsc()
    labels = [n_labels - 1, 0, 2] if n_labels > 2 else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for chosen in (None, labels):
            _same(
                averaged_f1_score(y_true, y_pred, average=average, labels=chosen),
                f1_score(y_true, y_pred, average=average, labels=chosen),
            )


def test_csr_with_a_repeated_entry_matches_sklearn():
    n, n_labels = 300, 10
    rng = np.random.default_rng(5)
    _, y_pred = _indicators(rng, n, n_labels, 0.3)
    indptr = np.zeros(n + 1, dtype=np.int32)
    indptr[1:] = 3
    y_true = sp.csr_matrix(
        (np.ones(3), np.array([4, 4, 1]), indptr), shape=(n, n_labels)
    )
    y_pred = sp.csr_matrix(y_pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in ("macro", "samples", None):
            _same(
                averaged_f1_score(y_true, y_pred, average=average),
                f1_score(y_true, y_pred, average=average),
            )


def _messages(caught) -> list[str]:
    return sorted(str(w.message) for w in caught)


@pytest.mark.parametrize(
    ("n_labels", "fmt", "weighted"),
    [
        (20, "dense", False),
        (20, "csr", False),
        (63, "csr", False),  # up to 63 labels per sample: 64**3 code table
        (70, "dense", False),  # a sample with 70 labels: not grouped
        (20, "csr", True),  # weights: per-sample path
    ],
)
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_samples_average_grouped_by_count_triples(
    n_labels, fmt, weighted, zero_division
):
    """A lone samples score groups samples by (tp, true, pred) (n >= 1024)."""
    rng = np.random.default_rng(n_labels)
    n = 3001
    y_true, y_pred = _indicators(rng, n, n_labels, 0.05)  # some empty rows
    y_true[0] = y_pred[0] = n_labels > 64  # the largest sample sets the table
    weights = rng.random(n) if weighted else None
    if fmt == "csr":
        y_true, y_pred = sp.csr_matrix(y_true), sp.csr_matrix(y_pred)
    kw = dict(average="samples", zero_division=zero_division, sample_weight=weights)
    for labels in (None, [3, 0, 7]):
        theirs = outcome(f1_score, y_true, y_pred, labels=labels, **kw)
        ours = outcome(averaged_f1_score, y_true, y_pred, labels=labels, **kw)
        assert_same_outcome(ours, theirs)
        theirs = reference_fbeta_of_averages(
            y_true, y_pred, beta=1.0, labels=labels, **kw
        )
        ours = outcome(f1_of_averages_score, y_true, y_pred, labels=labels, **kw)
        assert_same_outcome(ours, theirs)


@pytest.mark.parametrize("fmt", ["dense", "csr"])
def test_samples_warning_text_when_every_sample_has_one_triple(fmt):
    """2000 empty samples are one distinct triple; the warning still says
    "in samples with", as scikit-learn's does for more than one sample."""
    y_true = np.zeros((2000, 5), dtype=bool)
    y_pred = y_true.copy()
    if fmt == "csr":
        y_true, y_pred = sp.csr_matrix(y_true), sp.csr_matrix(y_pred)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        value = averaged_f1_score(y_true, y_pred, average="samples")
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        expected = f1_score(y_true, y_pred, average="samples")
    assert value == expected == 0.0
    assert _messages(ours) == _messages(theirs)
    assert any("in samples with" in m for m in _messages(ours))


def _csr_with_indices(indices: np.ndarray) -> sp.csr_matrix:
    """One row per stored column index (the constructor does not check them)."""
    m = indices.shape[0]
    indptr = np.arange(m + 1, dtype=indices.dtype)
    return sp.csr_matrix((np.ones(m, dtype=bool), indices, indptr), shape=(m, 17))


@pytest.mark.parametrize("m", [0, 1, 2047, _BLOCK, 2 * _BLOCK + 5])
def test_column_index_counts_equal_bincount(m):
    rng = np.random.default_rng(m)
    for dtype in (np.int32, np.int64):
        indices = rng.integers(0, 17, m).astype(dtype)
        counts = _weighted_column_sums(_csr_with_indices(indices), None)
        assert counts.dtype == np.int64
        np.testing.assert_array_equal(counts, np.bincount(indices, minlength=17))


def test_column_index_counts_of_a_malformed_matrix_are_not_written_out_of_place():
    """An index past the last column shows in the counts (a longer array), or a
    negative one raises: nothing is written out of place."""
    indices = np.zeros(5000, dtype=np.int32)
    indices[17] = 20
    counts = _weighted_column_sums(_csr_with_indices(indices), None)
    np.testing.assert_array_equal(counts, np.bincount(indices, minlength=17))
    assert counts.shape == (21,)
    indices[17] = -1
    with pytest.raises(ValueError):
        _weighted_column_sums(_csr_with_indices(indices), None)


def test_csr_values_other_than_one_are_labels_on_every_path():
    """A CSR indicator storing one nonzero value (here 16 in int8, whose square
    overflows to 0) counts its entries as labels, unweighted and weighted alike."""
    rng = np.random.default_rng(3)
    y_true, y_pred = _indicators(rng, 3000, 20, 0.1)
    weights = rng.random(3000)
    as_int8 = [sp.csr_matrix(y.astype(np.int8) * np.int8(16)) for y in (y_true, y_pred)]
    as_bool = [sp.csr_matrix(y) for y in (y_true, y_pred)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in ("macro", "samples", None):
            for w in (None, weights):
                _same(
                    averaged_f1_score(*as_int8, average=average, sample_weight=w),
                    f1_score(*as_bool, average=average, sample_weight=w),
                )


def _label_arrays(k, dtype, n, seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n).astype(dtype)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n)).astype(dtype)
    return y_true, y_pred


@pytest.mark.parametrize(
    ("k", "dtype_true", "dtype_pred"),
    [
        (3, np.int64, np.int64),
        (22, np.uint8, np.uint8),
        (5, np.int32, np.int32),
        (7, np.int32, np.int64),
        (4, np.int16, np.uint16),
        (400, np.int16, np.int64),  # a table too large to count block by block
    ],
)
def test_joint_table_over_several_blocks(k, dtype_true, dtype_pred):
    """More than two blocks (and a last partial one), codes of every integer
    width: the joint table is np.bincount's, also with weights (to the bit)."""
    n = 2 * _BLOCK + 1001
    y_true, y_pred = _label_arrays(k, dtype_true, n, k)
    y_pred = y_pred.astype(dtype_pred)
    y_true[-1], y_pred[-1] = k - 1, 0  # in the last, partial block
    codes = y_true.astype(np.int64) * k + y_pred
    expected = np.bincount(codes, minlength=k * k).reshape(k, k)
    summary = fbeta_summary(y_true, y_pred, average=None)
    np.testing.assert_array_equal(summary.confusion_matrix, expected)
    np.testing.assert_array_equal(summary.true_positives, np.diag(expected))
    weights = np.random.default_rng(1).random(n)
    weighted = np.bincount(codes, weights=weights, minlength=k * k).reshape(k, k)
    table = _joint_table(y_true, y_pred, k, weights)
    assert table.dtype == np.float64
    np.testing.assert_array_equal(table, weighted)


def test_weights_that_cancel_across_blocks_sum_as_scikit_learn_sums_them():
    """Weighted cells are summed in sample order (one pass, not block subtotals):
    with large weights that cancel across a block boundary the confusion matrix
    is still scikit-learn's to the bit (the per-class totals are sums of the
    matrix, which scikit-learn sums separately: they can round differently)."""
    n = _BLOCK + 1000
    weights = np.ones(n)
    weights[_BLOCK - 1], weights[_BLOCK] = 1e16, -1e16
    y_true = np.zeros(n, dtype=np.int64)
    y_pred = y_true.copy()
    y_true[:10] = 1
    summary = fbeta_summary(y_true, y_pred, average=None, sample_weight=weights)
    expected = confusion_matrix(y_true, y_pred, sample_weight=weights)
    np.testing.assert_array_equal(summary.confusion_matrix, expected)


def test_joint_table_of_strided_views():
    """Columns of 2-D arrays and every-other-sample views are counted block by
    block, never read out of place."""
    rng = np.random.default_rng(5)
    n, k = _BLOCK + 333, 6
    frame = rng.integers(0, k, (2 * n, 3))
    y_true, y_pred = frame[::2, 0], frame[1::2, 2]
    weights = rng.random((2 * n, 2))[::2, 1]
    codes = y_true * k + y_pred
    np.testing.assert_array_equal(
        _joint_table(y_true, y_pred, k, None),
        np.bincount(codes, minlength=k * k).reshape(k, k),
    )
    np.testing.assert_array_equal(
        _joint_table(y_true, y_pred, k, weights),
        np.bincount(codes, weights=weights, minlength=k * k).reshape(k, k),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in AVERAGES_1D:
            options = {"average": average, "sample_weight": weights}
            _same(
                averaged_f1_score(y_true, y_pred, **options),
                f1_score(y_true, y_pred, **options),
            )


def test_counting_from_several_threads_at_once():
    """Each thread builds its joint codes in a buffer of its own (several blocks
    per call; uint8 and strided labels too)."""
    from concurrent.futures import ThreadPoolExecutor

    pairs = []
    for i in range(8):
        y_true, y_pred = _label_arrays(10, np.uint8, _BLOCK + 50_000 + i, i)
        if i % 2:
            y_true, y_pred = np.repeat(y_true, 2)[::2], y_pred.astype(np.int64)
        pairs.append((y_true, y_pred))
    expected = [
        np.bincount(t.astype(np.int64) * 10 + p, minlength=100).reshape(10, 10)
        for t, p in pairs
    ]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            got = list(pool.map(lambda tp: fbeta_summary(*tp).confusion_matrix, pairs))
            for a, b in zip(got, expected, strict=True):
                np.testing.assert_array_equal(a, b)


def test_grouped_samples_mean_is_sklearns_to_the_last_bit():
    """The ratios of each distinct count triple are gathered back per sample, so
    the mean is summed exactly as scikit-learn sums it."""
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.random((1024, 5)) < 0.3, rng.random((1024, 5)) < 0.3
    for zero_division in (0.0, 1.0):
        ours = averaged_f1_score(
            y_true, y_pred, average="samples", zero_division=zero_division
        )
        theirs = f1_score(
            y_true, y_pred, average="samples", zero_division=zero_division
        )
        assert ours == theirs


def test_narrow_integer_labels_do_not_wrap():
    """int8 labels spanning -128..127 are shifted in intp (127 - -128 = 255)."""
    y_true = np.int8([-128, -127, -127, 127])
    y_pred = np.int8([-128, 127, -127, 127])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(
            averaged_f1_score(y_true, y_pred, average=None),
            f1_score(y_true, y_pred, average=None),
        )


def test_intervals_of_csr_indicators_storing_another_value():
    """A CSR indicator storing 3 for each label has the intervals of its 0/1 twin."""
    from sklearn_macrof1 import fbeta_confidence_interval

    rng = np.random.default_rng(0)
    y_true = (rng.random((200, 5)) < 0.4).astype(int)
    y_pred = (rng.random((200, 5)) < 0.4).astype(int)
    for method in ("delta", "bootstrap"):
        threes = fbeta_confidence_interval(
            sp.csr_matrix(y_true * 3),
            sp.csr_matrix(y_pred * 3),
            method=method,
            random_state=0,
        )
        ones = fbeta_confidence_interval(y_true, y_pred, method=method, random_state=0)
        assert threes.averaged_fbeta.low == pytest.approx(ones.averaged_fbeta.low)
        assert threes.averaged_fbeta.high == pytest.approx(ones.averaged_fbeta.high)


# Label codes must lie in [0, k): a stray code would be counted in another cell. These
# inputs broke that before the encodings proved or checked their codes (found by
# an independent review): crashes, or silently wrong scores.

_IDS = np.array([1400000000000000001, 1400000000000000100, 1400000000000000300])


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [
        (
            np.array([2**63, 2**63 + 1], dtype=np.uint64),
            np.array([2**63] * 2, np.uint64),
        ),
        (np.array([-3, 2**60, 7]), np.array([7.0, -3.0, 2.0**60])),
        (
            np.array([5, -(2**62), 5], dtype=np.int64),
            np.array([5, 5, 3], dtype=np.uint64),
        ),
    ],
)
def test_labels_of_two_dtypes_compare_exactly(y_true, y_pred):
    """int64 with float64, or with uint64, compare exactly, as the numbers they
    are (numpy's common dtype, float64, would make 2**62 + 1 and 2.0**62 one
    label; scikit-learn's own label set then holds one float twice and counts a
    class twice). The reference is scikit-learn on the exact ranks of the labels."""
    exact = sorted({int(v) for v in np.concatenate([y_true.astype(object), y_pred])})
    rank = {v: i for i, v in enumerate(exact)}
    t = np.array([rank[int(v)] for v in y_true])
    p = np.array([rank[int(v)] for v in y_pred])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in ("macro", "micro", "weighted", None):
            _same(
                averaged_f1_score(y_true, y_pred, average=average),
                f1_score(t, p, average=average),
            )
        expected = confusion_matrix(t, p)
        summary = fbeta_summary(y_true, y_pred, average=None)
    np.testing.assert_array_equal(summary.confusion_matrix, expected)


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [
        (_IDS[[0, 1, 2, 0, 1, 2]], _IDS[[0, 1, 2, 0, 1, 2]].astype(np.float64)),
        (np.array([2**62 + 1]), np.array([2.0**62])),
    ],
)
def test_integers_beyond_2_53_with_floats_are_refused(y_true, y_pred):
    """No dtype holds both exactly (scikit-learn merges such labels or counts a
    class twice): a ValueError, never a number."""
    for args in ((y_true, y_pred), (y_pred, y_true)):
        with pytest.raises(ValueError, match="2\\*\\*53"):
            averaged_f1_score(*args)


def test_int64_and_uint64_labels_at_2_63_stay_two_labels():
    y_true, y_pred = np.array([2**63], dtype=np.uint64), np.array([2**63 - 1])
    assert averaged_f1_score(y_true, y_pred, zero_division=0) == 0.0
    # Shown as float64, as scikit-learn's label set of the two is.
    assert fbeta_summary(y_true, y_pred, zero_division=0).labels.shape == (2,)


def test_negative_int64_with_uint64_beyond_int64_is_refused():
    y_true = np.array([-1, 0], dtype=np.int64)
    y_pred = np.array([2**63 + 1, 0], dtype=np.uint64)
    with pytest.raises(ValueError, match="neither int64 nor uint64"):
        averaged_f1_score(y_true, y_pred)


def test_floats_beyond_int64_are_continuous_as_in_scikit_learn():
    a = 2**63 - 2400
    y_true, y_pred = np.array([a, a + 2000]), np.array([float(a), float(a + 2000)])
    with pytest.raises(ValueError, match="continuous"), np.errstate(invalid="ignore"):
        f1_score(y_true, y_pred, average="macro")
    with pytest.raises(ValueError, match="continuous"):
        averaged_f1_score(y_true, y_pred, average="macro")


@pytest.mark.parametrize(
    ("y_true", "y_pred"),
    [
        (np.array(["b\x00", "a"] * 3, dtype=object), np.array(["a", "b"] * 3)),
        (
            np.array(["2020-01-02", "NaT", "2020-01-01"], dtype="M8[D]"),
            np.array(["2020-01-01", "2020-01-02", "NaT"], dtype="M8[D]"),
        ),
    ],
)
def test_labels_that_do_not_sort_consistently_are_refused(y_true, y_pred):
    """NaT, or a trailing NUL that numpy strings drop, would give a label the code
    of another class (or one past the last): a clear error instead."""
    with pytest.raises(ValueError, match="cannot be ordered consistently"):
        averaged_f1_score(y_true, y_pred, average="macro")


def test_strided_numpy_strings_are_encoded_by_key():
    y = np.array(["cat", "dog", "cow"] * 3000)
    y_true, y_pred = y[::2], y[1::2]
    assert y_true.shape[0] >= _MIN_KEYED
    _check_1d(y_true, y_pred)


def test_csr_stored_zeros_are_not_labels():
    """scikit-learn's sparse indicators may store explicit zeros beside the ones.
    The reference is the dense matrix: scikit-learn's own "samples" average
    counts a stored zero of a sparse y_true (0.25 here, 1/3 on the dense one)."""
    y_true = sp.csr_matrix(
        (np.array([1.0, 0.0]), np.array([0, 1]), np.array([0, 2, 2])), shape=(2, 3)
    )
    y_pred = np.array([[1, 1, 0], [0, 0, 1]])
    for average in ("macro", "samples", None):
        expected = f1_score(y_true.toarray(), y_pred, average=average)
        for y in (y_pred, sp.csr_matrix(y_pred)):
            _same(averaged_f1_score(y_true, y, average=average), expected)


def test_a_count_nested_in_the_same_thread_leaves_the_outer_codes_alone(
    monkeypatch,
):
    """A count started while another is between building its block's codes and
    counting them (a signal handler, a trace function or a finalizer scoring in
    the same thread) must not write into the codes the outer count reads."""
    # the thread's code buffer has no public face: a count nested inside it
    from sklearn_macrof1._counting import _kernels as _counting

    rng = np.random.default_rng(8)
    n = _counting._BLOCK + 1000  # longer than one block: the buffer is used
    y_true, y_pred = rng.integers(0, 3, n), rng.integers(0, 3, n)
    expected = f1_score(y_true, y_pred, average="macro")
    averaged_f1_score(y_true, y_pred)  # the thread now keeps a buffer
    bincount = np.bincount
    nested = []

    def bincount_with_a_nested_count(*args, **kwargs):
        if not nested:
            nested.append(None)  # once: the nested count calls bincount too
            nested[0] = averaged_f1_score(np.full(n, 2), np.full(n, 2))
        return bincount(*args, **kwargs)

    monkeypatch.setattr(_counting.np, "bincount", bincount_with_a_nested_count)
    _same(averaged_f1_score(y_true, y_pred), expected)
    assert nested == [1.0]
    monkeypatch.undo()
    # the thread keeps one buffer between calls, nested or not
    averaged_f1_score(y_true, y_pred)
    kept = _counting._local.codes
    averaged_f1_score(y_pred, y_true)
    assert _counting._local.codes is kept


def test_the_counting_core_refuses_codes_out_of_range():
    """A stray code never reaches the joint table (it would count in another cell)."""
    # the counting core fed codes no public reading makes
    from sklearn_macrof1._counting._record import count_targets
    from sklearn_macrof1._read._targets import Targets

    for bad in (np.array([0, 3]), np.array([0, -1])):
        targets = Targets("1d", bad, np.array([0, 1]), np.arange(3), 2)
        with pytest.raises(RuntimeError, match="outside"):
            count_targets(targets, None)


def test_streaming_mixed_int_and_float_batches_match_one_shot():
    from sklearn_macrof1 import MacroF1Accumulator

    acc = MacroF1Accumulator()
    acc.update([2**62 + 1], [2**62 + 1])
    acc.update(np.array([2.0**62]), np.array([2.0**62]))  # one float64 label
    y_true = np.array([2.0**62 + 1, 2.0**62])
    y_pred = np.array([2.0**62 + 1, 2.0**62])
    _same(averaged_f1_score(acc.counts), f1_score(y_true, y_pred, average="macro"))


def test_streaming_batches_whose_labels_fold_into_one_class_keep_every_count():
    """Two int64 labels that are one float64 label (2**62 + 1, 2**62 + 2) merge
    into one class of the union: their counts add up, as in one call."""
    from sklearn_macrof1 import MacroF1Accumulator

    a, b = 2**62 + 1, 2**62 + 2
    batches = [
        (np.array([a, b, a]), np.array([a, b, b])),
        (np.array([float(a)]), np.array([float(a)])),
    ]
    y_true = np.concatenate([t for t, _ in batches])
    y_pred = np.concatenate([p for _, p in batches])
    expected = fbeta_summary(y_true, y_pred, average="macro")
    for labels in (None, [a, b]):
        # the samples that confused a and b are hits of the folded class: the
        # confusion matrix says which, so the stream must keep it
        acc = MacroF1Accumulator(labels=labels, keep="cells")
        for t, p in batches:
            acc.update(t, p)
        got = fbeta_summary(acc.counts, average="macro")
        assert got.averaged_fbeta == expected.averaged_fbeta == 1.0
        np.testing.assert_array_equal(got.confusion_matrix, expected.confusion_matrix)
        left, right = (MacroF1Accumulator(keep="cells") for _ in range(2))
        left.update(*batches[0])
        right.update(*batches[1])
        assert averaged_f1_score((left + right).counts) == 1.0
        # per-class counts alone cannot say it: refused (at the update that
        # merges them, or at the read), naming the option
        acc = MacroF1Accumulator(labels=labels)
        with pytest.raises(ValueError, match="keep='cells'"):
            for t, p in batches:
                acc.update(t, p)
            _ = acc.counts


def test_float16_labels_warn_nothing():
    y = np.array([1, 2, 3, 2], dtype=np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert averaged_f1_score(y, y) == 1.0


def test_numpy_strings_of_two_byte_orders_are_one_label_each():
    y_true = np.array(["a", "bc"] * 3000)
    y_pred = y_true.astype(">U2")
    assert y_true.shape[0] >= _MIN_KEYED
    assert averaged_f1_score(y_true, y_pred) == 1.0
    assert fbeta_summary(y_true, y_pred).labels.tolist() == ["a", "bc"]


def test_folding_batches_without_a_confusion_matrix_are_refused(monkeypatch):
    """Without the joint table the folded true positives are unknown: an error,
    never a silently wrong count. Records that keep the occupied cells (above
    the dense limit) fold through them."""
    import dataclasses

    from sklearn_macrof1 import MacroF1Accumulator, MacroF1Counts

    # the merge's dense limit, set to 0 to force the occupied-cells path
    from sklearn_macrof1._counting import _record

    monkeypatch.setattr(_record, "MAX_CONFUSION_CLASSES", 0)
    a, b = 2**62 + 1, 2**62 + 2
    acc = MacroF1Accumulator(keep="cells")
    acc.update(np.array([a, b, a]), np.array([a, b, b]))
    acc.update(np.array([float(a)]), np.array([float(a)]))
    assert acc.counts.tp.tolist() == [4]  # a and b are one float64 label
    assert acc.counts.confusion.toarray().tolist() == [[4]]
    ints = MacroF1Counts.from_predictions(np.array([a, b, a]), np.array([a, b, b]))
    per_class = dataclasses.replace(ints, confusion=None)
    floats = MacroF1Counts.from_predictions([float(a)], [float(a)])
    with pytest.raises(ValueError, match="compare as one value only"):
        per_class + floats


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.uint32])
@pytest.mark.parametrize("k", [5_000, 40_000])
def test_dense_integer_range_counted_without_a_sort_is_sklearns(k, dtype):
    rng = np.random.default_rng(k)
    n = 20_000
    y_true = rng.integers(0, k, n).astype(dtype)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, k, n)).astype(dtype)
    targets = read_targets(y_true, y_pred)
    # their own codes: no sorted encoding of the labels
    assert targets.code_labels.shape[0] == int(max(y_true.max(), y_pred.max())) + 1
    w = rng.random(n)
    w[::7] = 0.0  # zero weights: classes seen only there are still classes
    for average in AVERAGES_1D:
        for sample_weight in (None, w):
            ours = averaged_f1_score(
                y_true, y_pred, average=average, sample_weight=sample_weight
            )
            theirs = f1_score(
                y_true, y_pred, average=average, sample_weight=sample_weight
            )
            if sample_weight is None or average is not None:
                np.testing.assert_array_equal(ours, theirs)  # to the last bit
            else:  # weighted per-class F: last bits, as on the sorted path
                np.testing.assert_allclose(ours, theirs, rtol=1e-15, atol=1e-16)
    s = fbeta_summary(y_true, y_pred, sample_weight=w, average=None)
    np.testing.assert_array_equal(s.labels, np.union1d(y_true, y_pred))


def test_few_integer_labels_far_apart_keep_their_confusion_matrix():
    # labels in the dense range of 3,000 samples, but only three classes
    y_true = np.array([0, 2_999, 5_000] * 1_000)
    y_pred = np.roll(y_true, 1)
    y_pred[::3] = y_true[::3]
    s = fbeta_summary(y_true, y_pred)
    np.testing.assert_array_equal(s.classes, [0, 2_999, 5_000])
    np.testing.assert_array_equal(s.confusion_matrix, confusion_matrix(y_true, y_pred))
    assert s.averaged_fbeta == f1_score(y_true, y_pred, average="macro")
