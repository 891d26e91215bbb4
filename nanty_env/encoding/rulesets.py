"""What the environment looks like for each ruleset: observation size and layout, the encoder
of a seat's game or view, the action space, the mask and the full-state vector.

The base game (``expansion=None``) uses ``nanty_env.encoding.observation`` (its layout unchanged by
the expansion); *The Rise of Cthulhu* (``"cthulhu"``) uses
``nanty_env.encoding.cthulhu_observation``; any other registered ruleset (a house variant) those of
its nearest ancestor. The faces, the policy bot and the trainer ask :func:`ruleset_spec` instead of
importing either module, so they serve both rulesets with one code path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from nanty_env.engine import actions as A
from nanty_env.engine.ruleset import find_ruleset, known_rulesets

if TYPE_CHECKING:
    from nanty_env.engine import Game, GameConfig

RULESETS = (None, "cthulhu")


@dataclass(frozen=True)
class RulesetSpec:
    """One ruleset's observation and action spaces and the functions that fill them."""

    expansion: str | None
    obs_size: int
    state_size: int
    num_actions: int
    layout: Mapping[str, slice]
    # recorded in policy checkpoints: the encoder's name from before the module moved into
    # ``nanty_env.encoding``, kept so that every checkpoint written since still loads
    encoder_name: str
    encode_view: Callable[..., np.ndarray]  # (view, config) -> observation
    new_encoder: Callable[[], Callable[..., np.ndarray]]  # per env: (game, seat, reveal=...)
    action_mask: Callable[[Game, int], np.ndarray]
    # the mask where every seat answers each decision (cycle order, parallel face): the
    # decider's legal actions, ``no_op`` alone for the others
    mask_with_no_op: Callable[[Game, int], np.ndarray]
    no_op: int
    encode_state: Callable[[Game], np.ndarray]
    layout_table: Callable[[], str]

    def __reduce__(self) -> tuple[Any, tuple[str | None]]:
        """Pickled as its ruleset's name (envs holding one stay picklable)."""
        return ruleset_spec, (self.expansion,)

    @property
    def layout_digest(self) -> str:
        """A short digest of the layout (field names and sizes): a checkpoint records it, so
        a policy is never fed a re-arranged observation of equal size."""
        fields = [[name, s.stop - s.start] for name, s in self.layout.items()]
        return hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:16]

    def checkpoint_observation(self, size: int, hint: bool) -> dict[str, Any]:
        """What a policy checkpoint records of its observation (``PolicyBot`` checks it):
        its size (with a hint, the ruleset's observation plus the one-hot hint), the
        encoder's name, the layout digest, and the expansion if any."""
        return {
            "size": size,
            "hint": hint,
            "encoder": self.encoder_name,
            "layout": self.layout_digest,
            **({"expansion": self.expansion} if self.expansion else {}),
        }

    @property
    def name(self) -> str:
        return f"the {self.expansion} expansion" if self.expansion else "the base game"


def _base() -> RulesetSpec:
    from nanty_env.encoding import observation as obs

    def encode_view(view: Mapping[str, Any], config: GameConfig | None = None) -> np.ndarray:
        return obs.encode_view(view)  # type: ignore[arg-type]

    return RulesetSpec(
        expansion=None,
        obs_size=obs.OBS_SIZE,
        state_size=obs.STATE_SIZE,
        num_actions=A.NUM_ACTIONS,
        layout=obs.OBS_LAYOUT,
        encoder_name="nanty_env.observation.encode_view",
        encode_view=encode_view,
        new_encoder=obs.Encoder,
        action_mask=obs.action_mask,
        mask_with_no_op=obs.mask_with_no_op,
        no_op=obs.NO_OP,
        encode_state=obs.encode_state,
        layout_table=obs.layout_table,
    )


def _cthulhu() -> RulesetSpec:
    from nanty_env.encoding import cthulhu_observation as obs
    from nanty_env.engine.cthulhu.tables import cthulhu_tables

    def encode_view(view: Mapping[str, Any], config: GameConfig | None = None) -> np.ndarray:
        content = None if config is None else config.content
        return obs.encode_view(view, cthulhu_tables(content))

    return RulesetSpec(
        expansion="cthulhu",
        obs_size=obs.CTHULHU_OBS_SIZE,
        state_size=obs.CTHULHU_STATE_SIZE,
        num_actions=A.NUM_ACTIONS_CTHULHU,
        layout=obs.CTHULHU_OBS_LAYOUT,
        encoder_name="nanty_env.cthulhu_observation.encode_view",
        encode_view=encode_view,
        new_encoder=obs.CthulhuEncoder,
        action_mask=obs.action_mask,
        mask_with_no_op=obs.mask_with_no_op,
        no_op=obs.NO_OP,
        encode_state=obs.encode_state,
        layout_table=obs.layout_table,
    )


# engine ruleset name -> the builder of its spaces; a ruleset without one (a house variant)
# takes its nearest ancestor's, whose observation layout and action space it keeps
_SPECS: Mapping[str, Callable[[], RulesetSpec]] = {"base": _base, "cthulhu": _cthulhu}


@cache
def ruleset_spec(expansion: str | None = None) -> RulesetSpec:
    """The :class:`RulesetSpec` of the base game (``None``) or of another registered ruleset
    (its own, or its nearest ancestor's under its name)."""
    try:
        ruleset = find_ruleset(expansion)
    except ValueError:
        raise ValueError(f"unknown expansion {expansion!r}; known: {known_rulesets()}") from None
    for r in reversed(ruleset.lineage()):
        if r.name in _SPECS:
            spec = _SPECS[r.name]()
            return spec if r is ruleset else replace(spec, expansion=expansion)
    raise ValueError(f"ruleset {ruleset.name!r} has no environment spaces")  # pragma: no cover


def config_spec(config: GameConfig) -> RulesetSpec:
    """The :class:`RulesetSpec` of a game's ruleset (``config.expansion``)."""
    return ruleset_spec(config.expansion)


def spec_for_encoder(name: str) -> RulesetSpec | None:
    """The ruleset whose encoder is called ``name`` (None if no ruleset's is)."""
    for expansion in RULESETS:
        spec = ruleset_spec(expansion)
        if spec.encoder_name == name:
            return spec
    return None
