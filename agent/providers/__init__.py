"""Provider adapters: each turns a neutral `ModelRequest` into one wire format and back.

`make_provider(name, model, **options)` builds one by name, `batch_api(provider)` the batch
interface of one that has it; each adapter is imported only when chosen, so the offline provider never loads an SDK and `local` loads torch only when used.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from agent.providers.base import Provider
from agent.providers.batch import BatchApi
from agent.providers.local_folder import local_model_dir
from contract.errors import InputError

ProviderName = Literal["offline", "openai", "anthropic", "local", "scripted-mistakes"]
PROVIDERS: tuple[ProviderName, ...] = get_args(ProviderName)
TEMPLATE_PROVIDERS: frozenset[str] = frozenset({"offline", "scripted-mistakes"})
"""Providers with no model behind them: they answer the question set's questions from its
templates, and cannot answer a free-form question."""
DEFAULT_MODELS = {
    "offline": "templates",
    "scripted-mistakes": "templates",
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
    if name == "scripted-mistakes":
        from agent.providers.mistakes import ScriptedMistakesProvider

        return ScriptedMistakesProvider(chosen, **options)
    from agent.providers.offline import OfflineProvider

    return OfflineProvider(chosen, **options)


async def close_provider(provider: Provider) -> None:
    """Close what `provider` holds open (an SDK client's connections), when its work is done:
    a connection pool left to the garbage collector warns on stderr."""
    closer = getattr(provider, "aclose", None)
    if closer is not None:
        await closer()


BATCH_PROVIDERS: tuple[ProviderName, ...] = ("openai", "anthropic")
"""Providers with a batch interface (half price, replies within a day)."""


def batch_api(provider: Provider) -> BatchApi:
    """The batch interface of `provider`, over its own SDK client."""
    if provider.name == "openai":
        from agent.providers.openai import OpenAIProvider
        from agent.providers.openai_batch import OpenAIBatches

        assert isinstance(provider, OpenAIProvider)
        return OpenAIBatches(provider)
    if provider.name == "anthropic":
        from agent.providers.anthropic import AnthropicProvider
        from agent.providers.anthropic_batch import AnthropicBatches

        assert isinstance(provider, AnthropicProvider)
        return AnthropicBatches(provider)
    raise InputError(
        f"provider {provider.name} has no batch interface: use one of {', '.join(BATCH_PROVIDERS)}"
    )
