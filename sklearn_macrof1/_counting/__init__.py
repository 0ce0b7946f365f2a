"""Counting: label arrays into the count record, and the registry of sources."""
