"""Command line: ``macrof1`` and its built-in example."""
