"""Game id or alias -> GameSpec. Ids, aliases and data tables come from each game's rules module; a game's kernel
is imported only when a run needs it, so `sim list` and `sim --help` load no kernel."""
from functools import lru_cache

from sim.spec import SpecError, load_spec

# The game packages. Adding a game is one line here (docs/adding-a-game.md).
PACKAGES = ("sim.games.straw", "sim.games.skrzaty", "sim.games.sen", "sim.games.kruki", "sim.games.kruki_wyscig")


@lru_cache(maxsize=None)
def _specs():
    specs = {}
    for package in PACKAGES:
        spec = load_spec(package)
        specs[spec.id] = spec
    return specs


def game_ids():
    return list(_specs())


def canonical_id(name):
    key = str(name).strip().lower()
    for spec in _specs().values():
        if key == spec.id or key in spec.aliases:
            return spec.id
    names = ", ".join(f"{s.id} (alias {', '.join(s.aliases)})" if s.aliases else s.id for s in _specs().values())
    raise SpecError(f"unknown game '{name}'; accepted: {names}")


def get_game(name):
    """The GameSpec of a game id or alias."""
    return _specs()[canonical_id(name)]


def all_games():
    return list(_specs().values())
