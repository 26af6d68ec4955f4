"""Statistics over merged run aggregates and per-game rows (DESIGN §6)."""
