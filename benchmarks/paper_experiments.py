"""The experiments of Opitz & Burst, "Macro F1 and Macro F1", regenerated.

Every score is computed by sklearn_macrof1 (``fbeta_summary`` on the sampled
labels, and of ``MacroF1Counts.from_confusion_matrix`` on the paper's matrices); this
file only samples tasks, collects the two scores and their gap, computes
summary statistics (max, RMSD, correlations, KDE) and draws.

One command per experiment regenerates its PNG and its section of the page
(between ``<!-- paper:NAME:begin -->`` and ``<!-- paper:NAME:end -->`` markers).
By default both go to ``build/paper_experiments/`` (``images/`` and
``paper_experiments.md``); ``--update-docs`` writes them into the tracked
``docs/images/`` and ``docs/paper_experiments.md`` instead::

    python benchmarks/paper_experiments.py figure1a
    python benchmarks/paper_experiments.py figure1b
    python benchmarks/paper_experiments.py figure2
    python benchmarks/paper_experiments.py tables
    python benchmarks/paper_experiments.py display
    python benchmarks/paper_experiments.py all

Everything is seeded (``--seed``, default 0) and reproducible; ``--quick`` runs a
small version (for a smoke test), ``--no-doc`` writes no markdown, ``--out DIR``
chooses the output folder and ``--images DIR`` / ``--doc FILE`` each path.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from sklearn_macrof1 import (
    MacroF1Counts,
    fbeta_summary,
    gap_bound,
    supremum_confusion_matrix,
)

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
DOC = ROOT / "docs" / "paper_experiments.md"
#: Default output folder (git-ignored): the tracked docs change only on request.
OUT = ROOT / "build" / "paper_experiments"

#: What the paper reports for Figure 1a (Section 3).
PAPER_FIGURE1A = {
    "max_f1_of_averages": 0.56,
    "max_averaged_f1": 0.41,
    "rmsd": 0.13,
    "pearson": 0.72,
    "spearman": 0.69,
}

#: Paper, Tables 1 and 2 and Appendix D: matrices with rows = predictions.
PAPER_TABLES = {
    "Table 1": {
        "matrix": [[100, 10000], [0, 100]],
        "f1_of_averages": 0.504950495049505,
        "averaged_f1": 0.0196078431372549,
        "gap": 0.48534265191225007,
    },
    "Table 2": {
        "matrix": [[100, 5000], [5000, 100]],
        "f1_of_averages": 0.0196078431372549,
        "averaged_f1": 0.0196078431372549,
        "gap": 0.0,
    },
}


def zipf_proportions(n_classes: int) -> np.ndarray:
    """Class i (1-based) gets a share proportional to 1/i (the paper's y = 1)."""
    inverse = 1.0 / np.arange(1, n_classes + 1)
    return inverse / inverse.sum()


#: Class distributions of Figure 1b (the paper's legend is not in our copy of
#: the paper, so these span balanced to heavily skewed, binary to 13 classes).
FIGURE1B_DISTRIBUTIONS: dict[str, np.ndarray] = {
    "2 classes 50/50": np.array([0.5, 0.5]),
    "2 classes 80/20": np.array([0.8, 0.2]),
    "2 classes 95/5": np.array([0.95, 0.05]),
    "4 classes uniform": np.full(4, 0.25),
    "4 classes ∝ 1/i": zipf_proportions(4),
    "13 classes ∝ 1/i": zipf_proportions(13),
}


# --------------------------------------------------------------------- helpers
class Progress:
    """Counts finished items and prints a line to stderr every ~10 %."""

    def __init__(self, label: str, total: int, *, enabled: bool) -> None:
        self.label, self.total, self.enabled = label, max(total, 1), enabled
        self.done, self.start, self.next_report = 0, time.perf_counter(), 0.1

    def update(self, count: int = 1) -> None:
        self.done += count
        if not self.enabled:
            return
        fraction = self.done / self.total
        if fraction >= self.next_report or self.done == self.total:
            elapsed = time.perf_counter() - self.start
            print(
                f"  {self.label}: {self.done}/{self.total} ({fraction:.0%}, "
                f"{elapsed:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
            while self.next_report <= fraction:
                self.next_report += 0.1


def sample_labels(
    rng: np.random.Generator, proportions: Sequence[float], shape: tuple[int, ...]
) -> np.ndarray:
    """Labels 0..n-1 drawn i.i.d. from ``proportions`` (a multinomial draw)."""
    p = np.asarray(proportions, dtype=np.float64)
    cdf = np.cumsum(p / p.sum())
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(shape), side="right")


def predict_with_accuracy(
    rng: np.random.Generator, y_true: np.ndarray, n_classes: int, accuracy: Any
) -> np.ndarray:
    """Predictions right with probability ``accuracy``, else uniform over the others.

    ``accuracy`` broadcasts against ``y_true`` (one value per task: shape
    ``(n_tasks, 1)``). ``accuracy = 1/n`` is the uniform random classifier.
    """
    correct = rng.random(y_true.shape) < accuracy
    other = (y_true + 1 + rng.integers(0, n_classes - 1, y_true.shape)) % n_classes
    return np.where(correct, y_true, other)


@dataclass
class Scores:
    """The two macro F1s and their gap, one entry per task."""

    f1_of_averages: np.ndarray
    averaged_f1: np.ndarray
    gap: np.ndarray


def score_tasks(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    n_classes: int,
    *,
    progress: Progress | None = None,
) -> Scores:
    """Both macro F1s of each task (row), by ``fbeta_summary``.

    All ``n_classes`` classes count, present or not, and an undefined ratio is 0,
    as in the paper (``labels=range(n)``, ``zero_division=0``).
    """
    labels = np.arange(n_classes)
    n_tasks = y_true.shape[0]
    out = np.empty((3, n_tasks))
    for t in range(n_tasks):
        s = fbeta_summary(y_true[t], y_pred[t], labels=labels, zero_division=0.0)
        out[:, t] = s.fbeta_of_averages, s.averaged_fbeta, s.gap
        if progress is not None:
            progress.update()
    return Scores(out[0], out[1], out[2])


def random_classifier_tasks(
    proportions: Sequence[float],
    *,
    n_tasks: int = 1000,
    n_samples: int = 1000,
    seed: Any = 0,
    progress: Progress | None = None,
) -> Scores:
    """Random tasks (labels drawn from ``proportions``), uniform random classifier."""
    rng = np.random.default_rng(seed)
    n_classes = len(proportions)
    y_true = sample_labels(rng, proportions, (n_tasks, n_samples))
    y_pred = rng.integers(0, n_classes, (n_tasks, n_samples))
    return score_tasks(y_true, y_pred, n_classes, progress=progress)


# ------------------------------------------------------------------- Figure 1a
@dataclass
class Figure1a:
    scores: Scores
    n_tasks: int
    n_samples: int
    proportions: tuple[float, ...]
    seed: int
    statistics: dict[str, float] = field(default_factory=dict)
    #: (min, max) of each statistic over other seeds: the sampling spread.
    spread: dict[str, tuple[float, float]] = field(default_factory=dict)
    spread_seeds: tuple[int, ...] = ()


def figure1a(
    *,
    n_tasks: int = 1000,
    n_samples: int = 1000,
    proportions: Sequence[float] = (0.95, 0.05),
    seed: int = 0,
    spread_seeds: Sequence[int] = (),
    progress: bool = False,
) -> Figure1a:
    """Figure 1a: binary tasks, uniform random classifier, the two scores.

    ``spread_seeds``: rerun the whole experiment with these seeds and keep the
    (min, max) of each statistic, to tell sampling noise from a real difference.
    """
    spread: dict[str, list[float]] = {}
    for other in spread_seeds:
        again = figure1a(
            n_tasks=n_tasks,
            n_samples=n_samples,
            proportions=proportions,
            seed=other,
            progress=False,
        )
        for key, value in again.statistics.items():
            spread.setdefault(key, []).append(value)
        if progress:
            print(f"  figure 1a: spread seed {other} done", file=sys.stderr)
    scores = random_classifier_tasks(
        proportions,
        n_tasks=n_tasks,
        n_samples=n_samples,
        seed=seed,
        progress=Progress("figure 1a tasks", n_tasks, enabled=progress),
    )
    pearson = stats.pearsonr(scores.f1_of_averages, scores.averaged_f1)
    spearman = stats.spearmanr(scores.f1_of_averages, scores.averaged_f1)
    statistics = {
        "max_f1_of_averages": float(scores.f1_of_averages.max()),
        "max_averaged_f1": float(scores.averaged_f1.max()),
        "rmsd": float(np.sqrt(np.mean(scores.gap**2))),
        "pearson": float(pearson[0]),
        "pearson_p": float(pearson[1]),
        "spearman": float(spearman[0]),
        "spearman_p": float(spearman[1]),
        "mean_f1_of_averages": float(scores.f1_of_averages.mean()),
        "mean_averaged_f1": float(scores.averaged_f1.mean()),
        "mean_gap": float(scores.gap.mean()),
    }
    for key, value in statistics.items():
        spread.setdefault(key, []).append(value)
    return Figure1a(
        scores,
        n_tasks,
        n_samples,
        tuple(map(float, proportions)),
        seed,
        statistics,
        {k: (min(v), max(v)) for k, v in spread.items()} if spread_seeds else {},
        tuple(spread_seeds),
    )


def plot_figure1a(result: Figure1a, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s, st = result.scores, result.statistics
    fig, ax = plt.subplots(figsize=(5.6, 5.0), layout="constrained")
    ax.scatter(s.averaged_f1, s.f1_of_averages, s=7, alpha=0.5, color="tab:blue")
    ax.plot([0, 1], [0, 1], color="0.5", linestyle=":", linewidth=1, label="y = x")
    lo = min(s.averaged_f1.min(), s.f1_of_averages.min()) - 0.03
    hi = max(s.averaged_f1.max(), s.f1_of_averages.max()) + 0.03
    ax.set(
        xlim=(lo, hi),
        ylim=(lo, hi),
        aspect="equal",
        xlabel="averaged F1 (mean of per-class F1; sklearn f1_score)",
        ylabel="F1 of averages (F1 of mean P and mean R)",
        title=f"Figure 1a: {result.n_tasks} binary tasks, classes "
        f"{result.proportions[0]:.0%}/{result.proportions[1]:.0%},\n"
        "uniform random classifier",
    )
    ax.title.set_fontsize(10)
    ax.text(
        0.97,
        0.03,
        f"max F1 of averages {st['max_f1_of_averages']:.3f} (paper ≈0.56)\n"
        f"max averaged F1 {st['max_averaged_f1']:.3f} (paper ≈0.41)\n"
        f"RMSD {st['rmsd']:.3f} (paper 0.13)\n"
        f"Pearson {st['pearson']:.3f} (paper 0.72)\n"
        f"Spearman {st['spearman']:.3f} (paper 0.69)",
        transform=ax.transAxes,
        va="bottom",
        ha="right",
        fontsize=8,
        bbox={"facecolor": "white", "edgecolor": "0.7"},
    )
    ax.legend(loc="upper left", fontsize=8)
    return _save(fig, path)


def markdown_figure1a(result: Figure1a, image: str) -> str:
    st, paper = result.statistics, PAPER_FIGURE1A
    rows = [
        ("max F1 of averages", "max_f1_of_averages", "≈0.56"),
        ("max averaged F1", "max_averaged_f1", "≈0.41"),
        ("RMS difference", "rmsd", "0.13"),
        ("Pearson's r", "pearson", "0.72 (p < 0.0001)"),
        ("Spearman's ρ", "spearman", "0.69 (p < 0.0001)"),
    ]
    lines = [
        f"![Figure 1a]({image})",
        "",
        f"{result.n_tasks} tasks × {result.n_samples} examples, classes "
        f"{result.proportions[0]:.0%} / {result.proportions[1]:.0%}, uniform random "
        f"classifier, seed {result.seed}.",
        "",
        "| statistic | ours | paper | ours − paper | ours, other seeds (min – max) |",
        "|---|---:|---:|---:|---|",
    ]
    for title, key, text in rows:
        extra = ""
        if key in ("pearson", "spearman"):
            extra = f" (p = {st[key + '_p']:.1e})"
        low, high = result.spread.get(key, (math.nan, math.nan))
        lines.append(
            f"| {title} | {st[key]:.3f}{extra} | {text} | "
            f"{st[key] - paper[key]:+.3f} | {low:.3f} – {high:.3f} |"
        )
    if result.spread_seeds:
        seeds = result.spread_seeds
        lines += [
            "",
            f"The last column reruns the experiment with seeds {seeds[0]}–{seeds[-1]} "
            "(and the main seed): how much each statistic moves by sampling alone.",
        ]
    lines += [
        "",
        f"Means: F1 of averages {st['mean_f1_of_averages']:.3f}, averaged F1 "
        f"{st['mean_averaged_f1']:.3f}, gap {st['mean_gap']:.3f}.",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------- Figure 1b
@dataclass
class Figure1b:
    gaps: dict[str, np.ndarray]
    n_tasks: int
    n_samples: int
    seed: int


def figure1b(
    distributions: dict[str, Sequence[float]] | None = None,
    *,
    n_tasks: int = 1000,
    n_samples: int = 1000,
    seed: int = 0,
    progress: bool = False,
) -> Figure1b:
    """Figure 1b: the gap over random tasks, for several class distributions."""
    distributions = FIGURE1B_DISTRIBUTIONS if distributions is None else distributions
    bar = Progress("figure 1b tasks", n_tasks * len(distributions), enabled=progress)
    gaps = {}
    for index, (name, proportions) in enumerate(distributions.items()):
        scores = random_classifier_tasks(
            proportions,
            n_tasks=n_tasks,
            n_samples=n_samples,
            seed=[seed, index],
            progress=bar,
        )
        gaps[name] = scores.gap
    return Figure1b(gaps, n_tasks, n_samples, seed)


def plot_figure1b(result: Figure1b, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    upper = max(0.3, max(float(g.max()) for g in result.gaps.values()) * 1.1)
    grid = np.linspace(0.0, upper, 500)
    peak = 1.0
    for name, gap in result.gaps.items():
        if np.ptp(gap) > 0:
            density = stats.gaussian_kde(gap)(grid)
            peak = max(peak, float(density.max()))
            ax.plot(grid, density, label=f"{name} (mean {gap.mean():.3f})")
    ax.set(
        xlim=(0, upper),
        xlabel="gap Δ = F1 of averages − averaged F1",
        ylabel="density (Gaussian KDE)",
        title=f"Figure 1b: Δ over {result.n_tasks} random tasks per class "
        "distribution,\nuniform random classifier",
    )
    ax.set_yscale("log")
    # balanced distributions pile up at Δ ≈ 0: cap the axis so the rest is seen
    ax.set_ylim(0.1, min(2.0 * peak, 1e4))
    ax.title.set_fontsize(10)
    ax.legend(fontsize=8)
    return _save(fig, path)


def markdown_figure1b(result: Figure1b, image: str) -> str:
    lines = [
        f"![Figure 1b]({image})",
        "",
        f"{result.n_tasks} tasks × {result.n_samples} examples per class "
        f"distribution, uniform random classifier, seed {result.seed}.",
        "",
        "| class distribution | mean Δ | median Δ | 95th pct Δ | max Δ |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, gap in result.gaps.items():
        lines.append(
            f"| {name} | {gap.mean():.4f} | {np.median(gap):.4f} | "
            f"{np.quantile(gap, 0.95):.4f} | {gap.max():.4f} |"
        )
    return "\n".join(lines)


# -------------------------------------------------------------------- Figure 2
def skewed_proportions(n_classes: int, skew: float) -> np.ndarray:
    """The paper's y axis: uniform (1/n) at 0, ∝ 1/i at 1, linear in between."""
    return (1.0 - skew) / n_classes + skew * zipf_proportions(n_classes)


@dataclass
class Figure2:
    n_classes: int
    accuracy: np.ndarray  # x axis
    skew: np.ndarray  # y axis
    gap: np.ndarray  # (len(skew), len(accuracy)), mean over repeats
    n_points: int
    repeats: int
    seed: int


def figure2(
    n_classes: int,
    *,
    n_points: int = 2000,
    grid: int = 41,
    repeats: int = 4,
    seed: int = 0,
    progress: bool = False,
) -> Figure2:
    """Figure 2: mean gap over classifier accuracy (x) and label skew (y).

    For each cell, ``repeats`` tasks of ``n_points`` labels drawn from
    :func:`skewed_proportions`, predicted right with probability x (from 1/n to
    1) and otherwise uniformly wrong; the cell holds the mean gap.
    """
    accuracy = np.linspace(1.0 / n_classes, 1.0, grid)
    skew = np.linspace(0.0, 1.0, grid)
    rng = np.random.default_rng([seed, n_classes])
    bar = Progress(
        f"figure 2 (n={n_classes}) tasks", grid * grid * repeats, enabled=progress
    )
    gap = np.empty((grid, grid))
    per_row = np.repeat(accuracy, repeats)[:, None]
    for row, y in enumerate(skew):
        y_true = sample_labels(
            rng, skewed_proportions(n_classes, y), (per_row.shape[0], n_points)
        )
        y_pred = predict_with_accuracy(rng, y_true, n_classes, per_row)
        scores = score_tasks(y_true, y_pred, n_classes, progress=bar)
        gap[row] = scores.gap.reshape(grid, repeats).mean(axis=1)
    return Figure2(n_classes, accuracy, skew, gap, n_points, repeats, seed)


def plot_figure2(results: Sequence[Figure2], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = max(float(r.gap.max()) for r in results)
    fig, axes = plt.subplots(
        1, len(results), figsize=(5.0 * len(results) + 0.8, 4.4), layout="constrained"
    )
    axes = np.atleast_1d(axes)
    for ax, r, letter in zip(axes, results, "abcdefgh"[: len(results)], strict=True):
        dx = (r.accuracy[1] - r.accuracy[0]) / 2
        dy = (r.skew[1] - r.skew[0]) / 2
        image = ax.imshow(
            r.gap,
            origin="lower",
            aspect="auto",
            cmap="viridis",
            vmin=0.0,
            vmax=top,
            extent=(
                r.accuracy[0] - dx,
                r.accuracy[-1] + dx,
                r.skew[0] - dy,
                r.skew[-1] + dy,
            ),
        )
        ax.set(
            xlabel=f"x: P(prediction correct), from 1/{r.n_classes} to 1",
            ylabel="y: label skew (0 uniform, 1 ∝ 1/i)",
            title=f"Figure 2{letter}: Δ, n = {r.n_classes}, {r.n_points} points",
        )
        ax.title.set_fontsize(10)
    fig.colorbar(image, ax=list(axes), label="mean Δ (F1 of averages − averaged F1)")
    return _save(fig, path)


def _cell(result: Figure2, x: float, y: float) -> float:
    i = int(np.argmin(np.abs(result.skew - y)))
    j = int(np.argmin(np.abs(result.accuracy - x)))
    return float(result.gap[i, j])


def markdown_figure2(results: Sequence[Figure2], image: str) -> str:
    first = results[0]
    lines = [
        f"![Figure 2]({image})",
        "",
        f"{first.n_points} points per task, a {len(first.skew)} × "
        f"{len(first.accuracy)} grid, each cell the mean Δ of {first.repeats} tasks, "
        f"seed {first.seed}.",
        "",
        "| n | skew y | Δ at x = 1/n | Δ at x = 0.5 | Δ at x = 0.75 | "
        "Δ at x = 0.9 | Δ at x = 1 | max Δ (at x, y) |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        i, j = np.unravel_index(int(np.argmax(r.gap)), r.gap.shape)
        for y in (0.0, 0.5, 1.0):
            cells = " | ".join(
                f"{_cell(r, x, y):.4f}" for x in (1 / r.n_classes, 0.5, 0.75, 0.9, 1.0)
            )
            best = (
                f"{r.gap[i, j]:.4f} (x={r.accuracy[j]:.2f}, y={r.skew[i]:.2f})"
                if y == 0.0
                else ""
            )
            lines.append(f"| {r.n_classes} | {y:.1f} | {cells} | {best} |")
    return "\n".join(lines)


# ------------------------------------------------ Tables 1, 2 and Theorem 3
@dataclass
class TableRow:
    name: str
    matrix: list[list[int]]
    ours: dict[str, float]
    paper: dict[str, float]


def paper_tables() -> list[TableRow]:
    """Tables 1 and 2 (rows = predictions, as in the paper)."""
    rows = []
    for name, spec in PAPER_TABLES.items():
        s = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(spec["matrix"], rows="predicted")
        )
        ours = {
            "f1_of_averages": float(s.fbeta_of_averages),
            "averaged_f1": float(s.averaged_fbeta),
            "gap": float(s.gap),
            "gap_closed_form": float(s.gap_closed_form),
        }
        paper = {k: v for k, v in spec.items() if k != "matrix"}
        rows.append(TableRow(name, spec["matrix"], ours, paper))
    return rows


@dataclass
class Supremum:
    n_classes: list[int]
    z: list[float]
    gap: np.ndarray  # (len(n_classes), len(z))
    averaged_f1: np.ndarray
    closed_form: np.ndarray
    supremum: np.ndarray


def supremum_table(
    n_classes: Iterable[int] = range(2, 14),
    z: Sequence[float] = (1.0, 10.0, 100.0, 1e3, 1e4, 1e6),
) -> Supremum:
    """Theorem 3: the gap of the paper's matrices m_z^n as z grows."""
    ns, zs = list(n_classes), [float(v) for v in z]
    gap = np.empty((len(ns), len(zs)))
    averaged = np.empty_like(gap)
    closed = np.empty_like(gap)
    for i, n in enumerate(ns):
        for j, value in enumerate(zs):
            s = fbeta_summary(
                MacroF1Counts.from_confusion_matrix(
                    supremum_confusion_matrix(n, value), rows="predicted"
                )
            )
            gap[i, j] = s.gap
            averaged[i, j] = s.averaged_fbeta
            closed[i, j] = s.gap_closed_form
    supremum = np.array([gap_bound(n) for n in ns])
    return Supremum(ns, zs, gap, averaged, closed, supremum)


def plot_supremum(result: Supremum, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    z = np.logspace(0, 6, 60)
    shown = [n for n in result.n_classes if n in (2, 3, 5, 7, 13)]
    colors = plt.get_cmap("tab10")
    for k, n in enumerate(shown):
        gaps = [
            fbeta_summary(
                MacroF1Counts.from_confusion_matrix(
                    supremum_confusion_matrix(n, float(v)), rows="predicted"
                )
            ).gap
            for v in z
        ]
        label = f"n = {n}" + (" (and every even n)" if n == 2 else "")
        ax.plot(z, gaps, color=colors(k), label=label)
        ax.axhline(gap_bound(n), color=colors(k), linestyle=":", linewidth=1)
    ax.set(
        xscale="log",
        xlabel="z (off-diagonal count of the paper's matrix $m_z^n$)",
        ylabel="Δ = F1 of averages − averaged F1",
        title="Theorem 3: Δ of $m_z^n$ approaches sup Δ (dotted: 0.5 or 0.5 − 1/(2n²))",
    )
    ax.title.set_fontsize(10)
    ax.legend(fontsize=8, loc="lower right")
    return _save(fig, path)


def markdown_tables(rows: list[TableRow], sup: Supremum, image: str) -> str:
    lines = [
        "Confusion matrices with rows = predictions, columns = gold (the paper's "
        'orientation, `rows="predicted"`).',
        "",
        "| | matrix | F1 of averages (ours / paper) | averaged F1 (ours / paper) "
        "| Δ (ours / paper) | Δ by the Lemma (ours) |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        o, p = row.ours, row.paper
        lines.append(
            f"| {row.name} | `{row.matrix}` | {o['f1_of_averages']:.10f} / "
            f"{p['f1_of_averages']:.10f} | {o['averaged_f1']:.10f} / "
            f"{p['averaged_f1']:.10f} | {o['gap']:.10f} / {p['gap']:.10f} | "
            f"{o['gap_closed_form']:.10f} |"
        )
    zs = " | ".join(f"Δ z={z:g}" for z in sup.z)
    lines += [
        "",
        f"![Theorem 3]({image})",
        "",
        "Theorem 3: Δ of the paper's matrices `supremum_confusion_matrix(n, z)` "
        "(`gap_bound(n)` is the bound; averaged F1 → 0 as z grows).",
        "",
        f"| n | {zs} | sup Δ (Theorem 3) | sup − Δ at z={sup.z[-1]:g} | "
        f"averaged F1 at z={sup.z[-1]:g} | max abs(Δ − Lemma) |",
        "|---:|" + "---:|" * (len(sup.z) + 4),
    ]
    for i, n in enumerate(sup.n_classes):
        cells = " | ".join(f"{g:.6f}" for g in sup.gap[i])
        lines.append(
            f"| {n} | {cells} | {sup.supremum[i]:.6f} | "
            f"{sup.supremum[i] - sup.gap[i, -1]:.2e} | {sup.averaged_f1[i, -1]:.2e} | "
            f"{np.max(np.abs(sup.gap[i] - sup.closed_form[i])):.1e} |"
        )
    return "\n".join(lines)


# -------------------------------------------------------------- the display
def display_examples(images: Path, *, seed: int = 0) -> list[Path]:
    """MacroF1Display on the paper's Table 1 and on a multilabel task."""
    import matplotlib

    matplotlib.use("Agg")
    from sklearn_macrof1 import MacroF1Display

    # Table 1 as labels: rows of the paper's matrix are predictions
    y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
    y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
    first = MacroF1Display.from_predictions(
        y_true, y_pred, display_labels=["class A", "class B"]
    )
    rng = np.random.default_rng(seed)
    y = (rng.random((500, 4)) < [0.5, 0.3, 0.1, 0.05]).astype(int)
    noisy = np.where(rng.random((500, 4)) < 0.3, 1 - y, y)
    second = MacroF1Display.from_predictions(
        y, noisy, display_labels=["news", "sport", "tech", "art"]
    )
    return [
        _save(first.figure_, images / "display_table1.png"),
        _save(second.figure_, images / "display_multilabel.png"),
    ]


# ------------------------------------------------------------------ output
def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def update_section(doc: Path, name: str, text: str) -> None:
    """Replace the text between this experiment's markers in ``doc``.

    The markers are ``<!-- paper:NAME:begin -->`` and ``<!-- paper:NAME:end -->``;
    the section is appended (with its markers) when they are missing.
    """
    begin, end = f"<!-- paper:{name}:begin -->", f"<!-- paper:{name}:end -->"
    block = f"{begin}\n{text}\n{end}"
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        tail = rest.split(end, 1)[1]
        new = head + block + tail
    else:
        new = old + ("\n" if old and not old.endswith("\n") else "") + block + "\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(new, encoding="utf-8")


def _relative(image: Path, doc: Path) -> str:
    try:
        return image.relative_to(doc.parent).as_posix()
    except ValueError:
        return image.as_posix()


def _run(command: str, args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """Run one experiment; yield (section name, markdown)."""
    quick, images, doc = args.quick, args.images, args.doc
    if command == "figure1a":
        result = figure1a(
            n_tasks=100 if quick else 1000,
            seed=args.seed,
            spread_seeds=range(args.seed + 1, args.seed + (3 if quick else 11)),
            progress=True,
        )
        image = plot_figure1a(result, images / "figure1a.png")
        yield "figure1a", markdown_figure1a(result, _relative(image, doc))
    elif command == "figure1b":
        result = figure1b(n_tasks=100 if quick else 1000, seed=args.seed, progress=True)
        image = plot_figure1b(result, images / "figure1b.png")
        yield "figure1b", markdown_figure1b(result, _relative(image, doc))
    elif command == "figure2":
        results = [
            figure2(
                n,
                grid=9 if quick else 41,
                repeats=1 if quick else 4,
                seed=args.seed,
                progress=True,
            )
            for n in (4, 13)
        ]
        image = plot_figure2(results, images / "figure2.png")
        yield "figure2", markdown_figure2(results, _relative(image, doc))
    elif command == "tables":
        rows, sup = paper_tables(), supremum_table()
        image = plot_supremum(sup, images / "theorem3.png")
        yield "tables", markdown_tables(rows, sup, _relative(image, doc))
    elif command == "display":
        for image in display_examples(images, seed=args.seed):
            print(f"  wrote {image}", file=sys.stderr)


COMMANDS = ("figure1a", "figure1b", "figure2", "tables", "display")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Regenerate the experiments of Opitz & Burst, 'Macro F1 and "
        "Macro F1', with sklearn_macrof1."
    )
    parser.add_argument("experiment", choices=(*COMMANDS, "all"))
    parser.add_argument("--seed", type=int, default=0, help="random seed (0)")
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, for a smoke test"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder for images/ and paper_experiments.md "
        "(default: build/paper_experiments)",
    )
    parser.add_argument(
        "--update-docs",
        action="store_true",
        help="write into the tracked docs/images/ and docs/paper_experiments.md",
    )
    parser.add_argument("--images", type=Path, help="PNG directory (overrides)")
    parser.add_argument("--doc", type=Path, help="markdown page to update (overrides)")
    parser.add_argument(
        "--no-doc", action="store_true", help="print the tables, write no page"
    )
    args = parser.parse_args(argv)
    if args.update_docs and args.out is not None:
        parser.error("--update-docs and --out are exclusive")
    out = args.out if args.out is not None else OUT
    if args.images is None:
        args.images = IMAGES if args.update_docs else out / "images"
    if args.doc is None:
        args.doc = DOC if args.update_docs else out / "paper_experiments.md"
    commands = COMMANDS if args.experiment == "all" else (args.experiment,)
    for command in commands:
        start = time.perf_counter()
        print(f"== {command}", file=sys.stderr, flush=True)
        for name, text in _run(command, args):
            print(text)
            print()
            if not args.no_doc:
                update_section(args.doc, name, text)
        print(
            f"   {command} done in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
