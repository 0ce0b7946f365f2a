"""MacroF1Display: the values on its attributes and artists, and the optional import."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from _reference import fbeta_of
from sklearn.datasets import load_iris
from sklearn.linear_model import LinearRegression
from sklearn.metrics import f1_score, precision_score, recall_score
from sklearn.tree import DecisionTreeClassifier

from sklearn_macrof1 import MacroF1Display, fbeta_summary

# The inverse of the harmonic mean in precision, which places the gap line's
# lower end, has no public face: the display shows only whether the line is
# drawn, not where no precision reaches a level (nan).
from sklearn_macrof1._plot._display import precision_on_iso_curve

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _multiclass():
    rng = np.random.default_rng(3)
    y_true = rng.choice(4, size=400, p=[0.5, 0.25, 0.15, 0.1])
    right = rng.random(400) < 0.6
    y_pred = np.where(right, y_true, 0)  # errors all go to class 0
    y_pred[y_pred == 3] = 0  # class 3 is rarely predicted: P > R for it
    y_pred[:5] = 3
    return y_true, y_pred


def _check_artists(disp: MacroF1Display) -> None:
    """Every artist carries the values of the display (and of the summary)."""
    beta = disp.beta
    defined = ~(np.isnan(disp.class_precision) | np.isnan(disp.class_recall))
    np.testing.assert_allclose(
        disp.points_.get_offsets(),
        np.column_stack([disp.class_recall[defined], disp.class_precision[defined]]),
    )
    assert disp.mean_point_.get_xdata()[0] == pytest.approx(disp.recall)
    assert disp.mean_point_.get_ydata()[0] == pytest.approx(disp.precision)
    for line, level in [
        (disp.curve_of_averages_, disp.fbeta_of_averages),
        (disp.curve_averaged_, disp.averaged_fbeta),
    ]:
        r, p = line.get_xdata(), line.get_ydata()
        assert r.size > 10
        assert ((p >= 0) & (p <= 1) & (r >= 0) & (r <= 1)).all()
        np.testing.assert_allclose(fbeta_of(p, r, beta), level, atol=1e-9)
    # the mean point lies on the curve of the F of averages
    assert fbeta_of(disp.precision, disp.recall, beta) == pytest.approx(
        disp.fbeta_of_averages
    )
    # the gap in three decimals, or two significant digits where those hide it
    small = 0 < abs(disp.gap) < 0.002
    gap = f"{disp.gap:.2g}" if small else f"{disp.gap:.3f}"
    if disp.gap_line_ is not None:
        x, y = disp.gap_line_.get_xdata(), disp.gap_line_.get_ydata()
        assert x[0] == x[1] == pytest.approx(disp.recall)
        assert y[1] == pytest.approx(disp.precision)
        assert fbeta_of(y[0], x[0], beta) == pytest.approx(disp.averaged_fbeta)
        assert f"gap = {gap}" in disp.gap_line_.get_label()
        assert ("too short to see" in disp.gap_line_.get_label()) == small
    assert f"{disp.fbeta_of_averages:.3f}" in disp.curve_of_averages_.get_label()
    assert f"{disp.averaged_fbeta:.3f}" in disp.curve_averaged_.get_label()
    assert disp.ax_.figure is disp.figure_
    assert disp.ax_.get_xlabel() == "recall"
    assert disp.ax_.get_ylabel() == "precision"
    assert f"gap {gap}" in disp.ax_.get_title()
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert disp.curve_of_averages_.get_label() in legend


def test_multiclass_values_match_summary_and_sklearn():
    y_true, y_pred = _multiclass()
    disp = MacroF1Display.from_predictions(y_true, y_pred)
    summary = fbeta_summary(y_true, y_pred)
    assert isinstance(disp, MacroF1Display)
    assert disp.summary.gap == summary.gap
    np.testing.assert_array_equal(disp.summary.labels, [0, 1, 2, 3])
    assert disp.averaged_fbeta == pytest.approx(
        f1_score(y_true, y_pred, average="macro")
    )
    assert disp.precision == pytest.approx(
        precision_score(y_true, y_pred, average="macro")
    )
    assert disp.recall == pytest.approx(recall_score(y_true, y_pred, average="macro"))
    assert disp.fbeta_of_averages == pytest.approx(summary.fbeta_of_averages)
    assert disp.gap == pytest.approx(summary.gap)
    assert disp.gap > 0.01
    np.testing.assert_allclose(disp.class_fbeta, f1_score(y_true, y_pred, average=None))
    _check_artists(disp)
    # one annotation per class, with its label and its F1
    texts = [a.get_text() for a in disp.annotations_]
    assert texts == [
        f"{k}: F1 {f:.2f}" for k, f in zip(range(4), disp.class_fbeta, strict=True)
    ]
    assert "Why two numbers?" in disp.text_.get_text()
    assert "P > R" in disp.text_.get_text()


def test_binary_paper_table1():
    y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
    y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
    disp = MacroF1Display.from_predictions(y_true, y_pred)
    assert disp.fbeta_of_averages == pytest.approx(0.504950495049505)
    assert disp.averaged_fbeta == pytest.approx(0.0196078431372549)
    assert disp.gap == pytest.approx(0.48534265191225007)
    _check_artists(disp)
    # one class at (R, P) ~ (1, 0.0099), the other at (0.0099, 1)
    offsets = disp.points_.get_offsets()
    np.testing.assert_allclose(offsets, [[1.0, 100 / 10100], [100 / 10100, 1.0]])


def test_multilabel_with_display_labels():
    rng = np.random.default_rng(0)
    y_true = (rng.random((300, 4)) < [0.5, 0.3, 0.1, 0.05]).astype(int)
    flip = rng.random((300, 4)) < 0.3
    y_pred = np.where(flip, 1 - y_true, y_true)
    names = ["news", "sport", "tech", "art"]
    disp = MacroF1Display.from_predictions(y_true, y_pred, display_labels=names)
    assert disp.averaged_fbeta == pytest.approx(
        f1_score(y_true, y_pred, average="macro")
    )
    np.testing.assert_allclose(
        disp.class_recall, recall_score(y_true, y_pred, average=None)
    )
    assert list(disp.display_labels) == names
    assert [a.get_text().split(":")[0] for a in disp.annotations_] == names
    _check_artists(disp)


def test_multilabel_labels_subset():
    rng = np.random.default_rng(1)
    y_true = rng.random((100, 5)) < 0.4
    y_pred = rng.random((100, 5)) < 0.4
    disp = MacroF1Display.from_predictions(y_true, y_pred, labels=[0, 2, 4])
    assert disp.class_precision.shape == (3,)
    assert disp.averaged_fbeta == pytest.approx(
        f1_score(y_true, y_pred, labels=[0, 2, 4], average="macro")
    )
    _check_artists(disp)


def test_weighted_sizes_points_by_support():
    y_true, y_pred = _multiclass()
    disp = MacroF1Display.from_predictions(y_true, y_pred, average="weighted")
    assert disp.average == "weighted"
    assert disp.averaged_fbeta == pytest.approx(
        f1_score(y_true, y_pred, average="weighted")
    )
    assert disp.precision == pytest.approx(
        precision_score(y_true, y_pred, average="weighted")
    )
    sizes = disp.points_.get_sizes()
    support = np.bincount(y_true)
    np.testing.assert_array_equal(np.argsort(sizes), np.argsort(support))
    assert len(set(sizes)) == 4
    macro = MacroF1Display.from_predictions(y_true, y_pred, average="macro")
    assert len(set(macro.points_.get_sizes())) == 1
    assert "weighted" in disp.mean_point_.get_label()
    _check_artists(disp)


def test_beta_two_curves_follow_f2():
    y_true, y_pred = _multiclass()
    disp = MacroF1Display.from_predictions(y_true, y_pred, beta=2.0)
    assert disp.beta == 2.0
    assert "F2" in disp.curve_averaged_.get_label()
    _check_artists(disp)


def test_from_estimator_equals_from_predictions():
    X, y = load_iris(return_X_y=True)
    clf = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    disp = MacroF1Display.from_estimator(clf, X, y, zero_division=0.0)
    ref = MacroF1Display.from_predictions(y, clf.predict(X), zero_division=0.0)
    for name in ("averaged_fbeta", "fbeta_of_averages", "gap", "precision", "recall"):
        assert getattr(disp, name) == pytest.approx(getattr(ref, name))
    assert disp.averaged_fbeta == pytest.approx(
        f1_score(y, clf.predict(X), average="macro", zero_division=0.0)
    )
    _check_artists(disp)


def test_from_estimator_rejects_a_regressor():
    X, y = load_iris(return_X_y=True)
    reg = LinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="classifier"):
        MacroF1Display.from_estimator(reg, X, y)


@pytest.mark.slow
def test_plot_on_given_axes_returns_self():
    y_true, y_pred = _multiclass()
    fig, (ax1, ax2) = plt.subplots(1, 2)
    disp = MacroF1Display.from_predictions(y_true, y_pred, ax=ax2, explain=False)
    assert disp.ax_ is ax2 and disp.figure_ is fig
    assert disp.text_ is None
    again = disp.plot(ax=ax1, annotate=False, iso_levels=(0.5,))
    assert again is disp and disp.ax_ is ax1
    assert disp.annotations_ == []
    assert len(disp.iso_lines_) == 1
    r, p = disp.iso_lines_[0].get_xdata(), disp.iso_lines_[0].get_ydata()
    np.testing.assert_allclose(fbeta_of(p, r, 1.0), 0.5, atol=1e-9)


def test_no_gap_when_every_class_has_p_equal_r():
    # the paper's Table 2: symmetric errors, P_i = R_i for both classes
    y_true = np.repeat([0, 1, 0, 1], [100, 5000, 5000, 100])
    y_pred = np.repeat([0, 0, 1, 1], [100, 5000, 5000, 100])
    disp = MacroF1Display.from_predictions(y_true, y_pred)
    assert disp.gap == pytest.approx(0.0, abs=1e-12)
    assert disp.gap_line_ is None
    assert "agree" in disp.text_.get_text()
    _check_artists(disp)


def test_nan_classes_are_not_drawn():
    y_true = [0, 0, 1, 1, 2]
    y_pred = [0, 1, 1, 1, 0]  # class 2 is never predicted: precision undefined
    disp = MacroF1Display.from_predictions(y_true, y_pred, zero_division=np.nan)
    assert np.isnan(disp.class_precision[2])
    assert disp.points_.get_offsets().shape == (2, 2)
    assert len(disp.annotations_) == 2


@pytest.mark.parametrize("average", ["micro", "samples", "binary", None])
def test_rejects_averages_without_class_points(average):
    with pytest.raises(ValueError, match="average must be one of"):
        MacroF1Display.from_predictions([0, 1, 1], [0, 1, 0], average=average)


def test_rejects_wrong_number_of_display_labels():
    with pytest.raises(ValueError, match="display_labels must name the 2 classes"):
        MacroF1Display.from_predictions([0, 1, 1], [0, 1, 0], display_labels=["a"])


def test_from_summary_rejects_other_objects():
    with pytest.raises(TypeError, match="FBetaSummary"):
        MacroF1Display.from_summary({"gap": 0.1})


def test_bad_targets_raise_the_scores_errors():
    with pytest.raises(ValueError):
        MacroF1Display.from_predictions([0, 1, 2], [0, 1])


def _two_classes(beta=1.0):
    """A display of two classes at (P, R) = (1, 0.5) and (0.5, 1)."""
    return MacroF1Display(
        class_precision=[1.0, 0.5],
        class_recall=[0.5, 1.0],
        class_fbeta=[2 / 3, 2 / 3],
        precision=0.75,
        recall=0.75,
        averaged_fbeta=2 / 3,
        fbeta_of_averages=0.75,
        gap=0.75 - 2 / 3,
        beta=beta,
    )


def _iso_curve(level, beta):
    """The (recall, precision) points of the display's background iso-curve of
    ``level`` (its ``iso_lines_``), for ``beta``."""
    disp = _two_classes(beta).plot(iso_levels=(level,))
    (line,) = disp.iso_lines_
    return np.asarray(line.get_xdata()), np.asarray(line.get_ydata())


@pytest.mark.slow
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.0])
@pytest.mark.parametrize("level", [0.01, 0.2, 0.5, 0.9, 0.999])
def test_iso_curves_have_the_level_they_claim(beta, level):
    r, p = _iso_curve(level, beta)
    assert p[0] == 1.0 and r[-1] == 1.0
    assert (np.diff(r) > 0).all() and (np.diff(p) <= 1e-15).all()
    np.testing.assert_allclose(fbeta_of(p, r, beta), level, rtol=1e-9)
    # below the curve's lowest recall no precision in [0, 1] reaches the level
    assert np.isnan(precision_on_iso_curve(level, r[0] * 0.9, beta))


def test_iso_curves_edge_cases():
    r, p = _iso_curve(0.0, 1.0)
    np.testing.assert_array_equal(fbeta_of(p, r, 1.0), 0.0)
    r, p = _iso_curve(0.3, 0.0)  # F0 is precision: horizontal
    np.testing.assert_array_equal(p, 0.3)
    r, p = _iso_curve(0.3, np.inf)  # F-inf is recall: vertical
    np.testing.assert_array_equal(r, 0.3)


# ------------------------------------------------------------ optional matplotlib
def test_missing_matplotlib_says_how_to_install(monkeypatch):
    disp = _two_classes()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    hint = re.escape(
        "draws with matplotlib, which is not installed. Install it with "
        "`pip install matplotlib` or, from the repository root of sklearn-macrof1, "
        '`pip install ".[plot]"`.'
    )
    with pytest.raises(ImportError, match=hint):
        MacroF1Display.from_predictions([0, 1], [0, 1])
    with pytest.raises(ImportError, match=hint):
        MacroF1Display.from_estimator(None, [[0]], [0])
    with pytest.raises(ImportError, match=hint):
        disp.plot()


@pytest.mark.slow
def test_package_import_never_imports_matplotlib():
    code = textwrap.dedent(
        """
        import sys
        import sklearn_macrof1
        assert "matplotlib" not in sys.modules, "matplotlib imported"
        sys.modules["matplotlib"] = None  # as if it were not installed
        from sklearn_macrof1 import MacroF1Display
        try:
            MacroF1Display.from_predictions([0, 1], [0, 1])
        except ImportError as exc:
            assert '`pip install ".[plot]"`' in str(exc), exc
        else:
            raise AssertionError("no ImportError")
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ------------------------------------------------------------ figures in a grid


