"""What bots need to know about a ruleset: which hidden role each seat holds and how a
position is valued.

The base game's hidden roles are the personality cards (some set aside, some seen by Mrs Cake's
holder); the expansion's are the seven objectives, all dealt from, none ever seen before the
end. Everything here asks the configuration's ruleset (``Ruleset.roles``: which state field
holds the roles) or reads the view, so that the bots' code is one for every ruleset: a house
variant of either plays with its parent's bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import import_module
from typing import Any

import numpy as np

from nanty_env.engine import Game, GameConfig, personality_deck, tables, tables_for
from nanty_env.engine.ruleset import Ruleset, find_ruleset

NUM_PERSONALITIES = len(tables().data.personalities)


# engine ruleset name -> the key of the bots' own tables for it (role models, role features,
# evaluation); a ruleset without one (a house variant) is served by its nearest ancestor's
_BOT_TABLES = {"base": None, "cthulhu": "cthulhu"}


def bot_expansion(expansion: str | None) -> str | None:
    """The ruleset whose bot tables (role model and features) serve ``expansion``'s games:
    its own, or its nearest ancestor's."""
    return _bot_tables_of(find_ruleset(expansion))


def _bot_tables_of(ruleset: Ruleset) -> str | None:
    for r in reversed(ruleset.lineage()):
        if r.name in _BOT_TABLES:
            return _BOT_TABLES[r.name]
    raise ValueError(f"no bot tables for the ruleset {ruleset.expansion!r}")  # pragma: no cover


def has_personalities(config: GameConfig) -> bool:
    """Whether ``config``'s ruleset deals the base game's personality cards as roles."""
    return find_ruleset(config.expansion).roles == "persona"


def role_count(config: GameConfig) -> int:
    """The length of a role probability vector: personality cards, or objectives."""
    if has_personalities(config):
        return NUM_PERSONALITIES
    return len(tables_for(config).data.objectives)  # type: ignore[attr-defined]


def role_deck(config: GameConfig) -> list[int]:
    """The roles dealt from under ``config`` (every objective in the expansion)."""
    if has_personalities(config):
        return personality_deck(config)
    return list(range(role_count(config)))


def role_ids(config: GameConfig) -> list[str]:
    """Data id of every role index."""
    if has_personalities(config):
        return [p.id for p in tables().data.personalities]
    return [o.id for o in tables_for(config).data.objectives]  # type: ignore[attr-defined]


def own_role(view: Mapping[str, Any]) -> int:
    """The viewing seat's own role (its objective in an expansion view)."""
    return view["objective"] if "objective" in view else view["personality"]


def seen_roles(view: Mapping[str, Any]) -> list[int]:
    """Set-aside roles the viewing seat has seen (never any in the expansion)."""
    return list(view.get("known_unused_personalities", ()))


def game_roles(g: Game) -> list[int]:
    """Every seat's role in a full game."""
    return list(getattr(g, g.ruleset.roles))


def set_game_roles(g: Game, deal: Sequence[int], seat: int, seen: Sequence[int]) -> None:
    """Give ``g`` the roles of ``deal``; the set-aside ones are whatever is left (``seen``: the
    set-aside personalities ``seat`` has seen, base game only)."""
    rest = sorted(k for k in role_deck(g.cfg) if k not in deal)
    if not has_personalities(g.cfg):
        g.objective = tuple(deal)  # type: ignore[attr-defined]
        g.objective_pool = tuple(rest)  # type: ignore[attr-defined]
        return
    g.persona = tuple(deal)
    g.persona_pool = tuple(rest)
    g.known_unused = tuple(tuple(sorted(seen)) if q == seat else () for q in range(g.n))


def config_for_view(config: GameConfig, view: Mapping[str, Any]) -> GameConfig:
    """``config`` if it fits ``view`` (player count and ruleset), else a default one that does
    (for a bot asked to act without ``reset``)."""
    expansion = view.get("expansion")
    if config.num_players == view["num_players"] and config.expansion == expansion:
        return config
    return GameConfig(num_players=view["num_players"], log=False, expansion=expansion)


def symbols(config: GameConfig) -> tuple[tuple[str, ...], ...]:
    """Each card's symbols under ``config``'s ruleset."""
    return tables_for(config).symbols


def evaluator_class(config: GameConfig) -> Any:
    """The evaluation of ``config``'s ruleset: ``EVALUATOR`` of the bot tables that serve it
    (``agents.evaluation`` for the base game and its house variants, ``agents.<name>.evaluation``
    for a ruleset with tables of its own)."""
    return _evaluator_of(find_ruleset(config.expansion))


@cache
def _evaluator_of(ruleset: Ruleset) -> Any:
    """:func:`evaluator_class` of a registered ruleset (kept: searches ask for it at every
    determinisation; a ruleset registered anew is a new object, asked anew)."""
    key = _bot_tables_of(ruleset)
    return import_module(
        "agents.evaluation" if key is None else f"agents.{key}.evaluation"
    ).EVALUATOR


def make_evaluator(
    config: GameConfig,
    seat: int,
    own: int,
    belief: Sequence[np.ndarray] | Mapping[int, np.ndarray],
    weights: Any = None,
    cache_values: bool = False,
) -> Any:
    """The ruleset's evaluator (``weights``: see :func:`ruleset_weights`)."""
    cls = evaluator_class(config)
    return cls(config, seat, own, belief, ruleset_weights(config, weights), cache_values)


def ruleset_weights(config: GameConfig, weights: Any) -> Any:
    """``weights`` if they are of the kind of the ruleset's evaluation, else its defaults
    (:class:`~agents.evaluation.Weights`, or a subclass for a ruleset's own: the base game's
    weights mean nothing to the expansion's evaluation)."""
    default = evaluator_class(config).rules.weights
    return weights if isinstance(weights, type(default)) else default
