"""The system browser the browser tests drive, and the module-level skip when it is absent
(``.ci/run`` installs it): every browser test module calls :func:`require_chromium` first."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(
            "no chromium browser (apt-get install chromium; .ci/run does it)",
            allow_module_level=True,
        )