def _inside(box, frame, tol=1.0):
    return (
        box.x0 >= frame.x0 - tol
        and box.y0 >= frame.y0 - tol
        and box.x1 <= frame.x1 + tol
        and box.y1 <= frame.y1 + tol
    )


def _overlap(a, b):
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(w, 0) * max(h, 0)


def _text_box(annotation, renderer):
    from matplotlib.text import Text

    return Text.get_window_extent(annotation, renderer)  # without the leader line


def _skewed(n_classes, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, 3000)
    hit = rng.uniform(0.35, 0.95, n_classes)[y]
    wrong = rng.choice(n_classes, size=y.size, p=rng.dirichlet([0.3] * n_classes))
    return y, np.where(rng.random(y.size) < hit, y, wrong)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(1, 1), (1, 2), (2, 2)])
@pytest.mark.parametrize("n_classes", [3, 20])
def test_panel_keeps_everything_inside_its_axes(shape, n_classes):
    rows, cols = shape
    fig, axes = plt.subplots(
        rows, cols, figsize=(4.5 * cols, 4.5 * rows), layout="constrained",
        squeeze=False,
    )  # fmt: skip
    displays = [
        MacroF1Display.from_predictions(*_skewed(n_classes, i), ax=ax, annotate=True)
        for i, ax in enumerate(axes.flat)
    ]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    figure_box = fig.bbox
    for disp in displays:
        ax = disp.ax_
        frame = ax.get_window_extent(renderer)
        legend = ax.get_legend()
        assert legend is not None and disp.text_ is None
        assert _inside(legend.get_window_extent(renderer), frame)
        # the compact legend names the two curves (and the gap)
        texts = [t.get_text() for t in legend.get_texts()]
        assert texts[:2] == [
            disp.curve_averaged_.get_label(),
            disp.curve_of_averages_.get_label(),
        ]
        # nothing of the panel, title and labels included, leaves the figure
        assert _inside(ax.get_tightbbox(renderer), figure_box)
        boxes = [_text_box(a, renderer) for a in disp.annotations_]
        for box in boxes:
            assert _inside(box, frame, tol=2.0)
        if n_classes == 3:  # the labels of a few classes never touch each other
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert _overlap(a, b) == 0
    # panels do not reach into each other
    tight = [d.ax_.get_tightbbox(renderer) for d in displays]
    for i, a in enumerate(tight):
        for b in tight[i + 1 :]:
            assert _overlap(a, b) == 0
    plt.close(fig)


