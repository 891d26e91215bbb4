"""Execute the notebooks and store them with their outputs, small.

    python notebooks/execute.py                     # every notebook listed in NOTEBOOKS
    python notebooks/execute.py 02_train_ppo.ipynb  # one

Each notebook runs top to bottom in a fresh kernel inside a scratch folder (so the runs it
writes never land in the repository), with the small budgets the CI test uses. Its pictures
are then shrunk (at most ``MAX_WIDTH`` pixels wide, a palette of ``COLOURS`` colours) and the
kernel's timing metadata dropped, so that a committed notebook stays small and re-executing
it changes only what the code printed or drew. ``tests/notebooks/test_notebooks.py`` checks
the committed files: every code cell has run, no error, and the sizes below.
"""

from __future__ import annotations

import base64
import io
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NOTEBOOKS = (
    "01_quickstart.ipynb",
    "02_train_ppo.ipynb",
    "03_evaluate.ipynb",
    "04_hidden_roles.ipynb",
)
BUDGETS = {"NANTY_NOTEBOOK_STEPS": "2048", "NANTY_NOTEBOOK_GAMES": "24", "MPLBACKEND": "Agg"}
MAX_WIDTH = 640
COLOURS = 64
MAX_NOTEBOOK_BYTES = 160_000
MAX_PNG_BYTES = 48_000


def shrink_png(data: str) -> str:
    """A base64 PNG at most ``MAX_WIDTH`` wide, in a palette of ``COLOURS`` colours."""
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    if image.width > MAX_WIDTH:
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.quantize(COLOURS).save(out, format="PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


def tidy(nb) -> None:
    """Shrink every picture and drop what changes at every run but the outputs."""
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" in data:
                data["image/png"] = shrink_png(data["image/png"])
            output.get("metadata", {}).pop("image/png", None)
    nb.metadata.pop("widgets", None)


def execute(name: str) -> int:
    """Run notebook ``name`` and store it with its outputs; its size in bytes."""
    import nbformat
    from nbclient import NotebookClient

    from nanty_env.storage.files import atomic_write_text

    path = HERE / name
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as scratch:
        client = NotebookClient(
            nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": scratch}}
        )
        client.execute()
    tidy(nb)
    text = nbformat.writes(nb) + "\n"
    atomic_write_text(path, text)
    return len(text.encode())


def main(names: list[str]) -> int:
    os.environ.update(BUDGETS)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.getenv("PYTHONPATH")]))
    sys.path.insert(0, str(ROOT))
    for name in names or NOTEBOOKS:
        size = execute(name)
        print(f"{name}: {size / 1000:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
