"""Typed training configs: the shipped files load, and mistakes name the key and the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.config import ConfigError, TrainConfig, load_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["quick.yaml", "full.yaml"])
def test_shipped_configs_load(name: str) -> None:
    cfg = load_config(ROOT / "configs" / name)
    assert isinstance(cfg, TrainConfig)
    assert cfg.ppo.total_timesteps > 0 and cfg.env.num_players in (2, 3, 4)


def test_overrides_by_dotted_key() -> None:
    cfg = load_config(ROOT / "configs" / "quick.yaml", **{"ppo.total_timesteps": 123, "seed": 9})
    assert cfg.ppo.total_timesteps == 123 and cfg.seed == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ppo: {nsteps: 3}", "unknown key 'ppo.nsteps'"),
        ("colour: red", "unknown key 'colour'"),
        ("ppo: {n_steps: -1}", "n_steps must be positive"),
        ("ppo: {n_steps: 2.5}", "'ppo.n_steps' must be int"),
        ("ppo: {net_arch: [64, abc]}", "'ppo.net_arch[1]' must be int"),
        ("env: {num_players: 5}", "num_players must be one of"),
        ("env: {shaping: lots}", "shaping must be one of"),
        ("seed: abc", "'seed' must be int"),
        ("eval: {opponents: [foo]}", "opponents: unknown bot 'foo'"),
        ("eval: {opponents: [ismcts]}", "opponents must be one of"),
        ("eval: {workers: 0}", "workers must be positive"),
        ("pretrain: {enabled: yes_please}", "'pretrain.enabled' must be bool"),
        ("pretrain: {teacher: foo}", "teacher: unknown bot 'foo'"),
        ("pretrain: {games: 0}", "games must be positive"),
        ("pretrain: {value_coef: -1}", "value_coef must be non-negative"),
        ("pretrain: {epoch: 3}", "unknown key 'pretrain.epoch'"),
        ("pretrain: {vs: {foo: 10}}", "vs: unknown bot 'foo'"),
        ("pretrain: {vs: {ismcts: 10}}", "vs must be one of"),
        ("pretrain: {vs: {random: 0}}", "vs.random must be positive"),
        ("pretrain: {vs: {random: 2.5}}", "'pretrain.vs.random' must be int"),
        ("pretrain: {vs: [random]}", "'pretrain.vs' must be a mapping"),
        ("pretrain: {dagger_rounds: -1}", "dagger_rounds must be non-negative"),
        ("pretrain: {dagger_rounds: 1.5}", "'pretrain.dagger_rounds' must be int"),
        ("pretrain: {dagger_vs: {foo: 10}}", "dagger_vs: unknown bot 'foo'"),
        ("pretrain: {dagger_vs: {ismcts: 10}}", "dagger_vs must be one of"),
        ("pretrain: {dagger_vs: {random: -1}}", "dagger_vs.random must be non-negative"),
        ("pretrain: {dagger_vs: [random]}", "'pretrain.dagger_vs' must be a mapping"),
        (
            "pretrain: {dagger_rounds: 2, dagger_vs: {random: 0}}",
            "dagger_vs must have at least one game",
        ),
        ("pretrain: {dagger_epochs: 0}", "dagger_epochs must be positive"),
        ("ppo: {target_kl: 0}", "target_kl must be positive"),
        ("ppo: {update_threads: 0}", "update_threads must be positive"),
        ("ppo: {adapt_update_threads: sometimes}", "'ppo.adapt_update_threads' must be bool"),
        ("cpu_limit_minutes: -5", "cpu_limit_minutes must be positive"),
        ("selfplay: {weights: {bots: 1.0}}", "weights: unknown bot 'bots'"),
        ("selfplay: {whole_table: 1.5}", "whole_table must be in [0, 1]"),
        ("ppo: [1, 2]", "'ppo' must be a mapping"),
        ("- 1\n- 2", "top level must be a mapping"),
        ("ppo: {n_steps: [", "not valid YAML"),
        ("device: tpu", "device must be 'cpu', 'cuda', 'cuda:N', 'mps' or 'auto', got 'tpu'"),
        ("seed: -1", "seed must be non-negative, got -1"),
        ("ppo: {ent_coef: -0.01}", "ppo: ent_coef must be non-negative"),
        ("ppo: {clip_range: -0.2}", "ppo: clip_range must be positive"),
        ("ppo: {clip_range: 0}", "ppo: clip_range must be positive"),
        ("selfplay: {weights: {random: .nan}}", "'selfplay.weights.random' must be a finite"),
        ("env: {hint_weight: .inf}", "'env.hint_weight' must be a finite number"),
        ("ppo: {target_kl: .nan}", "'ppo.target_kl' must be a finite number"),
        ("time_limit_minutes: .nan", "'time_limit_minutes' must be a finite number"),
        ("seed: 1\nout: x\nseed: 2", "key 'seed' given twice (lines 1 and 3)"),
        ("ppo:\n  n_steps: 64\n  n_epochs: 2\n  n_steps: 128", "key 'n_steps' given twice"),
    ],
)
def test_errors_name_key_and_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_empty_file_gives_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    assert load_config(path) == TrainConfig()


def test_configs_built_in_code_are_checked_too() -> None:
    from dataclasses import replace

    from training.config import validate_config

    cfg = TrainConfig()
    validate_config(cfg)
    for bad, message in (
        (replace(cfg, device="tpu"), "device must be"),
        (replace(cfg, ppo=replace(cfg.ppo, ent_coef=-1.0)), "ppo: ent_coef must be"),
        (replace(cfg, env=replace(cfg.env, reward_mode="bogus")), "env: reward_mode must be"),
    ):
        with pytest.raises(ConfigError, match=message):
            validate_config(bad)


def test_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config"):
        load_config(tmp_path / "nope.yaml")