def _paper_case(case):
    """(y_true, y_pred, plot options) of the compact figures for a paper."""
    if case == "paper's Table 1":
        y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
        y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
        return y_true, y_pred, {"display_labels": ["class A", "class B"]}
    if case == "3 named classes":
        return *_skewed(3, 0), {"display_labels": ["cat", "dog", "bird"]}
    if case == "12 classes, weighted":  # the most the compact layout labels
        return *_skewed(12, 4), {"average": "weighted"}
    # a gap of 0.0008, whose segment would hide under the star
    y_true = np.repeat([0, 1], 500)
    y_pred = np.repeat([0, 1, 1, 0], [430, 70, 460, 40])
    return y_true, y_pred, {"display_labels": ["no", "yes"]}


@pytest.mark.parametrize("layout", ["constrained", "tight"])
@pytest.mark.parametrize("size", [3.5, 4.0])
@pytest.mark.parametrize(
    "case",
    ["paper's Table 1", "3 named classes", "12 classes, weighted", "small gap"],
)
def test_compact_paper_figure_texts_inside_the_figure_and_clear_of_the_legend(
    case, size, layout, monkeypatch
):
    from matplotlib.text import Text

    y_true, y_pred, options = _paper_case(case)
    fig, ax = plt.subplots(figsize=(size, size), layout=layout)
    disp = MacroF1Display.from_predictions(
        y_true, y_pred, ax=ax, compact=True, **options
    )
    # the texts a draw renders: tick labels outside the view limits, empty
    # and invisible texts are never drawn
    drawn = []
    draw = Text.draw

    def record(text, renderer):
        if text.get_visible() and text.get_text():
            drawn.append(text)
        return draw(text, renderer)

    monkeypatch.setattr(Text, "draw", record)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend()
    in_legend = {id(t) for t in legend.findobj(Text)}
    legend_box = legend.get_window_extent(renderer)
    texts = [t for t in drawn if id(t) not in in_legend]
    names = {t.get_text() for t in texts}
    # tick labels, axis labels, title, iso-F1 levels and class names all drawn
    assert {"0.0", "1.0", "recall", "precision", "0.2", "0.8"} <= names
    assert disp.ax_.title in texts
    assert set(disp.annotations_) <= set(texts)
    for text in texts:
        box = Text.get_window_extent(text, renderer)  # without leader lines
        assert _inside(box, fig.bbox, tol=0.5), text.get_text()
        assert _overlap(box, legend_box) == 0, text.get_text()
    # the mean point is never under the legend either
    assert _overlap(disp.mean_point_.get_window_extent(renderer), legend_box) == 0
    if case == "small gap":  # too short to see: its value is written out
        assert 0 < disp.gap < 0.002
        label = disp.gap_line_.get_label()
        assert label == f"gap = {disp.gap:.2g} (too short to see)"
        assert label in [t.get_text() for t in legend.get_texts()]


