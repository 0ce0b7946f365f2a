"""Core layer.

Read and validate targets, count them once into the count record, divide and
aggregate.
"""
