"""Retrieval: keywords, candidates (SQL), the scoring core (pure), MMR, the pipeline.

The public search function is ``memlab.search`` (``memlab.retrieval.pipeline.search``):
a plain function, as this package is named apart from it.
"""
