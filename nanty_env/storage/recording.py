"""Record every game an AEC environment plays: ``RecordingWrapper(nanty_env.env(), "records/")``.

Each game is written as one record file (see ``nanty_env.storage.records``) when it ends, when the
next ``reset`` starts another, or on ``close`` (an unfinished game is saved with no outcome).
A game cut short by an illegal action (``env()``'s ``TerminateIllegalWrapper``) is saved
without that action and says so in its ``meta``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pettingzoo.utils.env import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from nanty_env.storage.records import GameRecorder, action_entry, save_record


class RecordingWrapper(BaseWrapper):
    """Writes one record per game into ``directory`` (created if missing).

    Args:
        env: a Nanty Narking AEC env (``nanty_env.env()`` or ``raw_env()``, wrapped or not).
        directory: where the records go; file names are ``<prefix>_<game seed in hex>.json``
            (``-2``, ``-3``, ... added when that name is taken: no game's file is replaced).
        players: optional labels per seat kept in the records (e.g. the policies' names).
    """

    def __init__(
        self,
        env: AECEnv,
        directory: str | Path,
        prefix: str = "game",
        players: list[str] | None = None,
    ) -> None:
        super().__init__(env)
        self.directory = Path(directory)
        self.prefix = prefix
        self.players = players or []
        self.paths: list[Path] = []  # every record written, in order
        self._recorder: GameRecorder | None = None
        self._note = ""

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._save()
        super().reset(seed=seed, options=options)
        raw = self.env.unwrapped
        self._recorder = GameRecorder(raw.config, raw.game_seed, players=self.players, source="env")
        self._note = ""

    def step(self, action: Any) -> None:
        game = self.env.unwrapped.game
        legal = (
            self._recorder is not None
            and action is not None
            and not game.is_terminal
            and int(action) in game.legal_actions()
        )
        entry = action_entry(game, int(action)) if legal else None
        agent = self.agent_selection
        super().step(action)
        if entry is not None:
            self._recorder.actions.append(entry)
        elif action is not None and not game.is_terminal and self._recorder is not None:
            self._note = f"ended by an illegal action ({action!r}) of {agent}"
        if all(self.terminations.values()) or all(self.truncations.values()):
            self._save()

    def close(self) -> None:
        self._save()
        super().close()

    def _save(self) -> None:
        """Write the current game's record (once)."""
        rec, self._recorder = self._recorder, None
        if rec is None:
            return
        if self._note:
            rec.meta["ended"] = self._note
        game = self.env.unwrapped.game
        name = f"{self.prefix}_{rec.seed:016x}.json"
        self.paths.append(save_record(rec.record(game), self.directory, name))
