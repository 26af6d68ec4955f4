"""What the public API returns (sim/api.py): finished runs with their analysis as pandas DataFrames.

Everything here is computed from exact aggregates by analysis/; the objects keep the engine's results too
(`.result`, `.multi`) for reports and the command line.
"""
from __future__ import annotations

from functools import cached_property

from sim.seats import seat_number

SEAT_COLUMNS = ("seat", "strategy", "games", "wins", "win_share", "win_lo", "win_hi", "score_mean", "score_se",
                "score_min", "score_max", "rank_mean")
STRATEGY_COLUMNS = ("strategy", "seats", "seat_games", "wins", "win_share", "win_lo", "win_hi", "score_mean",
                    "score_se", "rank_mean")


def _frame(rows, columns, **constant):
    import pandas as pd
    df = pd.DataFrame([{c: _seat_numbers(c, row.get(c)) for c in columns} for row in rows], columns=list(columns))
    for i, (name, value) in enumerate(constant.items()):
        df.insert(i, name, value)
    return df


def _seat_numbers(column, value):
    """Seat indices of a summary row (0-based, as every array) as the seat numbers a person reads (1-based)."""
    if column == "seat":
        return seat_number(value)
    if column == "seats":
        return [seat_number(s) for s in value]
    return value


def summary_json(summary, aggregate):
    """Exactly what summary.json holds: the summary and its aggregate, as JSON data."""
    import json

    from sim.results import json_default
    return json.loads(json.dumps({**summary, "aggregate": aggregate.to_dict()}, default=json_default))


class RunReport:
    """One finished run: `seats`, `strategies` (DataFrames), `summary` (summary.json), `games` (rows or None)."""

    def __init__(self, outcome):
        self.outcome = outcome
        self.result = outcome.result
        self.config = outcome.result.config
        self.aggregate = outcome.result.aggregate
        self.summary = summary_json(outcome.summary, self.aggregate)
        self.games = outcome.games
        self.run_dir = outcome.run_dir
        self.manifest = outcome.manifest or None
        self.convergence = outcome.convergence
        self.report_files = []  # the HTML reports the API wrote (report.html in run_dir, the html= copy)

    @cached_property
    def context(self):
        """The report context (sim.reporting): the analysis the terminal tables, the verdict and the HTML share."""
        from sim.reporting import run_context
        return run_context(self.outcome)

    @property
    def n(self):
        return self.aggregate.n

    @property
    def complete(self):
        return self.result.complete

    @property
    def seats(self):
        return _frame(self.summary["seats"], SEAT_COLUMNS)

    @property
    def strategies(self):
        return _frame(self.summary["strategies"], STRATEGY_COLUMNS)

    def __repr__(self):
        return (f"<RunReport {self.config.game.id} {self.config.players}p, {self.n:,} games"
                f"{'' if self.complete else ' (partial)'}>")


class Comparison:
    """Several configurations on the same games: `rows` (one per configuration, balance metrics with intervals),
    `seats` (per configuration and seat), `paired` (paired differences vs the first configuration of the same seat
    count, Holm-corrected; None when no configuration shares its seat count)."""

    def __init__(self, outcome):
        self.outcome = outcome
        self.kind = outcome.kind
        self.labels = outcome.labels
        self.multi = outcome.multi
        self.results = outcome.multi.results
        self.summaries = [summary_json(s, r.aggregate) for s, r in zip(outcome.summaries, self.results)]
        self.run_dir = outcome.run_dir
        self.command = outcome.command
        variants = {label: sums.as_paired() for label, sums in zip(self.labels, self.multi.paired)
                    if sums is not None}
        baselines = {label: self.labels[j] for label, j in zip(self.labels, self.multi.paired_with) if j is not None}
        self.paired_sums = {"baseline": self.labels[0], "variants": variants, "baselines": baselines} \
            if variants else None
        self.report_files = []

    def _title(self):
        return f"{self.results[0].config.game.title}: {' vs '.join(self.labels)}"

    def _sections(self):
        return {"comparison": {"paired": self.paired_sums} if self.paired_sums else None}

    @cached_property
    def context(self):
        """The report context (sim.reporting): the analysis the terminal tables, the verdict and the HTML share."""
        from sim.reporting import outcome_context
        return outcome_context(self.outcome, self._title(), **self._sections())

    @property
    def n(self):
        return self.results[0].aggregate.n

    @property
    def complete(self):
        return all(r.complete for r in self.results)

    @property
    def rows(self):
        import pandas as pd

        from analysis.balance import balance_metrics
        rows = []
        for label, result, summary in zip(self.labels, self.results, self.summaries):
            row = {"label": label, "players": result.config.players, "games": result.aggregate.n}
            for s, seat in enumerate(summary["seats"], start=1):  # win_share_s1 is the first seat's
                row.update({f"win_share_s{s}": seat["win_share"], f"win_lo_s{s}": seat["win_lo"],
                            f"win_hi_s{s}": seat["win_hi"]})
            for name, m in balance_metrics(result.aggregate, result.config.game).items():
                row.update({name: m["value"], f"{name}_lo": m["lo"], f"{name}_hi": m["hi"]})
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def seats(self):
        import pandas as pd
        return pd.concat([_frame(s["seats"], SEAT_COLUMNS, label=label) for label, s in zip(self.labels,
                                                                                          self.summaries)],
                         ignore_index=True)

    @property
    def paired(self):
        if self.paired_sums is None:
            return None
        from analysis.compare import paired_differences
        return paired_differences(self.paired_sums)

    def __repr__(self):
        return f"<{type(self).__name__} {' vs '.join(self.labels)}, {self.n:,} games each>"


