"""False positives of compare_classifiers under "no difference" (nominal 5 %).

Population: k classes with priors uniform, geometric (pi_i proportional to
0.5**i) or 1/(i+1). Classifier A predicts class i correctly with probability
falling linearly from 0.9 (class 0) to 0.6 (class k-1), or from 0.99 to 0.95,
its errors uniform over the other classes. Classifier B predicts every class
correctly with one probability, solved (by bisection) so that B's population
score equals A's under the formula tested, and sends 70 % of its errors to
class 0 (the rest uniform over the wrong classes): the two have equal scores
and different confusions. The population scores average all k classes.
Their errors are independent given the true class, or comonotone (one
uniform draw decides whether each errs: the weaker one errs whenever the
stronger one does).

Each replication draws n samples (the joint (true, pred_A, pred_B) counts,
multinomially) and tests "no difference" at 5 % with ``labels=None`` (the
classes present) or ``labels=range(k)``, ``zero_division=0``; a rejection is
a false positive. Cells where the rarest class expects fewer than 5 true
samples are skipped. The methods are computed for all replications at once
from the joint counts, by the package's own functions (the jackknife's) and
the delta method's closed form; the first replication of every cell is
checked against ``compare_classifiers`` itself.

Run:  python benchmarks/bench_comparison_calibration.py            (2,000 reps)
      python benchmarks/bench_comparison_calibration.py --quick    (200 reps)
      python benchmarks/bench_comparison_calibration.py --reps 500 --k 20
      python benchmarks/bench_comparison_calibration.py --holdout  (other populations)
      python benchmarks/bench_comparison_calibration.py --timing   (time per call)
"""

from __future__ import annotations

import argparse
import itertools
import time
import warnings
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import scipy.sparse as sp
from _timing import fmt_ratio, fmt_time, interleaved, machine, table
from scipy.special import ndtr, stdtr

from sklearn_macrof1 import compare_classifiers
from sklearn_macrof1._formulas._evaluation import Options

# the jackknife's internals: the benchmark runs them on a stack of count
# tables (every replication at once), which no public function takes
from sklearn_macrof1._stats._comparison import (
    LeftOut,
    jackknife_spread,
    left_out_scores,
)

KS = (2, 5, 20)
PRIORS = ("uniform", "geometric", "1/(i+1)")
NS = (50, 100, 200, 500, 2000, 10000)
ACCURACIES = ((0.9, 0.6), (0.99, 0.95))
#: B's errors: this share goes to this class (the rest uniform)
B_ERRORS = (0.7, 0)
#: --holdout: populations apart from the grid the method was chosen on
HOLDOUT = {
    "ks": (3, 10),
    "priors": ("uniform", "0.7**i", "1/(i+1)**2"),
    "ns": (50, 200, 1000, 5000),
    "accuracies": ((0.85, 0.55), (0.97, 0.9)),
    "b_errors": (0.5, -1),  # half of B's errors go to the rarest class
}
COUPLINGS = ("independent", "comonotone")
FORMULAS = ("averaged F1", "F1 of averages")
ALPHA = 0.05
BLOCK_VALUES = 4_000_000  # replications x cells per block


def priors(k: int, kind: str) -> np.ndarray:
    i = np.arange(k)
    weight = {
        "uniform": np.ones(k),
        "geometric": 0.5**i,
        "1/(i+1)": 1 / (i + 1),
        "0.7**i": 0.7**i,
        "1/(i+1)**2": 1 / (i + 1) ** 2,
    }
    return weight[kind] / weight[kind].sum()


def confusion(accuracy: np.ndarray, errors: tuple = (0.0, 0)) -> np.ndarray:
    """P(pred | true): a share of the errors of the other classes goes to
    class ``target`` (``errors = (share, target)``), the rest uniform over the
    wrong classes; the target's own errors are uniform."""
    k = accuracy.shape[0]
    share, target = errors[0], errors[1] % k
    wrong = (1 - accuracy)[:, None] * (1 - np.eye(k)) / (k - 1)
    others = np.arange(k) != target
    matrix = np.diag(accuracy) + (1 - share) * wrong
    to_target = wrong[others].sum(axis=1, keepdims=True) * np.eye(k)[target]
    matrix[others] += share * to_target
    matrix[target] += share * wrong[target]  # the target's errors: uniform
    return matrix