def test_compact_figure_of_its_own_is_a_column_wide():
    disp = MacroF1Display.from_predictions(*_skewed(3, 0), compact=True)
    assert tuple(disp.figure_.get_size_inches()) == (4.0, 4.0)
    assert disp.text_ is None and "\n" in disp.ax_.get_title()


def test_full_layout_fits_its_own_figure():
    disp = MacroF1Display.from_predictions(*_skewed(20, 0))
    fig = disp.figure_
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for artist in (disp.ax_.get_legend(), disp.text_, disp.ax_.title):
        assert _inside(artist.get_window_extent(renderer), fig.bbox)
    boxes = [_text_box(a, renderer) for a in disp.annotations_]
    assert len(boxes) == 20
    overlaps = sum(
        _overlap(a, b) > 0 for i, a in enumerate(boxes) for b in boxes[i + 1 :]
    )
    assert overlaps == 0
    plt.close(fig)


def test_classes_at_one_point_share_one_label():
    # classes 0 and 1 both have P = R = 0.5; class 2 is perfect
    y_true = [0, 0, 1, 1, 2, 2]
    y_pred = [0, 1, 1, 0, 2, 2]
    disp = MacroF1Display.from_predictions(y_true, y_pred, compact=False)
    texts = [a.get_text() for a in disp.annotations_]
    assert texts == ["0, 1: F1 0.50", "2: F1 1.00"]
    plt.close(disp.figure_)


