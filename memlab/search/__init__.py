"""Search: keywords, candidates (SQL), the scoring core (pure), MMR, the pipeline."""
