"""The Rise of Cthulhu expansion: a second ruleset of the same engine.

Play it with ``Game.new(GameConfig(num_players=n, expansion="cthulhu"))`` (or ``content=PATH``
for your own content pack). Modules: ``state`` (its fields), ``game`` (the game class, its
serialisation, and its registration with the base engine), ``setup``, ``cards`` (the face-up
row), ``flow`` (turn, card, refill frames), ``symbols`` (minion, summon, building,
assassination decisions), ``track`` (Insanity, grenadiers, events), ``abilities`` (buildings,
Elder Ones, Great Old Ones), ``pieces`` (minions, control, metrics), ``victory`` (objectives,
endings, scoring), ``effects`` (the expansion's scroll effects), ``view``, ``determinize``,
``position`` and ``tables``.

Importing this package registers the expansion with the base engine (``nanty_env.engine``
does so itself), which never imports it: the dependency runs from the expansion to the base.
"""

from nanty_env.engine.cthulhu import game  # noqa: F401  (registers the expansion)
