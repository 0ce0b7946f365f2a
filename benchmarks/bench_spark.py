"""Spark: both macro F1s of 1e7 and 1e8 rows vs Spark's own evaluators.

Usage::

    python benchmarks/bench_spark.py            # n = 1e7 and 1e8 (tens of minutes)
    python benchmarks/bench_spark.py --quick    # n = 1e6 and 1e7
    python benchmarks/bench_spark.py --sizes 10000000 --cases ours,evaluator

Needs the ``[spark]`` extra and Java 17+. The rows are generated inside Spark
(``spark.range``): label ``pmod(xxhash64(id), 10)`` as a double, prediction equal
to the label for 70% of the rows (``rand(1) < 0.7``) and another hash otherwise,
so no row ever exists in Python. Each (size, case) runs in a fresh subprocess
with its own ``local[2]`` SparkSession (driver memory 2g), which first scores a
1e5-row frame (warm-up), then the measured frame once:

- ``ours``: :func:`sklearn_macrof1.fbeta_summary` of
  :func:`sklearn_macrof1.spark.counts_from_dataframe` (both macro F1s, the
  gap, per-class figures and the confusion matrix; one aggregation query);
- ``evaluator``: ``MulticlassClassificationEvaluator(metricName="f1")``, Spark's
  weighted F-measure;
- ``metrics``: ``pyspark.mllib.evaluation.MulticlassMetrics`` on
  ``df.select("prediction", "label").rdd`` (the RDD API: its rows pass through
  Python workers), ``weightedFMeasure``.

Reported per case: wall time of the measured call; the driver Python process's
peak resident memory (``ru_maxrss``, including the ~100 MB of the interpreter,
numpy and pyspark); the peak of the driver JVM's heap in use during the call
(sum of the heap pools' peak usage, reset before the call; in local mode the
driver JVM also runs the executor tasks, so this includes their work).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

CASES = ("ours", "evaluator", "metrics")


def _session():
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("bench_spark")
        .config("spark.driver.memory", "2g")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _frame(spark, n: int):
    from pyspark.sql import functions as F

    k = 10
    label = F.pmod(F.xxhash64(F.col("id")), F.lit(k)).cast("double")
    other = F.pmod(F.xxhash64(F.col("id"), F.lit(1)), F.lit(k)).cast("double")
    return spark.range(n, numPartitions=8).select(
        label.alias("label"),
        F.when(F.rand(1) < 0.7, label).otherwise(other).alias("prediction"),
    )


def _score(case: str, df) -> float:
    if case == "ours":
        from sklearn_macrof1 import fbeta_summary
        from sklearn_macrof1.spark import counts_from_dataframe

        summary = fbeta_summary(counts_from_dataframe(df), average="weighted")
        return float(summary.averaged_fbeta)
    if case == "evaluator":
        from pyspark.ml.evaluation import MulticlassClassificationEvaluator

        return MulticlassClassificationEvaluator(metricName="f1").evaluate(df)
    from pyspark.mllib.evaluation import MulticlassMetrics

    pairs = df.select("prediction", "label").rdd.map(tuple)
    return float(MulticlassMetrics(pairs).weightedFMeasure())


def _heap_pools(spark):
    jvm = spark.sparkContext._jvm
    pools = jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
    return [p for p in pools if str(p.getType().toString()) == "Heap memory"]


def run_case(case: str, n: int) -> dict:
    import warnings

    warnings.simplefilter("ignore")
    spark = _session()
    _score(case, _frame(spark, 100_000))  # warm-up
    pools = _heap_pools(spark)
    for pool in pools:
        pool.resetPeakUsage()
    start = time.perf_counter()
    value = _score(case, _frame(spark, n))
    seconds = time.perf_counter() - start
    heap = sum(int(p.getPeakUsage().getUsed()) for p in pools)
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    spark.stop()
    return {
        "case": case,
        "n": n,
        "seconds": seconds,
        "value": value,
        "python_rss_mb": rss_kb / 1024,
        "jvm_heap_mb": heap / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1e6 and 1e7")
    parser.add_argument("--sizes", help="comma-separated row counts")
    parser.add_argument("--cases", default=",".join(CASES), help="subset of cases")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:  # a child process: one measurement, JSON on stdout
        print(json.dumps(run_case(args.case, int(args.sizes))))
        return
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else ([10**6, 10**7] if args.quick else [10**7, 10**8])
    )
    cases = args.cases.split(",")
    print(
        f"# {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, pyspark {_pyspark_version()}, local[2]"
    )
    print()
    print(
        "| rows | case | time (s) | driver Python peak RSS (MB) | "
        "driver JVM heap peak (MB) | weighted F1 |"
    )
    print("|---:|---|---:|---:|---:|---:|")
    for n in sizes:
        for case in cases:
            command = [sys.executable, str(Path(__file__)), "--case", case]
            out = subprocess.run(
                [*command, "--sizes", str(n)],
                capture_output=True,
                text=True,
                check=True,
            )
            row = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"| {n:.0e} | {case} | {row['seconds']:.1f} | "
                f"{row['python_rss_mb']:.0f} | {row['jvm_heap_mb']:.0f} | "
                f"{row['value']:.6f} |",
                flush=True,
            )


def _pyspark_version() -> str:
    import pyspark

    return pyspark.__version__


if __name__ == "__main__":
    main()
