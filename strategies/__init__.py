"""Heuristic players, one module per game (DESIGN §4)."""
import sim  # noqa: F401  (sets numba's cache folder before numba is imported)
