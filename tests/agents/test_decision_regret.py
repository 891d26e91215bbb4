"""The regret probe counts every multi-option decision of seat 0 and scores them sensibly."""

from agents.base import bot_rngs, play_game
from agents.registry import make_bot
from lab.decision_regret import FIRST_SEED, probe
from nanty_env.engine import GameConfig


def test_probe_counts_the_seats_real_decisions_and_regret_is_never_negative() -> None:
    stats, wins = probe("random", players=2, games=1)
    cfg = GameConfig(num_players=2, log=False)
    seen = []
    play_game(
        [make_bot("random"), make_bot("heuristic")],
        cfg,
        FIRST_SEED,
        bot_rngs(FIRST_SEED, 2),
        on_action=lambda g, a: (
            seen.append(g.decision)
            if g.current_player == 0 and len(g.legal_actions()) > 1
            else None
        ),
    )
    assert sum(s.decisions for s in stats.values()) == len(seen)
    assert {k: s.decisions for k, s in stats.items()} == {k: seen.count(k) for k in set(seen)}
    regrets = [r for s in stats.values() for r in s.regrets]
    assert regrets and min(regrets) >= 0.0
    assert max(regrets) > 0.0  # a random bot gives value away somewhere
    assert wins in (0, 1)
