"""Both macro F1s for Hugging Face ``transformers``' ``Trainer``, batch by batch.

``Trainer(compute_metrics=...)`` concatenates every batch's logits on the host
before the metric runs; with ``TrainingArguments(batch_eval_metrics=True)`` it
instead calls ``compute_metrics(eval_pred, compute_result=...)`` once per batch,
with that batch's (device) tensors, and ``compute_result=True`` on the last.
:func:`make_compute_metrics` returns such a callable: each batch is counted
into a :class:`~._accumulator.MacroF1Accumulator` (on the tensors' device, the
padding label dropped), and the last call scores the accumulated record and
starts the next evaluation afresh. The Trainer gathers each batch across
processes before calling it, so nothing is reduced twice.
"""

from __future__ import annotations

import weakref
from typing import Any

from .._extras import missing
from .._options import METHODS, check_options_of
from .._sklearn_private import InvalidParameterError
from .._stats._intervals import counted_for, interval_of_data
from ._accumulator import MacroF1Accumulator
from ._scores import fbeta_summary

_CALLER = "make_compute_metrics"


def _keep(interval: str | None) -> str:
    """What the accumulator keeps for ``interval``: the confusion matrix
    for any interval, the second moments too where the method (whatever
    "auto" resolves to, for batches weighted or not) may read them."""
    if interval is None:
        return "counts"
    moments = any(counted_for(interval, weighted=w)["moments"] for w in (False, True))
    return "moments" if moments else "cells"


class MacroF1ComputeMetrics:
    """The callable of :func:`make_compute_metrics` (see there).

    Attributes
    ----------
    accumulator : MacroF1Accumulator
        The counts of the evaluation in progress (emptied when a result is
        computed, and when an evaluation is found to have stopped early).
    callback : transformers.TrainerCallback
        Add it to the Trainer (``callbacks=[compute_metrics.callback]``) to
        start every evaluation afresh even after one that stopped early.
    """

    def __init__(
        self,
        accumulator: MacroF1Accumulator,
        *,
        beta: float,
        average: str,
        zero_division: Any,
        interval: str | None,
        confidence: float,
        n_resamples: int,
        random_state: Any,
    ) -> None:
        self.accumulator = accumulator
        self.beta, self.average, self.zero_division = beta, average, zero_division
        self.interval, self.confidence = interval, confidence
        self.n_resamples, self.random_state = n_resamples, random_state
        self._callback: Any = None
        self._loader: Any = None  # a weak reference to the evaluation's batches

    def __call__(self, eval_pred: Any, compute_result: bool = True) -> dict[str, float]:
        """Count one batch; with ``compute_result``, return the metrics of
        every batch counted since the last result, and start afresh.

        A batch that raises (an invalid batch ends the Trainer's evaluation)
        empties the counts too: the next evaluation starts afresh."""
        try:
            predictions, label_ids = _unpacked(eval_pred)
            self.accumulator.update(label_ids, predictions)
        except BaseException:
            self.accumulator.reset()
            raise
        if not compute_result:
            return {}
        try:
            return self.metrics()
        finally:
            self.accumulator.reset()

    def evaluation_step(self, loader: Any) -> None:
        """Note that the Trainer is about to count a batch of ``loader`` (its
        evaluation dataloader): a loader other than the last one starts a new
        evaluation, so the batches of an evaluation that stopped early (an
        exception, an interrupt) are forgotten. What :attr:`callback` calls."""
        last = None if self._loader is None else self._loader()
        if loader is None or last is loader:
            return
        if self._loader is not None:  # the first loader seen: nothing before
            self.accumulator.reset()
        try:
            self._loader = weakref.ref(loader)
        except TypeError:  # pragma: no cover - a loader without weak references
            self._loader = None

    def __getstate__(self) -> dict[str, Any]:
        # weak references and the callback class do not pickle: made anew
        return {**self.__dict__, "_callback": None, "_loader": None}

    @property
    def callback(self) -> Any:
        """A ``transformers.TrainerCallback`` that starts each evaluation
        afresh: ``Trainer(..., callbacks=[compute_metrics.callback])``.

        Without it, an evaluation that stops early (an exception in the
        model, a keyboard interrupt) leaves its batches counted, and the next
        evaluation would add to them. The callback sees each prediction step's
        dataloader (the Trainer makes one per evaluation) and empties the
        counts when a new one begins. With
        ``TrainingArguments(dataloader_persistent_workers=True)`` the Trainer
        reuses one dataloader: call ``compute_metrics.accumulator.reset()``
        after an evaluation that stopped early.
        """
        if self._callback is None:
            self._callback = _callback_for(self)
        return self._callback

    def metrics(self) -> dict[str, float]:
        """The metrics of the batches counted so far (nothing is reset)."""
        counts = self.accumulator.counts
        options = dict(
            beta=self.beta, average=self.average, zero_division=self.zero_division
        )
        summary = fbeta_summary(counts, **options)
        name = "f1" if self.beta == 1 else f"f{self.beta:g}"
        metrics = {
            f"averaged_{name}": float(summary.averaged_fbeta),
            f"{name}_of_averages": float(summary.fbeta_of_averages),
            f"{name}_gap": float(summary.gap),
        }
        if self.interval is not None:
            interval = interval_of_data(
                counts,
                None,
                **options,
                labels=None,
                pos_label=1,
                sample_weight=None,
                confidence=self.confidence,
                method=self.interval,
                n_resamples=self.n_resamples,
                random_state=self.random_state,
                verbose=0,
                method_name="interval",
            )
            for key, score in (
                (f"averaged_{name}", interval.averaged_fbeta),
                (f"{name}_of_averages", interval.fbeta_of_averages),
            ):
                metrics[f"{key}_low"] = float(score.low)
                metrics[f"{key}_high"] = float(score.high)
        return metrics

    def __repr__(self) -> str:
        return (
            f"MacroF1ComputeMetrics(average={self.average!r}, beta={self.beta!r}, "
            f"interval={self.interval!r}, accumulator={self.accumulator!r})"
        )


