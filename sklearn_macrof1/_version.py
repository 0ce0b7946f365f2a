"""The package version: one place, read by setuptools and the CLI."""

__version__ = "0.1.0"
