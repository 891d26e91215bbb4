"""Helpers for the people-facing commands: run ``nanty`` as a user would (a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_nanty(
    args: list[str], stdin: str = "", timeout: float = 300
) -> subprocess.CompletedProcess:
    """``nanty ARGS`` with ``stdin`` as its input (a pipe, not a terminal)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "nanty_app.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
        check=False,
    )


@pytest.fixture
def nanty():
    return run_nanty
