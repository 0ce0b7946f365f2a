"""Formulas: scores, averages, the gap, its bound and attribution, from counts."""
