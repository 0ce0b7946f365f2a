"""Results: the public score functions, summaries, reports, scorers and accumulator."""
