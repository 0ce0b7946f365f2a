"""Plots: the Display and the search-analysis figures."""
