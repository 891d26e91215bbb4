"""A bot named in a file is data: a checkpoint's hint bot (and any spec read from a file or a
request) may only be a shipped bot with allow-listed, bounded options. Crafted checkpoints
that would import a module, call a function, open a file, unpickle a ``.zip``, recurse into
themselves or hang every decision are refused with one line, and nothing runs."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import numpy as np
import pytest

from agents.checkpoint import CheckpointError, load_policy, save_policy
from agents.registry import (
    FILE_LIMITS,
    WEB_LIMITS,
    BotSpecError,
    parse_spec,
    spec_value,
    untrusted_spec,
)
from nanty_app.cli import main as nanty
from nanty_env.encoding.rulesets import ruleset_spec
from nanty_env.engine import NUM_ACTIONS

BASE = ruleset_spec(None)


def env_policy(path: Path, hint: str | None = None) -> Path:
    """A zero-weight policy checkpoint that fits the base game's observation (with a hint:
    written by hand afterwards, as an attacker would, so the writer's own check is skipped)."""
    size = BASE.obs_size + (NUM_ACTIONS if hint else 0)
    tensors = {
        "w": np.zeros((NUM_ACTIONS, size), np.float32),
        "b": np.zeros(NUM_ACTIONS, np.float32),
    }
    meta = {
        "actor": [{"weight": "w", "bias": "b", "activation": "none"}],
        "observation": BASE.checkpoint_observation(size, hint is not None),
        "num_actions": NUM_ACTIONS,
    }
    if hint is not None:
        tensors["hw"] = np.array(1.0, np.float32)
        meta["hint"] = {"bot": "random", "weight": "hw"}
    js = save_policy(path, tensors, meta)
    if hint is not None:
        doc = json.loads(js.read_text())
        doc["hint"]["bot"] = hint
        js.write_text(json.dumps(doc))
    return js


def eval_cli(checkpoint: Path | str, out: Path) -> list[str]:
    return ["eval", "--bots", "ppo,random", "--players", "2", "--games", "1", "--no-progress",
            "--checkpoint", str(checkpoint), "--out", str(out)]  # fmt: skip


def crafted_hints(tmp_path: Path) -> dict[str, str]:
    sentinel = tmp_path / "SENTINEL"
    return {
        "a function by import path": f"os:system:command=touch {sentinel}",
        "a class by import path": "agents.random_bot:RandomBot",
        "a path": f"ismcts:value_model={sentinel}",
        "a zip to unpickle": f"policy:path={tmp_path / 'evil.zip'}:trust=1",
        "itself": f"policy:path={tmp_path / 'p'}",
        "an endless search": "ismcts:iters=100000000",
        "an endless clock": "ismcts:time=1e9",
        "a NaN": "heuristic:learned=nan",
    }


@pytest.mark.parametrize(
    "what",
    [
        "a function by import path",
        "a class by import path",
        "a path",
        "a zip to unpickle",
        "itself",
        "an endless search",
        "an endless clock",
        "a NaN",
    ],
)
def test_a_crafted_hint_bot_is_refused_in_one_line_and_nothing_runs(
    tmp_path: Path, capsys, what: str
) -> None:
    from agents.policy import PolicyBot

    hint = crafted_hints(tmp_path)[what]
    env_policy(tmp_path / "p", hint=hint)
    started = time.perf_counter()
    with pytest.raises(CheckpointError, match=r"'hint\.bot'"):
        load_policy(tmp_path / "p")
    with pytest.raises(CheckpointError, match=r"'hint\.bot'"):
        PolicyBot(path=tmp_path / "p")
    code = nanty(eval_cli(tmp_path / "p", tmp_path / "out"))
    err = capsys.readouterr().err
    assert code == 2 and "'hint.bot'" in err and err.count("\n") == 1, err
    assert time.perf_counter() - started < 20
    assert not (tmp_path / "SENTINEL").exists()
    assert not (tmp_path / "out").exists()


