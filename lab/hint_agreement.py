"""How far a residual policy (``env.hint``) has moved from its hint and from another model.

Plays a saved model greedily in one seat (rotated) against scripted opponents and counts, over
its non-forced decisions, how often it plays the hint bot's suggestion and how often its greedy
choice equals that of a reference model (e.g. its behaviour-cloned start,
``runs/full/pretrained``) given the same input; also the mean probability of its chosen
action. Both are nanty-policy checkpoints (``agents/checkpoint.py``), read with numpy only.

    python -m lab.hint_agreement runs/full/model --reference runs/full/pretrained
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from agents.base import play_game
from agents.checkpoint import PolicyCheckpoint
from agents.policy import PolicyBot, load_for_env
from agents.registry import make_bot
from nanty_env.engine import NUM_ACTIONS, GameConfig


class CountingPolicyBot(PolicyBot):
    """A greedy PolicyBot that records how its choices compare (see the module docstring)."""

    def __init__(self, policy: PolicyCheckpoint, reference: PolicyCheckpoint | None = None) -> None:
        super().__init__(policy=policy)
        if self.hinter is None:
            raise SystemExit("the model has no hint bot (train it with env.hint)")
        self.reference = None if reference is None else PolicyBot(policy=reference)
        self.decisions = self.follows_hint = self.same_as_reference = 0
        self.top_probability = 0.0

    def act(self, view, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        if len(legal_actions) == 1:
            return int(legal_actions[0])
        obs = self.observation(view, legal_actions, rng)
        a = self.greedy(obs, legal_actions)
        self.decisions += 1
        self.follows_hint += a == int(np.argmax(obs[-NUM_ACTIONS:]))
        self.top_probability += float(self._probabilities(obs, legal_actions)[a])
        if self.reference is not None:
            b = self.reference.greedy(obs, legal_actions)
            self.same_as_reference += a == b
        return a


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--reference", help="another checkpoint to compare greedy choices with")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    ref = None if args.reference is None else load_for_env(args.reference)
    bot = CountingPolicyBot(load_for_env(args.model), ref)
    cfg = GameConfig(num_players=args.players, log=False)
    for k in range(args.games):
        bots = [make_bot(args.opponent) for _ in range(args.players)]
        bots[k % args.players] = bot
        play_game(bots, cfg, seed=args.seed + k)
    n = max(1, bot.decisions)
    print(f"{bot.decisions} non-forced decisions in {args.games} games vs {args.opponent}")
    print(f"plays the hint: {bot.follows_hint / n:.1%}")
    print(f"mean probability of its greedy action: {bot.top_probability / n:.3f}")
    if ref is not None:
        print(f"same greedy action as {args.reference}: {bot.same_as_reference / n:.1%}")


if __name__ == "__main__":
    main()
