"""Kruki (Odin's Ravens, 2nd edition) — a two-player race along a track of land cards (`sim` id `kruki-wyscig`,
alias `odins-ravens`).

Rules: docs/rules/kruki-wyscig.md (rule ids RACE-n). Parameters, variants, strategies, output columns and default
data: `rules.py`. Readable pure-Python rules (the reference for the numba kernel): `reference.py`. Designer notes:
docs/games/kruki-wyscig.md.
"""
