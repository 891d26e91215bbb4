"""Residual policies on a scripted bot: the env appends the bot's suggestion to the learner's
observation, the policy adds it to its logits with a learned weight, behaviour cloning and
``PolicyBot`` build the same input, and the config keeps hint and teacher consistent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from agents.base import play_game
from agents.policy import PolicyBot
from agents.random_bot import RandomBot
from nanty_env.encoding.observation import OBS_SIZE, encode
from nanty_env.engine import GameConfig
from nanty_env.engine.actions import NUM_ACTIONS
from nanty_env.faces.single import NantySingleAgentEnv
from training.config import ConfigError, load_config
from training.masked_policy import HintedMaskablePolicy
from training.pretrain import _batch


class LastLegal:
    """A scripted hint that keeps a record of what it was shown."""

    observes = True

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.viewed_seats: set[int] = set()
        self.observed = 0

    def reset(self, seat: int, config: GameConfig) -> None:
        self.seats.append(seat)

    def observe(self, view: dict) -> None:
        self.observed += 1
        self.viewed_seats.add(view["seat"])

    def act(self, view: dict, legal_actions, rng) -> int:
        self.viewed_seats.add(view["seat"])
        return int(max(legal_actions))


def test_env_appends_the_hint_bots_suggestion_from_the_learners_view() -> None:
    env = NantySingleAgentEnv(num_players=3, hint=LastLegal())
    hint = env.hint  # the env's own copy
    assert env.observation_space.shape == (OBS_SIZE + NUM_ACTIONS,)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        g = env.game
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(obs[:OBS_SIZE], encode(g, env.seat))
        suggestion = np.flatnonzero(obs[OBS_SIZE:])
        assert list(suggestion) == [max(g.legal_actions())]
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
        if done:
            break
    assert not obs[OBS_SIZE:].any(), "a finished game has no suggestion"
    assert hint.seats == [env.seat], "the hint bot is reset into the learner's seat"
    assert hint.viewed_seats == {env.seat}, "the hint bot saw another seat's view"
    assert hint.observed > steps // 10, "the hint bot did not observe the turns"


def _model(env: NantySingleAgentEnv, hint_bot: str = "random", weight: float = 2.5) -> MaskablePPO:
    return MaskablePPO(
        HintedMaskablePolicy,
        env,
        n_steps=16,
        batch_size=16,
        policy_kwargs={"net_arch": [16], "hint_bot": hint_bot, "hint_weight": weight},
        seed=0,
    )


def test_policy_adds_the_weighted_hint_to_the_logits() -> None:
    model = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot()))
    policy = model.policy
    obs = torch.rand(3, OBS_SIZE + NUM_ACTIONS)
    obs[:, OBS_SIZE:] = 0
    hinted = obs.clone()
    hinted[torch.arange(3), OBS_SIZE + torch.tensor([5, 9, 200])] = 1.0
    with torch.no_grad():
        plain = policy.get_distribution(obs).distribution.logits
        with_hint = policy.get_distribution(hinted).distribution.logits
        _, log_prob, _ = policy.evaluate_actions(hinted, torch.tensor([5, 9, 200]))
    # the network sees the hint too, so compare the hinted action against the others
    diff = with_hint - plain
    hinted_gap = diff[torch.arange(3), [5, 9, 200]] - diff[:, 0]
    assert policy.hint_weight.item() == pytest.approx(2.5)
    assert torch.allclose(log_prob, with_hint[torch.arange(3), [5, 9, 200]], atol=1e-5)
    assert (hinted_gap > 2.0).all(), "the hint did not raise its action's logit by ~the weight"
    zero_weight = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot()), weight=0.0)
    zero_weight.policy.load_state_dict(policy.state_dict() | {"hint_weight": torch.tensor(0.0)})
    with torch.no_grad():
        net_only = zero_weight.policy.get_distribution(hinted).distribution.logits
    shift = with_hint - net_only  # normalised log-probabilities: equal up to a row constant
    assert torch.allclose(shift - shift[:, :1], 2.5 * hinted[:, OBS_SIZE:], atol=1e-4)


def test_hint_weight_is_trained_and_saved(tmp_path: Path) -> None:
    model = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot()))
    policy = model.policy
    assert any(p is policy.hint_weight for g in policy.optimizer.param_groups for p in g["params"])
    with torch.no_grad():
        policy.hint_weight.fill_(4.25)
    model.save(tmp_path / "m.zip")
    loaded = MaskablePPO.load(tmp_path / "m.zip")
    assert isinstance(loaded.policy, HintedMaskablePolicy)
    assert loaded.policy.hint_bot == "random"
    assert loaded.policy.hint_weight.item() == pytest.approx(4.25)


def test_policy_bot_consults_the_hint_bot_and_plays_legally(tmp_path: Path) -> None:
    model = _model(NantySingleAgentEnv(num_players=3, hint=RandomBot()), hint_bot="heuristic")
    from agents.sb3_export import policy_from_sb3

    bot = PolicyBot(policy=policy_from_sb3(model.policy))
    assert bot.hinter is not None and bot.hinter.name == "heuristic"
    assert bot.observes, "HeuristicBot follows the turns, so the PolicyBot must forward them"
    asked, observed = [], []
    act, observe = bot.hinter.act, bot.hinter.observe
    bot.hinter.act = lambda view, legal, rng: asked.append(view["seat"]) or act(view, legal, rng)
    bot.hinter.observe = lambda view: observed.append(view["seat"]) or observe(view)
    cfg = GameConfig(num_players=3, log=False)
    _, record = play_game([RandomBot(), bot, RandomBot()], cfg, seed=2)  # rejects illegal moves
    assert record.turns > 0
    assert asked and set(asked) == {1} and set(observed) == {1}


def test_cloning_rows_carry_the_teachers_action_as_hint() -> None:
    model = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot()))
    data = {
        "obs": np.random.default_rng(0).random((4, OBS_SIZE)).astype(np.float16),
        "mask": np.ones((4, NUM_ACTIONS), dtype=bool),
        "action": np.array([3, 0, 404, 17]),
        "ret": np.zeros(4, dtype=np.float32),
    }
    obs, _, act, _ = _batch(data, np.array([2, 0]), model.policy)
    assert obs.shape == (2, OBS_SIZE + NUM_ACTIONS)
    assert torch.equal(obs[:, OBS_SIZE:].argmax(dim=1), act) and obs[:, OBS_SIZE:].sum() == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("env: {hint: foo}", "hint: unknown bot 'foo'"),
        ("env: {hint: ismcts}", "hint must be one of"),
        ("env: {hint_weight: -1}", "hint_weight must be non-negative"),
        (
            "env: {hint: random}\npretrain: {enabled: true, teacher: heuristic}",
            "env.hint ('random') and pretrain.teacher ('heuristic') must be the same bot",
        ),
    ],
)
def test_hint_config_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert message in str(err.value) and str(path) in str(err.value)


def test_stateful_bots_are_not_shared_between_games_or_seats() -> None:
    from agents.heuristic import HeuristicBot
    from nanty_env.vector import NantyVecEnv

    hint, opponent = HeuristicBot(), HeuristicBot()
    make = lambda: NantySingleAgentEnv(num_players=3, opponents=opponent, hint=hint)  # noqa: E731
    venv = NantyVecEnv([make, make])
    a, b = venv.envs
    assert a.hint is not b.hint and hint not in (a.hint, b.hint)
    seated = [*a.opponents, *b.opponents]
    assert len({id(o) for o in seated}) == 4 and opponent not in seated
    venv.reset()
    for env in venv.envs:
        assert env.hint.seat == env.seat, "each game's hint bot sits in its own learner's seat"
        others = sorted(o.seat for o in env.opponents)
        assert others == [s for s in range(3) if s != env.seat]


def test_value_only_cloning_leaves_the_policy_as_it_was() -> None:
    from training.pretrain import pretrain_policy

    model = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot()))
    rng = np.random.default_rng(0)
    n = 64
    mask = rng.random((n, NUM_ACTIONS)) < 0.05
    action = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
    mask[np.arange(n), action] = True
    data = {
        "obs": rng.random((n, OBS_SIZE)).astype(np.float16),
        "mask": mask,
        "action": action,
        "ret": rng.normal(size=n).astype(np.float32),
    }
    before = {k: v.clone() for k, v in model.policy.state_dict().items()}
    for fit_policy, policy_moves in ((False, False), (True, True)):
        cfg = load_config(
            Path(__file__).resolve().parents[2] / "configs" / "quick.yaml",
            **{"pretrain.fit_policy": fit_policy, "pretrain.batch_size": 16},
        )
        pretrain_policy(model, data, cfg, log=lambda *_: None, epochs=1)
        after = model.policy.state_dict()
        moved = {k for k in after if not torch.equal(after[k], before[k])}
        assert any(k.startswith("value_net") for k in moved)
        policy_keys = {k for k in after if k.startswith(("action_net", "mlp_extractor.policy"))}
        policy_keys.add("hint_weight")
        assert bool(moved & policy_keys) == policy_moves, sorted(moved)
        before = {k: v.clone() for k, v in after.items()}


def test_update_on_the_legal_columns_keeps_the_hint() -> None:
    """With masks, evaluate_actions takes the head on the legal columns only; the hint must be
    added there as in the full head."""
    policy = _model(NantySingleAgentEnv(num_players=2, hint=RandomBot())).policy
    g = torch.Generator().manual_seed(3)
    obs = (torch.rand(6, OBS_SIZE + NUM_ACTIONS, generator=g) < 0.05).float()
    obs[:, OBS_SIZE:] = 0
    masks = np.zeros((6, NUM_ACTIONS), dtype=bool)
    legal = [[1, 5, 9], [5, 40], [200, 201, 9], [7], [1, 300], [5, 9, 300]]
    for row, actions in enumerate(legal):
        masks[row, actions] = True
        obs[row, OBS_SIZE + actions[-1]] = 1.0  # the hint: each row's last legal action
    acts = torch.tensor([a[0] for a in legal])
    with torch.no_grad():
        _, log_prob, entropy = policy.evaluate_actions(obs, acts, action_masks=masks)
        full = policy.get_distribution(obs, action_masks=masks)
    assert torch.allclose(log_prob, full.log_prob(acts), atol=1e-5)
    assert torch.allclose(entropy, full.entropy(), atol=1e-5)
