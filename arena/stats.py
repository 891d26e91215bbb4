"""Tournament statistics: win rates with 95 % confidence intervals, per bot, per personality and
per seat, and multi-player ratings with uncertainty (openskill's Plackett-Luce model).

Input is a list of game records (plain dicts, as :mod:`arena.tournament` writes them):

``{"game": i, "seats": [entry index per seat], "winners": [seats], "personalities": [ids],
"reason": str, ...}``

and the list of entries (bot specs in the order given; the same spec may appear several times,
e.g. three random bots). Statistics are pooled per bot spec; ratings are kept per entry, since
one rating cannot sit in two seats of the same game.

Besides per personality and per seat, wins are split by who held an *end-rule* personality at
the end (one whose win is judged when the game ends, e.g. Sherlock Holmes, who wins when the
deck runs out): the bot itself, an opponent, or nobody. At a four-player table of HeuristicBots
such a seat wins most of the games it is in, so this split shows where a bot gains or loses.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scipy.stats import binomtest

Z95 = 1.959963984540054  # two-sided 95 % normal quantile

HOLDERS = ("self", "an opponent", "nobody")
"""Who held an end-rule personality at the end of a game, from one seat's point of view."""


def wilson_interval(wins: int, games: int) -> tuple[float, float]:
    """95 % Wilson score interval for a binomial proportion (sensible near 0 and 1 too);
    ``(0, 1)`` when no game was played."""
    if games <= 0:
        return (0.0, 1.0)
    ci = binomtest(int(wins), int(games)).proportion_ci(confidence_level=0.95, method="wilson")
    return (max(0.0, float(ci.low)), min(1.0, float(ci.high)))


def rate_row(games: int, wins: int) -> dict[str, Any]:
    lo, hi = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [lo, hi],
    }


def entry_labels(specs: Sequence[str]) -> list[str]:
    """Unique labels for the entries: repeats of a spec get ``#2``, ``#3``, ..."""
    seen: Counter[str] = Counter()
    out = []
    for s in specs:
        seen[s] += 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def end_rule_personalities() -> frozenset[str]:
    """Ids of the personalities whose win is judged when the game ends (the game data's
    ``end_rule``): Sherlock Holmes, and the variant deck's conditional Holmes and Fagin."""
    from nanty_env.data import load_game_data

    return frozenset(p.id for p in load_game_data().personalities if p.end_rule)


def holder(personalities: Sequence[str], seat: int, enders: frozenset[str]) -> str:
    """Who, seen from ``seat``, holds a personality in ``enders`` (one of :data:`HOLDERS`)."""
    if personalities[seat] in enders:
        return "self"
    return "an opponent" if any(p in enders for p in personalities) else "nobody"


def win_tables(
    specs: Sequence[str],
    records: Sequence[Mapping[str, Any]],
    enders: frozenset[str] | None = None,
) -> dict[str, Any]:
    """Win counts pooled per bot spec: overall, per personality, per seat and by who held an
    end-rule personality (``enders``, default :func:`end_rule_personalities`) at the end."""
    enders = end_rule_personalities() if enders is None else enders
    overall: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_persona: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    by_seat: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    by_holder: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        winners = set(r["winners"])
        personas = r["personalities"]
        for seat, e in enumerate(r["seats"]):
            bot = specs[e]
            won = int(seat in winners)
            for cell in (
                overall[bot],
                by_persona[bot, personas[seat]],
                by_seat[bot, seat],
                by_holder[bot, holder(personas, seat, enders)],
            ):
                cell[0] += 1
                cell[1] += won
    order = list(dict.fromkeys(specs))
    return {
        "bots": [{"name": b, **rate_row(*overall[b])} for b in order if b in overall],
        "by_personality": _split_rows(by_persona, "personality", order),
        "by_seat": _split_rows(by_seat, "seat", order),
        "by_end_rule_holder": _split_rows(by_holder, "holder", order, HOLDERS.index),
    }


def _split_rows(
    cells: Mapping[tuple[str, Any], list[int]],
    field: str,
    order: list[str],
    rank: Callable[[Any], Any] = lambda k: k,
) -> list[dict[str, Any]]:
    """One row per (bot, ``field`` value) cell, in the bots' order, then by ``rank`` of the value."""
    return [
        {"bot": b, field: k, **rate_row(*v)}
        for (b, k), v in sorted(
            cells.items(), key=lambda kv: (order.index(kv[0][0]), rank(kv[0][1]))
        )
    ]


