"""Presentation layer.

The public scores, scorers, result objects, report, Display and command line.
"""
