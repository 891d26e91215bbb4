"""The notebooks run top to bottom (small budgets) in a fresh kernel."""

from __future__ import annotations

import base64
import importlib.util
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NANTY_NOTEBOOK_STEPS", "1024")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    # run inside a scratch copy of the notebooks folder so outputs never land in the repo
    work = tmp_path / "notebooks"
    work.mkdir()
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(work)}}
    )
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    client.execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors


def execute_module():
    """``notebooks/execute.py``, which stores the notebooks executed (its size limits)."""
    spec = importlib.util.spec_from_file_location("execute", ROOT / "notebooks" / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "name", ["01_quickstart", "02_train_ppo", "03_evaluate", "04_hidden_roles"]
)
def test_committed_notebooks_show_their_outputs_and_plots_and_stay_small(name: str) -> None:
    """The notebooks are stored executed (``python notebooks/execute.py``): every code cell
    has run and shows something, none failed, each shows a picture, and the file is small."""
    limits = execute_module()
    path = ROOT / "notebooks" / f"{name}.ipynb"
    assert path.name in limits.NOTEBOOKS
    assert path.stat().st_size <= limits.MAX_NOTEBOOK_BYTES
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), "a code cell has not run"
    assert all(c.get("outputs") for c in code), "a code cell shows nothing"
    outputs = [o for c in code for o in c.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    pngs = [
        base64.b64decode(o["data"]["image/png"])
        for o in outputs
        if "image/png" in o.get("data", {})
    ]
    assert pngs, "no picture"
    assert all(png.startswith(b"\x89PNG") and len(png) <= limits.MAX_PNG_BYTES for png in pngs)
    assert not any("/tmp/" in str(o) or "/work/" in str(o) for o in outputs)  # no local paths
