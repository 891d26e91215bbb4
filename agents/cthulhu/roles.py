"""The expansion's role features (a :class:`~agents.roles.TrackerSpec` for
:class:`agents.roles.RoleTracker`), for guessing the other players' secret objectives.

Every objective is one of the metrics below, so the features are the objectives' own
quantities: Pride control, Greed net worth, Wrath trouble, Envy areas, Gluttony pieces, Lust
Elder One HP, and Sloth the Insanity steps (its holder hastens the end). Minions (agents and
Elder Ones) take the place of the base game's agents; no neutral pieces or loans are counted.
"""

from __future__ import annotations

from agents.cthulhu.evaluation import view_metrics
from agents.roles import TrackerSpec, cards_discarded, change, others_lost, trouble_added

TRACKER = TrackerSpec(
    view_metrics,  # type: ignore[arg-type]
    deltas=(
        ("d_controlled", change("controlled")),
        ("d_occupied", change("occupied")),
        ("d_minions", change("minions")),
        ("d_buildings", change("own_buildings")),
        ("d_money", change("money")),
        ("d_net_worth", change("net_worth")),
        ("trouble_added", trouble_added),
        ("insanity_steps", change("insanity")),
        ("d_elder_hp", change("elder_hp")),
        ("others_minions_removed", others_lost("minions")),
        ("cards_discarded", cards_discarded),
    ),
    board=(
        ("controlled", "controlled"),
        ("occupied", "occupied"),
        ("net_worth", "net_worth"),
        ("pieces", "pieces"),
        ("elder_hp", "elder_hp"),
        ("money", "money"),
        ("trouble", "trouble"),
        ("insanity", "insanity"),
    ),
    scale=(1, 15, 6, 6, 6, 3, 15, 15, 6, 6, 4, 4, 15, 6, 8, 50, 16, 5, 30, 12, 13, 80),
)
CTHULHU_FEATURES = TRACKER.features