def population_scores(prior: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    joint = prior[:, None] * matrix
    tp, true, pred = np.diagonal(joint), joint.sum(axis=1), joint.sum(axis=0)
    precision, recall = tp / pred, tp / true
    p, r = precision.mean(), recall.mean()
    return np.array([(2 * tp / (true + pred)).mean(), 2 * p * r / (p + r)])


def solve_b(
    prior: np.ndarray, accuracy_a: np.ndarray, formula: int, errors: tuple
) -> float:
    target = population_scores(prior, confusion(accuracy_a))[formula]
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        score = population_scores(prior, confusion(np.full(prior.shape, mid), errors))
        low, high = (mid, high) if score[formula] < target else (low, mid)
    return (low + high) / 2


def joint_probabilities(
    prior: np.ndarray,
    accuracy_a: np.ndarray,
    accuracy_b: float,
    coupling: str,
    errors: tuple,
) -> np.ndarray:
    """(k, k, k): P(true, pred_A, pred_B)."""
    k = prior.shape[0]
    ma, mb = confusion(accuracy_a), confusion(np.full(k, accuracy_b), errors)
    out = np.zeros((k, k, k))
    for t in range(k):
        if coupling == "independent":
            out[t] = prior[t] * np.outer(ma[t], mb[t])
            continue
        ea, eb = 1 - ma[t, t], 1 - mb[t, t]
        wa, wb = ma[t].copy(), mb[t].copy()
        wa[t] = wb[t] = 0
        wa, wb = wa / max(wa.sum(), 1e-300), wb / max(wb.sum(), 1e-300)
        both = min(ea, eb)
        out[t, t, t] += prior[t] * (1 - max(ea, eb))
        out[t, :, t] += prior[t] * (ea - both) * wa
        out[t, t, :] += prior[t] * (eb - both) * wb
        out[t] += prior[t] * both * np.outer(wa, wb)
    return out / out.sum()


# --------------------------------------------------------------- the methods
def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b != 0)


def delta_variance(
    counts: np.ndarray, cells: np.ndarray, per_class: list[np.ndarray], keep: Any
) -> np.ndarray:
    """(2, R): the delta method's variance of both differences (macro,
    zero_division=0), as the package computes it from the joint cells."""
    n = counts.sum(axis=1)
    gradients = []
    for (tp, true, pred), pred_col in zip(per_class, (1, 2), strict=True):
        m = keep.sum(axis=-1)[:, None]
        f = _ratio(2 * tp, true + pred)
        precision, recall = _ratio(tp, pred), _ratio(tp, true)
        p, r = (keep * precision).sum(-1) / m[:, 0], (keep * recall).sum(-1) / m[:, 0]
        h_p, h_r = _ratio(2 * r**2, (p + r) ** 2), _ratio(2 * p**2, (p + r) ** 2)
        d = true + pred
        g_avg = (keep * _ratio(2, d) / m, -keep * _ratio(f, d) / m)
        g_tp = keep * (h_p[:, None] * _ratio(1, pred) + h_r[:, None] * _ratio(1, true))
        g_foa = (
            g_tp / m,
            -keep * h_r[:, None] * _ratio(recall, true) / m,
            -keep * h_p[:, None] * _ratio(precision, pred) / m,
        )
        t, q = cells[:, 0], cells[:, pred_col]
        same = (t == q)[None, :]
        gradients.append(
            [
                g[1][:, t] + g[-1][:, q] + same * g[0][:, t]
                for g in ((g_avg[0], g_avg[1], g_avg[1]), g_foa)
            ]
        )
    out = []
    for f in range(2):
        u = gradients[0][f] - gradients[1][f]
        first = (counts * u).sum(axis=1)
        out.append(np.maximum((counts * u * u).sum(axis=1) - first**2 / n, 0.0))
    return np.array(out)


