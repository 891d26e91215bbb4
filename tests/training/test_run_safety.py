"""Training runs are never destroyed: everything is checked before ``--out`` is touched, a used
folder needs ``--resume``, a resume must match the env and network, a torn checkpoint is
refused, Ctrl-C saves a checkpoint (a real signal to a real run) and step counts stay
monotone across a resume."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from training.config import ConfigError, load_config
from training.train import RunFolderError, train

ROOT = Path(__file__).resolve().parents[2]
TINY = {
    "env.num_players": 3,
    "ppo.num_envs": 2,
    "ppo.n_steps": 64,
    "ppo.batch_size": 64,
    "ppo.n_epochs": 1,
    "ppo.net_arch": [16],
    "checkpoint_every": 256,
    "eval.every": 100_000,
    "eval.games": 2,
    "eval.opponents": ["random"],
    "selfplay.weights": {"random": 1.0},
    "selfplay.snapshot_every": 100_000,
}


def tiny_config(**extra):
    return load_config(ROOT / "configs" / "quick.yaml", **{**TINY, **extra})


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """One tiny finished run (copied by the tests that change it)."""
    out = tmp_path_factory.mktemp("runs") / "run"
    train(tiny_config(), total_timesteps=256, out=out, progress=False)
    return out


def test_a_used_folder_needs_resume_and_is_left_alone(run: Path, tmp_path: Path) -> None:
    before = fingerprint(run)
    with pytest.raises(RunFolderError, match=r"already holds a run .* pass --resume"):
        train(tiny_config(), total_timesteps=256, out=run, progress=False)
    assert fingerprint(run) == before


def test_a_bad_config_is_refused_before_the_folder_exists(tmp_path: Path) -> None:
    cfg = tiny_config()
    for bad in (replace(cfg, device="tpu"), replace(cfg, ppo=replace(cfg.ppo, ent_coef=-1.0))):
        with pytest.raises(ConfigError):
            train(bad, out=tmp_path / "new", progress=False)
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"env.num_players": 4}, "env.num_players is 3 in the checkpoint but 4 in the config"),
        ({"ppo.net_arch": [32, 32]}, "network.net_arch is [16] in the checkpoint but [32, 32]"),
        ({"env.reward_mode": "zero_sum"}, "env.reward_mode is 'win_loss'"),
    ],
)
def test_a_resume_into_another_env_or_network_is_refused(
    run: Path, change: dict, message: str
) -> None:
    before = fingerprint(run)
    with pytest.raises(RunFolderError, match=message.replace("[", r"\[").replace("]", r"\]")):
        train(tiny_config(**change), total_timesteps=512, out=run, resume=run, progress=False)
    assert fingerprint(run) == before, "a refused resume changed the run"


def test_a_torn_checkpoint_is_refused(run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    tensors = copy / "checkpoints" / "last.safetensors"
    tensors.write_bytes(tensors.read_bytes()[:-8] + b"\0" * 8)
    with pytest.raises(RunFolderError, match=r"last\.safetensors is not the file this checkpoint"):
        train(tiny_config(), total_timesteps=512, out=copy, resume=copy, progress=False)


def test_resume_keeps_the_step_counts_monotone(run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    saved = json.loads((copy / "checkpoints" / "last.train.json").read_text())["timesteps"]
    with (copy / "progress.csv").open("a", newline="") as f:  # steps the checkpoint lacks
        csv.writer(f).writerow([saved + 5000, 1.0, 1, 0, "lost"])
    train(tiny_config(), total_timesteps=512, out=copy, resume=copy, progress=False)
    steps = [int(r["timesteps"]) for r in csv.DictReader((copy / "progress.csv").open())]
    assert steps == sorted(steps) and steps[-1] > saved
    gone = list(csv.DictReader((copy / "progress_discarded.csv").open()))
    assert [int(r["timesteps"]) for r in gone] == [saved + 5000]


@pytest.mark.slow
def test_ctrl_c_saves_a_checkpoint_that_resumes(tmp_path: Path) -> None:
    config = tmp_path / "tiny.yaml"
    config.write_text(
        "env: {num_players: 3}\n"
        "ppo: {num_envs: 2, n_steps: 64, batch_size: 64, n_epochs: 1, net_arch: [16],"
        " total_timesteps: 10000000}\n"
        "checkpoint_every: 10000000\n"
        "eval: {every: 10000000, games: 2, opponents: [random]}\n"
        "selfplay: {weights: {random: 1.0}, snapshot_every: 10000000}\n"
    )
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "nanty_app.cli", "train", "--config", str(config)]
    proc = subprocess.Popen(
        [*cmd, "--out", str(out), "--no-progress"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    progress = out / "progress.csv"
    deadline = time.monotonic() + 180
    while not (progress.exists() and len(progress.read_text().splitlines()) > 1):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no training episode finished in time"
        time.sleep(0.5)
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    stdout, stderr = proc.communicate(timeout=120)
    seconds = time.monotonic() - t0
    assert proc.returncode == 128 + signal.SIGINT, stderr
    assert "stopped by SIGINT at step" in stdout and seconds < 30, (stdout, seconds)
    state = json.loads((out / "checkpoints" / "last.train.json").read_text())
    info = json.loads((out / "train.json").read_text())
    assert state["timesteps"] == info["timesteps"] > 0 and info["stopped_by"] == "SIGINT"
    assert (out / "model.json").exists()
    # the saved step resumes (in this process, with a small total)
    cfg = load_config(config, **{"ppo.total_timesteps": state["timesteps"] + 128})
    train(cfg, out=out, resume=out, progress=False)
    after = json.loads((out / "checkpoints" / "last.train.json").read_text())["timesteps"]
    assert after >= state["timesteps"] + 128
    steps = [int(r["timesteps"]) for r in csv.DictReader(progress.open())]
    assert steps == sorted(steps)
