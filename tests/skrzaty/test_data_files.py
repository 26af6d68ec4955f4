"""The editable data tables (SKRZATY-17..21): shipped defaults, and one-line errors for every kind of bad file."""
import pytest

from sim.games.skrzaty import reference as ref
from sim.games.skrzaty import rules as R
from sim.spec import SpecError

CARD_HEAD = "id,colour,value,spaces,vp,effect,amount\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def error_of(fn, *args):
    with pytest.raises(SpecError) as e:
        fn(*args)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_defaults_match_the_rules_file():
    d = R.load_data()
    c = d.cards
    assert len(c.ids) == 61 and c.ids == tuple(range(1, 62))
    assert [c.colour.count(k) for k in range(5)] == [13, 12, 12, 12, 12]
    assert sum(c.spaces) == 118 and [c.spaces.count(k) for k in (1, 2, 3)] == [22, 21, 18]
    for colour in range(5):  # one card of each of the nine effects per colour
        effects = sorted(e for e, col in zip(c.effect, c.colour) if col == colour and e)
        assert effects == list(range(1, 10))
    assert {p: len(v) for p, v in d.reward_cards.by_players.items()} == {2: 9, 3: 9, 4: 9, 5: 9}
    assert d.reward_spaces.types == ("A", "B", "C") and len(d.reward_spaces.table) == 12
    gnomes = {p: sum(3 * sum(g for g, _, _ in d.reward_spaces.table[t, p]) for t in range(3)) for p in (2, 3, 4, 5)}
    assert gnomes == {2: 24, 3: 36, 4: 48, 5: 63}  # rules §1.5
    assert [v for _, v, _ in d.end_tile.by_players[5]] == [8, 5, 3, 1, 0]
    assert d.tokens.kinds == ("treasure", "helpers", "lantern") and sum(d.tokens.count) == 10
    assert set(R.DATA_TABLES) == {"cards", "reward-cards", "reward-spaces", "end-tile", "tokens"}


@pytest.mark.parametrize("text, needle", [
    ("id,colour,value,spaces,vp,effect\n1,blue,1,1,2,none\n", "line 1: columns are"),
    (CARD_HEAD + "1,blue,x,1,2,none,0\n", "line 2: value 'x' is not a non-negative integer"),
    (CARD_HEAD + "1,blue,-3,1,2,none,0\n", "line 2: value '-3' is not a non-negative integer"),
    (CARD_HEAD + "1,blue,5,1,2,none,0\n2,red,5,1,2,none,0\n3,blue,5,2,4,none,0\n",
     "line 4: blue value 5 repeats line 2"),
    (CARD_HEAD + "1,blue,5,1,2,none,0\n1,red,6,1,2,none,0\n", "line 3: id 1 repeats line 2"),
    (CARD_HEAD + "1,orange,5,1,2,none,0\n", "line 2: colour 'orange' is unknown; accepted: blue"),
    (CARD_HEAD + "1,blue,5,5,2,none,0\n", "line 2: spaces 5 is out of range; accepted: 1..4"),
    (CARD_HEAD + "1,blue,0,1,2,none,0\n", "line 2: value 0 is out of range"),
    (CARD_HEAD + "0,blue,1,1,2,none,0\n", "line 2: id 0 is out of range"),
    (CARD_HEAD + "1,blue,5,1,2,teleport,0\n", "line 2: effect 'teleport' is unknown; accepted: none, delivery"),
    (CARD_HEAD + "1,blue,5,1,2,none\n", "line 2: 6 fields; expected 7"),
    (CARD_HEAD, "no City cards"),
    ("", "line 1: empty file"),
])
def test_city_card_errors(tmp_path, text, needle):
    path = write(tmp_path, "cards.csv", text)
    msg = error_of(R.load_city_cards, path)
    assert path in msg and needle in msg


def test_missing_file(tmp_path):
    msg = error_of(R.load_city_cards, str(tmp_path / "nope.csv"))
    assert "nope.csv: cannot read the file" in msg


@pytest.mark.parametrize("text, needle", [
    ("players,card,colour\n2,1,blue\n", "line 1: columns are players,card,colour"),
    ("players,card,colour,type\n6,1,blue,A\n", "line 2: players 6 is out of range; accepted: 2..5"),
    ("players,card,colour,type\n1,1,blue,A\n", "line 2: players 1 is out of range; accepted: 2..5"),
    ("players,card,colour,type\n2,1,blue,A\n2,1,red,B\n", "line 3: card 1 for 2 players repeats line 2"),
    ("players,card,colour,type\n2,1,pink,A\n", "line 2: colour 'pink' is unknown"),
    ("players,card,colour,type\n2,one,blue,A\n", "line 2: card 'one' is not a non-negative integer"),
])
def test_reward_card_errors(tmp_path, text, needle):
    path = write(tmp_path, "rc.csv", text)
    msg = error_of(R.load_reward_cards, path)
    assert path in msg and needle in msg


def test_reward_card_type_without_spaces(tmp_path):
    path = write(tmp_path, "rc.csv", "players,card,colour,type\n2,1,blue,A\n2,2,red,Z\n")
    msg = error_of(R.load_data, {"reward-cards": path})
    assert path in msg and "line 3: type Z has no spaces for 2 players" in msg and "accepted types: A, B, C" in msg


def test_too_few_reward_cards_for_rounds(tmp_path):
    rows = "".join(f"4,{i},blue,A\n" for i in range(1, 6))
    path = write(tmp_path, "rc.csv", "players,card,colour,type\n" + rows)
    data = R.load_data({"reward-cards": path})
    msg = error_of(R.validate, dict(R.DEFAULT_PARAMS), 4, data)
    assert path in msg and "needs 9 Reward cards for 4 players" in msg and "accepted: rounds 1..4" in msg
    R.validate({**R.DEFAULT_PARAMS, "rounds": 4}, 4, data)
    msg = error_of(R.validate, {**R.DEFAULT_PARAMS, "rounds": 4}, 3, data)
    assert path in msg and "no Reward cards for 3 players" in msg


