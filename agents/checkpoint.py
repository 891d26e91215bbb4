"""The safe policy checkpoint ("nanty-policy", version 1): tensors and a JSON description.

A checkpoint is two files side by side:

* ``NAME.safetensors``: the tensors (read with ``safetensors.numpy``; the format holds raw
  numbers and a JSON header, so loading one cannot run code, unlike pickle-based formats);
* ``NAME.json``: what the tensors mean::

    {"format": "nanty-policy", "version": 1,
     "actor": [{"weight": "<tensor>", "bias": "<tensor>", "activation": "tanh"}, ...],
     "value": [...same, optional],
     "hint": {"bot": "heuristic", "weight": "<scalar tensor>"},          # optional
     "observation": {"size": 1234, "hint": false, ...how the env encodes it},
     "num_actions": 405,
     "env": {GameConfig fields and the reward settings the policy was trained with},
     "trained_with": {"library": "sb3", "timesteps": 50000, "commit": "...", ...}}

The actor is a plain MLP (``x @ weight.T + bias``, then the activation) whose last layer gives
one logit per action. A residual policy (``hint``) also adds ``weight`` times the last
``num_actions`` observation entries (the hint bot's suggestion, one-hot) to the logits.
Masking, argmax and sampling are the bot's job (:class:`agents.policy.PolicyBot`).

:func:`load_policy` checks everything before a single number is used (format, version, every
tensor named and present, shapes that chain from the observation to one logit per action,
finite values, the observation size the caller expects) and raises one
:class:`CheckpointError` naming the problem. Only numpy and safetensors are needed, so bots
in worker processes never import torch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from nanty_env.storage import files
from nanty_env.storage.files import FileTooLarge, atomic_write_bytes, atomic_write_text, read_capped

FORMAT = "nanty-policy"
VERSION = 1
ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray] | None] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
    "none": None,
}
MAX_JSON_BYTES = 4_000_000  # a description is a few kB; anything bigger is not one of ours
MAX_TENSOR_BYTES = 256 * 2**20  # the largest network trained here is a few MB
TRUST_HINT = (
    "SB3 .zip files are loaded with pickle and can run arbitrary code; convert a .zip you "
    "trust with `python -m training.export --trust-checkpoint IN.zip OUT`, or pass "
    "--trust-checkpoint (policy:...:trust=1) to load it anyway"
)


class CheckpointError(ValueError):
    """A checkpoint that is missing, malformed or does not fit (one line naming the problem)."""


@dataclass(frozen=True)
class Dense:
    """One fully connected layer: ``activation(x @ weight.T + bias)``."""

    weight: np.ndarray  # (out, in), float32
    bias: np.ndarray  # (out,), float32
    activation: str
    rows: np.ndarray = field(init=False, repr=False, compare=False)  # weight.T, contiguous

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", np.ascontiguousarray(self.weight.T))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self._activate(x @ self.rows + self.bias)

    def sparse(self, x: np.ndarray) -> np.ndarray:
        """The layer on one observation (1-D) from its nonzero entries only: the rows of the
        weights those entries select, not the whole matrix (an encoded view is mostly zeros,
        and a wide first layer is megabytes that a dense product reads on every call, with
        BLAS threads that spin on a busy machine)."""
        nz = np.flatnonzero(x)
        return self._activate(x[nz] @ self.rows[nz] + self.bias)

    def _activate(self, y: np.ndarray) -> np.ndarray:
        f = ACTIVATIONS[self.activation]
        return y if f is None else f(y)


@dataclass(frozen=True)
class MLP:
    layers: tuple[Dense, ...]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        first, *rest = self.layers
        x = first.sparse(x) if x.ndim == 1 else first(x)
        for layer in rest:
            x = layer(x)
        return x

    @property
    def input_size(self) -> int:
        return int(self.layers[0].weight.shape[1])

    @property
    def output_size(self) -> int:
        return int(self.layers[-1].weight.shape[0])


@dataclass(frozen=True)
class PolicyCheckpoint:
    """A loaded, validated checkpoint: the networks as numpy arrays plus the description."""

    meta: dict[str, Any]
    actor: MLP
    value: MLP | None = None
    hint_weight: float | None = None  # residual policies only

    @property
    def observation_size(self) -> int:
        return self.actor.input_size

    @property
    def num_actions(self) -> int:
        return self.actor.output_size

    @property
    def hint_bot(self) -> str | None:
        """The bot spec whose suggestion the policy expects (None: no hint)."""
        hint = self.meta.get("hint")
        return None if hint is None else str(hint["bot"])

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits (float32) of one observation or a batch of them."""
        x = np.asarray(obs, dtype=np.float32)
        out = self.actor(x)
        if self.hint_weight is not None:
            out = out + np.float32(self.hint_weight) * x[..., -self.num_actions :]
        return out

    def values(self, obs: np.ndarray) -> np.ndarray:
        """The value head's estimate(s), if the checkpoint has one."""
        if self.value is None:
            raise CheckpointError("this checkpoint has no value network")
        return self.value(np.asarray(obs, dtype=np.float32))[..., 0]