def ratings(
    specs: Sequence[str], records: Sequence[Mapping[str, Any]], model: Any = None
) -> list[dict[str, Any]]:
    """Plackett-Luce ratings (openskill) per entry, updated game by game in game order.

    Each game is a free-for-all of single-player teams ranked winners first (tied), everyone
    else second (tied). Returns ``mu``, ``sigma`` and the conservative ``ordinal`` (mu - 3 sigma)
    per entry.
    """
    from openskill.models import PlackettLuce

    model = model or PlackettLuce()
    labels = entry_labels(specs)
    table = {lab: model.rating(name=lab) for lab in labels}
    for r in sorted(records, key=lambda r: r["game"]):
        seats = r["seats"]
        winners = set(r["winners"])
        teams = [[table[labels[e]]] for e in seats]
        ranks = [1 if s in winners else 2 for s in range(len(seats))]
        new = model.rate(teams, ranks=ranks)
        for e, team in zip(seats, new, strict=True):
            table[labels[e]] = team[0]
    return [
        {
            "entry": lab,
            "bot": spec,
            "mu": table[lab].mu,
            "sigma": table[lab].sigma,
            "ordinal": table[lab].mu - 3 * table[lab].sigma,
        }
        for lab, spec in zip(labels, specs, strict=True)
    ]


def end_rule_roles(expansion: str | None, content: str | None = None) -> frozenset[str]:
    """The end-rule roles of a ruleset: :func:`end_rule_personalities`, or in the expansion
    the objectives judged when the game ends (Sloth)."""
    from agents.rulesets import bot_expansion

    if bot_expansion(expansion) is None:  # the base game or a variant of it
        return end_rule_personalities()
    from nanty_env.engine import GameConfig, tables_for

    t = tables_for(GameConfig(expansion=expansion, content=content))
    return frozenset(o.id for o in t.data.objectives if o.rule)  # type: ignore[attr-defined]


def deal_outcomes(specs: Sequence[str], records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How much the deal decided, over the deals played in every seating (every rotation).

    A deal is won by the *same seat* when the same seats won every one of its games (the seat's
    personality and cards decided, whoever sat there); else by the *same bot* when one bot
    spec won every game (one of its copies, with several); else it is *mixed*. Only the deals
    that are not decided by their seat can separate the bots. Records without a deal seed and
    rotation are left out."""
    by_deal: dict[int, dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for r in records:
        if "deal_seed" in r and "rotation" in r:
            by_deal[int(r["deal_seed"])][int(r["rotation"])] = r
    n = len(records[0]["seats"]) if records else 0
    same_seat, mixed, complete = 0, 0, 0
    same_bot: Counter[str] = Counter()
    for games in by_deal.values():
        if sorted(games) != list(range(n)):
            continue
        complete += 1
        won = [frozenset(r["winners"]) for r in games.values()]
        if won[0] and all(w == won[0] for w in won):
            same_seat += 1
            continue
        bots = [{specs[r["seats"][seat]] for seat in r["winners"]} for r in games.values()]
        always = set.intersection(*bots)
        if len(always) == 1:
            same_bot[always.pop()] += 1
        else:
            mixed += 1
    order = list(dict.fromkeys(specs))
    return {
        "complete_deals": complete,
        "same_seat": same_seat,
        "same_bot": {b: same_bot[b] for b in order},
        "mixed": mixed,
    }


def summarize(
    specs: Sequence[str],
    records: Sequence[Mapping[str, Any]],
    enders: frozenset[str] | None = None,
) -> dict[str, Any]:
    """Everything a tournament reports (see :mod:`arena.tournament` for the JSON layout);
    ``enders``: the end-rule roles (default: the base game's personalities)."""
    out = win_tables(specs, records, enders)
    rated = ratings(specs, records)
    for row in out["bots"]:
        mine = [x for x in rated if x["bot"] == row["name"]]
        row["entries"] = len(mine)
        row["rating_mu"] = sum(x["mu"] for x in mine) / len(mine)
        row["rating_sigma"] = sum(x["sigma"] for x in mine) / len(mine)
    out["ratings"] = rated
    out["reasons"] = dict(Counter(r["reason"] for r in records).most_common())
    out["deals"] = deal_outcomes(specs, records)
    seconds: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for seat, e in enumerate(r["seats"]):
            seconds[specs[e]].append(r.get("seconds", [0.0] * len(r["seats"]))[seat])
    for row in out["bots"]:
        xs = seconds[row["name"]]
        row["seconds_per_game"] = sum(xs) / len(xs) if xs else 0.0
    return out
