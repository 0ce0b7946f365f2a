"""``make_compute_metrics`` in a real ``transformers.Trainer.evaluate`` with
``batch_eval_metrics=True``: tiny models built from a config, generated data (no
download), every batch counted as it comes, equal to one call on the
concatenated predictions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from sklearn_macrof1 import (
    fbeta_confidence_interval,
    fbeta_summary,
    make_compute_metrics,
)

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("accelerate")

K = 4  # classes


class _Rows(torch.utils.data.Dataset):  # type: ignore[misc]
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.rows[i]


def _config() -> Any:
    return transformers.BertConfig(
        vocab_size=40,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=16,
        max_position_embeddings=32,
        num_labels=K,
    )


def _evaluate(model: Any, rows: list[dict[str, Any]], tmp_path: Any, **options: Any):
    torch.manual_seed(0)
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path),
        per_device_eval_batch_size=7,  # the last batch is a short one
        batch_eval_metrics=True,
        report_to=[],
        use_cpu=True,
    )
    compute_metrics = make_compute_metrics(**options)
    trainer = transformers.Trainer(
        model=model,
        args=args,
        eval_dataset=_Rows(rows),
        compute_metrics=compute_metrics,
    )
    batches = []
    update = compute_metrics.accumulator.update

    def counted(*args: Any) -> Any:
        batches.append(args[1].shape)
        return update(*args)

    compute_metrics.accumulator.update = counted  # type: ignore[method-assign]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metrics = trainer.evaluate()
        compute_metrics.accumulator.update = update  # type: ignore[method-assign]
        # one call per batch of 7, the last one short
        assert len(batches) == -(-len(rows) // 7)
        assert batches[0][0] == 7 and batches[-1][0] == (len(rows) - 1) % 7 + 1
        # the reference: every prediction at once (what Trainer does without
        # batch_eval_metrics), scored in one call
        output = trainer.predict(_Rows(rows))
    assert compute_metrics.accumulator.n_samples == 0  # emptied for the next run
    return metrics, output


@pytest.mark.slow
def test_sequence_classification(tmp_path: Any) -> None:
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(_config()).eval()
    rng = np.random.default_rng(0)
    rows = [
        {
            "input_ids": torch.as_tensor(rng.integers(1, 40, 6)),
            "labels": torch.as_tensor(int(rng.integers(0, K))),
        }
        for _ in range(40)
    ]
    metrics, output = _evaluate(model, rows, tmp_path, interval="delta")
    y_true, y_pred = output.label_ids, output.predictions.argmax(-1)
    summary = fbeta_summary(y_true, y_pred)
    interval = fbeta_confidence_interval(y_true, y_pred, method="delta")
    assert metrics["eval_averaged_f1"] == pytest.approx(
        summary.averaged_fbeta, abs=1e-12
    )
    assert metrics["eval_f1_of_averages"] == pytest.approx(summary.fbeta_of_averages)
    assert metrics["eval_f1_gap"] == pytest.approx(summary.gap, abs=1e-12)
    assert metrics["eval_averaged_f1_low"] == pytest.approx(interval.averaged_fbeta.low)
    assert metrics["eval_f1_of_averages_high"] == pytest.approx(
        interval.fbeta_of_averages.high
    )


@pytest.mark.slow
def test_token_classification_drops_padding(tmp_path: Any) -> None:
    torch.manual_seed(0)
    model = transformers.BertForTokenClassification(_config()).eval()
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(30):
        length = 8
        labels = rng.integers(0, K, length)
        labels[rng.integers(3, length) :] = -100  # padding of each sequence
        rows.append(
            {
                "input_ids": torch.as_tensor(rng.integers(1, 40, length)),
                "labels": torch.as_tensor(labels),
            }
        )
    metrics, output = _evaluate(model, rows, tmp_path)
    keep = output.label_ids != -100
    y_true, y_pred = output.label_ids[keep], output.predictions.argmax(-1)[keep]
    assert (output.label_ids == -100).any()
    summary = fbeta_summary(y_true, y_pred)
    assert metrics["eval_averaged_f1"] == pytest.approx(
        summary.averaged_fbeta, abs=1e-12
    )
    assert metrics["eval_f1_of_averages"] == pytest.approx(
        summary.fbeta_of_averages, abs=1e-12
    )


@pytest.mark.slow
def test_multilabel_threshold(tmp_path: Any) -> None:
    torch.manual_seed(0)
    config = _config()
    config.problem_type = "multi_label_classification"
    model = transformers.BertForSequenceClassification(config).eval()
    rng = np.random.default_rng(2)
    rows = [
        {
            "input_ids": torch.as_tensor(rng.integers(1, 40, 6)),
            "labels": torch.as_tensor(rng.integers(0, 2, K).astype(np.float32)),
        }
        for _ in range(25)
    ]
    metrics, output = _evaluate(model, rows, tmp_path, threshold=0.0, average="samples")
    summary = fbeta_summary(
        output.label_ids.astype(int), output.predictions > 0.0, average="samples"
    )
    assert metrics["eval_averaged_f1"] == pytest.approx(
        summary.averaged_fbeta, abs=1e-12
    )
    assert metrics["eval_f1_gap"] == pytest.approx(summary.gap, abs=1e-12)


class _Failing(_Rows):
    """Rows whose ``fail_at``-th row raises while ``fail`` is set (a
    corrupt record, a keyboard interrupt: the evaluation stops mid-way)."""

    fail = True

    def __getitem__(self, i: int) -> dict[str, Any]:
        if _Failing.fail and i >= 15:
            raise RuntimeError("a corrupt row")
        return self.rows[i]


@pytest.mark.slow
@pytest.mark.parametrize("fixed_labels", [False, True])
def test_an_interrupted_evaluation_is_forgotten(tmp_path: Any, fixed_labels) -> None:
    torch.manual_seed(0)
    model = transformers.BertForSequenceClassification(_config()).eval()
    rng = np.random.default_rng(2)
    rows = [
        {
            "input_ids": torch.as_tensor(rng.integers(1, 40, 6)),
            "labels": torch.as_tensor(int(rng.integers(0, K))),
        }
        for _ in range(30)
    ]
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path),
        per_device_eval_batch_size=7,
        batch_eval_metrics=True,
        report_to=[],
        use_cpu=True,
    )
    compute_metrics = make_compute_metrics(
        labels=np.arange(K) if fixed_labels else None
    )
    trainer = transformers.Trainer(
        model=model,
        args=args,
        eval_dataset=_Failing(rows),
        compute_metrics=compute_metrics,
        callbacks=[compute_metrics.callback],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _Failing.fail = True
        with pytest.raises(RuntimeError, match="a corrupt row"):
            trainer.evaluate()
        assert compute_metrics.accumulator.n_samples > 0  # batches left counted
        _Failing.fail = False
        metrics = trainer.evaluate()
        output = trainer.predict(_Rows(rows))
    summary = fbeta_summary(output.label_ids, output.predictions.argmax(-1))
    assert metrics["eval_averaged_f1"] == pytest.approx(
        summary.averaged_fbeta, abs=1e-12
    )
    assert metrics["eval_f1_of_averages"] == pytest.approx(
        summary.fbeta_of_averages, abs=1e-12
    )


def test_a_batch_that_raises_empties_the_counts() -> None:
    compute_metrics = make_compute_metrics()
    logits = np.array([[2.0, 0.1], [0.0, 1.0]])
    compute_metrics((logits, np.array([0, 1])), compute_result=False)
    with pytest.raises(ValueError, match="NaN"):
        compute_metrics((np.full((2, 2), np.nan), np.array([0, 1])), False)
    assert compute_metrics.accumulator.n_samples == 0
    import pickle

    compute_metrics.callback  # noqa: B018 - made, then left out of the pickle
    again = pickle.loads(pickle.dumps(compute_metrics))
    assert again.accumulator.labels is None and again.callback is not None
