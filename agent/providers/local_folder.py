"""A local model's folder, checked without loading torch, so that a night refuses a wrong path
before it starts."""

from __future__ import annotations

from pathlib import Path

from contract.errors import InputError


def local_model_dir(model: str | None) -> Path:
    """The folder of a local model, once it looks like one (checked without loading torch, so
    that a night refuses a wrong path before it starts)."""
    if not model:
        raise InputError(
            "provider local needs a model folder: pass --model PATH (a local model directory)"
        )
    folder = Path(model)
    if not (folder / "config.json").is_file():
        what = "has no config.json" if folder.is_dir() else "not found"
        raise InputError(
            f"local model {folder} {what}: pass --model a directory with config.json, "
            "the weights and the tokenizer files (download them beforehand)"
        )
    return folder
