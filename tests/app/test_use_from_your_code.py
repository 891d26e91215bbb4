"""docs/use-from-your-code.md, run: every code block of the page, with fewer steps.

The Python blocks run as scripts (their step constants made small); the ``nanty`` lines of the
bash blocks run as the command line (``--games`` made small, the RLlib config a two-iteration
copy of ``configs/rllib_quick.yaml``). The cluster block runs against a one-node Ray cluster
started here on loopback with ``ray start --head --block`` (this test's own process, stopped at
the end; never ``ray stop``, which would end every Ray on the machine).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.snippets import snippets, titled

pytestmark = pytest.mark.slow  # training runs, Ray, worker processes

ROOT = Path(__file__).resolve().parents[2]
PAGE = "use-from-your-code.md"
HAS_LOADER = importlib.util.find_spec("agents.checkpoint") is not None
HAS_SB3_EXPORT = importlib.util.find_spec("agents.sb3_export") is not None
needs_loader = pytest.mark.skipif(
    not HAS_LOADER, reason="agents/checkpoint.py (nanty-policy loader) is not on this branch yet"
)


def has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def run_script(code: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    script = cwd / "snippet.py"
    script.write_text(code)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def shrink(code: str, **constants: int) -> str:
    """Set the snippet's top-level constants (e.g. ``STEPS = 50_000``) to small values."""
    for name, value in constants.items():
        code, n = re.subn(rf"^{name} = [\d_]+$", f"{name} = {value}", code, flags=re.M)
        assert n == 1, f"no {name} = ... line in the snippet"
    return code


def commands(title_words: str) -> list[list[str]]:
    """The ``nanty`` lines of the bash block whose text contains ``title_words``."""
    block = next(s.code for s in snippets(PAGE, "bash") if title_words in s.code)
    out = []
    for line in block.splitlines():
        words = shlex.split(line.split("#")[0])
        if words and words[0] == "nanty":
            out.append(words[1:])
    return out


def nanty(
    args: list[str], cwd: Path, timeout: float = 600, env: dict | None = None
) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "nanty_app.cli", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def small_eval(args: list[str]) -> list[str]:
    args = list(args)
    args[args.index("--games") + 1] = "4"
    return [*args, "--workers", "2", "--no-progress", "--no-plots"]


def tiny_rllib_config(folder: Path, env_runners: int = 1) -> Path:
    """configs/rllib_quick.yaml with two iterations of 200 env steps and a small network."""
    text = (ROOT / "configs" / "rllib_quick.yaml").read_text()
    for old, new in (
        ("num_env_runners: 1 ", f"num_env_runners: {env_runners} "),
        ("total_timesteps: 20000", "total_timesteps: 400"),
        ("train_batch_size: 2000", "train_batch_size: 200"),
        ("minibatch_size: 500", "minibatch_size: 100"),
        ("num_epochs: 4", "num_epochs: 1"),
        ("hidden: [256, 256]", "hidden: [32, 32]"),
        ("checkpoint_every: 5 ", "checkpoint_every: 1 "),
    ):
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "configs" / "rllib_quick.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- SB3
@pytest.mark.skipif(
    not (HAS_LOADER and HAS_SB3_EXPORT), reason="needs agents/sb3_export.py (safety branch)"
)
def test_sb3_script_then_nanty_eval(tmp_path):
    code = shrink(titled(PAGE, "train_sb3.py"), STEPS=128)
    code = code.replace("n_steps=1024, batch_size=256", "n_steps=128, batch_size=64, n_epochs=1")
    assert "n_steps=128" in code
    run_script(code, tmp_path)
    assert (tmp_path / "my_policy.json").is_file()
    lines = commands("--checkpoint my_policy.json")
    assert len(lines) == 2
    for args in lines:
        proc = nanty(small_eval(args), tmp_path)
        assert "4 games, 4 players" in proc.stdout and "policy:path=my_policy.json" in proc.stdout


# ---------------------------------------------------------------------- RLlib
rllib = pytest.mark.skipif(not has("ray.rllib"), reason="the rllib extra is not installed")


