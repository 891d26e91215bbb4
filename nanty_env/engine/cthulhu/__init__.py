"""The Rise of Cthulhu expansion: a second ruleset of the same engine.

Play it with ``Game.new(GameConfig(num_players=n, expansion="cthulhu"))`` (or ``content=PATH``
for your own content pack). Modules: ``game`` (the state and its serialisation), ``setup``,
``flow`` (turn, card, refill frames), ``symbols`` (minion, summon, building, assassination
decisions), ``track`` (Insanity, grenadiers, events), ``abilities`` (buildings, Elder Ones,
Great Old Ones), ``pieces`` (minions, control, metrics), ``victory`` (objectives, endings,
scoring), ``effects`` (the expansion's scroll effects), ``view``, ``determinize``,
``position`` and ``tables``.
"""
