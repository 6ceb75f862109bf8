"""Published reference figures, units, normalisation, speedup, cost and comparability."""