@rllib
def test_rllib_command_line_trains_and_the_checkpoint_plays(tmp_path):
    """The CI run of the RLlib backend: two iterations sampled in the driver (the cluster test
    below uses an env runner), then nanty eval."""
    tiny_rllib_config(tmp_path, env_runners=0)
    train, evaluate = commands("--backend rllib --config configs/rllib_quick.yaml --out")
    t0 = time.perf_counter()
    proc = nanty([*train, "--no-progress"], tmp_path)
    seconds = time.perf_counter() - t0
    out = tmp_path / "runs" / "rllib_quick"
    assert "model.json" in proc.stdout
    rows = list(csv.DictReader((out / "progress.csv").open()))
    assert len(rows) == 2 and int(rows[-1]["env_steps"]) >= 400
    assert all(float(r["env_steps_per_second"]) > 0 for r in rows)
    summary = json.loads((out / "train.json").read_text())
    assert summary["iterations"] == 2 and summary["num_env_runners"] == 0
    meta = json.loads((out / "model.json").read_text())
    assert meta["format"] == "nanty-policy" and meta["trained_with"]["library"] == "rllib"
    assert (out / "checkpoints" / "step_200.safetensors").is_file()
    print(f"nanty train --backend rllib, 2 iterations: {seconds:.1f} s")
    again = subprocess.run(  # a finished run is never overwritten
        [sys.executable, "-m", "nanty_app.cli", *train],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 2 and "already holds a training run" in again.stderr
    assert again.stderr.strip().count("\n") == 0
    if not HAS_LOADER:
        pytest.skip("agents/checkpoint.py (the nanty-policy loader) is not on this branch yet")
    proc = nanty(small_eval(evaluate), tmp_path)
    assert "4 games, 4 players" in proc.stdout and "model.json" in proc.stdout


@rllib
def test_rllib_python_recipe(tmp_path):
    code = shrink(titled(PAGE, "rllib_recipe.py"), ITERATIONS=1)
    code = code.replace(
        "train_batch_size_per_learner=2000, minibatch_size=500, num_epochs=4",
        "train_batch_size_per_learner=200, minibatch_size=100, num_epochs=1",
    )
    code = code.replace("RLModuleSpec(module_class=MaskedMLPModule)",
                        "RLModuleSpec(module_class=MaskedMLPModule, model_config={'hidden': [32]})")  # fmt: skip
    assert "num_epochs=1" in code and "'hidden': [32]" in code
    assert "train_batch_size_per_learner=200," in code
    proc = run_script(code, tmp_path)
    assert re.search(r"^0 [\d.]+$", proc.stdout, re.M), proc.stdout
    meta = json.loads((tmp_path / "rllib_policy.json").read_text())
    assert meta["num_actions"] == 405 and (tmp_path / "rllib_policy.safetensors").is_file()


def forget_cluster(port: int) -> None:
    """Remove Ray's note of the cluster it last started if it is ours (a stale note would make
    a later plain ``ray.init()`` try to join a cluster that is gone)."""
    note = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    if note.is_file() and note.read_text().strip().endswith(f":{port}"):
        note.unlink()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@rllib
def test_rllib_on_a_ray_cluster(tmp_path):
    """The cluster block on a one-node cluster: the head as the docs start it (plus --block,
    so that this test owns it), then the docs' nanty train line with that address."""
    (train,) = commands("ray start --head")
    block = next(s.code for s in snippets(PAGE, "bash") if "ray start --head" in s.code)
    ray_head = shlex.split(next(x for x in block.splitlines() if x.startswith("ray start --head")))
    port = free_port()
    ray_head = [w if not w.startswith("--port=") else f"--port={port}" for w in ray_head]
    ray_bin = Path(sys.executable).with_name("ray")
    tiny_rllib_config(tmp_path)
    # loopback only (Ray's single-machine switch), for the head, its workers and the driver
    loopback = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "PYTHONPATH": str(ROOT)}
    head_proc = subprocess.Popen(
        [str(ray_bin), *ray_head[1:], "--num-cpus=2", "--block"],
        cwd=tmp_path,
        env={**os.environ, **loopback},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        args = list(train)  # --ray-address auto: the cluster this machine belongs to
        args[args.index("--env-runners") + 1] = "1"
        deadline = time.monotonic() + 120
        while True:  # the head takes a few seconds to accept connections
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline, "the Ray head did not start"
            time.sleep(0.5)
        nanty([*args, "--out", "runs/cluster", "--no-progress"], tmp_path, env=loopback)
    finally:
        head_proc.terminate()
        try:
            head_proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head_proc.kill()
            head_proc.wait()
        forget_cluster(port)
    summary = json.loads((tmp_path / "runs" / "cluster" / "train.json").read_text())
    assert summary["ray_address"] == "auto" and summary["iterations"] == 2


# ---------------------------------------------------------------------- TorchRL
@pytest.mark.skipif(not has("torchrl"), reason="TorchRL is not installed")
def test_torchrl_recipe(tmp_path):
    import nanty_env.encoding.observation as observation

    if not hasattr(observation, "NO_OP"):
        pytest.skip("parallel_env's no-op for non-deciding seats is not on this branch yet")
    code = shrink(titled(PAGE, "torchrl_recipe.py"), FRAMES=200)
    code = code.replace("frames_per_batch=1000", "frames_per_batch=200")
    assert "frames_per_batch=200" in code
    proc = run_script(code, tmp_path)
    assert "games finished;" in proc.stdout