class Sweep(Comparison):
    """A Comparison whose configurations are the values of one parameter: `rows` carry a `value` column (and, for
    a sweep crossed with seat counts, `values` repeats the values once per count, in the order of `rows`)."""

    def __init__(self, outcome, param, values):
        super().__init__(outcome)
        self.param, self.values = param, list(values)

    def _title(self):
        return f"{self.results[0].config.game.title}: sweep of {self.param}"

    def _sections(self):
        return {**super()._sections(), "sweep": {"param": self.param, "values": self.values}}

    @property
    def rows(self):
        df = super().rows
        df.insert(1, "value", self.values)
        return df


class Tournament:
    """Strategies over every seat rotation: `strategies` (totals with intervals), `wins`/`games` (pairwise
    comparisons, DataFrames indexed by strategy; a strategy against its own copies is not counted), `met` (games
    both strategies played), `ratings` (Bradley–Terry with intervals), `lineups` (one row per line-up), `mode` (how
    the line-ups were formed: distinct, one-vs-rest or all)."""

    def __init__(self, outcome, mode=None):
        from analysis.tournament import strategy_names, tournament_matrix
        self.outcome = outcome
        self.mode = mode
        self.labels = outcome.labels
        self.multi = outcome.multi
        self.results = outcome.multi.results
        self.run_dir = outcome.run_dir
        self.command = outcome.command
        self.lineup_aggregates = [([s.label for s in r.config.seats], r.aggregate) for r in self.results]
        self.names = strategy_names(self.lineup_aggregates)
        self.wins_matrix, self.games_matrix = tournament_matrix(self.lineup_aggregates, self.names)
        self.report_files = []

    @cached_property
    def context(self):
        """The report context (sim.reporting): the analysis the terminal tables, the verdict and the HTML share."""
        from sim.reporting import outcome_context
        title = f"{self.results[0].config.game.title}: tournament of {len(self.names)} strategies"
        return outcome_context(self.outcome, title, tournament=self.section())

    def section(self):
        """The report context's "tournament" entry (sim.reporting)."""
        return {"strategies": self.names, "wins": self.wins_matrix.tolist(), "games": self.games_matrix.tolist(),
                "mode": self.mode}

    @property
    def complete(self):
        return all(r.complete for r in self.results)

    @property
    def strategies(self):
        from analysis.tournament import strategy_totals
        return strategy_totals(self.lineup_aggregates, self.names)

    @property
    def wins(self):
        import pandas as pd
        return pd.DataFrame(self.wins_matrix, index=self.names, columns=self.names)

    @property
    def games(self):
        import pandas as pd
        return pd.DataFrame(self.games_matrix, index=self.names, columns=self.names)

    @property
    def met(self):
        import pandas as pd

        from analysis.tournament import common_games
        return pd.DataFrame(common_games(self.lineup_aggregates, self.names), index=self.names, columns=self.names)

    @property
    def ratings(self):
        from analysis.ratings import bradley_terry
        return bradley_terry(self.wins_matrix, self.names, per_game=self.met.to_numpy(), compared=self.games_matrix)

    @property
    def lineups(self):
        import pandas as pd
        return pd.DataFrame([{"lineup": label, "games": r.aggregate.n} for label, r in zip(self.labels,
                                                                                           self.results)])

    @property
    def per_lineup(self):
        """Games each line-up played."""
        return self.results[0].aggregate.n

    def __repr__(self):
        return f"<Tournament of {', '.join(self.names)}, {len(self.results)} line-ups ({self.mode})>"


