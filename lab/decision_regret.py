"""Where a bot's decisions lose value, by decision kind, as HeuristicBot's look-ahead judges them.

The bot plays seat 0 against HeuristicBots. At each of its decisions with more than one legal
action, a HeuristicBot judge in the same seat (fed the seat's own turn-start views, so its role
belief is the seat's) scores every useful action with its one-turn look-ahead on one
determinisation of the seat's view; the decision's *regret* is the best score minus the score
of the action the bot took. Decisions the judge settles without a look-ahead (an obvious action,
one useful action) count for agreement only.

    python -m lab.decision_regret --bot distilled:teacher=heuristic --players 2 --games 30

A research probe: it tells which kinds of decision a network copy gets wrong and how much each
costs in the judge's values, not how strong the bot is.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from agents.base import bot_rngs, play_game
from agents.heuristic import HeuristicBot, TurnPlanner, obvious_action, useful_actions
from agents.registry import make_bot
from agents.rulesets import symbols
from agents.sampling import determinize_view
from nanty_env.engine import Game, GameConfig

FIRST_SEED = 7000  # deals of their own, apart from the evaluations' small seeds


@dataclass
class KindStats:
    """One decision kind's counts: decisions, agreements with the judge, regrets scored."""

    decisions: int = 0
    agreed: int = 0
    regrets: list[float] = field(default_factory=list)


def judge_decision(
    judge: HeuristicBot, g: Game, action: int, rng: np.random.Generator
) -> tuple[int, float | None]:
    """(the judge's choice, the regret of ``action``, or None when the judge did not score:
    an obvious action or a single useful one). An action the judge would not consider is
    scored beside its candidates."""
    view = g.view(g.current_player)
    legal = view["legal_actions"]
    obvious = obvious_action(view, legal, symbols(judge.config_for(view)))
    if obvious is not None:
        return obvious, None
    useful = list(useful_actions(g.decision, legal))
    if len(useful) == 1:
        return int(useful[0]), None
    ev = judge.evaluator(view)
    h = determinize_view(view, rng, ev.config)
    scores = TurnPlanner(ev, judge.depth).scores(h, useful + [action] * (action not in useful))
    best = int(np.argmax(scores[: len(useful)]))
    chosen = useful.index(action) if action in useful else len(useful)
    return int(useful[best]), float(scores[best] - scores[chosen])


def probe(
    bot: str, players: int, games: int, first_seed: int = FIRST_SEED
) -> tuple[dict[str, KindStats], int]:
    """Per decision kind :class:`KindStats` of ``bot`` in seat 0, and its wins."""
    cfg = GameConfig(num_players=players, log=False)
    stats: dict[str, KindStats] = defaultdict(KindStats)
    wins = 0
    for i in range(games):
        seed = first_seed + i
        judge = HeuristicBot()
        judge.reset(0, cfg)
        rng = np.random.default_rng([seed, 99])

        def on_turn(g: Game, judge: HeuristicBot = judge) -> None:
            judge.observe(g.view(0))

        def on_action(g: Game, a: int, judge=judge, rng=rng) -> None:
            if g.current_player != 0 or len(g.legal_actions()) == 1:
                return
            choice, regret = judge_decision(judge, g, a, rng)
            st = stats[g.decision]
            st.decisions += 1
            st.agreed += int(choice == a)
            if regret is not None:
                st.regrets.append(regret)

        bots = [make_bot(bot), *(make_bot("heuristic") for _ in range(players - 1))]
        _, record = play_game(bots, cfg, seed, bot_rngs(seed, players), on_turn=on_turn,
                              on_action=on_action)  # fmt: skip
        wins += 0 in record.winners
    return dict(stats), wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", required=True)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=30)
    args = ap.parse_args()
    stats, wins = probe(args.bot, args.players, args.games)
    total = sum(s.decisions for s in stats.values())
    print(f"{args.bot}: {wins} / {args.games} games won, {total} decisions")
    print(
        f"{'decision':24s} {'n':>6s} {'share':>6s} {'agree':>6s} {'regret':>8s} {'>0.1':>6s} {'sum':>7s}"
    )
    for kind, s in sorted(stats.items(), key=lambda kv: -sum(kv[1].regrets)):
        r = np.array(s.regrets) if s.regrets else np.zeros(1)
        print(
            f"{kind:24s} {s.decisions:6d} {s.decisions / total:6.3f} {s.agreed / s.decisions:6.3f}"
            f" {r.mean():8.4f} {np.mean(r > 0.1):6.3f} {r.sum():7.1f}"
        )


if __name__ == "__main__":
    main()
