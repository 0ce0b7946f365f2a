"""Decisions that maximise a macro F-beta: tuned rules on top of scores."""
