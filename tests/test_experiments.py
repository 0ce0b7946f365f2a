"""The paper's experiments (benchmarks/paper_experiments.py), at a small size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score, precision_score, recall_score

from sklearn_macrof1 import gap_bound

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pe():
    spec = importlib.util.spec_from_file_location(
        "paper_experiments", ROOT / "benchmarks" / "paper_experiments.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def test_sample_labels_follow_the_proportions(pe):
    rng = np.random.default_rng(0)
    y = pe.sample_labels(rng, [0.7, 0.2, 0.1], (20000,))
    np.testing.assert_allclose(np.bincount(y) / y.size, [0.7, 0.2, 0.1], atol=0.01)


def test_predict_with_accuracy(pe):
    rng = np.random.default_rng(0)
    y = pe.sample_labels(rng, [0.25] * 4, (3, 20000))
    accuracy = np.array([[1.0], [0.0], [0.6]])
    pred = pe.predict_with_accuracy(rng, y, 4, accuracy)
    hit = (pred == y).mean(axis=1)
    assert hit[0] == 1.0 and hit[1] == 0.0
    assert hit[2] == pytest.approx(0.6, abs=0.02)
    # wrong predictions are spread evenly over the other classes
    wrong = pred[1][y[1] == 0]
    np.testing.assert_allclose(
        np.bincount(wrong, minlength=4) / wrong.size,
        [0, 1 / 3, 1 / 3, 1 / 3],
        atol=0.02,
    )


def test_skewed_proportions_are_the_papers_axis(pe):
    np.testing.assert_allclose(pe.skewed_proportions(4, 0.0), 0.25)
    h = 1 + 1 / 2 + 1 / 3 + 1 / 4
    np.testing.assert_allclose(
        pe.skewed_proportions(4, 1.0), [1 / h, 1 / (2 * h), 1 / (3 * h), 1 / (4 * h)]
    )
    mid = pe.skewed_proportions(13, 0.5)
    assert mid.sum() == pytest.approx(1.0)
    assert (np.diff(mid) < 0).all()


def test_figure1a_small_matches_sklearn_and_is_reproducible(pe):
    result = pe.figure1a(n_tasks=40, n_samples=300, seed=5)
    again = pe.figure1a(n_tasks=40, n_samples=300, seed=5)
    other = pe.figure1a(n_tasks=40, n_samples=300, seed=6)
    np.testing.assert_array_equal(result.scores.gap, again.scores.gap)
    assert not np.array_equal(result.scores.gap, other.scores.gap)
    s, st = result.scores, result.statistics
    assert (s.gap >= -1e-12).all()
    np.testing.assert_allclose(s.gap, s.f1_of_averages - s.averaged_f1, atol=1e-12)
    assert st["rmsd"] == pytest.approx(np.sqrt(np.mean(s.gap**2)))
    assert st["max_averaged_f1"] == s.averaged_f1.max()
    assert -1 <= st["pearson"] <= 1 and -1 <= st["spearman"] <= 1
    # task 0 again, with scikit-learn: same labels from the same seed
    rng = np.random.default_rng(5)
    y_true = pe.sample_labels(rng, (0.95, 0.05), (40, 300))[0]
    y_pred = rng.integers(0, 2, (40, 300))[0]
    kw = {"labels": [0, 1], "average": "macro", "zero_division": 0.0}
    assert s.averaged_f1[0] == pytest.approx(f1_score(y_true, y_pred, **kw))
    p, r = precision_score(y_true, y_pred, **kw), recall_score(y_true, y_pred, **kw)
    assert s.f1_of_averages[0] == pytest.approx(2 * p * r / (p + r))


def test_figure1a_spread_over_seeds(pe):
    result = pe.figure1a(n_tasks=20, n_samples=200, seed=0, spread_seeds=[1, 2])
    low, high = result.spread["rmsd"]
    assert low <= result.statistics["rmsd"] <= high
    assert result.spread_seeds == (1, 2)


def test_figure1b_skew_widens_the_gap(pe):
    result = pe.figure1b(
        {"uniform": [0.5, 0.5], "skewed": [0.95, 0.05]}, n_tasks=30, n_samples=400
    )
    assert set(result.gaps) == {"uniform", "skewed"}
    assert result.gaps["skewed"].mean() > 10 * result.gaps["uniform"].mean()


def test_figure2_small_grid(pe):
    result = pe.figure2(4, n_points=300, grid=5, repeats=1, seed=1)
    assert result.gap.shape == (5, 5)
    assert result.accuracy[0] == pytest.approx(0.25) and result.accuracy[-1] == 1.0
    np.testing.assert_allclose(result.gap[:, -1], 0.0, atol=1e-12)  # perfect
    assert (result.gap >= -1e-12).all()
    # skewed labels, chance-level classifier: the largest gaps
    assert result.gap[-1, 0] > result.gap[0, 0]


def test_paper_tables_reproduced_exactly(pe):
    for row in pe.paper_tables():
        for key in ("f1_of_averages", "averaged_f1", "gap"):
            assert row.ours[key] == pytest.approx(row.paper[key], abs=1e-12)
        assert row.ours["gap_closed_form"] == pytest.approx(row.ours["gap"], abs=1e-12)


def test_supremum_table_approaches_theorem3(pe):
    sup = pe.supremum_table(range(2, 8), (1.0, 100.0, 1e6))
    assert (np.diff(sup.gap, axis=1) > 0).all()
    assert (sup.gap < sup.supremum[:, None]).all()
    np.testing.assert_allclose(sup.gap[:, -1], sup.supremum, atol=1e-5)
    np.testing.assert_allclose(sup.supremum, [gap_bound(n) for n in range(2, 8)])
    np.testing.assert_allclose(sup.gap, sup.closed_form, atol=1e-12)


def test_update_section_replaces_only_its_block(pe, tmp_path):
    doc = tmp_path / "page.md"
    doc.write_text("# Title\n\nintro\n", encoding="utf-8")
    pe.update_section(doc, "x", "first")
    pe.update_section(doc, "y", "other")
    pe.update_section(doc, "x", "second")
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nintro\n")
    assert "second" in text and "first" not in text and "other" in text
    assert text.count("<!-- paper:x:begin -->") == 1


@pytest.mark.slow
def test_command_line_quick_run_writes_pngs_and_tables(pe, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    doc = tmp_path / "docs" / "paper.md"
    images = tmp_path / "docs" / "images"
    assert pe.main(["all", "--quick", "--images", str(images), "--doc", str(doc)]) == 0
    for name in ("figure1a", "figure1b", "figure2", "theorem3", "display_table1"):
        png = images / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = doc.read_text(encoding="utf-8")
    for name in ("figure1a", "figure1b", "figure2", "tables"):
        assert f"<!-- paper:{name}:begin -->" in text
    assert "](images/figure1a.png)" in text
    assert "| Table 1 |" in text
    out = capsys.readouterr().out
    assert "max F1 of averages" in out
