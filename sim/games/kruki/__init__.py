"""Crows (`kruki`, alias `crows`; Tyler Sigman, Valley Games 2010): tiles, shinies and flocking crows.

Rules: docs/rules/kruki.md (rule ids KRUKI-<n>). `rules.py` holds the parameters, variants, strategies, output
columns and default data; `reference.py` is the readable pure-Python rule set used for differential tests and to
explain surprising results; `kernel.py` the njit rules; `strategies/kruki.py` the observation and the heuristics.
Designer notes: docs/games/kruki.md.
"""
