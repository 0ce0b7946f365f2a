"""Integrations layer.

Streaming batches and Dask collections, counted where the data live.
"""
