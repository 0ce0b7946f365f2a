"""The extension points: a data source added as one module reaches the public
functions; an option added as one row of the option table reaches them and
``macrof1 --help`` (that half: tests/test_cli.py,
test_an_option_added_to_the_option_table_reaches_the_program)."""

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from sklearn_macrof1 import (
    averaged_f1_score,
    classification_report,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_summary,
)
from sklearn_macrof1._counting import _registry
from sklearn_macrof1._sklearn_private import InvalidParameterError


@pytest.fixture
def toy(monkeypatch):
    """The toy source registered for one test, the registry restored after."""
    monkeypatch.setattr(_registry, "_sources", _registry._sources)
    monkeypatch.setattr(_registry, "_by_type", {})
    sys.modules.pop("toy_source", None)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    module = importlib.import_module("toy_source")
    yield module
    sys.modules.pop("toy_source", None)


def test_a_toy_source_module_reaches_the_public_functions(toy):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 200)
    p = np.where(rng.random(200) < 0.7, y, rng.integers(0, 4, 200))
    column = toy.ToyColumn
    before = toy.ToySource.calls
    assert averaged_f1_score(column(y), column(p)) == averaged_f1_score(y, p)
    assert f1_of_averages_score(column(y), p) == f1_of_averages_score(y, p)
    assert fbeta_summary(column(y), column(p)) == fbeta_summary(y, p)
    assert fbeta_confidence_interval(column(y), column(p)) == (
        fbeta_confidence_interval(y, p)
    )
    assert classification_report(
        column(y), column(p), output_dict=True
    ) == classification_report(y, p, output_dict=True)
    assert toy.ToySource.calls == before + 5  # each call counted once, by it
    with pytest.raises(ValueError, match="y_pred"):  # the reading's own checks
        averaged_f1_score(column(y), column(p[:-1]))


def test_a_claimed_y_true_without_y_pred_names_y_pred(toy):
    # the claimed value is its source's to check: the call misses y_pred
    for verb in (averaged_f1_score, fbeta_summary, fbeta_confidence_interval):
        with pytest.raises(
            InvalidParameterError,
            match=r"The 'y_pred' parameter of \w+ must be an array-like or a "
            r"sparse matrix\. Got None instead",
        ):
            verb(toy.ToyColumn([0, 1]), None)


def test_a_source_tally_counts_the_batches_of_a_stream(toy, monkeypatch):
    # MacroF1Accumulator.update hands each batch to the source that claims it
    # (its optional tally), as the one-shot verbs hand it their data
    from sklearn_macrof1 import MacroF1Accumulator
    from sklearn_macrof1._counting._record import read_in_memory
    from sklearn_macrof1._counting._registry import Predictions

    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, 200)
    p = np.where(rng.random(200) < 0.7, y, rng.integers(0, 4, 200))
    column = toy.ToyColumn
    asked = []

    def given_back(data, stream):  # counted in this process, as NumPy arrays
        asked.append(stream.labels.tolist())
        return Predictions(*(toy._plain(value) for value in data.values()))

    def counted(data, stream):  # counted by the source: its record
        asked.append(stream.keep)
        plain = Predictions(*(toy._plain(value) for value in data.values()))
        return read_in_memory(plain, part=True).counts

    for tally, expected in ((given_back, [0, 1, 2, 3]), (counted, "counts")):
        asked.clear()
        monkeypatch.setattr(toy.ToySource, "tally", staticmethod(tally), raising=False)
        acc = MacroF1Accumulator(labels=[0, 1, 2, 3])
        for part in (slice(0, 120), slice(120, 200)):
            acc.update(column(y[part]), column(p[part]))
        assert asked == [expected, expected]
        assert acc.n_samples == 200
        assert averaged_f1_score(acc.counts) == averaged_f1_score(y, p)
        assert f1_of_averages_score(acc.counts) == f1_of_averages_score(y, p)
