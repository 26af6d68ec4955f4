"""Seeded configurations whose outcomes are pinned in tests/golden/summaries.json.

Every game, every variant, every shipped strategy (alone and mixed per seat, with changed parameters) and the
allowed player counts appear at least once. A refactor that changes any number here changes what a game does.
Regenerate only when the rules change on purpose: `python -m tests.golden.record` (and bump the game's VERSION).
"""

# (name, game, players, variants, strategies, rule sets, strategy sets, seed, n)
CONFIGS = [
    ("straw-2p", "straw", 2, (), "safe", {}, {}, 11, 3000),
    ("straw-4p", "straw", 4, (), "safe", {}, {}, 12, 3000),
    ("straw-6p", "straw", 6, (), "safe", {}, {}, 13, 2000),
    ("straw-evertide", "straw", 3, ("evertide",), "safe", {}, {}, 14, 2000),
    ("straw-deck-b+evertide", "straw", 4, ("deck-b", "evertide"), "safe", {"break_at": 45}, {}, 15, 2000),
    ("straw-default", "straw", 4, (), None, {}, {}, 18, 2000),  # the tuned default (sim/games/straw/rules.py)
    ("straw-mixed", "straw", 5, (), "random,dump-heaviest,safe,straw-hunter,weighted", {}, {}, 16, 2000),
    ("straw-params", "straw", 4, (), "weighted:w_break=-20,safe:escape_at=30,random,weighted",
     {"hand_size": 5}, {"weighted": {"w_loss": 2.0}}, 17, 2000),
    ("sen-2p", "sen", 2, (), "threshold", {}, {}, 21, 2000),
    ("sen-4p", "sen", 4, (), "threshold", {}, {}, 22, 2000),
    ("sen-6p", "sen", 6, (), "threshold", {}, {}, 23, 1000),
    ("sen-rat-a-tat-cat", "sen", 4, ("rat-a-tat-cat",), "threshold", {}, {}, 24, 1000),
    ("sen-deck-out-ends", "sen", 3, ("deck-out-ends",), "threshold", {}, {}, 25, 1000),
    ("sen-default", "sen", 4, (), None, {}, {}, 28, 1000),  # the tuned default (sim/games/sen/rules.py)
    ("sen-mixed", "sen", 3, (), "random,threshold,memory", {}, {}, 26, 1000),
    ("sen-params", "sen", 4, (), "memory:call_at=6,threshold:keep_max=4,random:p_call=0.3,memory",
     {"caller_penalty": 5, "peek_scope": 1}, {}, 27, 1000),
    ("skrzaty-2p", "skrzaty", 2, (), "weighted", {}, {}, 31, 600),
    ("skrzaty-4p", "skrzaty", 4, (), "weighted", {}, {}, 32, 600),
    ("skrzaty-5p", "skrzaty", 5, (), "weighted", {}, {}, 33, 400),
    ("skrzaty-market-ranked", "skrzaty", 3, ("market-ranked",), "weighted", {}, {}, 34, 400),
    ("skrzaty-market-keep+final", "skrzaty", 4, ("market-keep", "final-highest"), "weighted", {}, {}, 35, 400),
    ("skrzaty-fixed-first", "skrzaty", 3, ("fixed-first",), "weighted", {"rounds": 6}, {}, 36, 400),
    ("skrzaty-default", "skrzaty", 4, (), None, {}, {}, 39, 400),  # the tuned default
    ("skrzaty-mixed", "skrzaty", 5, (), "random,builder,ender,high-roller,weighted", {}, {}, 37, 400),
    ("skrzaty-params", "skrzaty", 3, (), "weighted:w_vp=1,weighted,builder", {}, {}, 38, 400),
    ("kruki-2p", "kruki", 2, (), None, {}, {}, 41, 300),
    ("kruki-3p", "kruki", 3, (), None, {}, {}, 42, 200),
    ("kruki-4p", "kruki", 4, (), None, {}, {}, 43, 200),
    ("kruki-4p-random", "kruki", 4, (), "random", {}, {}, 44, 1000),
    ("kruki-tile-draft", "kruki", 3, ("tile-draft",), None, {}, {}, 45, 100),
    ("kruki-random-junk", "kruki", 4, ("random-junk",), None, {}, {}, 46, 100),
    ("kruki-lots-of-crows", "kruki", 2, ("lots-of-crows",), None, {}, {}, 47, 100),
    ("kruki-score-cap+plus", "kruki", 3, ("score-cap",), None, {"start_layout": 1}, {}, 48, 100),
    ("kruki-mixed", "kruki", 4, (), "random,greedy,blocker,weighted", {}, {}, 49, 40),
    ("kruki-params", "kruki", 3, ("random-junk", "tile-draft"), "weighted:w3=2,blocker:slack=1,greedy:junk_margin=0",
     {}, {}, 50, 30),
    ("ravens", "kruki-wyscig", 2, (), "saboteur", {}, {}, 51, 2000),
    ("ravens-osprey", "kruki-wyscig", 2, ("osprey-joker",), "saboteur", {}, {}, 52, 1000),
    ("ravens-fixed-mix", "kruki-wyscig", 2, ("fixed-mix-draw",), "saboteur", {}, {}, 53, 1000),
    ("ravens-rerace", "kruki-wyscig", 2, ("rerace-tie", "osprey-joker"), "saboteur", {}, {}, 54, 1000),
    ("ravens-default", "kruki-wyscig", 2, (), None, {}, {}, 58, 1000),  # the tuned default
    ("ravens-random-hoarder", "kruki-wyscig", 2, (), "random,hoarder", {}, {}, 55, 1000),
    ("ravens-runner-weighted", "kruki-wyscig", 2, (), "runner,weighted", {}, {}, 56, 1000),
    ("ravens-params", "kruki-wyscig", 2, (), "weighted:w_opp=1.5,saboteur:max_actions=2", {"hand_limit": 6}, {},
     57, 1000),
]
