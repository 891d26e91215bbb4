"""``render_mode="human"``: the board picture in a desktop window (pygame), as PettingZoo's own
board games do.

pygame comes with ``pettingzoo[classic]`` (the ``env`` extra). On a machine without a display
set ``SDL_VIDEODRIVER=dummy`` (the tests do) or use ``"ansi"`` / ``"rgb_array"``.
"""

from __future__ import annotations

import os

import numpy as np


class BoardWindow:
    """One window showing RGB frames; created on the first frame, closed by :meth:`close`."""

    def __init__(self, title: str) -> None:
        self.title = title
        self._screen = None

    def show(self, rgb: np.ndarray) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        height, width = rgb.shape[:2]
        if self._screen is None or self._screen.get_size() != (width, height):
            try:
                pygame.display.init()
                self._screen = pygame.display.set_mode((width, height))
            except pygame.error as e:
                raise RuntimeError(
                    f"render_mode='human' needs a display ({e}); set SDL_VIDEODRIVER=dummy "
                    "to run without one, or use render_mode='ansi' or 'rgb_array'"
                ) from e
            pygame.display.set_caption(self.title)
        frame = pygame.surfarray.make_surface(np.ascontiguousarray(rgb.transpose(1, 0, 2)))
        self._screen.blit(frame, (0, 0))
        pygame.event.pump()
        pygame.display.flip()

    def close(self) -> None:
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            self._screen = None
