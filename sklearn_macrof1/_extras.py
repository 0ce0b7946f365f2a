"""The optional dependencies, and what to install when one is missing.

sklearn-macrof1 is installed from a clone of its repository (it is not on the
package index), so ``pip install "sklearn-macrof1[plot]"`` would fail: every hint
names the package itself (``pip install matplotlib``) and the extra from the
repository root (``pip install ".[plot]"``). Every optional import of the package
goes through :func:`import_optional`, so the hints are written once.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Extra:
    """An optional dependency: what ``pip`` installs it, and the extra holding it."""

    requirement: str  # what `pip install` takes, e.g. 'dask[array,dataframe]'
    extra: str | None  # the extra of pyproject.toml, e.g. "dask"; None: no extra
    also: str = ""  # what pip cannot install, e.g. " (and Java 17 or later)"


#: By top-level module name.
EXTRAS = {
    "matplotlib": Extra("matplotlib", "plot"),
    "pandas": Extra("pandas", "pandas"),
    "pyarrow": Extra("pyarrow", "arrow"),
    "dask": Extra('"dask[array,dataframe]" distributed', "dask"),
    "pyspark": Extra("pyspark", "spark", " (and Java 17 or later)"),
    "array_api_compat": Extra("array-api-compat", "array-api"),
    "transformers": Extra("transformers", None),
}


def install_hint(module: str) -> str:
    """How to install the optional dependency ``module`` (a top-level name):
    ``pip install matplotlib`` or, from the repository root of sklearn-macrof1,
    ``pip install ".[plot]"``."""
    extra = EXTRAS[module]
    if extra.extra is None:
        return f"`pip install {extra.requirement}`{extra.also}"
    return (
        f"`pip install {extra.requirement}` or, from the repository root of "
        f'sklearn-macrof1, `pip install ".[{extra.extra}]"`{extra.also}'
    )


def missing(module: str, needs: str) -> ImportError:
    """The ImportError for a missing optional dependency: ``needs`` says what needs
    it (``"MacroF1Display.plot draws with matplotlib"``), then how to install it."""
    return ImportError(
        f"{needs}, which is not installed. Install it with {install_hint(module)}."
    )


def import_optional(name: str, needs: str) -> ModuleType:
    """Import ``name`` (a module of an optional dependency) or raise
    :func:`missing`'s ImportError, chained to the original one."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise missing(name.split(".")[0], needs) from exc
