"""Reading: user inputs (lists, numpy, pandas, sparse) into checked label arrays."""
