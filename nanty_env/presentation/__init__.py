"""What people read and see: words, text boards and pictures, all from a seat's view.

- ``words``: a game's questions, actions, cards and ending in words (``words_for``,
  ``outcome_words`` ...), from ``base_words`` (the base game's) or ``cthulhu_words`` (the
  expansion's, built on them); ``theme_text``: one theme's vocabulary;
- ``render``: the board as text; ``render_panel``: the side panel as data; ``board_layout`` and
  ``board_svg``: the board as an SVG picture; ``render_image``: its pixels;
  ``render_window``: a desktop window.
"""
