"""Statistics: confidence intervals, paired comparisons and search analysis."""
