"""Single-learner Gymnasium environment for training (e.g. sb3-contrib ``MaskablePPO``).

One seat learns (fixed, or drawn at random each episode); the other seats are played by
opponents: ``agents.Bot`` objects (``act(view, legal_actions, rng) -> int``, optional
``reset(seat, config)`` and ``observe(view)``) or plain callables ``(view, legal, rng) -> int``;
by default uniformly random legal play. Opponents only ever
see their own seat's view. ``step`` returns when the learner owes its next decision (including
its own out-of-turn decisions, e.g. an interrupt window during an opponent's turn) or the game is
over, so every reward lands on the learner's own transition: the terminal reward goes to the
step that ended the game, whoever made the last move.

Bad input changes nothing: ``reset(seed=...)`` takes ``None`` or an integer >= 0 (Python or
numpy); ``step`` takes one integer action (``TypeError`` otherwise), raises ``RuntimeError``
before ``reset()`` and once the episode has terminated (the game ended, or an illegal action
ended the episode): call ``reset()`` to play again, as Gymnasium expects.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from nanty_env.encoding.observation import OBS_HIGH, with_hint
from nanty_env.encoding.rulesets import config_spec
from nanty_env.engine import Game, GameConfig
from nanty_env.faces.options import (
    as_action,
    check_bool,
    check_choice,
    check_int,
    check_number,
    check_potential,
    check_render_mode,
    check_reward_mode,
    check_seed,
    game_config,
)
from nanty_env.faces.rewards import Potential, terminal_rewards

Opponent = Any  # an object with .act(view, legal, rng) -> int, or such a callable
ILLEGAL_ACTIONS = ("terminate", "raise")


class RandomOpponent:
    """Uniformly random legal actions (it never looks at the view, so none is built)."""

    needs_view = False

    def act(self, view: dict, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        return int(legal_actions[int(rng.random() * len(legal_actions))])  # 3x cheaper


def _policy(opp: Opponent) -> Callable[[dict, Sequence[int], np.random.Generator], int]:
    return opp.act if hasattr(opp, "act") else opp


def _needs_view(opp: Opponent) -> bool:
    return getattr(opp, "needs_view", True)


def _own(bot: Opponent) -> Opponent:
    """A copy of ``bot`` if it keeps per-game state (it has ``reset``), else ``bot`` itself."""
    return copy.deepcopy(bot) if hasattr(bot, "reset") else bot


def _is_policy(opp: Any) -> bool:
    return hasattr(opp, "act") or callable(opp)


def _checked_seat(seat: Any, num_players: int) -> int | None:
    if seat is None:
        return None
    seat = check_int("learner_seat", seat)
    if not 0 <= seat < num_players:
        raise ValueError(f"learner_seat must be in [0, {num_players}) or None, got {seat}")
    return seat


def _check_opponents(opponents: Any, num_players: int) -> None:
    """Refuse, at construction, opponents that cannot play: one per other seat when a list."""
    if opponents is None or _is_policy(opponents):
        return  # one bot for all, or a factory (checked when called, at each reset)
    if not isinstance(opponents, Sequence) or isinstance(opponents, str):
        raise TypeError(
            "opponents must be a bot (with act), a list of one bot per other seat, a factory "
            f"rng -> list of bots, or None; got {opponents!r}"
        )
    if len(opponents) != num_players - 1:
        raise ValueError(
            f"opponents: need {num_players - 1} (one per other seat), got {len(opponents)}"
        )
    for o in opponents:
        if not _is_policy(o):
            raise TypeError(f"an opponent must be a bot (with act) or a callable, got {o!r}")


class NantySingleAgentEnv(gym.Env):
    """Gymnasium env with one learning seat; see the module docstring.

    Args:
        config: the game's setup (``GameConfig``); or, instead, the game keywords
            ``num_players`` (2-4), ``personalities``, ``thresholds``, ``theme``,
            ``interrupt_windows``, ``expansion``, ``content`` (an expansion game has its own
            observation and action space, ``nanty_env.encoding.rulesets``).
        learner_seat: a seat index, or ``None`` for a random seat each episode.
        opponents: one opponent per other seat (in seat order, skipping the learner), a single
            opponent for all, or a factory ``rng -> list`` called each episode (for opponent
            pools); default: random play. A factory's list may carry ``names`` (one per
            seat, e.g. ``training.selfplay.Table``): the last step's ``info["opponents"]``
            then maps each opponent seat to its name.
        reward_mode, shaping, reveal_personalities: as for ``raw_env``.
        illegal_action: ``"terminate"`` (default, like ``env()``): an illegal action (an
            integer the mask forbids, out of the action space included) ends the episode with
            ``illegal_reward`` and the game is left as it was (``step`` then raises until
            ``reset()``); ``"raise"``: raise ``IllegalActionError``, the episode goes on.
        auto_forced: apply the learner's decisions that have a single legal action for it
            (nothing to learn there; fewer, more meaningful steps).
        hint: a bot (same protocol as an opponent) sitting in the learner's seat, seeing only
            its view: its suggested action for each learner decision is appended to the
            observation, one-hot over the action space (all zero once the game is over), for
            residual policies (``training.masked_policy.HintedMaskablePolicy``).

    A bot with per-game state (one with ``reset``) is not shared between seats or games: the
    env keeps its own copy of each such opponent given (one per seat when a single one is
    given for all) and of ``hint``, since vectorised envs build all their games from the same
    arguments. Factories are called each episode and should return fresh bots.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        learner_seat: int | None = None,
        opponents: Opponent | Sequence[Opponent] | Callable[..., Sequence[Opponent]] | None = None,
        reward_mode: str = "win_loss",
        shaping: Potential | None = None,
        reveal_personalities: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        auto_forced: bool = True,
        hint: Opponent | None = None,
        **game: Any,
    ) -> None:
        self.config = game_config(config, **game)
        num_players = self.config.num_players
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.auto_forced = check_bool("auto_forced", auto_forced)
        self.illegal_reward = check_number("illegal_reward", illegal_reward)
        self.fixed_seat = _checked_seat(learner_seat, num_players)
        _check_opponents(opponents, num_players)
        if hint is not None and not _is_policy(hint):
            raise TypeError(f"hint must be a bot (with act) or a policy callable, got {hint!r}")
        if hasattr(opponents, "act"):  # one opponent for every seat
            opponents = [_own(opponents) for _ in range(num_players - 1)]
        elif isinstance(opponents, Sequence):
            opponents = [_own(o) for o in opponents]
        self.opponents = opponents
        self.reward_mode = check_reward_mode(reward_mode)
        self.shaping = check_potential(shaping)
        self.reveal_personalities = check_bool("reveal_personalities", reveal_personalities)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.hint = _own(hint)
        self.ruleset = spec = config_spec(self.config)
        size = spec.obs_size + (spec.num_actions if hint is not None else 0)
        self.observation_space = gym.spaces.Box(0.0, OBS_HIGH, (size,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(spec.num_actions)
        self._action_mask = spec.action_mask
        self.game: Game | None = None
        self.seat = 0
        self._rng = np.random.default_rng()
        self._opps: dict[int, Callable] = {}
        self._views: dict[int, bool] = {}
        self._bots: dict[int, Any] = {}
        self._observers: list[tuple[int, Any]] = []
        self._names: dict[int, str] | None = None  # seat -> the opponent pool's member name
        self._last_turn = -1
        self._phi = 0.0
        self._over = False  # the episode has terminated: step() raises until reset()
        self._encode = spec.new_encoder()

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = check_seed(seed)  # before anything changes
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        while True:
            self.game = Game.new(self.config, int(self._rng.integers(2**63)))
            n = self.game.n
            self.seat = (
                self.fixed_seat if self.fixed_seat is not None else int(self._rng.integers(n))
            )
            self._opps = self._assign_opponents()
            self._play_opponents()
            if not self.game.is_terminal:
                break
        self._phi = self._potential()
        self._over = False
        return self._obs(), self._info()

    def check_action(self, action: Any) -> int:
        """``action`` as an ``int`` if :meth:`step` takes it now; else what ``step`` would
        raise, before anything changes: ``RuntimeError`` before ``reset()`` or once the
        episode has terminated, ``TypeError`` if it is not an integer, ``IllegalActionError``
        if it is illegal and ``illegal_action="raise"``. (The vectorised faces check every
        game's action with it before any game moves.)"""
        g = self.game
        if g is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode has terminated: call reset() before step()")
        action = as_action(action)  # a TypeError for anything but an integer
        if self.illegal_action == "raise" and action not in g.legal:
            g.apply(action)  # raises IllegalActionError with the engine's description
        return action

    def step(self, action: int):
        action = self.check_action(action)
        g = self.game
        if action not in g.legal:  # illegal_action="terminate": the game is left as it was
            self._over = True
            info = self._info() | {"illegal_action": action}
            return self._obs(), self.illegal_reward, True, False, info
        g.apply(action)
        self._play_opponents()
        reward = 0.0
        if self.shaping is not None:
            phi = self._potential()
            reward += phi - self._phi
            self._phi = phi
        terminated = g.is_terminal
        if terminated:
            self._over = True
            reward += terminal_rewards(g, self.reward_mode)[self.seat]
        return self._obs(), float(reward), terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (for MaskablePPO)."""
        if self.game is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._action_mask(self.game, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from nanty_env.presentation.render import render_text

        return render_text(self.game, self.seat)

    # ------------------------------------------------------------------ internals
    def _assign_opponents(self) -> dict[int, Callable]:
        others = [s for s in range(self.game.n) if s != self.seat]
        opps = self.opponents
        if callable(opps) and not hasattr(opps, "act"):
            with contextlib.suppress(TypeError):
                opps = opps(self._rng)
        if opps is None:
            opps = [RandomOpponent()] * len(others)
        elif not isinstance(opps, Sequence):
            opps = [opps] * len(others)
        if len(opps) != len(others):
            raise ValueError(f"need {len(others)} opponents, got {len(opps)}")
        names = getattr(opps, "names", None)  # a pool's table names its members
        self._names = None if names is None else dict(zip(others, names, strict=True))
        self._bots = dict(zip(others, opps, strict=True))
        seated = [*self._bots.items()]
        if self.hint is not None:
            seated.append((self.seat, self.hint))
        for s, o in seated:
            if hasattr(o, "reset"):
                o.reset(s, self.config)
        self._observers = [(s, o) for s, o in seated if getattr(o, "observes", False)]
        self._last_turn = -1
        self._views = {s: _needs_view(o) for s, o in self._bots.items()}
        return {s: _policy(o) for s, o in self._bots.items()}

    def _play_opponents(self) -> None:
        """Play until the learner owes a real decision (forced ones are applied for it when
        ``auto_forced``) or the game ends; observing opponents see each new turn."""
        g, seat, opps, views, rng = self.game, self.seat, self._opps, self._views, self._rng
        while g.outcome is None:
            if g.turn != self._last_turn:
                self._last_turn = g.turn
                for s, o in self._observers:
                    o.observe(g.view(s))
            p = g.stack[-1]["p"]  # the current player
            legal = g.legal
            if p == seat:
                if not (self.auto_forced and len(legal) == 1):
                    return
                g.apply(legal[0])
                continue
            view = g.view(p) if views[p] else None
            g.apply(int(opps[p](view, list(legal), rng)))
        for s, o in self._observers:
            o.observe(g.view(s))

    def _obs(self) -> np.ndarray:
        obs = self._encode(self.game, self.seat, reveal_personalities=self.reveal_personalities)
        if self.hint is None:
            return obs
        return with_hint(obs, self._suggestion(), self.action_space.n)

    def _suggestion(self) -> int | None:
        """The hint bot's action for the learner's pending decision (None: none pending)."""
        g = self.game
        if g.outcome is not None or g.current_player != self.seat:
            return None
        return int(_policy(self.hint)(g.view(self.seat), list(g.legal), self._rng))

    def _info(self) -> dict[str, Any]:
        g = self.game
        info: dict[str, Any] = {"seat": self.seat}
        if g.is_terminal:
            info["winners"] = list(g.outcome.winners)
            info["reason"] = g.outcome.reason
            if self._names is not None:
                info["opponents"] = dict(self._names)
        return info

    def _potential(self) -> float:
        g = self.game
        return 0.0 if self.shaping is None or g.is_terminal else self.shaping(g, self.seat)
