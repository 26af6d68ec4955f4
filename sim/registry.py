"""Game id or alias -> GameSpec. Game packages are imported on first use, so a run loads only its own kernel."""
import importlib

from sim.spec import SpecError

# id -> (package, aliases). A game appears here once its kernel, reference and strategies are in.
_GAMES = {
    "straw": ("sim.games.straw", ()),
    "skrzaty": ("sim.games.skrzaty", ()),
    "sen": ("sim.games.sen", ("rat-a-tat-cat",)),
    "kruki": ("sim.games.kruki", ("crows",)),
    "kruki-wyscig": ("sim.games.kruki_wyscig", ("odins-ravens",)),
}
# Data-table options of the games (`--cards FILE`), known without importing the games; each game's spec maps them.
DATA_OPTIONS = {"cards": "skrzaty", "reward-cards": "skrzaty", "reward-spaces": "skrzaty", "end-tile": "skrzaty",
                "tokens": "skrzaty"}


def game_ids():
    return list(_GAMES)


def canonical_id(name):
    key = name.strip().lower()
    for gid, (_, aliases) in _GAMES.items():
        if key == gid or key in aliases:
            return gid
    names = ", ".join(f"{g} (alias {', '.join(a)})" if a else g for g, (_, a) in _GAMES.items())
    raise SpecError(f"unknown game '{name}'; accepted: {names}")


def get_game(name):
    """The GameSpec of a game id or alias."""
    package, _ = _GAMES[canonical_id(name)]
    return importlib.import_module(package).SPEC


def all_games():
    return [get_game(g) for g in _GAMES]
