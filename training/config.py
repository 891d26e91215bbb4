"""Typed training configuration loaded from YAML, with errors that name the key and the file.

A config file has the sections of :class:`TrainConfig`; every key is optional (defaults below)
but unknown keys, repeated keys, wrongly typed values, numbers that are not finite (``.nan``,
``.inf``) and values out of range are errors.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from nanty_env.engine.config import PERSONALITY_SETS, THRESHOLD_SETS
from nanty_env.engine.ruleset import known_rulesets
from training.potentials import SHAPINGS

T = TypeVar("T")

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"


def config_path(name: str) -> Path:
    """A shipped config by name (``"quick"`` or ``"quick.yaml"``), or any path as given."""
    p = Path(name)
    if p.exists():
        return p
    return CONFIG_DIR / (name if name.endswith(".yaml") else f"{name}.yaml")


class ConfigError(ValueError):
    """A configuration file that does not fit the schema."""


DEVICE = re.compile(r"auto|cpu|mps|cuda(:\d+)?")  # what torch / SB3 accept here


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (PyYAML would keep the
    last one silently, so a forgotten earlier line would win or lose without a word)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise ConfigError(
                    f"key {key!r} given twice (lines {seen[key]} and {line}) in one mapping"
                )
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def check_ruleset(expansion: str | None, content: str | None, shaping: str) -> None:
    """An env section's ruleset: a known expansion (or null), content only with an expansion,
    and no shaping that reads the base game's learned model in an expansion game."""
    _choice("expansion", expansion, (None, *known_rulesets()))
    if content is not None and expansion is None:
        raise ValueError("content is an expansion's content pack: set expansion too")
    if expansion is not None and shaping == "win_probability":
        raise ValueError(
            "shaping 'win_probability' reads the base game's learned model; with an "
            "expansion use 'goal_progress' or 'none'"
        )


@dataclass(frozen=True)
class EnvSection:
    num_players: int = 4
    # the ruleset: null (the base game) or "cthulhu" (The Rise of Cthulhu; its observation
    # and action space are its own), with ``content`` the expansion's content pack (null:
    # the shipped one)
    expansion: str | None = None
    content: str | None = None
    personalities: str = "standard"
    thresholds: str = "rulebook"
    reward_mode: str = "win_loss"
    shaping: str = "none"  # "none", "goal_progress" or "win_probability" (training/potentials.py)
    learner_seat: int | None = None  # None: a random seat each episode
    # a residual policy on a scripted bot (a bot spec, e.g. "heuristic"): the bot, seated in
    # the learner's seat, suggests an action at every decision; the suggestion is part of the
    # observation and is added to the logits with a learned weight starting at hint_weight
    hint: str | None = None
    hint_weight: float = 3.0

    def validate(self) -> None:
        _choice("num_players", self.num_players, (2, 3, 4))
        check_ruleset(self.expansion, self.content, self.shaping)
        _choice("personalities", self.personalities, PERSONALITY_SETS)
        _choice("thresholds", self.thresholds, THRESHOLD_SETS)
        _choice("reward_mode", self.reward_mode, ("win_loss", "zero_sum"))
        _choice("shaping", self.shaping, SHAPINGS)
        if self.learner_seat is not None and not 0 <= self.learner_seat < self.num_players:
            raise ValueError(f"learner_seat must be in [0, {self.num_players}) or null")
        if self.hint is not None:  # kept in the checkpoint, which reads it as untrusted text
            _bot_spec("hint", self.hint, allow=("random", "heuristic"))
            _hint_spec(self.hint)
        _non_negative("hint_weight", self.hint_weight)


