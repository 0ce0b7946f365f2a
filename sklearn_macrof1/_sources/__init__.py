"""Sources: data that is counted where it lives.

Streaming batches, Dask collections, Spark DataFrames and device arrays
(array-API namespaces other than NumPy), each turned into a count record.
Importing this package registers the Dask, Spark and array-API sources with the
count registry (:func:`~sklearn_macrof1._counting._registry.register_source`);
none imports its library until it is handed its data.
"""

from . import _array_api, _dask, _spark_frames  # noqa: F401  (register the sources)