def _callback_for(compute_metrics: MacroF1ComputeMetrics) -> Any:
    try:
        from transformers import TrainerCallback
    except ImportError as exc:  # pragma: no cover - transformers missing
        raise missing(
            "transformers",
            "compute_metrics.callback is a transformers.TrainerCallback",
        ) from exc
    owner = weakref.ref(compute_metrics)

    class MacroF1EvaluationCallback(TrainerCallback):
        """Starts each evaluation of ``make_compute_metrics`` afresh."""

        def on_prediction_step(
            self, args: Any, state: Any, control: Any, **kwargs: Any
        ) -> None:
            target = owner()
            if target is not None:
                target.evaluation_step(kwargs.get("eval_dataloader"))

    return MacroF1EvaluationCallback()


_EVAL_PRED = (
    f"The 'eval_pred' argument of the compute_metrics of {_CALLER} must be a "
    "transformers EvalPrediction or a (predictions, label_ids) pair, whose "
    "predictions are the logits or a tuple of model outputs with the logits "
    "first"
)


def _unpacked(eval_pred: Any) -> tuple[Any, Any]:
    """``(predictions, label_ids)`` of an ``EvalPrediction`` (or a pair); of
    several model outputs, the first (the logits). ValueError naming
    ``eval_pred`` when it is neither, or holds no model output."""
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        predictions, label_ids = eval_pred.predictions, eval_pred.label_ids
    else:
        try:
            predictions, label_ids = eval_pred[0], eval_pred[1]
        except (TypeError, IndexError, KeyError):
            size = (
                f" of {len(eval_pred)} item(s)" if hasattr(eval_pred, "__len__") else ""
            )
            raise ValueError(
                f"{_EVAL_PRED}; got {type(eval_pred).__name__}{size}."
            ) from None
    if isinstance(predictions, tuple | list) and not hasattr(predictions, "shape"):
        if len(predictions) == 0:
            raise ValueError(
                f"{_EVAL_PRED}; got predictions that hold no model output (an "
                f"empty {type(predictions).__name__})."
            )
        predictions = predictions[0]
    return predictions, label_ids