def test_compact_is_the_default_on_given_axes_and_can_be_switched():
    y_true, y_pred = _skewed(3, 0)
    fig, (ax1, ax2) = plt.subplots(1, 2, layout="constrained")
    compact = MacroF1Display.from_predictions(y_true, y_pred, ax=ax1)
    assert compact.text_ is None
    assert "\n" in ax1.get_title()
    assert all(":" not in a.get_text() for a in compact.annotations_)
    full = MacroF1Display.from_predictions(y_true, y_pred, ax=ax2, compact=False)
    assert full.text_ is not None and "Why two numbers?" in full.text_.get_text()
    with pytest.raises(ValueError, match="explain=True needs the full layout"):
        MacroF1Display.from_predictions(y_true, y_pred, ax=ax1, explain=True)
    plt.close(fig)


# -- drawn once: the builders return the display drawn --------------------------

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.parametrize("builder", ["from_predictions", "from_estimator", "summary"])
def test_builders_draw_once_and_take_gap_pairs(builder):
    y_true, y_pred = _multiclass()
    before = set(plt.get_fignums())
    if builder == "from_predictions":
        disp = MacroF1Display.from_predictions(y_true, y_pred, gap_pairs=2)
    elif builder == "from_estimator":
        X, y = load_iris(return_X_y=True)
        clf = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
        disp = MacroF1Display.from_estimator(clf, X[::3], y[::3], gap_pairs=2)
    else:
        summary = fbeta_summary(y_true, y_pred)
        disp = MacroF1Display.from_summary(summary, gap_pairs=2)
    assert set(plt.get_fignums()) - before == {disp.figure_.number}  # one figure
    assert len(disp.gap_pair_lines_) == 2
    assert disp.gap_pair_lines_[0].get_label().startswith("largest gap pairs: ")
    redrawn = MacroF1Display.from_summary(disp.summary)
    redrawn.plot(ax=redrawn.ax_, gap_pairs=2)  # the same pairs as plot(gap_pairs=2)
    assert redrawn.gap_pair_lines_[0].get_label() == (
        disp.gap_pair_lines_[0].get_label()
    )