# ---------------------------------------------------------------------- paths
def checkpoint_files(path: str | Path) -> tuple[Path, Path]:
    """The (JSON, safetensors) pair of a checkpoint given as ``NAME``, ``NAME.json``,
    ``NAME.safetensors`` or a folder holding ``model.json`` (a training run)."""
    p = Path(path)
    if p.is_dir():
        p = p / "model"
    if p.suffix in (".json", ".safetensors"):
        p = p.with_suffix("")
    return p.with_name(p.name + ".json"), p.with_name(p.name + ".safetensors")


def is_policy_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` names an existing nanty-policy checkpoint (both files present)."""
    meta, tensors = checkpoint_files(path)
    return meta.is_file() and tensors.is_file()


# ---------------------------------------------------------------------- save
def save_policy(
    path: str | Path, tensors: Mapping[str, np.ndarray], meta: Mapping[str, Any]
) -> Path:
    """Write a checkpoint (tensors first, then the description; each file atomically) after
    validating it exactly as :func:`load_policy` will. Returns the JSON path."""
    from safetensors.numpy import save

    meta = {"format": FORMAT, "version": VERSION, **dict(meta)}
    arrays = {k: np.ascontiguousarray(v) for k, v in tensors.items()}
    build_policy(meta, arrays, where=str(path))
    meta_path, tensor_path = checkpoint_files(path)
    atomic_write_bytes(tensor_path, save(arrays))
    atomic_write_text(meta_path, json.dumps(meta, indent=1, allow_nan=False) + "\n")
    return meta_path


# ---------------------------------------------------------------------- load
def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> Any:
    """A checkpoint's JSON description, size-checked before it is read (NaN and infinities
    refused); any fault is one :class:`CheckpointError`."""
    try:
        return files.read_json(path, limit, "checkpoint description")
    except files.UnreadableFile as e:
        raise CheckpointError(str(e)) from None


def read_tensors(path: Path, limit: int = MAX_TENSOR_BYTES) -> dict[str, np.ndarray]:
    """A safetensors file, size-checked before it is read; any fault is one
    :class:`CheckpointError`."""
    from safetensors import SafetensorError
    from safetensors.numpy import load

    try:
        return load(read_capped(path, limit))
    except FileTooLarge as e:
        raise CheckpointError(f"{path}: {e}; too large for this project's networks") from None
    except (SafetensorError, ValueError, OSError) as e:
        raise CheckpointError(f"{path}: not a readable safetensors file ({e})") from None


def read_meta(path: str | Path) -> dict[str, Any]:
    """The JSON description of a checkpoint (format and version checked)."""
    meta_path, _ = checkpoint_files(path)
    where = str(meta_path)
    if Path(path).suffix == ".zip":
        raise CheckpointError(f"{path}: an SB3 .zip, not a nanty-policy checkpoint. {TRUST_HINT}")
    if not meta_path.is_file():
        raise CheckpointError(f"{where}: no such checkpoint description")
    meta = read_json(meta_path)
    _check_header(meta, where)
    return meta


def load_policy(
    path: str | Path,
    *,
    observation_size: int | None = None,
    num_actions: int | None = None,
) -> PolicyCheckpoint:
    """Load and validate a checkpoint; ``observation_size`` / ``num_actions``: what the
    caller will feed it and expect back (checked against the description and the tensors)."""
    meta = read_meta(path)
    meta_path, tensor_path = checkpoint_files(path)
    if not tensor_path.is_file():
        raise CheckpointError(f"{tensor_path}: the checkpoint's tensors are missing")
    tensors = read_tensors(tensor_path)
    policy = build_policy(meta, tensors, where=str(meta_path))
    if observation_size is not None and policy.observation_size != observation_size:
        raise CheckpointError(
            f"{meta_path}: the policy takes observations of size {policy.observation_size}, "
            f"this environment makes {observation_size} (another observation layout or hint "
            "setting)"
        )
    if num_actions is not None and policy.num_actions != num_actions:
        raise CheckpointError(
            f"{meta_path}: the policy has {policy.num_actions} actions, the game {num_actions}"
        )
    return policy


def build_policy(
    meta: Mapping[str, Any], tensors: Mapping[str, np.ndarray], where: str = "checkpoint"
) -> PolicyCheckpoint:
    """Validate a description against its tensors and assemble the networks."""
    meta = dict(meta)
    _check_header(meta, where)
    obs = meta.get("observation")
    if not isinstance(obs, dict):
        raise CheckpointError(f"{where}: 'observation' must be a mapping")
    size = obs.get("size")
    if not _is_int(size) or size <= 0:
        raise CheckpointError(f"{where}: 'observation.size' must be a positive integer")
    if not isinstance(obs.get("hint", False), bool):
        raise CheckpointError(f"{where}: 'observation.hint' must be true or false")
    n_actions = meta.get("num_actions")
    if not _is_int(n_actions) or n_actions <= 0:
        raise CheckpointError(f"{where}: 'num_actions' must be a positive integer")
    for key in ("env", "trained_with"):
        if not isinstance(meta.get(key, {}), dict):
            raise CheckpointError(f"{where}: '{key}' must be a mapping")
    actor = _mlp(meta.get("actor"), tensors, "actor", where)
    if actor.input_size != size:
        raise CheckpointError(
            f"{where}: actor layer 0 takes {actor.input_size} inputs, "
            f"'observation.size' says {size}"
        )
    if actor.output_size != n_actions:
        raise CheckpointError(
            f"{where}: the actor's last layer gives {actor.output_size} logits, "
            f"'num_actions' says {n_actions}"
        )
    value = None
    if meta.get("value") is not None:
        value = _mlp(meta["value"], tensors, "value", where)
        if value.input_size != size or value.output_size != 1:
            raise CheckpointError(
                f"{where}: the value network must map {size} inputs to 1 output, "
                f"it maps {value.input_size} to {value.output_size}"
            )
    hint_weight = None
    hint = meta.get("hint")
    if hint is not None:
        if not isinstance(hint, dict) or not isinstance(hint.get("bot"), str):
            raise CheckpointError(f"{where}: 'hint' must be a mapping with a 'bot' spec")
        hint = {**hint, "bot": hint_spec(hint["bot"], where)}
        meta["hint"] = hint
        w = _tensor(tensors, hint.get("weight"), "hint.weight", where)
        if w.size != 1:
            raise CheckpointError(f"{where}: 'hint.weight' must be a scalar, got {w.shape}")
        if not obs.get("hint", False) or size <= n_actions:
            raise CheckpointError(
                f"{where}: a hint needs 'observation.hint' true and room for "
                f"{n_actions} hint entries in the observation"
            )
        hint_weight = float(w.reshape(()))
    elif obs.get("hint", False):
        raise CheckpointError(f"{where}: 'observation.hint' is true but there is no 'hint'")
    return PolicyCheckpoint(meta, actor, value, hint_weight)


def hint_spec(spec: str, where: str) -> str:
    """A checkpoint's hint bot, checked as text from a file: a shipped bot with bounded
    options (``agents.spec_limits.FILE_LIMITS``), never an import path, a plug-in or a
    ``policy`` (which would open a file, or this checkpoint again)."""
    from agents.registry import BotSpecError, untrusted_spec

    try:
        return untrusted_spec(spec)
    except BotSpecError as e:
        raise CheckpointError(f"{where}: 'hint.bot': {e}") from None


def _check_header(meta: Any, where: str) -> None:
    if not isinstance(meta, dict):
        raise CheckpointError(f"{where}: the description must be a JSON object")
    if meta.get("format") != FORMAT:
        raise CheckpointError(f"{where}: 'format' is {meta.get('format')!r}, expected {FORMAT!r}")
    version = meta.get("version")
    if version != VERSION:
        raise CheckpointError(
            f"{where}: version {version!r} of {FORMAT} is not supported (this code reads "
            f"version {VERSION})"
        )


def _mlp(spec: Any, tensors: Mapping[str, np.ndarray], what: str, where: str) -> MLP:
    if not isinstance(spec, list) or not spec:
        raise CheckpointError(f"{where}: '{what}' must be a non-empty list of layers")
    layers = []
    for i, layer in enumerate(spec):
        name = f"{what}[{i}]"
        if not isinstance(layer, dict):
            raise CheckpointError(f"{where}: '{name}' must be a mapping")
        unknown = set(layer) - {"weight", "bias", "activation"}
        if unknown:
            raise CheckpointError(f"{where}: '{name}' has unknown keys {sorted(unknown)}")
        activation = layer.get("activation")
        if not isinstance(activation, str) or activation not in ACTIVATIONS:
            raise CheckpointError(
                f"{where}: '{name}.activation' must be one of {sorted(ACTIVATIONS)}, "
                f"got {activation!r}"
            )
        w = _tensor(tensors, layer.get("weight"), f"{name}.weight", where)
        b = _tensor(tensors, layer.get("bias"), f"{name}.bias", where)
        if w.ndim != 2 or b.ndim != 1 or b.shape[0] != w.shape[0]:
            raise CheckpointError(
                f"{where}: '{name}' needs a 2-d weight and a bias of its output size, got "
                f"weight {w.shape} and bias {b.shape}"
            )
        if layers and layers[-1].weight.shape[0] != w.shape[1]:
            raise CheckpointError(
                f"{where}: '{name}' takes {w.shape[1]} inputs but the layer before gives "
                f"{layers[-1].weight.shape[0]}"
            )
        layers.append(Dense(w, b, activation))
    return MLP(tuple(layers))


def _tensor(tensors: Mapping[str, np.ndarray], name: Any, what: str, where: str) -> np.ndarray:
    if not isinstance(name, str):
        raise CheckpointError(f"{where}: '{what}' must name a tensor")
    if name not in tensors:
        raise CheckpointError(f"{where}: '{what}' names tensor {name!r}, which is missing")
    t = np.asarray(tensors[name])
    if t.dtype.kind != "f":
        raise CheckpointError(f"{where}: tensor {name!r} must hold floats, not {t.dtype}")
    with np.errstate(over="ignore"):
        t = t.astype(np.float32, copy=False)
    if not np.all(np.isfinite(t)):
        raise CheckpointError(
            f"{where}: tensor {name!r} holds NaN or infinite values (or values beyond float32)"
        )
    return t


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
