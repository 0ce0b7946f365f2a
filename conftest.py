"""Configuration for the docstring examples (``--doctest-modules`` over the package).

A module whose examples need an optional package lists it in
``__doctest_requires__`` (a tuple of module names, as pytest-doctestplus spells it)
or in DOCTEST_REQUIRES below (by module);
its examples are skipped where that package is not installed (e.g. the
minimum-versions job, which has no matplotlib or Dask).
"""

from __future__ import annotations

import importlib.util
import os

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # before any example imports pyplot
# scikit-learn's array API dispatch (tests/test_array_api.py) needs scipy's,
# which is read once, when scipy is first imported: set before any test imports it
os.environ.setdefault("SCIPY_ARRAY_API", "1")

DOCTEST_REQUIRES = {
    "sklearn_macrof1._plot._display": ("matplotlib",),
    "sklearn_macrof1._plot._search_analysis": ("matplotlib",),
    "sklearn_macrof1._sources._dask": ("dask", "distributed"),
    "sklearn_macrof1._sources._spark_frames": ("pyspark",),
    "sklearn_macrof1.spark": ("pyspark",),
}
#: Modules that import an optional package when imported: not collected without it.
IMPORT_REQUIRES = {
    "sklearn_macrof1/spark.py": ("pyspark",),
}


def _missing(modules: tuple[str, ...] | set[str]) -> list[str]:
    return sorted(m for m in modules if importlib.util.find_spec(m) is None)


collect_ignore = [path for path, needs in IMPORT_REQUIRES.items() if _missing(needs)]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.DoctestItem) or item.dtest is None:
            continue
        globs = item.dtest.globs
        needs = set(globs.get("__doctest_requires__", ()))
        needs |= set(DOCTEST_REQUIRES.get(globs.get("__name__", ""), ()))
        if missing := _missing(needs):
            item.add_marker(pytest.mark.skip(reason=f"needs {', '.join(missing)}"))
