"""docs/examples/ holds the committed example reports `make examples` writes: a run and a skill ladder per game (the
file names contain the game id) and a compare, a sweep, a tournament and a skill ladder with a variant, each a
complete report that opens with its verdict."""
import os
import re
from html.parser import HTMLParser

import pytest

from reports.examples import DEFAULT_FOLDER, MULTI, example_runs, skill_examples
from sim.registry import game_ids

EXPECTED = [name for name, *_ in example_runs()] + [name for name, *_ in skill_examples()] + \
    [name for name, *_ in MULTI]


def test_every_game_has_an_example_and_every_kind_is_there():
    for game_id in game_ids():
        assert any(game_id in name for name, *_ in example_runs()), game_id
        assert any(game_id == game for *_, game in skill_examples()), game_id
    assert [kind for *_, kind, _ in MULTI] == ["compare", "sweep", "tournament", "skill"]


@pytest.mark.parametrize("name", EXPECTED)
def test_the_committed_example_is_a_complete_report(name):
    path = os.path.join(DEFAULT_FOLDER, name)
    assert os.path.isfile(path), f"{path} is missing: run `make examples` and commit the result"
    text = open(path, encoding="utf-8").read()
    HTMLParser().feed(text)
    assert text.startswith("<!DOCTYPE html>") and 'id="verdict"' in text and "<svg" in text
    assert "http://" not in text and "https://" not in text
    words = re.sub(r"<svg.*?</svg>", "", text, flags=re.S)  # what a person reads, figures aside
    assert not re.search(r"\d\.?\d*e[-+]\d", words), "a number in scientific notation"
    assert not re.search(r"p = 0(?![.\d])", words), "a p-value printed as 0"
