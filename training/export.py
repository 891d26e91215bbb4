"""Convert an SB3 ``MaskablePPO`` ``.zip`` into a nanty-policy checkpoint (``agents/checkpoint.py``).

    python -m training.export --trust-checkpoint runs/old/model.zip runs/old/model

Opening the ``.zip`` unpickles parts of it, which runs whatever code its author put there, so
the command insists on ``--trust-checkpoint``: convert only files you (or someone you trust)
trained. The result loads with numpy and safetensors alone and cannot run code.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from agents.checkpoint import CheckpointError


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("zip", help="the SB3 .zip (model.save output)")
    ap.add_argument("out", help="checkpoint NAME to write (NAME.json + NAME.safetensors)")
    ap.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="confirm the .zip is trusted (loading it can run arbitrary code)",
    )
    args = ap.parse_args(argv)
    if not args.trust_checkpoint:
        raise SystemExit(
            "training.export: opening an SB3 .zip can run arbitrary code; pass "
            "--trust-checkpoint if you trust this file"
        )
    from sb3_contrib import MaskablePPO

    from agents.sb3_export import export_sb3_policy

    try:
        model = MaskablePPO.load(args.zip, device="cpu")
        path = export_sb3_policy(
            model.policy,
            args.out,
            trained_with={"timesteps": int(model.num_timesteps), "converted_from": args.zip},
        )
    except (CheckpointError, OSError) as e:
        raise SystemExit(f"training.export: {e}") from None
    print(f"wrote {path} and its .safetensors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