class Trace:
    """One game, event by event: `events` (dicts with "text"), `result` (score, rank, win share per seat, ...)."""

    def __init__(self, config, game_index, events, record):
        self.config, self.game_index, self.events, self.result = config, game_index, events, record

    def lines(self):
        """The text `sim trace` prints."""
        cfg = self.config
        out = [f"{cfg.game.title}: game {self.game_index} of seed {cfg.seed}, {cfg.players} players"]
        out += [ev["text"] for ev in self.events]
        if self.fault:
            return out
        r = self.result
        out += [f"seat {seat_number(s)} ({cfg.seats[s].label}): score {r['score'][s]}, rank {r['rank'][s]}, "
                f"win share {r['win'][s]:g}" for s in range(cfg.players)]
        return out

    @property
    def fault(self):
        """The fault's line when a strategy broke the rules in this game (the events stop there), else None."""
        return self.events[-1]["text"] if self.events and self.events[-1]["kind"] == "fault" else None

    def __repr__(self):
        return f"<Trace {self.config.game.id} game {self.game_index}: {len(self.events)} events>"


class Skill:
    """A skill ladder (sim.skill): `rungs`, `variants`; DataFrames `index` (the luck-vs-skill index per variant),
    `pairwise` (each rung's win share against each other, shared ranks half), `ratings` (Bradley–Terry per
    variant), `dominance` (per variant and rung: does it beat every other), `differences` (each variant's index
    minus the reference's, paired); `analysis` is analysis.skill.analyse_skill's dict."""

    def __init__(self, outcome, section):
        from analysis.skill import analyse_skill
        self.outcome, self.section = outcome, section
        self.labels, self.multi, self.results = outcome.labels, outcome.multi, outcome.multi.results
        self.run_dir, self.command = outcome.run_dir, outcome.command
        self.rungs, self.players = list(section["rungs"]), section["players"]
        self.variants = [v["variant"] for v in section["variants"]]
        runs = [{"seat_labels": [s.label for s in r.config.seats], "aggregate": r.aggregate} for r in self.results]
        self.analysis = analyse_skill(section, runs)
        self.report_files = []

    @cached_property
    def context(self):
        """The report context (sim.reporting), kind "skill"."""
        from sim.reporting import outcome_context
        title = f"{self.results[0].config.game.title}: skill ladder at {self.players} players"
        return outcome_context(self.outcome, title, skill=self.section)

    @property
    def complete(self):
        return all(r.complete for r in self.results)

    @property
    def per_lineup(self):
        return self.results[0].aggregate.n

    @property
    def index(self):
        import pandas as pd
        columns = ["variant", "strategy", "share", "lo", "hi", "n", "fair", "index", "index_lo", "index_hi"]
        return pd.DataFrame([{"variant": v["variant"], **{k: v["index"][k] for k in columns[1:]}}
                             for v in self.analysis["variants"] if v["index"]], columns=columns)

    @property
    def pairwise(self):
        import pandas as pd
        rows = []
        for v in self.analysis["variants"]:
            for i, a in enumerate(v["strategies"]):
                for j, b in enumerate(v["strategies"]):
                    if i != j:
                        rows.append({"variant": v["variant"], "strategy": a, "opponent": b, "share": v["share"][i, j],
                                     "lo": v["lo"][i, j], "hi": v["hi"][i, j], "n": int(v["met"][i, j])})
        return pd.DataFrame(rows)

    @property
    def ratings(self):
        import pandas as pd
        return pd.concat([v["ratings"].assign(variant=v["variant"]) for v in self.analysis["variants"]],
                         ignore_index=True)

    @property
    def dominance(self):
        import pandas as pd
        return pd.DataFrame([{"variant": v["variant"], "strategy": r["strategy"], "dominates": r["dominates"]}
                             for v in self.analysis["variants"] for r in v["dominance"]])

    @property
    def differences(self):
        import pandas as pd
        columns = ["variant", "reference", "diff", "lo", "hi", "p", "p_holm", "significant", "batches", "n"]
        return pd.DataFrame(self.analysis["differences"], columns=columns)

    def __repr__(self):
        return (f"<Skill ladder {' → '.join(self.rungs)} at {self.players} players, {len(self.variants)} "
                f"variant(s), {self.per_lineup:,} games per line-up>")
