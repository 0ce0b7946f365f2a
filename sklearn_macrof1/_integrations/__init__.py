"""Integrations layer.

Streaming batches and Dask collections, counted where the data live into count
records. Importing this package registers the Dask source with the core
(:func:`~sklearn_macrof1._core._sources.register_source`).
"""

from . import _dask  # noqa: F401  (registers the Dask source)
