"""Statistics over merged run aggregates and per-game rows (docs/architecture.md §6)."""