def test_more_reward_cards_allow_more_rounds(tmp_path):
    rows = "".join(f"2,{i},{R.COLOURS[i % 5]},{'ABC'[i % 3]}\n" for i in range(1, 13))
    path = write(tmp_path, "rc.csv", "players,card,colour,type\n" + rows)
    data = R.load_data({"reward-cards": path})
    rec = ref.play_game({"rounds": 11}, 2, 1, 1, ["builder", "ender"], data=data)
    assert rec.game["error"] == 0 and rec.game["rounds_played"] == 11
    assert sum(rec.seat["rank_count_1"]) == 11


SPACE_HEAD = "type,players,rank,gnomes,vp,bonus\n"


@pytest.mark.parametrize("text, needle", [
    (SPACE_HEAD + "A,2,1,2,0,0\n", "line 2: type A at 2 players lacks rank(s) 2"),
    (SPACE_HEAD + "A,2,1,2,0,0\nA,2,1,1,0,0\n", "line 3: rank 1 repeats for type A at 2 players"),
    (SPACE_HEAD + "A,2,3,2,0,0\n", "line 2: rank 3 for 2 players; accepted: 1..2"),
    (SPACE_HEAD + "A,2,1,2.5,0,0\nA,2,2,1,0,0\n", "line 2: gnomes '2.5' is not a non-negative integer"),
    (SPACE_HEAD + "A,7,1,2,0,0\n", "line 2: players 7 is out of range"),
    ("type,players,rank,gnomes,vp\nA,2,1,2,0\n", "line 1: columns are"),
])
def test_reward_space_errors(tmp_path, text, needle):
    path = write(tmp_path, "rs.csv", text)
    msg = error_of(R.load_reward_spaces, path)
    assert path in msg and needle in msg


@pytest.mark.parametrize("text, needle", [
    ("players,rank,gnomes,vp,bonus\n2,1,0,5,0\n", "line 2: the End tile for 2 players lacks rank(s) 2"),
    ("players,rank,gnomes,vp,bonus\n2,1,0,5,0\n2,1,0,1,0\n", "line 3: rank 1 repeats for the End tile for 2"),
    ("players,rank,gnomes,vp,bonus\n2,1,0,5,0\n2,2,0,x,0\n", "line 3: vp 'x' is not a non-negative integer"),
    ("players,rank,gnomes,vp,bonus\n9,1,0,5,0\n", "line 2: players 9 is out of range"),
])
def test_end_tile_errors(tmp_path, text, needle):
    path = write(tmp_path, "et.csv", text)
    msg = error_of(R.load_end_tile, path)
    assert path in msg and needle in msg


def test_end_tile_missing_player_count(tmp_path):
    path = write(tmp_path, "et.csv", "players,rank,gnomes,vp,bonus\n2,1,0,5,0\n2,2,0,1,0\n")
    data = R.load_data({"end-tile": path})
    msg = error_of(R.validate, dict(R.DEFAULT_PARAMS), 3, data)
    assert path in msg and "no End tile rows for 3 players" in msg
    R.validate(dict(R.DEFAULT_PARAMS), 2, data)


@pytest.mark.parametrize("text, needle", [
    ("kind,count,gnomes,vp\ngold,1,0,3\ngold,2,1,0\n", "line 3: kind 'gold' repeats line 2"),
    ("kind,count,gnomes,vp\ngold,many,0,3\n", "line 2: count 'many' is not a non-negative integer"),
    ("kind,count,vp\ngold,1,3\n", "line 1: columns are kind,count,vp"),
    ("kind,count,gnomes,vp\n,1,0,3\n", "line 2: empty kind"),
])
def test_token_errors(tmp_path, text, needle):
    path = write(tmp_path, "tok.csv", text)
    msg = error_of(R.load_bonus_tokens, path)
    assert path in msg and needle in msg


def test_too_few_city_cards(tmp_path):
    rows = "".join(f"{i},{R.COLOURS[i % 5]},{i},1,2,none,0\n" for i in range(1, 41))
    path = write(tmp_path, "cards.csv", CARD_HEAD + rows)
    data = R.load_data({"cards": path})
    msg = error_of(R.validate, dict(R.DEFAULT_PARAMS), 4, data)
    assert "40 City cards are too few for 4 players" in msg and "49 > 40" in msg
    R.validate(dict(R.DEFAULT_PARAMS), 3, data)  # 3*(4+8)+1 = 37 <= 40


def test_custom_tokens_and_cards_play(tmp_path):
    """A small consistent custom set plays a full game; an empty token file forces the fallback."""
    rows = "".join(f"{i},{R.COLOURS[i % 5]},{i},{1 + i % 3},{i % 4},{R.EFFECTS[i % 10]},1\n" for i in range(1, 41))
    cards = write(tmp_path, "cards.csv", CARD_HEAD + rows)
    tokens = write(tmp_path, "tok.csv", "kind,count,gnomes,vp\n")
    data = R.load_data({"cards": cards, "tokens": tokens})
    rec = ref.play_game({}, 3, 5, 5, ["random", "builder", "weighted"], data=data)
    assert rec.game["error"] == 0 and rec.game["tokens_left"] == 0 and sum(rec.seat["tokens_taken"]) == 0


def test_unknown_data_key():
    msg = error_of(R.load_data, {"--board": "x.csv"})
    assert "skrzaty has no data table '--board'" in msg and "cards" in msg
