"""Integrations layer.

Streaming batches, Dask collections and Spark DataFrames, counted where the
data live into count records. Importing this package registers the Dask and
Spark sources with the core
(:func:`~sklearn_macrof1._core._sources.register_source`); neither imports its
library until it is handed its data.
"""

from . import _dask, _spark  # noqa: F401  (register the Dask and Spark sources)
