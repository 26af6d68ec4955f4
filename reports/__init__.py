"""Figures (matplotlib, inline SVG) and the self-contained HTML report (Jinja2) of runs, comparisons, sweeps and
tournaments (docs/architecture.md §6)."""
