"""Heuristic players, one module per game (docs/architecture.md §4)."""
import sim  # noqa: F401  (sets numba's cache folder before numba is imported)
