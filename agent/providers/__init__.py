"""Provider adapters: each turns a neutral `ModelRequest` into one wire format and back.

`make_provider(name, model, **options)` builds one by name; each adapter is imported only
when chosen, so the offline provider never loads an SDK and `local` loads torch only when used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agent.providers.base import Provider
from data.errors import InputError

PROVIDERS = ("offline", "openai", "anthropic", "local")
DEFAULT_MODELS = {
    "offline": "templates",
    "openai": "gpt-4o-mini",
    "anthropic": "claude-haiku-4-5",
}


def make_provider(name: str, model: str | None = None, **options: Any) -> Provider:
    """The provider called `name`; `model` falls back to a default (`local` needs a path)."""
    if name not in PROVIDERS:
        raise InputError(f"unknown provider {name!r}: use one of {', '.join(PROVIDERS)}")
    if name == "local":
        folder = local_model_dir(model)
        from agent.providers.local import LocalProvider

        return LocalProvider(str(folder), **options)
    chosen = model or DEFAULT_MODELS[name]
    if name == "openai":
        from agent.providers.openai import OpenAIProvider

        return OpenAIProvider(chosen, **options)
    if name == "anthropic":
        from agent.providers.anthropic import AnthropicProvider

        return AnthropicProvider(chosen, **options)
    from agent.providers.offline import OfflineProvider

    return OfflineProvider(chosen, **options)


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
