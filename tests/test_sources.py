"""The source registry: data of a kind a registered source claims reach it.

The registry has no public face (sources are registered by the integrations
layer: Dask, Spark), so it is tested here through a source of a made-up array
type, as a source for device arrays would plug in: the verbs, untouched, give
the results of the arrays it counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sklearn_macrof1 import (
    MacroF1Accumulator,
    compare_classifiers,
    fbeta_confidence_interval,
    fbeta_summary,
)

# the source registry has no public face (see the module docstring)
from sklearn_macrof1._counting import _registry as _sources
from sklearn_macrof1._counting._record import Reading, read_in_memory
from sklearn_macrof1._counting._registry import CountRequest, Predictions


class Remote:
    """An array that lives elsewhere (a device, a cluster): only its source
    knows how to count it."""

    def __init__(self, values: Any) -> None:
        self.values = np.asarray(values)

    def __len__(self) -> int:
        return len(self.values)


class RemoteSource:
    name = "remote"
    count_jointly = None

    def __init__(self) -> None:
        self.requests: list[CountRequest] = []

    def claims(self, cls: type) -> bool:
        return cls is Remote

    def count(self, data: Predictions, request: CountRequest) -> Reading:
        self.requests.append(request)

        def local(value: Any) -> Any:
            return value.values if isinstance(value, Remote) else value

        reading = read_in_memory(
            Predictions(*(local(v) for v in data.values())),
            request.labels,
            request.samplewise,
            request.class_counts,
            request.moments,
            False,  # only the record leaves the source
            request.part,
        )
        return Reading(reading.counts)


@pytest.fixture
def source(monkeypatch: pytest.MonkeyPatch) -> RemoteSource:
    monkeypatch.setattr(_sources, "_sources", _sources._sources)
    monkeypatch.setattr(_sources, "_by_type", {})
    remote = RemoteSource()
    _sources.register_source(remote)
    return remote


def _labels() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 4, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 4, 300))
    return y_true, y_pred, rng.random(300) + 0.5


def test_claimed_data_go_to_their_source(source: RemoteSource) -> None:
    y_true, y_pred, weights = _labels()
    ours = fbeta_summary(Remote(y_true), y_pred, average=None)
    direct = fbeta_summary(y_true, y_pred, average=None)
    np.testing.assert_array_equal(ours.class_fbeta, direct.class_fbeta)
    np.testing.assert_array_equal(ours.fbeta_of_averages, direct.fbeta_of_averages)
    assert len(source.requests) == 1
    assert source.requests[0].caller == "fbeta_summary"
    assert not source.requests[0].moments
    # a delta-method interval of weighted data asks the source for the moments
    ours = fbeta_confidence_interval(
        Remote(y_true), Remote(y_pred), sample_weight=weights
    )
    direct = fbeta_confidence_interval(y_true, y_pred, sample_weight=weights)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(ours, name), getattr(direct, name)
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-12)
    assert source.requests[-1].moments
    # in-memory arrays never reach it
    fbeta_summary(y_true, y_pred)
    assert len(source.requests) == 2


def test_a_source_without_joint_counts_refuses_comparisons(
    source: RemoteSource,
) -> None:
    y_true, y_pred, _ = _labels()
    with pytest.raises(ValueError, match=r"does not take collections of this kind"):
        compare_classifiers(Remote(y_true), y_pred, y_pred)
    assert source.requests == []


def test_batches_are_parts(source: RemoteSource) -> None:
    """A stream's batch is a part: all-zero weights are counted and marked,
    and only the whole stream must have a non-zero weight."""
    y_true, y_pred, weights = _labels()
    acc = MacroF1Accumulator()
    acc.update(Remote(y_true[:100]), y_pred[:100], sample_weight=np.zeros(100))
    assert source.requests[-1].part
    with pytest.raises(ValueError, match="all 100 weights are zero"):
        fbeta_summary(acc.counts)
    acc.update(Remote(y_true[100:]), y_pred[100:], sample_weight=weights[100:])
    w = np.concatenate([np.zeros(100), weights[100:]])
    assert fbeta_summary(acc.counts).averaged_fbeta == pytest.approx(
        fbeta_summary(y_true, y_pred, sample_weight=w).averaged_fbeta, rel=1e-12
    )


def test_the_zero_weight_rule_is_one_function(monkeypatch) -> None:
    """Every path that meets all-zero weights (a whole call's arrays, several
    predictions read together, a stream's batch and the stream) judges them by
    the one rule: a whole refuses them, a part is counted and marked."""
    import sys

    # the zero-weight rule has no public face: watched
    from sklearn_macrof1._counting import _record

    rule = _record.zero_weight_rule
    seen: list[tuple[bool, bool]] = []

    def watched(zero: bool, n_samples: Any, **kwargs: Any) -> bool:
        seen.append((bool(zero), bool(kwargs.get("part", False))))
        return rule(zero, n_samples, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("sklearn_macrof1"):
            if getattr(module, "zero_weight_rule", None) is rule:
                monkeypatch.setattr(module, "zero_weight_rule", watched)
    y_true, y_pred, _ = _labels()
    zeros = np.zeros(y_true.shape[0])
    calls: list[Any] = [
        lambda: fbeta_summary(y_true, y_pred, sample_weight=zeros),
        lambda: compare_classifiers(y_true, y_pred, y_pred, sample_weight=zeros),
        lambda: MacroF1Accumulator().update(y_true, y_pred, sample_weight=zeros).counts,
    ]
    for call in calls:
        seen.clear()
        with pytest.raises(ValueError, match="weights are zero"):
            call()
        assert seen[-1] == (True, False), seen
    seen.clear()
    MacroF1Accumulator().update(y_true, y_pred, sample_weight=zeros)
    assert seen == [(True, True)]