def make_compute_metrics(
    *,
    labels: Any = None,
    ignore_index: int | None = -100,
    threshold: float | None = None,
    beta: float = 1.0,
    average: str = "macro",
    zero_division: Any = "warn",
    interval: str | None = None,
    confidence: float = 0.95,
    n_resamples: int = 1000,
    random_state: Any = None,
) -> MacroF1ComputeMetrics:
    """A ``compute_metrics`` for ``transformers.Trainer``: both macro F1s, their
    gap and (optionally) their confidence intervals, batch by batch.

    Pass it with ``TrainingArguments(batch_eval_metrics=True)``: the Trainer
    then calls it once per evaluation batch with that batch's tensors, which
    are counted on their device (sequence classification: logits
    ``(batch, n_classes)``; token classification: ``(batch, tokens,
    n_classes)`` with labels ``(batch, tokens)``; multilabel: logits shaped
    like the 0/1 labels, with ``threshold``); only each batch's counts reach
    the host, so host memory does not grow with the evaluation set. On the
    last batch it returns the metrics (the Trainer prefixes them with
    ``eval_``) and empties its counts for the next evaluation. Without
    ``batch_eval_metrics`` it is called once with every prediction and gives
    the same numbers.

    An evaluation that stops early (an exception, an interrupt) never reaches
    its last batch: add ``compute_metrics.callback`` to the Trainer
    (``callbacks=[compute_metrics.callback]``) and the next evaluation starts
    afresh all the same (a batch that ``compute_metrics`` itself refuses
    empties the counts without it).

    Parameters
    ----------
    labels : array-like, default=None
        Every class index (or the multilabel columns scored), as
        :class:`MacroF1Accumulator` takes them. None: the classes seen.
    ignore_index : int or None, default=-100
        The label of padding (transformers' convention): those tokens are
        dropped. Not used with ``threshold``. A true label that names no
        column of the logits (another padding label, or 5 with 3 columns)
        raises ``ValueError`` naming this option and the value seen.
    threshold : float, default=None
        Multilabel models: a label is predicted where its logit is above
        ``threshold`` (0.0: probability 0.5). None: the prediction is the
        argmax of the logits.
    beta : float, default=1.0
        F-beta's weight of recall.
    average : {"macro", "weighted", "micro", "samples", "binary"}, default="macro"
        As in scikit-learn.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        As in scikit-learn.
    interval : {"auto", "delta", "bootstrap", "posterior"} or None, default=None
        Also return the confidence interval of each score
        (:func:`fbeta_confidence_interval` of the accumulated counts with this
        ``method``), as the keys ``..._low`` and ``..._high``. The accumulator
        then keeps what the interval needs: the confusion matrix
        (``MacroF1Accumulator(keep="cells")``) and, with "delta" and "auto",
        the second moments of weighted or multilabel batches
        (``keep="moments"``). With ``threshold`` (multilabel batches),
        "posterior" is refused, and "bootstrap" but for
        ``average="samples"``: the counts do not keep each sample's labels.
    confidence, n_resamples, random_state
        Of the interval, as :func:`fbeta_confidence_interval` takes them.

    Returns
    -------
    compute_metrics : MacroF1ComputeMetrics
        Called as ``compute_metrics(eval_pred, compute_result=True)``; returns
        a dict with ``averaged_f1``, ``f1_of_averages`` and ``f1_gap`` (``f2``
        and so on for another ``beta``). Its ``accumulator`` holds the counts.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_macrof1 import make_compute_metrics
    >>> compute_metrics = make_compute_metrics()
    >>> logits = np.array([[2.0, 0.1, 0.0], [0.0, 1.0, 3.0], [0.0, 2.0, 1.0]])
    >>> compute_metrics((logits, np.array([0, 2, 2])), compute_result=False)
    {}
    >>> last = compute_metrics((logits[[2, 0]], np.array([1, -100])))  # -100: padding
    >>> {key: round(value, 4) for key, value in last.items()}
    {'averaged_f1': 0.7778, 'f1_of_averages': 0.8333, 'f1_gap': 0.0556}
    """
    checked = check_options_of(
        _CALLER,
        beta=beta,
        average=average,
        zero_division=zero_division,
        confidence=confidence,
        n_resamples=n_resamples,
        random_state=random_state,
    )
    if checked["average"] is None:
        raise InvalidParameterError(
            f"The 'average' parameter of {_CALLER} must be a str among 'macro', "
            "'weighted', 'micro', 'samples', 'binary' (a Trainer logs scalars); "
            "got None."
        )
    if interval is not None and not (isinstance(interval, str) and interval in METHODS):
        raise InvalidParameterError(
            f"The 'interval' parameter of {_CALLER} must be a str among "
            f"{', '.join(map(repr, METHODS))} or None. Got {interval!r} instead."
        )
    if threshold is not None and (
        interval == "posterior" or (interval == "bootstrap" and average != "samples")
    ):
        # multilabel batches: refused when the evaluation ends, not hours later
        why = (
            "is not defined for multilabel targets (it draws the cells of the "
            "confusion matrix of 1-D targets)"
            if interval == "posterior"
            else "redraws every sample's labels, which the counts kept batch "
            "by batch do not hold (they hold the histogram that "
            "average='samples' redraws)"
        )
        raise InvalidParameterError(
            f"The 'interval' parameter of {_CALLER}: interval={interval!r} with "
            f"threshold (multilabel targets) {why}; use interval='delta' or "
            "'auto'."
        )
    accumulator = MacroF1Accumulator(
        labels=labels,
        ignore_index=None if threshold is not None else ignore_index,
        threshold=threshold,
        keep=_keep(interval),
    )
    return MacroF1ComputeMetrics(
        accumulator,
        beta=checked["beta"],
        average=checked["average"],
        zero_division=checked["zero_division"],
        interval=interval,
        confidence=checked["confidence"],
        n_resamples=checked["n_resamples"],
        random_state=random_state,
    )


__all__ = ["MacroF1ComputeMetrics", "make_compute_metrics"]
