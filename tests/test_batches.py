"""Deep-learning batches into the accumulator: class scores (argmax), token
shapes with padding (``ignore_index``), multilabel scores (``threshold``), on
NumPy and on a device that refuses NumPy; records of fixed labels summed across
processes (``totals``), of discovered labels merged; what a stream keeps
(``keep``), true labels that name no column of the scores, PyTorch CPU tensors
without the ``[array-api]`` extra."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_f1_score,
    classification_report,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_summary,
)

# the accumulator's levels of what it keeps: its documented values, in order
from sklearn_macrof1._results._accumulator import KEEP

RNG = np.random.default_rng(11)
K = 5


def _tokens(batch: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    labels = RNG.integers(0, K, (batch, length))
    for row in labels:
        row[RNG.integers(1, length) :] = -100  # padding at the end of each row
    logits = RNG.normal(size=(batch, length, K))
    return labels, logits


def _per_class(counts: MacroF1Counts) -> MacroF1Counts:
    """A record as a stream keeps it by default: without its confusion matrix."""
    return dataclasses.replace(counts, confusion=None)


def _strict(device: str = "device1") -> Any:
    xs = pytest.importorskip("array_api_strict")
    pytest.importorskip("array_api_compat")
    return lambda a: xs.asarray(a, device=xs.Device(device))


@pytest.mark.parametrize("where", ["numpy", "device1"])
def test_token_batches_with_padding(where: str) -> None:
    move = (lambda a: a) if where == "numpy" else _strict(where)
    acc = MacroF1Accumulator(ignore_index=-100)
    kept_true, kept_pred = [], []
    for _ in range(4):
        labels, logits = _tokens(3, 9)
        acc.update(move(labels), move(logits))
        keep = labels != -100
        kept_true.append(labels[keep])
        kept_pred.append(logits.argmax(-1)[keep])
    y_true, y_pred = np.concatenate(kept_true), np.concatenate(kept_pred)
    assert acc.n_samples == y_true.shape[0]
    assert acc.counts == _per_class(MacroF1Counts.from_predictions(y_true, y_pred))
    # per-token weights shaped like the labels are flattened and masked too
    labels, logits = _tokens(2, 6)
    weights = RNG.random((2, 6))
    acc = MacroF1Accumulator(ignore_index=-100).update(
        move(labels), move(logits), move(weights)
    )
    keep = labels != -100
    assert f1_of_averages_score(acc.counts) == pytest.approx(
        f1_of_averages_score(
            labels[keep], logits.argmax(-1)[keep], sample_weight=weights[keep]
        )
    )


@pytest.mark.parametrize("where", ["numpy", "device1"])
def test_sequence_logits_and_multilabel_threshold(where: str) -> None:
    move = (lambda a: a) if where == "numpy" else _strict(where)
    labels, logits = RNG.integers(0, K, 50), RNG.normal(size=(50, K))
    acc = MacroF1Accumulator().update(move(labels), move(logits))
    assert acc.counts == _per_class(
        MacroF1Counts.from_predictions(labels, logits.argmax(1))
    )
    truth, scores = RNG.integers(0, 2, (40, 4)), RNG.normal(size=(40, 4))
    acc = MacroF1Accumulator(threshold=0.25)
    acc.update(move(truth[:25]), move(scores[:25])).update(
        move(truth[25:]), move(scores[25:])
    )
    expected = fbeta_summary(truth, scores > 0.25, average="samples")
    got = fbeta_summary(acc.counts, average="samples")
    assert got.averaged_fbeta == pytest.approx(expected.averaged_fbeta, rel=1e-12)
    assert got.fbeta_of_averages == pytest.approx(expected.fbeta_of_averages)


def test_without_options_a_batch_is_scored_as_given() -> None:
    # -100 is a class unless ignore_index says it is padding, as in one call
    y_true, y_pred = np.array([0, -100, 1, 1]), np.array([0, -100, 1, 0])
    acc = MacroF1Accumulator().update(y_true, y_pred)
    assert averaged_f1_score(acc.counts) == averaged_f1_score(y_true, y_pred)
    acc = MacroF1Accumulator(ignore_index=-100).update(y_true, y_pred)
    assert averaged_f1_score(acc.counts) == averaged_f1_score([0, 1, 1], [0, 1, 0])
    # a column of predictions is a vector of labels, as in one call
    acc = MacroF1Accumulator(ignore_index=-100).update(y_true, y_pred[:, None])
    assert averaged_f1_score(acc.counts) == averaged_f1_score([0, 1, 1], [0, 1, 0])
    # an all-padding batch counts nothing
    assert MacroF1Accumulator(ignore_index=-100).update([-100], [3]).n_samples == 0


def test_options_are_kept_by_copies_and_refused_when_wrong() -> None:
    acc = MacroF1Accumulator(labels=[0, 1], ignore_index=-1).update([0, -1], [1, 0])
    assert "ignore_index=-1" in repr(acc)
    for copy in (
        pickle.loads(pickle.dumps(acc)),
        acc + MacroF1Accumulator(labels=[0, 1]),
    ):
        assert copy.ignore_index == -1 and copy.n_samples == 1
    with pytest.raises(InvalidParameterError, match="'ignore_index' parameter"):
        MacroF1Accumulator(ignore_index=0.5)
    with pytest.raises(InvalidParameterError, match="'threshold' parameter"):
        MacroF1Accumulator(threshold="high")
    with pytest.raises(ValueError, match="give one of them"):
        MacroF1Accumulator(ignore_index=-100, threshold=0.0).update(
            [[1, 0]], [[0.3, 0.1]]
        )
    with pytest.raises(ValueError, match="shaped like y_true"):
        MacroF1Accumulator(threshold=0.0).update([[1, 0]], [[0.3, 0.1, 0.2]])
    with pytest.raises(ValueError, match="must have the same shape"):
        MacroF1Accumulator(ignore_index=-100).update([[1, 0]], [[1, 0, 1]])


@pytest.mark.parametrize("where", ["numpy", "device1", "torch"])
def test_padding_mask_of_labels_that_cannot_be_padding(where: str) -> None:
    if where == "torch":
        move = pytest.importorskip("torch").as_tensor
    else:
        move = (lambda a: a) if where == "numpy" else _strict(where)
    # bools and unsigned labels never equal -100: nothing dropped, no crash
    # (PyTorch compares a uint8 156 equal to -100, which wraps to 156)
    for t, p in (
        (np.array([True, False, True]), np.array([True, True, False])),
        (np.array([156, 1, 1], np.uint8), np.array([156, 1, 0], np.uint8)),
    ):
        acc = MacroF1Accumulator(ignore_index=-100).update(move(t), move(p))
        assert acc.counts == _per_class(MacroF1Counts.from_predictions(t, p))
    strings = MacroF1Accumulator(ignore_index=-100).update(["a", "b"], ["a", "a"])
    assert strings.n_samples == 2
    # a multilabel indicator (floats, as transformers holds them; bools) is not
    # a matrix of token labels: refused, never flattened into one binary problem
    truth = RNG.integers(0, 2, (6, 3))
    for t in (truth.astype(np.float32), truth == 1):
        with pytest.raises(ValueError, match="threshold="):
            MacroF1Accumulator(ignore_index=-100).update(move(t), move(truth))
    # logits with NaN have no argmax (nor threshold): refused, not class 0
    logits = RNG.normal(size=(4, 3))
    logits[2, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        MacroF1Accumulator().update(move(np.arange(4) % 3), move(logits))
    if where != "device1":  # NumPy, and the CPU tensors it views
        with pytest.raises(ValueError, match="NaN"):
            MacroF1Accumulator(threshold=0.0).update(move(truth[:4]), move(logits))
    else:  # multilabel counts kept on the device: checked when they are read
        acc = MacroF1Accumulator(threshold=0.0).update(move(truth[:4]), move(logits))
        with pytest.raises(ValueError, match="NaN"):
            _ = acc.counts
    # infinite logits (masked classes) order as any others
    logits[2, 1] = -np.inf
    acc = MacroF1Accumulator().update(move(np.arange(4) % 3), move(logits))
    assert acc.counts == _per_class(
        MacroF1Counts.from_predictions(np.arange(4) % 3, logits.argmax(1))
    )


def test_totals_of_fixed_labels_add_across_processes() -> None:
    labels = ["b", "a", "c"]
    parts = [
        (RNG.choice(["a", "b"], 30), RNG.choice(["a", "b", "c"], 30)) for _ in range(3)
    ]
    records = [MacroF1Counts.from_predictions(t, p, labels=labels) for t, p in parts]
    reduced = sum(record.totals() for record in records)  # what all_reduce sums
    total = MacroF1Counts.from_totals(reduced, labels=labels)
    y_true = np.concatenate([t for t, _ in parts])
    y_pred = np.concatenate([p for _, p in parts])
    for score in (averaged_f1_score, f1_of_averages_score):
        for average in ("macro", "weighted", "micro", None):
            np.testing.assert_allclose(
                score(total, average=average),
                score(y_true, y_pred, labels=labels, average=average),
                rtol=1e-12,
            )
    weighted = MacroF1Counts.from_predictions(
        y_true, y_pred, labels=labels, sample_weight=RNG.random(90)
    )
    assert MacroF1Counts.from_totals(weighted.totals(), labels=labels).weighted
    with pytest.raises(ValueError, match="fixed labels"):
        MacroF1Counts.from_predictions([0, 1], [1, 1]).totals()
    with pytest.raises(ValueError, match="not among its fixed labels"):
        MacroF1Counts.from_predictions([0, 1], [1, 2], labels=[0, 1]).totals()
    with pytest.raises(ValueError, match="shape \\(3, n_labels\\)"):
        MacroF1Counts.from_totals(np.zeros((2, 3)), labels=labels)


def test_compute_metrics_refuses_what_is_no_eval_pred() -> None:
    """A ValueError naming ``eval_pred`` and what it accepts (an empty tuple
    of model outputs raised IndexError); the counts are emptied."""
    from sklearn_macrof1 import make_compute_metrics

    compute_metrics = make_compute_metrics()
    y = np.array([0, 1, 2])
    compute_metrics((np.eye(3), y), compute_result=False)
    accepted = (
        "The 'eval_pred' argument of the compute_metrics of make_compute_metrics "
        "must be a transformers EvalPrediction or a \\(predictions, label_ids\\) pair"
    )
    for eval_pred, got in (
        (([], y), "got predictions that hold no model output \\(an empty list\\)"),
        (((), y), "an empty tuple"),
        ((np.eye(3),), "got tuple of 1 item\\(s\\)"),
        (None, "got NoneType"),
    ):
        with pytest.raises(ValueError, match=f"{accepted}.*{got}"):
            compute_metrics(eval_pred)
        assert compute_metrics.accumulator.n_samples == 0


def test_compute_metrics_without_a_trainer() -> None:
    """What the Trainer calls: one batch per call, the result on the last one,
    then empty for the next evaluation; options checked up front."""
    from sklearn_macrof1 import make_compute_metrics

    labels, logits = _tokens(6, 10)
    compute_metrics = make_compute_metrics(
        beta=2.0, interval="bootstrap", random_state=0
    )
    assert compute_metrics((logits[:3], labels[:3]), compute_result=False) == {}
    metrics = compute_metrics((logits[3:], labels[3:]))
    keep = labels != -100
    summary = fbeta_summary(labels[keep], logits.argmax(-1)[keep], beta=2.0)
    assert set(metrics) == {
        "averaged_f2",
        "f2_of_averages",
        "f2_gap",
        "averaged_f2_low",
        "averaged_f2_high",
        "f2_of_averages_low",
        "f2_of_averages_high",
    }
    assert metrics["averaged_f2"] == pytest.approx(summary.averaged_fbeta, rel=1e-12)
    assert (
        metrics["averaged_f2_low"]
        <= metrics["averaged_f2"]
        <= metrics["averaged_f2_high"]
    )
    assert compute_metrics.accumulator.n_samples == 0
    # a tuple of model outputs: the logits come first
    metrics = compute_metrics(((logits, logits[..., :2]), labels))
    assert metrics["averaged_f2"] == pytest.approx(summary.averaged_fbeta, rel=1e-12)
    with pytest.raises(InvalidParameterError, match="'average' parameter"):
        make_compute_metrics(average=None)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'interval' parameter"):
        make_compute_metrics(interval="exact")
    # multilabel (threshold): the intervals the kept counts cannot give are
    # refused when made, not when the first evaluation ends
    for interval, average in (("posterior", "macro"), ("posterior", "samples"),
                              ("bootstrap", "macro")):  # fmt: skip
        with pytest.raises(InvalidParameterError, match="use interval='delta'"):
            make_compute_metrics(interval=interval, threshold=0.0, average=average)
    rng = np.random.default_rng(5)
    multilabel = rng.normal(size=(60, 3))
    truth = (multilabel + rng.normal(size=(60, 3)) > 0).astype(int)
    for interval, average in (("bootstrap", "samples"), ("auto", "macro")):
        metrics = make_compute_metrics(
            interval=interval, threshold=0.0, average=average, random_state=0
        )((multilabel, truth))
        assert metrics["averaged_f1_low"] <= metrics["averaged_f1_high"]
    # "auto" (the posterior here, seeded by the counts): the one-shot interval
    compute_metrics = make_compute_metrics(interval="auto")
    metrics = compute_metrics((logits, labels))
    interval = fbeta_confidence_interval(labels[keep], logits.argmax(-1)[keep])
    assert interval.method == "posterior"
    assert metrics["averaged_f1_low"] == interval.averaged_fbeta.low
    assert metrics["f1_of_averages_high"] == interval.fbeta_of_averages.high
    with pytest.raises(InvalidParameterError, match="'beta' parameter"):
        make_compute_metrics(beta=-1)


# -- what a stream keeps --------------------------------------------------------


@pytest.mark.parametrize("fixed", [True, False])
@pytest.mark.parametrize("k", [3, 40])
def test_a_stream_keeps_per_class_counts_enough_for_every_score(
    fixed: bool, k: int
) -> None:
    """By default a stream keeps three vectors of per-class counts: every
    score, the summary, the report and the gap attribution equal one call's,
    and the record carries no confusion matrix."""
    rng = np.random.default_rng(k)
    y_true = rng.integers(0, k, 3000)
    y_pred = np.where(rng.random(3000) < 0.6, y_true, rng.integers(0, k, 3000))
    labels = np.arange(k + 2) if fixed else None  # two classes never seen
    acc = MacroF1Accumulator(labels=labels)
    for start in range(0, 3000, 700):
        acc.update(y_true[start : start + 700], y_pred[start : start + 700])
    counts = acc.counts
    assert counts.confusion is None and counts.moments is None
    # the state is the three vectors (the state has no public face)
    assert acc._classes is not None and acc._classes.table.shape[0] == 3
    streamed, direct = (
        fbeta_summary(counts),
        fbeta_summary(y_true, y_pred, labels=labels),
    )
    assert streamed.confusion_matrix is None
    assert dataclasses.replace(direct, confusion_matrix=None) == streamed
    assert streamed.gap_attribution() == direct.gap_attribution()
    for score in (averaged_f1_score, f1_of_averages_score):
        for average in ("macro", "weighted", "micro", None):
            np.testing.assert_array_equal(
                score(counts, average=average),
                score(y_true, y_pred, labels=labels, average=average),
            )
    assert classification_report(counts, digits=6) == classification_report(
        y_true, y_pred, labels=labels, digits=6
    )


def test_cells_and_moments_are_kept_when_declared_and_named_when_missing() -> None:
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 4, 900)
    y_pred = np.where(rng.random(900) < 0.7, y_true, rng.integers(0, 4, 900))
    weights = rng.random(900) + 0.5
    streams = {keep: MacroF1Accumulator(keep=keep) for keep in KEEP}
    weighted = {keep: MacroF1Accumulator(keep=keep) for keep in KEEP}
    for start in range(0, 900, 250):
        part = slice(start, start + 250)
        for keep in KEEP:
            streams[keep].update(y_true[part], y_pred[part])
            weighted[keep].update(y_true[part], y_pred[part], weights[part])
    one_call = MacroF1Counts.from_predictions(y_true, y_pred)
    assert streams["cells"].counts == one_call
    assert streams["moments"].counts == one_call  # unweighted: no moments
    got = fbeta_confidence_interval(weighted["moments"].counts, method="delta")
    expected = fbeta_confidence_interval(
        y_true, y_pred, sample_weight=weights, method="delta"
    )
    for score in ("averaged_fbeta", "fbeta_of_averages"):  # weights summed apart
        for end in ("low", "high"):
            assert getattr(getattr(got, score), end) == pytest.approx(
                getattr(getattr(expected, score), end), rel=1e-12
            )
    direct = fbeta_confidence_interval(y_true, y_pred)
    assert fbeta_confidence_interval(streams["cells"].counts) == direct
    # a verb that needs what the stream did not keep names the option
    plain = streams["counts"].counts
    for verb in (
        lambda: fbeta_confidence_interval(plain),
        lambda: classification_report(plain, confidence=0.95),
        lambda: fbeta_summary(plain).confidence_interval(),
    ):
        with pytest.raises(ValueError, match="keep='cells'"):
            verb()
    with pytest.raises(ValueError, match=r"MacroF1Accumulator\(keep='moments'\)"):
        fbeta_confidence_interval(weighted["cells"].counts, method="delta")
    assert "keep='cells'" in repr(streams["cells"])
    assert "keep" not in repr(streams["counts"])
    # copies keep the option, and old pickles' moments=True is keep="moments"
    assert pickle.loads(pickle.dumps(streams["cells"])).keep == "cells"
    old = MacroF1Accumulator()
    state = old.__getstate__()
    del state["keep"]
    old.__setstate__({**state, "moments": True})
    assert old.keep == "moments"


def test_integer_batches_after_other_labels_are_refused_as_a_merge_would() -> None:
    """Batches counted into the per-class vectors are checked against the
    records of other batches, and the other way round."""
    acc = MacroF1Accumulator().update(np.array([0, 1, 2]), np.array([0, 2, 2]))
    n = acc.n_samples
    with pytest.raises(ValueError, match="Mix of label input types"):
        acc.update(["a", "b"], ["b", "b"])
    with pytest.raises(ValueError, match="same kind of targets"):
        acc.update(np.eye(3, dtype=int), np.eye(3, dtype=int))
    assert acc.n_samples == n
    strings = MacroF1Accumulator().update(["a", "b"], ["b", "b"])
    with pytest.raises(ValueError, match="Mix of label input types"):
        strings.update(np.array([0, 1]), np.array([1, 1]))
    # integers of other dtypes and floats merge, as in one call
    acc.update(np.array([3], np.int8), np.array([3], np.uint16))
    acc.update(np.array([2.0]), np.array([1.0]))
    y_true, y_pred = [0, 1, 2, 3, 2.0], [0, 2, 2, 3, 1.0]
    assert averaged_f1_score(acc.counts) == averaged_f1_score(y_true, y_pred)
    # narrow and unsigned integers beside negative labels: positions widened
    for t, p in (
        (np.array([127, -3, 5], np.int8), np.array([1, 2, 127], np.int8)),
        (np.array([1, 2, 3], np.uint32), np.array([-3, 2, 3])),
    ):
        got = MacroF1Accumulator().update(t, p).update(t[::-1], p[::-1])
        both = np.concatenate([t, t[::-1]]), np.concatenate([p, p[::-1]])
        assert averaged_f1_score(got.counts) == averaged_f1_score(*both)
    # labels far apart are counted as any other batch
    far = MacroF1Accumulator().update(np.array([0, 10**9]), np.array([0, 10**9]))
    far.update(np.array([5]), np.array([6]))
    assert far.counts == dataclasses.replace(
        MacroF1Counts.from_predictions([0, 10**9, 5], [0, 10**9, 6]), confusion=None
    )


# -- labels that name no column of the class scores -------------------------------


def test_a_true_label_outside_the_columns_of_the_scores_names_ignore_index() -> None:
    logits = np.array(
        [[2.0, 0.1, 0.0], [0.0, 1.0, 3.0], [0.0, 2.0, 1.0], [1.0, 2.0, 0.0]]
    )
    padded = np.array([0, 2, -100, 1])
    # -100 would silently become a class: macro F1 0.267 instead of 1.0
    with pytest.raises(ValueError, match=r"label -100.*ignore_index=-100"):
        MacroF1Accumulator().update(padded, logits)
    acc = MacroF1Accumulator(ignore_index=-100).update(padded, logits)
    assert averaged_f1_score(acc.counts) == 1.0
    with pytest.raises(ValueError, match=r"label 5.*ignore_index=-100 drops only"):
        MacroF1Accumulator(ignore_index=-100).update(np.array([0, 5, 1, 1]), logits)
    with pytest.raises(ValueError, match=r"label 3,.* 0 to 2"):
        MacroF1Accumulator(labels=range(4)).update(np.array([0, 3, 1, 1]), logits)
    assert acc.n_samples == 3  # nothing counted from the refused batches
    # string labels cannot name columns: the message says how they map
    for labels in (["neg", "neu", "pos"], None):
        with pytest.raises(ValueError, match=r"labels=range\(3\)"):
            MacroF1Accumulator(labels=labels).update(
                np.array(["neg", "pos", "neu", "neu"]) if labels is None else padded,
                logits,
            )
    # make_compute_metrics refuses it too (another padding label than -100)
    from sklearn_macrof1 import make_compute_metrics

    compute_metrics = make_compute_metrics()
    with pytest.raises(ValueError, match=r"label -1.*ignore_index=-100"):
        compute_metrics((logits, np.array([0, 2, -1, 1])))


def test_on_a_device_the_column_check_runs_where_the_counts_are_read() -> None:
    move = _strict()
    logits = RNG.normal(size=(40, 3))
    y_true = np.arange(40) % 3
    y_true[[5, 17]] = -100
    acc = MacroF1Accumulator(labels=range(3))
    acc.update(move(y_true), move(logits))  # not checked here: a check would wait
    with pytest.raises(ValueError, match=r"2 true labels.*-100.*ignore_index=-100"):
        _ = acc.counts
    acc.reset().update(move(np.arange(40) % 3), move(logits))
    assert acc.n_samples == 40
    padded = MacroF1Accumulator(labels=range(3), ignore_index=-100)
    assert padded.update(move(y_true), move(logits)).n_samples == 38


# -- PyTorch CPU tensors need no extra package ---------------------------------------


def test_cpu_tensors_need_no_extra_and_devices_name_the_one_they_need(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    torch = pytest.importorskip("torch")
    import sys

    monkeypatch.setitem(sys.modules, "array_api_compat", None)  # not installed
    labels, logits = _tokens(4, 7)
    weights = RNG.random((4, 7))
    for options in ({}, {"labels": range(K)}):
        acc = MacroF1Accumulator(ignore_index=-100, **options)
        on_host = MacroF1Accumulator(ignore_index=-100, **options)
        acc.update(torch.as_tensor(labels), torch.as_tensor(logits))
        on_host.update(labels, logits)
        acc.update(*(torch.as_tensor(a) for a in (labels, logits, weights)))
        on_host.update(labels, logits, weights)
        assert acc.counts == on_host.counts
    grads = torch.randn(6, 3, requires_grad=True)  # model outputs, detached
    acc = MacroF1Accumulator().update(torch.tensor([0, 1, 2, 0, 1, 2]), grads)
    assert acc.n_samples == 6
    xs = pytest.importorskip("array_api_strict")
    device = xs.Device("device1")
    with pytest.raises(ImportError, match="array-api-compat") as caught:
        MacroF1Accumulator().update(
            xs.asarray([0, 1], device=device), xs.asarray([0, 0], device=device)
        )
    assert "array_api_dispatch" not in str(caught.value)
    assert '".[array-api]"' in str(caught.value)


@pytest.mark.parametrize("compat", ["installed", "missing"])
def test_cpu_tensors_of_dtypes_numpy_lacks(
    compat: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bfloat16 and float8 CPU tensors (mixed-precision training) are read as
    float32, which holds each of their values exactly: the scores of the
    float32 tensors. NumPy has no such dtype, and an update or a one-shot call
    once raised TypeError, or a ValueError asking to move CPU tensors to the
    CPU."""
    torch = pytest.importorskip("torch")
    import sys

    if compat == "missing":
        monkeypatch.setitem(sys.modules, "array_api_compat", None)
    labels, logits = _tokens(4, 7)
    weights = RNG.random((4, 7))
    for low in (torch.bfloat16, torch.float8_e4m3fn):
        as_low = torch.as_tensor(weights).to(low)
        as_float = as_low.float()
        for options in ({}, {"labels": range(K)}):
            acc = MacroF1Accumulator(ignore_index=-100, **options)
            ref = MacroF1Accumulator(ignore_index=-100, **options)
            acc.update(torch.as_tensor(labels), torch.as_tensor(logits), as_low)
            ref.update(torch.as_tensor(labels), torch.as_tensor(logits), as_float)
            assert acc.counts == ref.counts
    y, p = torch.as_tensor([0, 1, 2, 2, 1]), torch.as_tensor([0, 1, 1, 2, 1])
    w = torch.as_tensor([0.5, 1.25, 3.0, 0.75, 2.0])
    for low in (torch.bfloat16, torch.float8_e4m3fn):
        assert averaged_f1_score(y, p, sample_weight=w.to(low)) == (
            averaged_f1_score(y.numpy(), p.numpy(), sample_weight=w.numpy())
        )
        assert f1_of_averages_score(y.to(low), p.to(low)) == (
            f1_of_averages_score(y.numpy(), p.numpy())
        )


def test_a_batch_of_another_label_type_than_fixed_labels_names_them():
    """Fixed string labels and a batch of numbers (or the reverse): the error
    names the accumulator's labels, not earlier batches (there are none)."""
    for labels, y in ((["a", "b"], [0, 1]), ([0, 1], ["a", "b"])):
        with pytest.raises(ValueError, match="accumulator's labels") as info:
            MacroF1Accumulator(labels=labels).update(y, y)
        assert "earlier batches" not in str(info.value)
        assert "strings and numbers" in str(info.value)