@dataclass(frozen=True)
class PPOSection:
    total_timesteps: int = 50_000
    num_envs: int = 8
    num_workers: int = 1
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    target_kl: float | None = None  # stop an update's epochs early past this KL (None: never)
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    # torch threads for the network updates (and behaviour cloning), when the environment's
    # workers are idle; rollouts use ``torch_threads``. Capped at the machine's cores.
    update_threads: int = 2
    # time every update and keep ``update_threads`` or one, whichever is faster (the thread
    # count changes float rounding, so runs are then bit-for-bit the same only as long as the
    # choices are: off by default)
    adapt_update_threads: bool = False
    # steps: the written ``model`` is the mean of the checkpoints of the last this many steps
    # (training/averaging.py; the last iterate is ``model_final``); 0: the last iterate
    average_window: int = 0

    def validate(self) -> None:
        _non_negative("average_window", self.average_window)
        for name in ("total_timesteps", "num_envs", "num_workers", "n_steps", "batch_size"):
            _positive(name, getattr(self, name))
        _positive("n_epochs", self.n_epochs)
        _positive("update_threads", self.update_threads)
        if not 0 < self.learning_rate < 1:
            raise ValueError("learning_rate must be in (0, 1)")
        for name in ("gamma", "gae_lambda"):
            if not 0 < getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in (0, 1]")
        if self.target_kl is not None and self.target_kl <= 0:
            raise ValueError(f"target_kl must be positive or null, got {self.target_kl!r}")
        _non_negative("ent_coef", self.ent_coef)
        _positive("clip_range", self.clip_range)
        if not self.net_arch or any(w <= 0 for w in self.net_arch):
            raise ValueError("net_arch must be a non-empty list of positive layer widths")


@dataclass(frozen=True)
class SelfPlaySection:
    """Opponents are drawn per episode with these weights: with probability ``whole_table``
    one kind for the whole table, otherwise one per seat. Keys are bot specs (``random``,
    ``heuristic``, ``heuristic:depth=0``, ...; see ``nanty bots``) or ``snapshots``: frozen
    copies of the learner saved every ``snapshot_every`` steps (at most ``pool_size``, used
    once one exists).

    ``pfsp`` turns the pool into a league (``training/league.py``): each snapshot becomes a
    member of its own, the learner's pairwise score against every member is kept (decayed by
    ``score_decay`` per result, 0.5 until ``min_games``) and each member's weight is multiplied
    by its priority: ``hard`` (1 - score)^``pfsp_power`` + ``pfsp_epsilon`` (the members the
    learner loses to come more often) or ``variance`` score (1 - score) + ``pfsp_epsilon``.
    The payoff matrix is logged (``league.csv``, ``league.png``, TensorBoard ``league/``)."""

    weights: dict[str, float] = field(
        default_factory=lambda: {"random": 1.0, "heuristic:depth=0": 1.0, "snapshots": 1.0}
    )
    snapshot_every: int = 25_000
    pool_size: int = 5
    whole_table: float = 0.0
    pfsp: str = "off"
    pfsp_power: float = 2.0
    pfsp_epsilon: float = 0.05
    score_decay: float = 0.99
    min_games: int = 8

    def validate(self) -> None:
        from training.league import PFSP_MODES

        _choice("pfsp", self.pfsp, PFSP_MODES)
        _positive("pfsp_power", self.pfsp_power)
        _positive("pfsp_epsilon", self.pfsp_epsilon)
        if not 0 < self.score_decay <= 1:
            raise ValueError(f"score_decay must be in (0, 1], got {self.score_decay!r}")
        _positive("min_games", self.min_games)
        for key in self.weights:
            if key != "snapshots":
                _bot_spec("weights", key, allow=None)  # any bot: built-in, plug-in, import path
        if any(w < 0 for w in self.weights.values()) or not any(self.weights.values()):
            raise ValueError("weights must be non-negative and not all zero")
        _positive("snapshot_every", self.snapshot_every)
        _positive("pool_size", self.pool_size)
        if not 0 <= self.whole_table <= 1:
            raise ValueError(f"whole_table must be in [0, 1], got {self.whole_table!r}")