@pytest.mark.parametrize("gap_pairs", [-1, 1.5, True])
def test_bad_gap_pairs_leave_no_figure_behind(gap_pairs):
    y_true, y_pred = _multiclass()
    before = set(plt.get_fignums())
    with pytest.raises(ValueError, match="gap_pairs must be an integer >= 0"):
        MacroF1Display.from_predictions(y_true, y_pred, gap_pairs=gap_pairs)
    y_true, y_pred = [0, 0, 1, 1, 2, 2, 2], [0, 1, 1, 1, 0, 0, 1]  # 2: P is nan
    disp = MacroF1Display.from_predictions(y_true, y_pred, zero_division=np.nan)
    assert np.isnan(disp.class_precision[2]) and disp.gap > 0
    with pytest.raises(ValueError, match="zero_division=np.nan"):
        disp.plot(gap_pairs=1)
    with pytest.raises(ValueError, match="zero_division=np.nan"):
        MacroF1Display.from_predictions(
            y_true, y_pred, zero_division=np.nan, gap_pairs=1
        )
    assert set(plt.get_fignums()) - before == {disp.figure_.number}


_BUILT_THEN_PLOTTED = re.compile(
    r"\.from_(?:predictions|estimator|summary|analysis)\((?:[^()]|\([^()]*\))*\)"
    r"\s*\.plot\("
)


