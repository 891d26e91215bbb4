"""The mean of a run's last checkpoints as its final policy (``ppo.average_window``).

PPO's last iterate wanders around a plateau; the mean of the weights it held over the last
stretch of training (stochastic weight averaging, Izmailov et al. 2018) sits nearer its centre.
The mean is taken over ``checkpoints/step_N`` with ``final - window < N <= final``: the files
the run itself wrote on its ``checkpoint_every`` clock, read with numpy (nothing unpickled),
so a resumed run averages the same files an uninterrupted one would (a resume from an earlier
step rewrites every ``step_N`` it passes; later ones lie beyond ``final`` and are left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from agents.checkpoint import (
    CheckpointError,
    checkpoint_files,
    read_meta,
    read_tensors,
    save_policy,
)

STEP_PREFIX = "step_"


def checkpoint_step(stem: Path) -> int:
    """N of checkpoint ``step_N``."""
    return int(stem.name[len(STEP_PREFIX) :])


def window_checkpoints(folder: Path, final: int, window: int) -> list[Path]:
    """The checkpoints ``folder/step_N`` (both files present) with ``final - window < N <=
    final``, by step."""
    found: list[tuple[int, Path]] = []
    for meta in folder.glob(f"{STEP_PREFIX}*.json"):
        if meta.name.endswith(".train.json"):
            continue
        stem = meta.with_suffix("")
        if not stem.name[len(STEP_PREFIX) :].isdigit() or not checkpoint_files(stem)[1].is_file():
            continue
        step = checkpoint_step(stem)
        if final - window < step <= final:
            found.append((step, stem))
    return [path for _, path in sorted(found)]


def average_checkpoints(stems: Sequence[Path], path: Path) -> Path:
    """Write the element-wise mean of the checkpoints ``stems`` (one network: the same
    description and tensor shapes) to ``path``, described as the last of them plus the steps
    averaged; returns the JSON path."""
    if not stems:
        raise CheckpointError("no checkpoints to average")
    metas = [read_meta(s) for s in stems]
    layers = [
        {k: m.get(k) for k in ("actor", "value", "observation", "num_actions")} for m in metas
    ]
    tensors = [read_tensors(checkpoint_files(s)[1]) for s in stems]
    first = tensors[0]
    for stem, layout, t in zip(stems, layers, tensors, strict=True):
        shapes = {k: v.shape for k, v in t.items()}
        if layout != layers[0] or shapes != {k: v.shape for k, v in first.items()}:
            raise CheckpointError(f"{stem}: another network than {stems[0]}; not averaged")
    mean = {
        k: np.mean([t[k].astype(np.float64) for t in tensors], axis=0).astype(v.dtype)
        for k, v in first.items()
    }
    meta = dict(metas[-1])
    trained = dict(meta.get("trained_with", {}))
    trained["averaged_steps"] = [checkpoint_step(s) for s in stems]
    meta["trained_with"] = trained
    for key in ("format", "version"):
        meta.pop(key, None)
    return save_policy(path, mean, meta)
