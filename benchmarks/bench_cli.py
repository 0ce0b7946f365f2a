"""``macrof1 score`` on large CSV files: time and peak memory against pandas.

A CSV file of two integer columns (``y_true,y_pred``; labels uniform over
``--classes`` classes, 60% of predictions right) of each size in ``--rows``
(1e6 and 1e7 rows; ``--huge`` adds 1e8, a 0.6 GB file) is scored, side by
side in one run, by:

- ``pandas``: ``pandas.read_csv`` then ``averaged_f1_score`` of its columns;
- ``cli pyarrow``: ``python -m sklearn_macrof1 score FILE --true y_true
  --pred y_pred`` with pyarrow installed (its streaming CSV reader);
- ``cli csv``: the same with pyarrow hidden (``sys.modules["pyarrow"] =
  None``), so that the reader without pyarrow reads the file (NumPy's parser,
  for these integer columns).

Each runs in a fresh process that imports what it needs first; ``time`` is
the work after the imports (reading, counting, scoring, printing), ``peak``
the process's maximum resident set size (``os.wait4``), imports included
(``imports only`` is that baseline). The median of ``--reps`` runs, the
three interleaved. Run ``nice -n 10 python benchmarks/bench_cli.py`` (about
3 minutes at 1e6 and 1e7 rows).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _timing import fmt_bytes, fmt_time, machine, table

ROOT = Path(__file__).resolve().parent.parent

#: Each run: the imports, then the timed work; prints its seconds.
PANDAS = """
import time, pandas
from sklearn_macrof1 import averaged_f1_score
t = time.perf_counter()
frame = pandas.read_csv(FILE)
averaged_f1_score(frame["y_true"].to_numpy(), frame["y_pred"].to_numpy())
print(time.perf_counter() - t)
"""
CLI = """
import io, runpy, sys, time
HIDE
import sklearn_macrof1, sklearn.metrics
sys.argv = ["macrof1", "score", FILE, "--true", "y_true", "--pred", "y_pred"]
sys.stdout = io.StringIO()
t = time.perf_counter()
try:
    runpy.run_module("sklearn_macrof1", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
sys.stdout = sys.__stdout__
print(time.perf_counter() - t)
"""
IMPORTS = """
import pandas, sklearn_macrof1, sklearn.metrics
print(0.0)
"""
HIDE_ARROW = 'sys.modules["pyarrow"] = None'
CODE = {
    "pandas": PANDAS,
    "cli pyarrow": CLI.replace("HIDE", "import pyarrow.csv, pyarrow.compute"),
    "cli csv": CLI.replace("HIDE", HIDE_ARROW),
    "imports only": IMPORTS,
}


def write_csv(path: Path, rows: int, classes: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write("y_true,y_pred\n")
        for start in range(0, rows, 100_000):  # this process stays small: its
            n = min(100_000, rows - start)  # children's peak RSS starts from it
            y_true = rng.integers(0, classes, n)
            right = rng.random(n) < 0.6
            y_pred = np.where(right, y_true, rng.integers(0, classes, n))
            f.write(
                "".join(
                    f"{a},{b}\n"
                    for a, b in zip(y_true.tolist(), y_pred.tolist(), strict=True)
                )
            )


def run(code: str, path: Path) -> tuple[float, int]:
    """The work's seconds and the process's peak RSS in bytes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", code.replace("FILE", repr(str(path)))],
        stdout=subprocess.PIPE,
        env=env,
    )
    out = process.stdout.read() if process.stdout is not None else b""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"the run failed with status {process.returncode}")
    return float(out.decode().split()[-1]), usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--huge", action="store_true", help="also 1e8 rows")
    parser.add_argument("--classes", type=int, default=100)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--dir", help="where the CSV files go (default: a temp dir)")
    parser.add_argument(
        "--readers",
        nargs="+",
        choices=list(CODE),
        default=list(CODE),
        help="which to run (pandas needs about 5 GB at 1e8 rows)",
    )
    args = parser.parse_args()
    sizes = [int(r) for r in args.rows] + ([100_000_000] if args.huge else [])
    print(machine())
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for rows in sizes:
            path = Path(folder) / f"two_columns_{rows}.csv"
            write_csv(path, rows, args.classes)
            size = path.stat().st_size
            runs: dict[str, list[tuple[float, int]]] = {n: [] for n in args.readers}
            for _ in range(args.reps):
                for name in args.readers:
                    runs[name].append(run(CODE[name], path))
            base = None
            if "pandas" in runs:
                base = statistics.median(t for t, _ in runs["pandas"])
            lines = []
            for name, measured in runs.items():
                seconds = statistics.median(t for t, _ in measured)
                peak = max(m for _, m in measured)
                ratio = ""
                if base is not None and name != "imports only":
                    ratio = f"{seconds / base:.1f}x"
                shown = fmt_time(seconds) if name != "imports only" else ""
                lines.append([name, shown, ratio, fmt_bytes(peak)])
            print(
                f"\n{rows:,} rows, {args.classes} classes, "
                f"{size / 1e6:.0f} MB (median of {args.reps})"
            )
            print(table(["reader", "time", "vs pandas", "peak RSS"], lines))
            path.unlink()


if __name__ == "__main__":
    main()
