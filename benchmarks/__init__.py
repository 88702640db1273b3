"""memlab's benchmarks: ``python -m benchmarks`` runs them all as one table (``__main__``)."""