def analyse(
    counts: np.ndarray, cells: np.ndarray, k: int, fixed: bool, formula: int
) -> dict[str, np.ndarray]:
    """Rejections of each method for a block of replications (``counts``:
    (R, cells) of the joint ``cells``)."""
    n = int(counts[0].sum())
    t, p, q = cells.T
    onehot = [sp.csr_array((np.ones(len(c)), (np.arange(len(c)), c)), (len(c), k))
              for c in (t, p, q)]  # fmt: skip
    per_class = []
    for pred in (p, q):
        tp = (counts * (t == pred)) @ onehot[0]
        true = counts @ onehot[0]
        predicted = counts @ (onehot[1] if pred is p else onehot[2])
        per_class.append(np.stack([tp, true, predicted], axis=1))  # (R, 3, k)
    if fixed:
        keep = np.ones((counts.shape[0], k))
    else:  # the classes of y_true and both predictions
        keep = ((counts @ (onehot[0] + onehot[1] + onehot[2])) > 0).astype(float)
    evaluation = SimpleNamespace(
        options=Options("macro", 1.0, 0.0, None, 1), index=np.arange(k)
    )
    thetas, full = [], []
    for pred, counted in zip((p, q), per_class, strict=True):
        left = LeftOut.of_cells(t, pred)
        # one more row that leaves nothing out: the full sample's scores
        left = LeftOut(
            np.append(left.rows, left.n_rows),
            np.append(left.classes, 0),
            np.concatenate([left.deltas, np.zeros((3, 1))], axis=1),
            left.n_rows + 1,
        )
        scores = left_out_scores(evaluation, left, counted, keep)[formula]
        thetas.append(scores[:, :-1])
        full.append(scores[:, -1])
    d = full[0] - full[1]
    c = counts.astype(np.float64)
    variance, df = jackknife_spread(d, thetas[0] - thetas[1], c, c, n)
    delta = delta_variance(c, cells, [np.moveaxis(x, 1, 0) for x in per_class], keep)
    out = {}
    for name, var, dof in (
        ("delta", delta[formula], np.inf),
        ("jackknife", variance, df),
    ):
        se = np.sqrt(var)
        z = np.divide(
            d, se, out=np.where(d == 0, 0.0, np.inf * np.sign(d)), where=se > 0
        )
        p_one = ndtr(-np.abs(z)) if name == "delta" else stdtr(dof, -np.abs(z))
        out[name] = 2 * p_one < ALPHA
        out[name + "_se"] = se
    out["d"] = d
    return out


def expand(counts: np.ndarray, cells: np.ndarray) -> tuple[np.ndarray, ...]:
    """y_true, pred_A and pred_B of one replication's joint counts."""
    return tuple(np.repeat(cells[:, j], counts) for j in range(3))


def check(counts: np.ndarray, cells: np.ndarray, k: int, fixed: bool, formula: int,
          result: dict[str, np.ndarray]) -> None:  # fmt: skip
    """The first replication's p-value decisions and standard errors equal
    compare_classifiers' own."""
    y, a, b = expand(counts, cells)
    labels = list(range(k)) if fixed else None
    for method in ("delta", "jackknife"):
        c = compare_classifiers(y, a, b, labels=labels, zero_division=0, method=method)
        d = (c.averaged_fbeta, c.fbeta_of_averages)[formula]
        se = result[method + "_se"][0]
        assert np.isclose(d.std_error, se, rtol=1e-7, atol=1e-12), (method, se)
        assert (d.p_value < ALPHA) == result[method][0], (method, d.p_value)


