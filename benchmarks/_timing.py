"""Shared timing and memory helpers for the benchmark scripts.

Timings on a shared machine are noisy, so the scripts never compare absolute
times measured at different moments: every contender of a case is timed in the
same run, *interleaved* (one measurement of each contender per repetition, in a
rotating order), and the ratios are ratios of medians.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
import warnings
from collections.abc import Callable, Sequence
from statistics import median
from typing import Any


def arguments(doc: str | None, **flags: str) -> argparse.Namespace:
    """Command line of a benchmark script: ``--quick`` plus boolean ``flags``.

    Also silences warnings (the scripts time the warning-free path of both
    libraries alike: ``UndefinedMetricWarning`` is not what is measured).
    """
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    for name, help_text in flags.items():
        parser.add_argument(
            "--" + name.replace("_", "-"), action="store_true", help=help_text
        )
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    return args


def calibrate(func: Callable[[], Any], budget: float) -> int:
    """Number of calls per measurement so that one measurement lasts ~``budget`` s."""
    func()  # warm-up (imports, caches)
    start = time.perf_counter()
    func()
    once = time.perf_counter() - start
    return max(1, int(budget / max(once, 1e-7)))


def interleaved(
    contenders: dict[str, Callable[[], Any]],
    *,
    repeats: int = 7,
    budget: float = 0.02,
) -> dict[str, float]:
    """Median seconds per call of each contender, measured side by side.

    Each repetition times every contender once (``number`` calls in a row, chosen
    so a measurement lasts about ``budget`` seconds), rotating the order between
    repetitions so that no contender always runs first or last.
    """
    numbers = {name: calibrate(func, budget) for name, func in contenders.items()}
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for rep in range(repeats):
            shift = rep % len(names)
            for name in names[shift:] + names[:shift]:
                func, number = contenders[name], numbers[name]
                start = time.perf_counter()
                for _ in range(number):
                    func()
                samples[name].append((time.perf_counter() - start) / number)
    finally:
        if gc_was_enabled:
            gc.enable()
    return {name: median(values) for name, values in samples.items()}


def peak_memory(func: Callable[[], Any]) -> int:
    """Peak bytes allocated through Python's and numpy's allocators during a call.

    numpy reports its data buffers to ``tracemalloc``, so this covers every array
    temporary; memory allocated by other libraries' own allocators (torch) is not
    seen and is reported as n/a by the scripts.
    """
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = func()
        peak = tracemalloc.get_traced_memory()[1] - base
        del result
    finally:
        tracemalloc.stop()
    return peak


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.1f}x" if value >= 10 else f"{value:.2f}x"


def fmt_bytes(value: int | None) -> str:
    if value is None:
        return "n/a"
    if value < 1 << 20:
        return f"{value / 1024:.0f} KiB"
    return f"{value / (1 << 20):.1f} MiB"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table (readable as plain text too)."""
    widths = [
        max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(header)
    ]

    def line(cells: Sequence[str]) -> str:
        return (
            "| "
            + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True))
            + " |"
        )

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


def machine() -> str:
    """One line describing where the benchmark ran."""
    import os
    import platform

    import numpy
    import scipy
    import sklearn

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for row in handle:
                if row.startswith("model name"):
                    cpu = row.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor() or cpu
    return (
        f"{cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
        f"numpy {numpy.__version__}, scipy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}"
    )
