"""The value network checkpoint ("nanty-value", version 1) and its numpy inference.

``P(seat s wins)`` is a softmax over the seats of one shared score ``g(x_s)``, where ``x_s``
is ``[f(s), mean of f over the other seats, max of f over the other seats, shared]``
(:mod:`agents.value_features`) and ``g`` a plain MLP. The probabilities add up to 1 and follow
the seats when they are relabelled; at two players it is ``sigmoid(g(x_0) - g(x_1))``.

A checkpoint is two files side by side, following the policy checkpoint's conventions (no
pickle anywhere): ``NAME.safetensors`` holds the tensors, ``NAME.json`` says how to use them::

    {
        "format": "nanty-value",
        "version": 1,
        "players": 4,
        "layers": [
            {"weight": "l0.weight", "bias": "l0.bias", "activation": "tanh"},
            ...,
            {"weight": "lK.weight", "bias": "lK.bias", "activation": "none"},
        ],
        "features": {"seat": [...], "shared": [...]},
        "trained_with": {...},
        "play": {"robust": 2.0, "durable": 2.0, "switch": 1},
    }

``play`` (optional) sets the :class:`~agents.learned_bot.LearnedBot` options the network is
meant to be played with, where the bot's spec does not set them (:func:`check_play`).
Weights are stored ``(out, in)`` as torch's ``Linear`` does; the last layer has one output.
:func:`load` checks the format, the feature names against :mod:`agents.value_features` and the
shapes against each other, and fails with one message naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from agents.checkpoint import CheckpointError, checkpoint_files, read_json, read_tensors
from agents.value_features import NUM_SEAT, NUM_SHARED, SEAT_FEATURES, SHARED_FEATURES
from agents.value_model import pooled_inputs, softmax
from nanty_env.storage.files import atomic_write_bytes, atomic_write_text

__all__ = ["CheckpointError", "ValueNet", "load", "save", "shipped"]

FORMAT = "nanty-value"
VERSION = 1
ACTIVATIONS = ("tanh", "relu", "none")
NUM_INPUT = 3 * NUM_SEAT + NUM_SHARED


class ValueNet:
    """An MLP score over :func:`pooled_inputs` rows; see the module docstring."""

    def __init__(
        self,
        layers: Sequence[tuple[np.ndarray, np.ndarray, str]],
        players: int,
        meta: Mapping[str, Any] | None = None,
        play: Mapping[str, float] | None = None,
    ) -> None:
        self.layers = [
            (np.asarray(w, dtype=np.float64).T.copy(), np.asarray(b, dtype=np.float64), act)
            for w, b, act in layers
        ]
        self.players = int(players)
        self.meta = dict(meta or {})
        self.play = check_play(play or {})
        _check_shapes([(w.T, b, act) for w, b, act in self.layers])

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The score of every row (last axis) of ``x``."""
        h = x
        for w, b, act in self.layers:
            h = h @ w  # a new array: the bias and the activation are applied in place
            h += b
            if act == "tanh":
                np.tanh(h, out=h)
            elif act == "relu":
                np.maximum(h, 0.0, out=h)
        return h[..., 0]

    def probabilities(self, f: np.ndarray, shared: np.ndarray) -> np.ndarray:
        """Every seat's win probability from seat features ``(..., n, F)`` and shared
        ``(..., S)``: an array ``(..., n)`` whose last axis adds up to 1."""
        return softmax(self.scores(pooled_inputs(f, shared)))

    def probabilities_from_inputs(self, x: np.ndarray) -> np.ndarray:
        """The probabilities of :func:`pooled_inputs` rows ``(..., n, 3F + S)``."""
        return softmax(self.scores(x))

    def to_files(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The tensors and the JSON header of the checkpoint."""
        tensors: dict[str, np.ndarray] = {}
        spec = []
        for i, (w, b, act) in enumerate(self.layers):
            tensors[f"l{i}.weight"] = np.ascontiguousarray(w.T, dtype=np.float32)
            tensors[f"l{i}.bias"] = np.ascontiguousarray(b, dtype=np.float32)
            spec.append({"weight": f"l{i}.weight", "bias": f"l{i}.bias", "activation": act})
        header = {
            "format": FORMAT,
            "version": VERSION,
            "players": self.players,
            "layers": spec,
            "features": {"seat": list(SEAT_FEATURES), "shared": list(SHARED_FEATURES)},
            "trained_with": self.meta,
        }
        if self.play:
            header["play"] = dict(self.play)
        return tensors, header


MAX_BONUS = 10.0
PLAY_OPTIONS = {"robust": MAX_BONUS, "durable": MAX_BONUS, "switch": 1.0}
"""The :class:`~agents.learned_bot.LearnedBot` options a checkpoint may set (``play``), each
with its largest value; ``switch`` is a flag (0 or 1)."""
FLAGS = ("switch",)


def check_play(play: Mapping[str, Any]) -> dict[str, float]:
    """``play`` (how :class:`~agents.learned_bot.LearnedBot` plays the network unless its spec
    says otherwise) as floats, or a :class:`CheckpointError`: only :data:`PLAY_OPTIONS`, each
    a number from 0 to its largest value, a flag 0 or 1."""
    if not isinstance(play, Mapping):
        raise CheckpointError(f"play is {play!r}, not a mapping")
    out = {}
    for key, value in play.items():
        if key not in PLAY_OPTIONS:
            raise CheckpointError(f"play: {key!r} is not one of {tuple(PLAY_OPTIONS)}")
        top = PLAY_OPTIONS[key]
        if key in FLAGS:
            if value not in (0, 1) or isinstance(value, bool):
                raise CheckpointError(f"play: {key} is {value!r}, not 0 or 1")
        elif (
            not isinstance(value, int | float) or isinstance(value, bool) or not 0.0 <= value <= top
        ):
            raise CheckpointError(f"play: {key} is {value!r}, not a number in [0, {top:g}]")
        out[key] = float(value)
    return out


def _check_shapes(layers: Sequence[tuple[np.ndarray, np.ndarray, str]]) -> None:
    if not layers:
        raise CheckpointError("a value network needs at least one layer")
    width = NUM_INPUT
    for i, (w, b, act) in enumerate(layers):
        if not isinstance(act, str) or act not in ACTIVATIONS:
            raise CheckpointError(f"layer {i}: activation {act!r} is not one of {ACTIVATIONS}")
        if w.ndim != 2 or w.shape[1] != width:
            raise CheckpointError(f"layer {i}: weight {w.shape} does not take {width} inputs")
        if b.shape != (w.shape[0],):
            raise CheckpointError(f"layer {i}: bias {b.shape} does not fit weight {w.shape}")
        width = w.shape[0]
    if width != 1:
        raise CheckpointError(f"the last layer gives {width} outputs, not 1 score")


def save(net: ValueNet, stem: str | Path) -> tuple[Path, Path]:
    """Write ``stem.safetensors`` and then ``stem.json`` (each atomically)."""
    from safetensors.numpy import save as to_bytes

    tensors, header = net.to_files()
    js, st = checkpoint_files(stem)
    atomic_write_bytes(st, to_bytes(tensors))
    atomic_write_text(js, json.dumps(header, indent=1, allow_nan=False) + "\n")
    return st, js


def from_files(
    header: Mapping[str, Any], tensors: Mapping[str, np.ndarray], where: str
) -> ValueNet:
    """A :class:`ValueNet` from a checkpoint's JSON and tensors (validated; see module doc)."""
    try:
        if header.get("format") != FORMAT:
            raise CheckpointError(f"format is {header.get('format')!r}, not {FORMAT!r}")
        if header.get("version") != VERSION:
            raise CheckpointError(f"version {header.get('version')!r} is not {VERSION}")
        feats = header.get("features", {})
        if (
            tuple(feats.get("seat", ())) != SEAT_FEATURES
            or tuple(feats.get("shared", ())) != SHARED_FEATURES
        ):
            raise CheckpointError("it was trained on other features than agents.value_features")
        layers = []
        for i, spec in enumerate(header["layers"]):
            pair = []
            for key in ("weight", "bias"):
                t = tensors.get(spec[key]) if isinstance(spec[key], str) else None
                if t is None:
                    raise CheckpointError(f"layer {i}: tensor {spec[key]!r} is missing")
                if t.dtype.kind != "f" or not np.all(np.isfinite(t.astype(np.float32))):
                    raise CheckpointError(f"layer {i}: tensor {spec[key]!r} is not finite floats")
                pair.append(t)
            layers.append((*pair, spec["activation"]))
        players = header["players"]
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise CheckpointError(f"players is {players}, not 2-4")
        return ValueNet(layers, players, header.get("trained_with"), header.get("play"))
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise CheckpointError(f"{where}: malformed value checkpoint ({e!r})") from None
    except CheckpointError as e:
        raise CheckpointError(f"{where}: {e}") from e


def load(stem: str | Path) -> ValueNet:
    """Read ``stem.json`` and ``stem.safetensors`` (``stem`` may name either file; each is
    size-checked before it is read)."""
    js, st = checkpoint_files(stem)
    for p in (js, st):
        if not p.is_file():
            raise CheckpointError(f"{p} is missing")
    header = read_json(js)
    return from_files(header, read_tensors(st), str(js.with_suffix("")))


def shipped_stem(players: int) -> str:
    """The shipped checkpoint's file stem for a player count (in ``agents/data``)."""
    return f"value_net_{players}p"


@cache
def shipped(players: int) -> ValueNet:
    """The checkpoint shipped with the package for ``players`` (fitted by ``nanty train
    --config configs/learned_{players}p.yaml``)."""
    base = resources.files("agents") / "data"
    stem = shipped_stem(players)
    js, st = base / f"{stem}.json", base / f"{stem}.safetensors"
    if not (js.is_file() and st.is_file()):
        raise FileNotFoundError(
            f"no value network for {players} players in agents/data: run "
            f"nanty train --config configs/learned_{players}p.yaml"
        )
    from safetensors.numpy import load as load_bytes

    net = from_files(json.loads(js.read_text()), load_bytes(st.read_bytes()), stem)
    if net.players != players:
        raise CheckpointError(f"{stem}: trained for {net.players} players, not {players}")
    return net