def test_a_shipped_hint_bot_with_bounded_options_loads_and_plays(tmp_path: Path) -> None:
    env_policy(tmp_path / "p", hint="heuristic:learned=1:robust=1:durable=1")
    out = tmp_path / "out"
    assert nanty(eval_cli(tmp_path / "p", out)) == 0
    assert (out / "results.json").is_file()


def test_checkpoint_is_a_path_never_spec_text(tmp_path: Path, capsys) -> None:
    """A folder named ``model.zip:trust=1`` does not turn trust on; a folder with colons and
    equals signs in its name is read as the path it is."""
    from tests.training.test_untrusted_files import evil_zip

    sentinel = tmp_path / "SENTINEL"
    evil_zip(tmp_path / "model.zip", sentinel)
    (tmp_path / "model.zip:trust=1").mkdir()
    code = nanty(eval_cli(tmp_path / "model.zip:trust=1", tmp_path / "out"))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert not sentinel.exists()

    odd = tmp_path / 'run:deterministic=0,x="y"'
    odd.mkdir()
    env_policy(odd / "model")
    assert nanty(eval_cli(odd, tmp_path / "out2")) == 0
    games = (tmp_path / "out2" / "results_games.jsonl").read_text()
    assert "deterministic=0" not in parse_spec(json.loads(games.splitlines()[1])["bots"][0])[1]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m: m["actor"][0].__setitem__("activation", ["tanh"]), "activation"),
        (lambda m: m["actor"][0].__setitem__("activation", {"a": 1}), "activation"),
        (lambda m: m.__setitem__("hint", {"bot": 7, "weight": "hw"}), "'hint'"),
    ],
)
def test_odd_descriptions_are_one_checkpoint_error(tmp_path: Path, change, message: str) -> None:
    js = env_policy(tmp_path / "p")
    doc = json.loads(js.read_text())
    change(doc)
    js.write_text(json.dumps(doc))
    with pytest.raises(CheckpointError, match=message):
        load_policy(tmp_path / "p")


def test_a_weight_beyond_float32_is_refused_not_played_at_random(tmp_path: Path) -> None:
    from safetensors.numpy import load, save

    env_policy(tmp_path / "p")
    st = tmp_path / "p.safetensors"
    tensors = {k: v.astype(np.float64) for k, v in load(st.read_bytes()).items()}
    tensors["b"][3] = 1e300
    st.write_bytes(save(tensors))
    with pytest.raises(CheckpointError, match="beyond float32"):
        load_policy(tmp_path / "p")


@pytest.mark.parametrize("which", ["p.json", "p.safetensors"])
def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path, which: str) -> None:
    env_policy(tmp_path / "p")
    with open(tmp_path / which, "r+b") as f:
        f.truncate(6 * 2**30)  # sparse: 6 GB on paper, nothing on disk
    started = time.perf_counter()
    with pytest.raises(CheckpointError, match="too large"):
        load_policy(tmp_path / "p")
    assert time.perf_counter() - started < 1.0


def test_a_value_network_or_model_file_is_size_checked_and_one_line(tmp_path: Path) -> None:
    from agents.roles import RoleModel
    from agents.value_model import ValueModel
    from agents.value_net import load

    for bad, message in ((os.devnull, "not valid JSON"), (tmp_path, "cannot be read")):
        for loader in (ValueModel.load, RoleModel.load):
            with pytest.raises(ValueError, match=message):
                loader(bad)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(2**33)
    with pytest.raises(ValueError, match="too large"):
        ValueModel.load(big)
    (tmp_path / "v.json").write_text('{"format": "nanty-value", "version": 1, "players": "x"}')
    (tmp_path / "v.safetensors").write_bytes(b"\x00" * 8)
    with pytest.raises(CheckpointError):
        load(tmp_path / "v")