def _example_texts():
    """README, the docs pages and notebooks, and the package's docstrings."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    paths += sorted((ROOT / "sklearn_macrof1").rglob("*.py"))
    for path in paths:
        yield path, path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "docs").rglob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        yield path, "\n".join("".join(cell["source"]) for cell in cells)


def test_no_example_builds_a_display_then_plots_it_again():
    # `from_predictions(...)` draws; `.plot()` on its result draws a second
    # figure (two pictures in a notebook).
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path, text in _example_texts()
        for match in _BUILT_THEN_PLOTTED.finditer(text)
    ]
    assert not found, found


def _display_examples():
    """The python script blocks of the docs that draw a MacroF1Display."""
    fence = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
    for page in sorted((ROOT / "docs").glob("*.md")):
        for block in fence.findall(page.read_text(encoding="utf-8")):
            if "MacroF1Display" in block and not block.startswith(">>>"):
                yield page.name, block


def test_each_display_example_shows_one_figure_in_a_notebook(tmp_path):
    # Each example run as a notebook cell with the inline backend (its
    # `matplotlib.use("Agg")` removed): exactly one image per cell. Also the
    # README's form, `disp = MacroF1Display.from_predictions(...)`.
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    examples = list(_display_examples())
    assert len(examples) >= 4  # gallery, paper experiments, gap pairs, grid
    readme = (
        "from sklearn_macrof1 import MacroF1Display\n"
        "disp = MacroF1Display.from_predictions([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])"
    )
    sources = [readme] + [
        "\n".join(
            line
            for line in block.splitlines()
            if line.strip() not in {"import matplotlib", 'matplotlib.use("Agg")'}
        )
        for _, block in examples
    ]
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in sources]
    )
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute(env=env)
    names = ["README"] + [name for name, _ in examples]
    images = {
        f"{name} #{i}": sum("image/png" in out.get("data", {}) for out in cell.outputs)
        for i, (name, cell) in enumerate(zip(names, notebook.cells, strict=True))
    }
    assert set(images.values()) == {1}, images


def test_many_classes_draw_the_largest_contributors_and_say_how_many_are_left_out():
    import matplotlib.pyplot as plt

    from sklearn_macrof1 import fbeta_summary

    rng = np.random.default_rng(0)
    k = 10_000
    y_true = np.arange(k).repeat(3)
    y_pred = np.where(rng.random(3 * k) < 0.7, y_true, rng.integers(0, k, 3 * k))
    s = fbeta_summary(y_true, y_pred, zero_division=0.0)
    disp = MacroF1Display.from_summary(s)
    assert disp.n_left_out_ == k - 1000
    assert disp.points_.get_offsets().shape == (1000, 2)
    assert "9,000 more not drawn" in disp.points_.get_label()
    # the points drawn are the largest contributors
    top = {label for label, _ in s.gap_attribution().top_classes(10)}
    drawn = {tuple(xy) for xy in disp.points_.get_offsets().tolist()}
    for label in top:
        assert (s.class_recall[label], s.class_precision[label]) in drawn
    plt.close("all")
    with pytest.raises(ValueError, match="max_classes must be"):
        disp.plot(max_classes=0)
    disp.plot(max_classes=None)
    assert disp.n_left_out_ == 0
    plt.close("all")


@pytest.mark.parametrize("builder", ["summary", "predictions", "counts", "estimator"])
def test_every_builder_takes_max_classes_and_gap_pairs(builder):
    import matplotlib.pyplot as plt
    from sklearn.neighbors import KNeighborsClassifier

    from sklearn_macrof1 import MacroF1Counts, fbeta_summary

    y_true = np.array([0, 0, 1, 1, 2, 2, 3, 3, 3])
    y_pred = np.array([0, 1, 1, 1, 2, 0, 3, 2, 3])
    options = {"max_classes": 2, "gap_pairs": 1}
    if builder == "summary":
        disp = MacroF1Display.from_summary(fbeta_summary(y_true, y_pred), **options)
    elif builder == "predictions":
        disp = MacroF1Display.from_predictions(y_true, y_pred, **options)
    elif builder == "counts":
        counts = MacroF1Counts.from_predictions(y_true, y_pred)
        disp = MacroF1Display.from_counts(counts, **options)
    else:
        # one neighbour on X = y_pred predicts y_pred
        clf = KNeighborsClassifier(n_neighbors=1).fit(y_pred[:, None], y_pred)
        disp = MacroF1Display.from_estimator(clf, y_pred[:, None], y_true, **options)
    assert disp.n_left_out_ == 2
    assert disp.points_.get_offsets().shape == (2, 2)
    assert len(disp.gap_pair_lines_) == 1
    plt.close("all")
