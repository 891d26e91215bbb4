"""No file a user hands over runs code: a crafted SB3 ``.zip`` (its pickled parts create a
sentinel file when unpickled) and crafted files of every other format are tried in every load
path, and the sentinel never appears. With ``--trust-checkpoint`` the same ``.zip`` does run,
which shows that the crafted file is real and that the switch is the only way in."""

from __future__ import annotations

import base64
import hashlib
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.checkpoint import CheckpointError
from nanty_app.cli import main as nanty

pytest.importorskip("sb3_contrib")


class Payload:
    """Unpickling this opens (creates) the sentinel file: code of the file's author runs."""

    def __init__(self, sentinel: Path) -> None:
        self.sentinel = str(sentinel)

    def __reduce__(self):
        return (open, (self.sentinel, "w"))


def evil_zip(path: Path, sentinel: Path) -> Path:
    """An SB3-style ``.zip`` whose ``data`` holds a 'serialized' (cloudpickled) entry."""
    blob = base64.b64encode(pickle.dumps(Payload(sentinel))).decode()
    data = {"policy_class": {":type:": "<class 'type'>", ":serialized:": blob}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("_stable_baselines3_version", "2.9.2")
    return path


@pytest.fixture
def trap(tmp_path: Path):
    sentinel = tmp_path / "SENTINEL"
    yield evil_zip(tmp_path / "evil.zip", sentinel), sentinel
    assert not sentinel.exists(), "a crafted file ran code"


def test_the_crafted_zip_is_real_and_runs_only_when_trusted(tmp_path: Path) -> None:
    from agents.policy import PolicyBot

    sentinel = tmp_path / "SENTINEL"
    path = evil_zip(tmp_path / "evil.zip", sentinel)
    with pytest.raises(CheckpointError):
        PolicyBot(path=path)
    assert not sentinel.exists()
    with pytest.raises(Exception):  # noqa: B017 - the load fails after the payload ran
        PolicyBot(path=path, trust=1)
    assert sentinel.exists(), "the crafted file should run code once trusted"


def test_policy_bot_and_bot_specs(trap) -> None:
    from agents.policy import PolicyBot
    from agents.registry import make_bot

    path, _ = trap
    with pytest.raises(CheckpointError, match="--trust-checkpoint"):
        PolicyBot(path=path)
    with pytest.raises(CheckpointError):
        make_bot(f"policy:path={path}")


def test_nanty_eval_checkpoint(trap, tmp_path: Path, capsys) -> None:
    path, _ = trap
    code = nanty(["eval", "--bots", "ppo,random", "--players", "2", "--games", "2",
                  "--checkpoint", str(path), "--no-progress", "--out", str(tmp_path / "out")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "refusing to open an SB3 .zip" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists(), "nothing is written before the bots are checked"


def test_nanty_train_resume_from_a_zip(trap, tmp_path: Path, capsys) -> None:
    path, _ = trap
    code = nanty(
        ["train", "--config", "quick", "--resume", str(path), "--out", str(tmp_path / "r")]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--trust-checkpoint" in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_training_internals_refuse_a_zip(trap) -> None:
    from lab import hint_agreement
    from training.evaluate import _play_saved
    from training.pretrain import _dagger_many
    from training.selfplay import OpponentPool

    path, _ = trap
    pool = OpponentPool(1, {"snapshots": 1.0}, [str(path)])
    with pytest.raises(CheckpointError):
        pool(np.random.default_rng(0))
    cfg = {"num_players": 2, "log": False}
    with pytest.raises(CheckpointError):
        _play_saved((str(path), "random", cfg, 0, range(1)))
    with pytest.raises(CheckpointError):
        _dagger_many(
            (str(path), "random", cfg, [("random", 0, 1)], 0.99, "none", "win_loss", False)
        )
    with pytest.raises(CheckpointError):
        hint_agreement.main([str(path)])


def test_training_export_needs_the_switch(trap, tmp_path: Path) -> None:
    from training.export import main as export

    path, _ = trap
    with pytest.raises(SystemExit, match="arbitrary code"):
        export([str(path), str(tmp_path / "out")])


def test_crafted_policy_description(trap, tmp_path: Path) -> None:
    """A description whose strings look like code is data: refused, never evaluated."""
    from agents.policy import PolicyBot

    _, sentinel = trap
    (tmp_path / "p.safetensors").write_bytes(b"\x02\x00\x00\x00\x00\x00\x00\x00{}")
    (tmp_path / "p.json").write_text(
        json.dumps(
            {
                "format": "nanty-policy",
                "version": 1,
                "actor": [{"weight": "w", "bias": "b", "activation": f"open('{sentinel}','w')"}],
                "observation": {"size": 3, "hint": False},
                "num_actions": 2,
            }
        )
    )
    with pytest.raises(CheckpointError, match="activation"):
        PolicyBot(path=tmp_path / "p")


def test_crafted_optimizer_state_in_a_resume(trap, tmp_path: Path) -> None:
    """A resume whose optimizer file is a pickle with a payload (digests made to match):
    ``torch.load(weights_only=True)`` refuses it."""
    import torch

    from training.state import load_training_state, state_files

    _, sentinel = trap
    files = state_files(tmp_path / "ckpt")
    torch.save({"state": {}, "param_groups": [], "x": Payload(sentinel)}, files["optimizer"])
    files["policy"].write_text("{}")
    files["tensors"].write_bytes(b"\x02\x00\x00\x00\x00\x00\x00\x00{}")
    digest = {k: hashlib.sha256(files[k].read_bytes()).hexdigest() for k in files if k != "state"}
    files["state"].write_text(
        json.dumps(
            {
                "format": "nanty-train-state",
                "version": 1,
                "timesteps": 10,
                "config": {},
                "env": {},
                "files": {files[k].name: d for k, d in digest.items()},
            }
        )
    )

    class Model:  # what load_training_state touches before the optimizer
        class policy:
            @staticmethod
            def state_dict():
                return {}

            @staticmethod
            def load_state_dict(sd):
                return None

        device = "cpu"

    with pytest.raises(CheckpointError, match="not a plain optimizer state"):
        load_training_state(Model(), tmp_path / "ckpt")


def test_value_records_are_never_unpickled(trap, tmp_path: Path) -> None:
    from lab.value_data import load_records

    _, sentinel = trap
    path = tmp_path / "records.pkl"
    path.write_bytes(pickle.dumps([Payload(sentinel)]))
    with pytest.raises(ValueError, match="not a JSON records file"):
        load_records(path)


def test_pretraining_cache_with_objects_is_ignored(trap, tmp_path: Path) -> None:
    from training.pretrain import _load

    _, sentinel = trap
    path = tmp_path / "bc.npz"
    np.savez(path, obs=np.array([Payload(sentinel)], dtype=object), cpu_seconds=1.0)
    assert _load(path, ["any key"]) is None


def test_value_records_round_trip(tmp_path: Path) -> None:
    from lab.value_data import generate_records, load_records, save_records

    records = generate_records("random", 2, 2, seed=3, workers=1, progress=False)
    save_records(records, tmp_path / "r.json")
    again = load_records(tmp_path / "r.json")
    assert len(again) == 2 and again[0]["winners"] == records[0]["winners"]
    for (m, p, a), (m2, p2, a2) in zip(records[0]["positions"], again[0]["positions"], strict=True):
        assert (m, p, a) == (m2, p2, a2)
