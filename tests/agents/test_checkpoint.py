"""The nanty-policy checkpoint format: round trip, and one clear error for each kind of damage."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from agents.checkpoint import (
    CheckpointError,
    checkpoint_files,
    is_policy_checkpoint,
    load_policy,
    save_policy,
)

pytest.importorskip("safetensors")


def tiny(hint: bool = False) -> tuple[dict[str, np.ndarray], dict]:
    """A 6-input, 4-action MLP (one hidden layer of 3) with a value head."""
    rng = np.random.default_rng(0)
    size = 6 + (4 if hint else 0)
    tensors = {
        "h.weight": rng.normal(size=(3, size)).astype(np.float32),
        "h.bias": rng.normal(size=3).astype(np.float32),
        "out.weight": rng.normal(size=(4, 3)).astype(np.float32),
        "out.bias": rng.normal(size=4).astype(np.float32),
        "v.weight": rng.normal(size=(1, size)).astype(np.float32),
        "v.bias": np.zeros(1, np.float32),
    }
    meta = {
        "actor": [
            {"weight": "h.weight", "bias": "h.bias", "activation": "tanh"},
            {"weight": "out.weight", "bias": "out.bias", "activation": "none"},
        ],
        "value": [{"weight": "v.weight", "bias": "v.bias", "activation": "none"}],
        "observation": {"size": size, "hint": hint},
        "num_actions": 4,
        "env": {"num_players": 4},
        "trained_with": {"library": "test"},
    }
    if hint:
        tensors["hw"] = np.array(2.5, np.float32)
        meta["hint"] = {"bot": "heuristic", "weight": "hw"}
    return tensors, meta


def test_round_trip_computes_the_mlp(tmp_path) -> None:
    tensors, meta = tiny()
    path = save_policy(tmp_path / "p", tensors, meta)
    assert path == tmp_path / "p.json" and is_policy_checkpoint(tmp_path / "p")
    for name in ("p", "p.json", "p.safetensors"):
        policy = load_policy(tmp_path / name, observation_size=6, num_actions=4)
        x = np.arange(6, dtype=np.float32) / 6
        want = (
            np.tanh(x @ tensors["h.weight"].T + tensors["h.bias"]) @ tensors["out.weight"].T
            + tensors["out.bias"]
        )
        np.testing.assert_allclose(policy.logits(x), want, rtol=1e-6)
        np.testing.assert_allclose(policy.values(x), x @ tensors["v.weight"][0], rtol=1e-6)
    assert json.loads((tmp_path / "p.json").read_text())["format"] == "nanty-policy"


def test_hint_adds_its_weight_times_the_one_hot(tmp_path) -> None:
    tensors, meta = tiny(hint=True)
    save_policy(tmp_path / "p", tensors, meta)
    policy = load_policy(tmp_path / "p")
    assert policy.hint_bot == "heuristic" and policy.hint_weight == 2.5
    x = np.zeros(10, np.float32)
    x[6 + 2] = 1.0  # the hint bot suggests action 2; the network sees that too
    np.testing.assert_allclose(policy.logits(x) - policy.actor(x), [0, 0, 2.5, 0], atol=1e-6)


def test_a_run_folder_means_its_model(tmp_path) -> None:
    assert checkpoint_files(tmp_path) == (tmp_path / "model.json", tmp_path / "model.safetensors")


def damage(meta: dict, tensors: dict, how: str) -> None:
    if how == "format":
        meta["format"] = "other"
    elif how == "version":
        meta["version"] = 99
    elif how == "missing tensor":
        del tensors["out.bias"]
    elif how == "shape chain":
        tensors["out.weight"] = np.zeros((4, 5), np.float32)
    elif how == "activation":
        meta["actor"][0]["activation"] = "__import__('os')"
    elif how == "nan":
        tensors["h.bias"][0] = np.nan
    elif how == "observation size":
        meta["observation"]["size"] = 7
    elif how == "num_actions":
        meta["num_actions"] = 5
    elif how == "integer tensor":
        tensors["h.bias"] = np.zeros(3, np.int64)


DAMAGE = {
    "format": "'format' is 'other'",
    "version": "version 99",
    "missing tensor": "'out.bias', which is missing",
    "shape chain": "actor[1]' takes 5 inputs but the layer before gives 3",
    "activation": "actor[0].activation' must be one of",
    "nan": "NaN or infinite",
    "observation size": "'observation.size' says 7",
    "num_actions": "'num_actions' says 5",
    "integer tensor": "must hold floats",
}


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_damaged_checkpoints_fail_with_one_clear_message(tmp_path, how: str) -> None:
    tensors, meta = tiny()
    save_policy(tmp_path / "p", tensors, meta)
    written = json.loads((tmp_path / "p.json").read_text())
    from safetensors.numpy import load_file, save_file

    arrays = dict(load_file(tmp_path / "p.safetensors"))
    damage(written, arrays, how)
    (tmp_path / "p.json").write_text(json.dumps(written))
    save_file(arrays, tmp_path / "p.safetensors")
    with pytest.raises(CheckpointError, match=re.escape(DAMAGE[how])):
        load_policy(tmp_path / "p")
    # the writer refuses the same damage before anything is written
    with pytest.raises(CheckpointError):
        save_policy(tmp_path / "q", arrays, written)
    assert not (tmp_path / "q.json").exists()


def test_wrong_observation_size_for_the_env(tmp_path) -> None:
    tensors, meta = tiny()
    save_policy(tmp_path / "p", tensors, meta)
    with pytest.raises(CheckpointError, match="size 6, this environment makes 8"):
        load_policy(tmp_path / "p", observation_size=8)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "not valid JSON"),
        (b'{"format": "nanty-policy", "version": NaN}', "not valid JSON"),
        (b"[1, 2]", "must be a JSON object"),
    ],
)
def test_broken_descriptions(tmp_path, content: bytes, message: str) -> None:
    tensors, meta = tiny()
    save_policy(tmp_path / "p", tensors, meta)
    (tmp_path / "p.json").write_bytes(content)
    with pytest.raises(CheckpointError, match=message):
        load_policy(tmp_path / "p")


def test_broken_tensor_file_and_missing_files(tmp_path) -> None:
    tensors, meta = tiny()
    save_policy(tmp_path / "p", tensors, meta)
    (tmp_path / "p.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00garbage")
    with pytest.raises(CheckpointError, match="not a readable safetensors file"):
        load_policy(tmp_path / "p")
    (tmp_path / "p.safetensors").unlink()
    with pytest.raises(CheckpointError, match="tensors are missing"):
        load_policy(tmp_path / "p")
    with pytest.raises(CheckpointError, match="no such checkpoint"):
        load_policy(tmp_path / "nothing")
    with pytest.raises(CheckpointError, match=r"SB3 \.zip.*--trust-checkpoint"):
        load_policy(tmp_path / "model.zip")


def test_one_observation_reads_only_the_first_layers_rows_of_its_nonzero_entries() -> None:
    from agents.checkpoint import MLP, Dense

    rng = np.random.default_rng(0)
    w1, w2 = rng.normal(size=(6, 10)).astype(np.float32), rng.normal(size=(3, 6))
    mlp = MLP((Dense(w1, np.zeros(6, np.float32), "tanh"), Dense(w2.astype(np.float32),
              np.ones(3, np.float32), "none")))  # fmt: skip
    x = np.zeros(10, np.float32)
    x[[1, 7]] = [0.5, 2.0]
    batch = mlp(x[None, :])[0]
    np.testing.assert_allclose(mlp(x), batch, rtol=1e-6, atol=1e-6)
    poisoned = w1.copy()
    poisoned[:, [0, 2, 3, 4, 5, 6, 8, 9]] = np.nan  # the columns of the zero entries
    sparse = MLP((Dense(poisoned, np.zeros(6, np.float32), "tanh"), mlp.layers[1]))
    np.testing.assert_allclose(sparse(x), batch, rtol=1e-6, atol=1e-6)
    assert np.isnan(sparse(x[None, :])).all()  # a batch still takes the dense product