# ---------------------------------------------------------------------- the allow-list
@pytest.mark.parametrize(
    "spec, canonical",
    [
        ("random", "random"),
        (" heuristic ", "heuristic"),
        ("heuristic:learned=1:robust=1:durable=1", "heuristic:learned=1:robust=1:durable=1"),
        ("heuristic:roles=none:plan=greedy", "heuristic:roles=none:plan=greedy"),
        ("learned:players=4", "learned:players=4"),
        ("learned:switch=0", "learned:switch=0"),
        ("ismcts:iters=300:only=main+card:w_points=0.5", "ismcts:iters=300:only=main+card:w_points=0.5"),
    ],
)  # fmt: skip
def test_shipped_bots_with_bounded_options_pass(spec: str, canonical: str) -> None:
    assert untrusted_spec(spec) == canonical
    assert untrusted_spec(canonical) == canonical


@pytest.mark.parametrize(
    "spec, limits, message",
    [
        ("os:system:command=ls", FILE_LIMITS, "only these shipped bots"),
        ("agents.heuristic:HeuristicBot", FILE_LIMITS, "only these shipped bots"),
        ("policy:path=x", FILE_LIMITS, "only these shipped bots"),
        ("learned:path=x", FILE_LIMITS, "'path' is not allowed"),
        ("ismcts:value_model=/dev/zero", FILE_LIMITS, "'value_model' is not allowed"),
        ("ismcts:role_model=/etc/passwd", FILE_LIMITS, "'role_model' is not allowed"),
        ("heuristic:weights=x", FILE_LIMITS, "'weights' is not allowed"),
        ("ismcts:iters=5001", FILE_LIMITS, "from 1 to 5000"),
        ("learned:switch=2", FILE_LIMITS, "from 0 to 1"),
        ("ismcts:time=3", WEB_LIMITS, "from 0.001 to 2"),
        ("learned", WEB_LIMITS, "only these shipped bots"),
        ("heuristic:depth=1.5", FILE_LIMITS, "integer"),
        ("heuristic:depth=true", FILE_LIMITS, "integer"),
        ("heuristic:samples=1e400", FILE_LIMITS, "integer"),
        ("ismcts:c=inf", FILE_LIMITS, "from 0 to 10"),
        ("ismcts:only=../x", FILE_LIMITS, "must match"),
        ('heuristic:plan="turn":depth="1"', FILE_LIMITS, "integer"),
        ("heuristic:plan=turn:plan", FILE_LIMITS, "key=value"),
        ("x" * 500, FILE_LIMITS, "at most 400"),
        (None, FILE_LIMITS, "not a bot spec"),
        (["random"], FILE_LIMITS, "not a bot spec"),
    ],
)
def test_everything_else_is_one_bot_spec_error(spec, limits, message: str) -> None:
    with pytest.raises(BotSpecError, match=message) as e:
        untrusted_spec(spec, limits)
    assert "\n" not in str(e.value)


def test_random_text_never_gets_past_the_allow_list_unless_it_is_one_of_its_bots() -> None:
    rnd = random.Random(0)
    alphabet = 'abcdefghijklmnopqrstuvwxyz:=._/"\\0123456789-+ ,'
    for _ in range(20_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(1, 40)))
        for prefix in ("", "ismcts:", "heuristic:"):
            try:
                out = untrusted_spec(prefix + text)
            except BotSpecError:
                continue
            name, options = parse_spec(out)
            assert name in FILE_LIMITS.bots
            assert set(options) <= set(FILE_LIMITS.bots[name])


@pytest.mark.parametrize(
    "path",
    ["runs/quick", "a:b", "model.zip:trust=1", "123", "1e5", "x y", 'q"uote', "", "nan", "é:ü=1"],
)
def test_a_written_value_reads_back_as_itself(path: str) -> None:
    name, options = parse_spec(f"policy:path={spec_value(path)}:deterministic=0")
    assert name == "policy" and options == {"path": path, "deterministic": 0}
