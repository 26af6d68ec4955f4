"""Golden outcomes: seeded configurations of every game, variant family and strategy play exactly the games they
played when tests/golden/summaries.json was recorded. A restructuring must leave every number unchanged."""
import json

import pytest

from tests.golden.configs import CONFIGS
from tests.golden.record import PATH, outcome

with open(PATH) as _f:
    GOLDEN = json.load(_f)


def test_every_configuration_is_recorded():
    assert sorted(GOLDEN) == sorted(c[0] for c in CONFIGS)


@pytest.mark.parametrize("row", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_outcomes_unchanged(row):
    got = outcome(row)
    want = GOLDEN[row[0]]
    for key in want:
        assert got[key] == want[key], f"{row[0]}: {key} changed"
