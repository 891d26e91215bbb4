"""``gymnasium.make("NantyNarking-v0", ...)``: registered by importing ``nanty_env``, in either
import order, without ``import nanty_env`` importing Gymnasium itself."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import nanty_env
from nanty_env.faces.single import NantySingleAgentEnv

MAKE = """
import sys
{imports}
env = gymnasium.make("NantyNarking-v0", num_players=3, learner_seat=1)
obs, info = env.reset(seed=0)
print(type(env.unwrapped).__name__, obs.shape, info["seat"])
"""


@pytest.mark.parametrize(
    "imports",
    [
        "import nanty_env\nimport gymnasium",
        "import gymnasium\nimport nanty_env",
        "from nanty_env.engine import Game\nimport gymnasium",  # any import of the package
    ],
)
def test_registered_whatever_the_import_order(imports: str) -> None:
    code = MAKE.format(imports=imports)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["NantySingleAgentEnv", "(1162,)", "1"]


def test_importing_nanty_env_does_not_import_gymnasium() -> None:
    code = "import sys, nanty_env; print('gymnasium' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_make_gives_the_single_agent_env_with_its_options() -> None:
    assert nanty_env.GYM_ID in gymnasium.registry
    env = gymnasium.make(nanty_env.GYM_ID, num_players=2, reward_mode="zero_sum")
    check_env(env.unwrapped, skip_render_check=True)
    inner = env.unwrapped
    assert isinstance(inner, NantySingleAgentEnv) and inner.reward_mode == "zero_sum"
    obs, _ = env.reset(seed=4)
    direct = NantySingleAgentEnv(num_players=2, reward_mode="zero_sum")
    assert np.array_equal(obs, direct.reset(seed=4)[0])
    assert env.get_wrapper_attr("action_masks")().any()  # what MaskablePPO reads through wrappers
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        gymnasium.make(nanty_env.GYM_ID, reward_mode="bogus")
