"""Inference layer.

Intervals and comparisons, built from count records (never re-reading inputs).
"""
