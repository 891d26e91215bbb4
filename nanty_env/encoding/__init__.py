"""What a learner sees and may do: observations, action masks and each ruleset's spaces.

- ``observation``: the base game's flat observation of one seat's view (and the full state), and
  ``ViewEncoder``, the skeleton that fills every ruleset's from a view by a table of what differs;
  ``cthulhu_observation``: the expansion's table and its own blocks; ``obs_fields``: a layout
  from its field table;
- ``rulesets``: each ruleset's spaces and encoder (``config_spec``, ``ruleset_spec``).

The two observation modules are compiled where the engine is (``nanty_env._build``).
"""