@dataclass(frozen=True)
class EvalSection:
    """Periodic evaluation: ``games`` games (seats rotated) against ``num_players - 1`` copies
    of each opponent spec; ``at_start`` also evaluates before PPO (e.g. the pretrained policy);
    ``workers`` > 1 plays the games in that many processes."""

    every: int = 25_000
    games: int = 100
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    at_start: bool = False
    workers: int = 1

    def validate(self) -> None:
        _positive("every", self.every)
        _positive("games", self.games)
        _positive("workers", self.workers)
        for o in self.opponents:
            _bot_spec("opponents", o, allow=("random", "heuristic"))


@dataclass(frozen=True)
class PretrainSection:
    """Behaviour cloning before PPO (``training/pretrain.py``): ``teacher`` (a bot spec) plays
    ``games`` games in every seat using ``workers`` processes; the policy is fitted to its
    decisions for ``epochs`` epochs (masked cross-entropy + ``value_coef`` x value error on
    the returns). The data is cached in ``cache_dir``.

    ``vs`` (bot spec -> number of games, default none) adds games in which the teacher plays
    one seat (rotated with the game index) against that spec in every other seat; only the
    teacher's decisions are recorded, so the clone also sees positions against e.g. weak
    opponents. Each entry is generated and cached separately from the mirror games.

    ``dagger_rounds`` (default 0: off) rounds of DAgger-style relabelling follow the fit: the
    current policy (greedy) plays one seat (rotated) of ``dagger_vs`` games per round (opponent
    spec -> games), the teacher labels each of its real decisions from that seat's view, the
    rows are added to the data and the policy is fitted ``dagger_epochs`` more epochs on
    everything. These rows are not cached (they depend on the policy).

    ``keep_best`` (default off) keeps, at the end of each fit, the parameters of the epoch
    whose held-out agreement with the teacher was best (``python -m training.distill``).

    ``fit_policy: false`` fits only the value head (the policy keeps its initial weights): for
    a residual policy (``env.hint``) that starts as the softmax of ``hint_weight`` x hint, so
    it plays the hint greedily but keeps entropy for PPO to explore.

    ``soft`` (default 0: off) in [0, 1] moves that share of the policy loss from the
    teacher's action to its softened choice: the teacher's look-ahead scores of every
    candidate are recorded with each decision (``gap``, a cache of its own) and the policy
    is fitted to their softmax at ``temperature`` (in the scores' units), so a near tie
    teaches both actions. Teachers without scores (RandomBot) give their action alone.

    ``shaped_returns: false`` (default true) fits the value head to the returns without the
    env's shaping (win/loss only): teacher games cached without shaping then serve a shaped
    run, whose PPO critic learns the shaping's part from its own rollouts."""

    enabled: bool = False
    teacher: str = "heuristic"
    games: int = 200
    workers: int = 2
    epochs: int = 4
    batch_size: int = 512
    learning_rate: float = 1e-3
    value_coef: float = 0.5
    cache_dir: str = "runs/cache"
    vs: dict[str, int] = field(default_factory=dict)
    dagger_rounds: int = 0
    dagger_vs: dict[str, int] = field(default_factory=lambda: {"random": 200})
    dagger_epochs: int = 2
    fit_policy: bool = True
    keep_best: bool = False
    soft: float = 0.0
    temperature: float = 0.01
    shaped_returns: bool = True

    def validate(self) -> None:
        _bot_spec("teacher", self.teacher, allow=("random", "heuristic", "learned"))
        for spec, games in self.vs.items():
            _bot_spec("vs", spec, allow=("random", "heuristic"))
            _positive(f"vs.{spec}", games)
        _non_negative("dagger_rounds", self.dagger_rounds)
        for spec, games in self.dagger_vs.items():
            _bot_spec("dagger_vs", spec, allow=("random", "heuristic"))
            _non_negative(f"dagger_vs.{spec}", games)
        if self.dagger_rounds > 0 and sum(self.dagger_vs.values()) == 0:
            raise ValueError("dagger_vs must have at least one game when dagger_rounds > 0")
        _positive("dagger_epochs", self.dagger_epochs)
        for name in ("games", "workers", "epochs", "batch_size"):
            _positive(name, getattr(self, name))
        if not 0 < self.learning_rate < 1:
            raise ValueError("learning_rate must be in (0, 1)")
        _non_negative("value_coef", self.value_coef)
        if not 0.0 <= self.soft <= 1.0:
            raise ValueError(f"soft is a share in [0, 1], got {self.soft}")
        if not 0.0 < self.temperature < float("inf"):
            raise ValueError(f"temperature must be a positive number, got {self.temperature}")


