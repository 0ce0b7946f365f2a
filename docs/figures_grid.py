"""Render the MacroF1Display figures of the gallery and the notebooks page.

Run from the repository root: ``python docs/figures_grid.py docs/images``.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sklearn_macrof1 import MacroF1Display  # noqa: E402


def predictions(n_classes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels with skewed error types: some classes over-, some under-predicted."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, 3000)
    hit_rate = rng.uniform(0.35, 0.95, n_classes)[y]  # recall varies by class
    sink = rng.dirichlet(np.full(n_classes, 0.3))  # errors favour a few classes
    wrong = rng.choice(n_classes, size=y.size, p=sink)
    pred = np.where(rng.random(y.size) < hit_rate, y, wrong)
    return y, pred


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    three = predictions(3, 0)
    twenty = predictions(20, 1)
    names = {3: ["cat", "dog", "bird"]}

    fig = MacroF1Display.from_predictions(*three, display_labels=names[3]).figure_
    fig.savefig(out / "display_1x1_full.png", dpi=100)
    fig = MacroF1Display.from_predictions(*twenty).figure_
    fig.savefig(out / "display_1x1_full_20.png", dpi=100)

    fig, ax = plt.subplots(figsize=(4.5, 4.5), layout="constrained")
    MacroF1Display.from_predictions(*three, display_labels=names[3], ax=ax)
    fig.savefig(out / "display_1x1_compact.png", dpi=100)

    # a figure one column of a paper wide (the gallery's example)
    y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
    y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
    fig, ax = plt.subplots(figsize=(3.5, 3.5), layout="constrained")
    MacroF1Display.from_predictions(
        y_true, y_pred, display_labels=["class A", "class B"], ax=ax, compact=True
    )
    fig.savefig(out / "display_compact_paper.png", dpi=150)

    fig, axes = plt.subplots(1, 2, figsize=(9, 4.6), layout="constrained")
    MacroF1Display.from_predictions(*three, display_labels=names[3], ax=axes[0])
    MacroF1Display.from_predictions(*twenty, ax=axes[1])
    fig.savefig(out / "display_1x2.png", dpi=100)

    fig, axes = plt.subplots(2, 2, figsize=(9, 9), layout="constrained")
    for ax, (n, seed) in zip(axes.flat, [(3, 0), (3, 2), (20, 1), (20, 3)]):
        y, pred = predictions(n, seed)
        average = "weighted" if seed >= 2 else "macro"
        MacroF1Display.from_predictions(y, pred, ax=ax, average=average)
    fig.savefig(out / "display_2x2.png", dpi=100)
    plt.close("all")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
