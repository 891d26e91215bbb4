"""The trained policies that ``nanty serve --allow-policy FOLDER`` lets watched games seat."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agents.checkpoint import CheckpointError, checkpoint_files, read_meta
from agents.registry import BotSpecError, parse_spec, spec_value
from nanty_app.web.guard import ApiError, first_line
from nanty_env.encoding.rulesets import spec_for_encoder

MAX_CHECKPOINTS = 100  # policies listed from the --allow-policy folder (the newest)
MAX_SCANNED = 5000  # files and folders looked at to find them
POLICY_OPTIONS = ("path", "deterministic")
BASE_ENCODER = "nanty_env.observation.encode_view"  # what checkpoints naming none were fed


class PolicyFolder:
    """The trained policies ``nanty serve --allow-policy FOLDER`` lets the page name: nanty-policy
    checkpoints (``NAME.json`` and ``NAME.safetensors``) whose files, symbolic links followed,
    are inside ``FOLDER``. A spec names one by its path relative to the folder; SB3 ``.zip``
    files and ``trust`` are never accepted."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"{root} is not a folder")

    def _inside(self, path: Path) -> Path | None:
        """``path`` with its links followed, if it is a file inside the folder."""
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        return real if real.is_relative_to(self.root) and real.is_file() else None

    def find(self, name: str) -> tuple[Path, str]:
        """The checkpoint's description file and its name in the list, for ``name`` (relative
        to the folder). 400, the same whatever a path outside would have named, otherwise."""
        shown = name[:80]
        missing = ApiError(400, f"no policy checkpoint {shown!r} in the allowed folder")
        if not name or len(name) > 300 or "\x00" in name:
            raise missing
        if name.lower().endswith(".zip"):
            raise ApiError(400, "SB3 .zip files are never opened here (they can run code)")
        candidate = self.root / name
        try:
            meta, tensors = checkpoint_files(candidate)
        except (OSError, ValueError):
            raise missing from None
        real_meta, real_tensors = self._inside(meta), self._inside(tensors)
        if real_meta is None or real_tensors is None:
            raise missing
        if real_tensors != real_meta.with_suffix(".safetensors"):
            raise missing  # the pair the bot will open is not the pair checked here
        try:
            read_meta(real_meta)
        except CheckpointError as e:
            raise ApiError(400, f"{shown!r} is not a nanty-policy checkpoint") from e
        return real_meta, real_meta.relative_to(self.root).with_suffix("").as_posix()

    def spec(self, spec: str) -> tuple[str, str]:
        """A ``policy:path=NAME`` spec from the page as the canonical spec of the checkpoint
        it names (its real path, quoted) and a short name for its seat."""
        try:
            name, options = parse_spec(spec)
        except BotSpecError as e:
            raise ApiError(400, first_line(e)) from e
        unknown = sorted(k[:40] for k in options if k not in POLICY_OPTIONS)
        if name != "policy" or unknown:
            raise ApiError(400, f"a policy may set only {list(POLICY_OPTIONS)}, not {unknown}")
        path = options.get("path")
        if not isinstance(path, str):
            raise ApiError(400, "policy:path= must name a checkpoint listed by /api/bots")
        deterministic = options.get("deterministic", 1)
        if deterministic not in (0, 1) or isinstance(deterministic, bool):
            raise ApiError(400, "policy:deterministic= must be 0 or 1")
        meta, listed = self.find(path)
        canonical = f"policy:path={spec_value(str(meta))}"
        if deterministic == 0:
            canonical += ":deterministic=0"
            listed += " (sampling)"
        return canonical, f"policy {listed}"

    def listing(self) -> list[dict[str, Any]]:
        """The checkpoints in the folder, newest first: name and ruleset."""
        found: list[tuple[int, str, str | None]] = []
        looked = 0
        for top, dirs, files in os.walk(self.root, followlinks=False):
            dirs.sort()
            looked += 1 + len(files)
            if looked > MAX_SCANNED:
                break
            for f in files:
                if not f.endswith(".json") or f[:-5] + ".safetensors" not in files:
                    continue
                rel = (Path(top) / f).relative_to(self.root).as_posix()
                try:
                    meta, name = self.find(rel)
                    obs = read_meta(meta)["observation"]
                    ruleset = spec_for_encoder(obs.get("encoder", BASE_ENCODER))
                except (ApiError, CheckpointError, KeyError, TypeError, AttributeError):
                    continue
                if ruleset is None:
                    continue
                found.append((meta.stat().st_mtime_ns, name, ruleset.expansion))
        found.sort(key=lambda x: (-x[0], x[1]))
        return [
            {"name": name, "expansion": expansion} for _, name, expansion in found[:MAX_CHECKPOINTS]
        ]