@dataclass(frozen=True)
class ValueRound:
    """One round of games for the value network: ``bots`` is one spec for every seat or one
    per seat (rotated from game to game); ``learned`` stands for the network fitted after the
    previous round. Game seeds are ``seed * 100000 + i``."""

    bots: list[str] = field(default_factory=lambda: ["heuristic"])
    games: int = 100
    seed: int = 50

    def validate(self) -> None:
        from agents.registry import BOTS

        if not self.bots:
            raise ValueError("bots must name at least one bot spec")
        for spec in self.bots:
            _bot_spec("bots", spec, allow=tuple(sorted(BOTS)))
        _positive("games", self.games)
        _non_negative("seed", self.seed)


@dataclass(frozen=True)
class ValueSection:
    """Value-network training instead of PPO (``training/value_iteration.py``): each round
    plays its games (recorded at every turn start), then the network is fitted on the games of
    every round so far; the next round's ``learned`` seats play with that network. The fit:
    an MLP with ``hidden`` tanh layers, AdamW, the epoch with the least cross-entropy on the
    last ``holdout`` share of each round's games kept. ``warm_start``: begin from the shipped
    tiny value model (agents/value_model.py; one hidden layer only), its units kept beside the
    ``hidden`` new ones. ``td_lambda``: after the last round, fit the network ``td_iterations``
    times more on TD(lambda) targets (each position's target mixes the previous fit's
    probabilities for the positions after it in its game with the game's outcome; 1 would be
    the outcomes alone), each fit bootstrapped from the one before; held-out rows are still
    scored against the outcomes. ``extend``: continue the shipped network
    (``agents/data/value_net_{n}p``) instead: the first round's ``learned`` seats play it, and
    every fit starts from its function (its units kept, ``hidden[0]`` new ones beside them);
    ``extend_from``: with ``extend``, the value checkpoint to continue (``NAME`` of ``NAME.json``
    and ``NAME.safetensors``, e.g. another run's ``value_net_4p``) instead of the shipped one.
    ``play``: the :class:`~agents.learned_bot.LearnedBot` options written into the final
    network (``robust``, ``durable``, ``switch``): how ``learned`` plays it unless its spec
    says otherwise (the rounds' ``learned`` seats play without them)."""

    enabled: bool = False
    warm_start: bool = False
    extend: bool = False
    extend_from: str | None = None
    play: dict[str, float] = field(default_factory=dict)
    rounds: list[ValueRound] = field(default_factory=list)
    hidden: list[int] = field(default_factory=lambda: [64, 32])
    epochs: int = 40
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    holdout: float = 0.1
    workers: int = 2
    td_lambda: float | None = None
    td_iterations: int = 2

    def validate(self) -> None:
        if not self.enabled:
            return
        if self.td_lambda is not None and not 0 <= self.td_lambda < 1:
            raise ValueError(f"td_lambda must be in [0, 1), got {self.td_lambda!r}")
        if not self.rounds:
            raise ValueError("rounds must list at least one round of games")
        for rnd in self.rounds:
            rnd.validate()
        if not self.extend and any(s.split(":")[0] == "learned" for s in self.rounds[0].bots):
            raise ValueError(
                "the first round has no network yet: its bots cannot be 'learned' "
                "(unless extend: true continues the shipped network)"
            )
        if not self.hidden or any(h <= 0 for h in self.hidden):
            raise ValueError("hidden must be a non-empty list of positive layer widths")
        if self.warm_start and self.extend:
            raise ValueError("warm_start and extend are two starting points: choose one")
        if self.extend_from is not None and not self.extend:
            raise ValueError("extend_from names the network that extend: true continues")
        from agents.checkpoint import CheckpointError
        from agents.value_net import check_play

        try:
            check_play(self.play)
        except CheckpointError as e:
            raise ValueError(str(e)) from None
        if (self.warm_start or self.extend) and len(self.hidden) != 1:
            raise ValueError("warm_start and extend need one hidden layer (hidden: [width])")
        for name in ("epochs", "batch_size", "workers", "td_iterations"):
            _positive(name, getattr(self, name))
        if not 0 < self.learning_rate < 1:
            raise ValueError("learning_rate must be in (0, 1)")
        _non_negative("weight_decay", self.weight_decay)
        if not 0 <= self.holdout < 1:
            raise ValueError(f"holdout must be in [0, 1), got {self.holdout!r}")


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 0
    out: str = "runs/quick"
    checkpoint_every: int = 25_000
    device: str = "cpu"
    torch_threads: int = 1  # small MLPs on 2 cores: one thread is many times faster
    time_limit_minutes: float | None = None  # stop (and save) after this much wall time
    # stop (and save) once this process and its workers have used this much CPU time
    # (pretraining data generation included, cached or not)
    cpu_limit_minutes: float | None = None
    env: EnvSection = field(default_factory=EnvSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    selfplay: SelfPlaySection = field(default_factory=SelfPlaySection)
    eval: EvalSection = field(default_factory=EvalSection)
    pretrain: PretrainSection = field(default_factory=PretrainSection)
    value: ValueSection = field(default_factory=ValueSection)

    def validate(self) -> None:
        _non_negative("seed", self.seed)
        if not isinstance(self.device, str) or not DEVICE.fullmatch(self.device):
            raise ValueError(
                f"device must be 'cpu', 'cuda', 'cuda:N', 'mps' or 'auto', got {self.device!r}"
            )
        _positive("checkpoint_every", self.checkpoint_every)
        if 0 < self.ppo.average_window < self.checkpoint_every:
            raise ValueError(
                f"ppo.average_window ({self.ppo.average_window}) must span at least one "
                f"checkpoint_every ({self.checkpoint_every}), or be 0"
            )
        _positive("torch_threads", self.torch_threads)
        for name in ("time_limit_minutes", "cpu_limit_minutes"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive or null")
        if self.env.expansion is not None and self.pretrain.enabled:
            raise ValueError(
                "pretrain (behaviour cloning) is for the base game; turn it off with an expansion"
            )
        if self.env.expansion is not None and self.value.enabled:
            raise ValueError(
                "value (value-network rounds) reads the base game's features; turn it off "
                "with an expansion"
            )
        hint, teacher = self.env.hint, self.pretrain.teacher
        if hint is not None and self.pretrain.enabled and teacher != hint:
            raise ValueError(
                f"env.hint ({hint!r}) and pretrain.teacher ({teacher!r}) must be the same bot: "
                "the cloned decisions stand in for the hints"
            )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def load_config(path: str | Path, **overrides: Any) -> TrainConfig:
    """Read and validate a YAML config; ``overrides`` replace top-level or ``section.key``
    values (e.g. ``{"ppo.total_timesteps": 1000}``)."""
    return read_config(TrainConfig, path, overrides)


def read_config(schema: type[T], path: str | Path, overrides: Mapping[str, Any]) -> T:
    """The config dataclass ``schema`` read from YAML file ``path`` (a key given twice is an
    error) with ``overrides`` (``"section.key"``: value; ``None`` skipped) applied, validated;
    every problem is a ``ConfigError`` naming the file."""
    path = config_path(str(path))
    try:
        raw = yaml.load(path.read_text(), Loader=_UniqueKeyLoader) or {}
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from e
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from e
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the config ({e.strerror or e})") from e
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: the top level must be a mapping")
    for key, value in overrides.items():
        if value is None:
            continue
        *sections, last = key.split(".")
        node = raw
        for s in sections:
            node = node.setdefault(s, {})
        node[last] = value
    return build(schema, raw, str(path), "")


def validate_config(cfg: TrainConfig, file: str = "config") -> None:
    """Check a config built in code (``load_config`` checks what it reads) the same way:
    every section's ranges, then the whole."""
    for f in dataclasses.fields(cfg):
        section = getattr(cfg, f.name)
        if dataclasses.is_dataclass(section):
            try:
                section.validate()
            except (ValueError, TypeError) as e:
                raise ConfigError(f"{file}: {f.name}: {e}") from e
        elif isinstance(section, float) and not math.isfinite(section):
            raise ConfigError(f"{file}: '{f.name}' must be a finite number, got {section!r}")
    try:
        cfg.validate()
    except (ValueError, TypeError) as e:
        raise ConfigError(f"{file}: {e}") from e


def build(cls: type, data: Any, file: str, where: str) -> Any:
    """Build dataclass ``cls`` from ``data``, checking keys and types."""
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: '{where or 'top level'}' must be a mapping")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ConfigError(
            f"{file}: unknown key '{_join(where, unknown[0])}' (allowed: {', '.join(sorted(names))})"
        )
    kwargs = {}
    for name, value in data.items():
        key = _join(where, name)
        kwargs[name] = _convert(hints[name], value, file, key)
    obj = cls(**kwargs)
    try:
        obj.validate()
    except ValueError as e:
        raise ConfigError(f"{file}: {where + ': ' if where else ''}{e}") from e
    return obj


def _convert(tp: Any, value: Any, file: str, key: str) -> Any:
    if dataclasses.is_dataclass(tp):
        return build(tp, value, file, key)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _convert(inner[0], value, file, key)
    if origin is list:
        if not isinstance(value, list):
            raise ConfigError(f"{file}: '{key}' must be a list, got {value!r}")
        return [_convert(args[0], v, file, f"{key}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{file}: '{key}' must be a mapping, got {value!r}")
        return {str(k): _convert(args[1], v, file, f"{key}.{k}") for k, v in value.items()}
    if tp is float and isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ConfigError(f"{file}: '{key}' must be a finite number, got {value!r}")
        return float(value)
    if tp is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if tp is str and isinstance(value, str):
        return value
    if tp is bool and isinstance(value, bool):
        return value
    raise ConfigError(f"{file}: '{key}' must be {getattr(tp, '__name__', tp)}, got {value!r}")


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _choice(name: str, value: Any, allowed: tuple) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


def _bot_spec(name: str, spec: str, allow: tuple[str, ...] | None) -> None:
    """``spec`` must parse as a bot spec whose bot is one of ``allow`` (``None``: any)."""
    from agents.registry import parse_spec

    try:
        bot = parse_spec(spec)[0]
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from e
    if allow is not None and bot not in allow:
        raise ValueError(f"{name} must be one of {list(allow)} (with options), got {spec!r}")


def _hint_spec(spec: str) -> None:
    """A hint bot within the bounds a checkpoint's hint is read with, so that every trained
    residual policy loads."""
    from agents.registry import untrusted_spec

    try:
        untrusted_spec(spec)
    except ValueError as e:
        raise ValueError(f"hint: {e}") from e


def _positive(name: str, value: int) -> None:
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")


def _non_negative(name: str, value: float) -> None:
    if value < 0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")
