"""Training checkpoints that resume without pickle: the policy as a nanty-policy checkpoint, the
optimizer through ``torch.save`` / ``torch.load(weights_only=True)`` and the counters as JSON.

A checkpoint ``NAME`` is four files:

* ``NAME.json`` + ``NAME.safetensors``: the policy (``agents/checkpoint.py``; every parameter
  of the SB3 policy under its ``state_dict`` name), playable by ``PolicyBot`` as it is;
* ``NAME.optimizer.pt``: the optimizer's ``state_dict`` (tensors, numbers and lists only, so
  ``weights_only=True`` loading refuses anything else);
* ``NAME.train.json``: ``{"format": "nanty-train-state", "version": 1, "timesteps",
  "n_updates", "policy", "config", "files": {file name: sha256}}``, written last.

The digests tie the four files together: a set torn by a crash (or mixed from two steps) is
refused on resume instead of silently pairing one step's weights with another's optimizer.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

from agents.checkpoint import CheckpointError, checkpoint_files, read_json
from agents.sb3_export import export_sb3_policy
from nanty_env.engine import GameConfig
from nanty_env.storage.files import atomic_path, atomic_write_text
from training.config import TrainConfig

STATE_FORMAT = "nanty-train-state"
STATE_VERSION = 1
SUFFIXES = (".train.json", ".optimizer.pt", ".json", ".safetensors")
SUMMARY = "train.json"  # a run's summary, written at its end
SUMMARY_BYTES = 1 << 20


class RunFolderError(ValueError):
    """An output folder or resume that would overwrite or misdescribe a training run."""


def env_description(cfg: TrainConfig) -> dict[str, Any]:
    """The game settings and reward settings a policy is trained with (a checkpoint's ``env``)."""
    e = cfg.env
    game = GameConfig(
        num_players=e.num_players,
        personalities=e.personalities,
        thresholds=e.thresholds,
        expansion=e.expansion,
        content=e.content,
    ).to_dict()
    game.pop("log")
    env = {**game, **asdict(e)}
    for key in ("expansion", "content"):  # a base game policy's description is unchanged
        if env[key] is None:
            del env[key]
    return env


def network_description(cfg: TrainConfig) -> dict[str, Any]:
    """What fixes the network's shape and meaning: its widths and the hint bot."""
    return {"net_arch": list(cfg.ppo.net_arch), "hint": cfg.env.hint}


@cache
def source_commit() -> str:
    """The project's git commit (``unknown`` outside a checkout), for provenance."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 else "unknown"


def export_policy(model: Any, path: str | Path, cfg: TrainConfig, **trained_with: Any) -> Path:
    """``model.policy`` as a nanty-policy checkpoint describing ``cfg``'s env and the run."""
    return export_sb3_policy(
        model.policy,
        path,
        env=env_description(cfg),
        trained_with={
            "timesteps": int(model.num_timesteps),
            "commit": source_commit(),
            "net_arch": list(cfg.ppo.net_arch),
            **trained_with,
        },
    )


def read_summary(run: Path) -> Any:
    """The summary ``train.json`` of run folder ``run``, size-checked (a fault is one
    :class:`~nanty_env.storage.files.UnreadableFile`)."""
    from nanty_env.storage import files

    return files.read_json(run / SUMMARY, SUMMARY_BYTES, SUMMARY)


def stem(path: str | Path) -> Path:
    """``NAME`` of a checkpoint given by any of its files (or by ``NAME`` itself)."""
    p = Path(path)
    for suffix in SUFFIXES:
        if p.name.endswith(suffix):
            return p.with_name(p.name[: -len(suffix)])
    return p


def state_files(name: str | Path) -> dict[str, Path]:
    base = stem(name)
    meta, tensors = checkpoint_files(base)
    return {
        "policy": meta,
        "tensors": tensors,
        "optimizer": base.with_name(base.name + ".optimizer.pt"),
        "state": base.with_name(base.name + ".train.json"),
    }


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def save_training_state(model: Any, name: str | Path, cfg: TrainConfig, **extra: Any) -> Path:
    """Write checkpoint ``name`` (policy, optimizer, then the state file); returns the state
    file's path."""
    import torch

    files = state_files(name)
    export_policy(model, files["policy"], cfg)
    with atomic_path(files["optimizer"]) as tmp:
        torch.save(model.policy.optimizer.state_dict(), tmp)
    state = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "timesteps": int(model.num_timesteps),
        "n_updates": int(getattr(model, "_n_updates", 0)),
        "policy": type(model.policy).__name__,
        "env": env_description(cfg),
        "network": network_description(cfg),
        "config": cfg.to_dict(),
        "commit": source_commit(),
        "files": {files[k].name: _sha256(files[k]) for k in ("policy", "tensors", "optimizer")},
        **extra,
    }
    return atomic_write_text(files["state"], json.dumps(state, indent=1) + "\n")