def run_cell(k, prior_name, n, accuracy, fixed, coupling, args):
    prior = priors(k, prior_name)
    accuracy_a = np.linspace(*accuracy, k)
    grid = HOLDOUT if args.holdout else {}
    errors = grid.get("b_errors", B_ERRORS)
    reps = args.reps
    rates = {}
    for formula in range(2):
        accuracy_b = solve_b(prior, accuracy_a, formula, errors)
        joint = joint_probabilities(
            prior, accuracy_a, accuracy_b, coupling, errors
        ).ravel()
        key = [args.seed, k, grid.get("priors", PRIORS).index(prior_name), n,
               grid.get("accuracies", ACCURACIES).index(accuracy),
               fixed, COUPLINGS.index(coupling), formula]  # fmt: skip
        rng = np.random.default_rng([*key, 1] if args.holdout else key)
        every = np.array(list(np.ndindex(k, k, k)))
        rejected = {"delta": 0, "jackknife": 0}
        block = max(1, min(reps, BLOCK_VALUES // joint.shape[0]))
        for start in range(0, reps, block):
            rows = min(block, reps - start)
            drawn = rng.multinomial(n, joint, size=rows)
            used = np.flatnonzero(drawn.any(axis=0))  # cells seen in the block
            counts, cells = drawn[:, used], every[used]
            result = analyse(counts, cells, k, fixed, formula)
            if start == 0:
                check(counts[0], cells, k, fixed, formula, result)
            for method in rejected:
                rejected[method] += int(result[method].sum())
        rates[formula] = {m: 100 * r / reps for m, r in rejected.items()}
    return rates


def grid(args: argparse.Namespace) -> list[tuple]:
    out = []
    grid = HOLDOUT if args.holdout else {}
    for k, prior_name, n in itertools.product(
        args.k, grid.get("priors", PRIORS), args.n
    ):
        if n * priors(k, prior_name).min() < 5:
            continue  # the rarest class expects fewer than 5 true samples
        for accuracy, fixed, coupling in itertools.product(
            grid.get("accuracies", ACCURACIES), (False, True), COUPLINGS
        ):
            out.append((k, prior_name, n, accuracy, fixed, coupling))
    return out


def calibration(args: argparse.Namespace) -> None:
    rows, worst = [], {"delta": 0.0, "jackknife": 0.0}
    started = time.perf_counter()
    for k, prior_name, n, accuracy, fixed, coupling in grid(args):
        rates = run_cell(k, prior_name, n, accuracy, fixed, coupling, args)
        cells = [
            f"{rates[0][m]:.1f} / {rates[1][m]:.1f}" for m in ("delta", "jackknife")
        ]
        for m in worst:
            worst[m] = max(worst[m], rates[0][m], rates[1][m])
        rows.append(
            [k, prior_name, n, f"{accuracy[0]}-{accuracy[1]}",
             "range(k)" if fixed else "None", coupling, *cells]
        )  # fmt: skip
        print(" | ".join(map(str, rows[-1])), flush=True)
    header = ["k", "priors", "n", "accuracy", "labels", "errors",
              "delta (avg / FoA) %", "jackknife (avg / FoA) %"]  # fmt: skip
    print()
    print(table(header, rows))
    print(
        f"\nworst cell: delta {worst['delta']:.1f} %, jackknife "
        f"{worst['jackknife']:.1f} % ({args.reps} replications per cell, Monte "
        f"Carlo s.e. about {100 * np.sqrt(0.05 * 0.95 / args.reps):.1f} points at 5 %; "
        f"{len(rows)} cells, {time.perf_counter() - started:.0f} s)"
    )


def timing(quick: bool) -> None:
    rows = []
    for n, k in ((10_000, 10), (10_000, 100), (1_000_000, 10)):
        rng = np.random.default_rng(0)
        y = rng.integers(0, k, n)
        a = np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n))
        b = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
        times = interleaved(
            {
                "delta": partial(compare_classifiers, y, a, b, method="delta"),
                "jackknife": partial(compare_classifiers, y, a, b),
            },
            repeats=3 if quick else 7,
            budget=0.2,
        )
        rows.append(
            [f"n={n:,}, k={k}", fmt_time(times["jackknife"]),
             fmt_time(times["delta"]), fmt_ratio(times["jackknife"] / times["delta"])]
        )  # fmt: skip
    print(table(["compare_classifiers", "jackknife", "delta", "ratio"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 replications")
    parser.add_argument("--reps", type=int, default=None, help="replications per cell")
    parser.add_argument("--k", type=int, nargs="+", default=None)
    parser.add_argument("--n", type=int, nargs="+", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--holdout",
        action="store_true",
        help="other populations: k 3 and 10, priors uniform, 0.7**i and "
        "1/(i+1)**2, accuracy 0.85-0.55 and 0.97-0.9, half of B's errors to the "
        "rarest class",
    )
    parser.add_argument("--timing", action="store_true", help="time one call instead")
    args = parser.parse_args()
    args.reps = args.reps or (200 if args.quick else 2000)
    grid = HOLDOUT if args.holdout else {}
    args.k = args.k or list(grid.get("ks", KS))
    args.n = args.n or list(grid.get("ns", NS))
    warnings.simplefilter("ignore")
    print(machine())
    if args.timing:
        timing(args.quick)
    else:
        calibration(args)


if __name__ == "__main__":
    main()
