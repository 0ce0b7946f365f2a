"""Sources: data that is counted where it lives.

Streaming batches, Dask collections and Spark DataFrames, each turned into a
count record. Importing this package registers the Dask and Spark sources with
the count registry (:func:`~sklearn_macrof1._counting._registry.register_source`);
neither imports its library until it is handed its data.
"""

from . import _dask, _spark_frames  # noqa: F401  (register the Dask and Spark sources)