def read_training_state(name: str | Path) -> dict[str, Any]:
    """The state file of checkpoint ``name``, with its companion files present and matching
    their digests (a :class:`CheckpointError` naming the problem otherwise)."""
    files = state_files(name)
    path = files["state"]
    if not path.is_file():
        raise CheckpointError(
            f"{path}: no training state here (resume takes a run folder or a checkpoint such "
            "as DIR/checkpoints/last)"
        )
    state = read_json(path)
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise CheckpointError(f"{path}: not a {STATE_FORMAT} file")
    if state.get("version") != STATE_VERSION:
        raise CheckpointError(f"{path}: version {state.get('version')!r} is not supported")
    for key, kind in (("timesteps", int), ("files", dict), ("config", dict), ("env", dict)):
        if not isinstance(state.get(key), kind):
            raise CheckpointError(f"{path}: '{key}' is missing or not a {kind.__name__}")
    digests = state["files"]
    for k in ("policy", "tensors", "optimizer"):
        f = files[k]
        if not f.is_file():
            raise CheckpointError(f"{path}: its companion {f.name} is missing")
        if digests.get(f.name) != _sha256(f):
            raise CheckpointError(
                f"{path}: {f.name} is not the file this checkpoint was saved with (changed or "
                "torn by an interrupted save); resume from another checkpoint (step_N)"
            )
    return state


def load_training_state(model: Any, name: str | Path) -> dict[str, Any]:
    """Load checkpoint ``name`` into ``model`` (built from the same config): parameters,
    optimizer state and step counters. Returns the state file's content."""
    import torch
    from safetensors.torch import load_file

    state = read_training_state(name)
    files = state_files(name)
    params = load_file(str(files["tensors"]))
    own = model.policy.state_dict()
    missing, unexpected = sorted(set(own) - set(params)), sorted(set(params) - set(own))
    shapes = [
        f"{k}: {tuple(params[k].shape)} saved, {tuple(v.shape)} now"
        for k, v in own.items()
        if k in params and tuple(params[k].shape) != tuple(v.shape)
    ]
    if missing or unexpected or shapes:
        raise CheckpointError(
            f"{files['tensors']}: another network than the config builds "
            f"(missing {missing[:3]}, unexpected {unexpected[:3]}, shapes {shapes[:3]})"
        )
    model.policy.load_state_dict(params)
    try:
        opt = torch.load(files["optimizer"], weights_only=True, map_location=model.device)
    except Exception as e:  # weights_only refuses anything but tensors and plain containers
        raise CheckpointError(f"{files['optimizer']}: not a plain optimizer state ({e})") from e
    model.policy.optimizer.load_state_dict(opt)
    model.num_timesteps = int(state["timesteps"])
    model._n_updates = int(state.get("n_updates", 0))
    return state


def resume_target(resume: str | Path) -> Path:
    """The checkpoint ``NAME`` a ``--resume`` argument means: a run folder means its
    ``checkpoints/last``; any file of a checkpoint means that checkpoint."""
    p = Path(resume)
    if p.is_dir():
        return p / "last" if (p / "last.train.json").exists() else p / "checkpoints" / "last"
    return stem(p)
