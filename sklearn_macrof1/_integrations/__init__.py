"""Integrations layer.

Streaming batches and Dask collections, counted where the data live into count
records. Importing this package registers the Dask counter with the core
(:func:`~sklearn_macrof1._core._record.register_foreign_counter`).
"""

from . import _dask  # noqa: F401  (registers the Dask counter)
