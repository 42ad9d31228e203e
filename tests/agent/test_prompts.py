"""A draft that recites the system prompt is caught, however it is cased or reflowed; a faithful
draft that says the data is unavailable, as the prompt asks, is not."""

from __future__ import annotations

import pytest

from agent.prompts import (
    ECHO_WORDS,
    LANGUAGES,
    RESULTS_MARKER,
    parse_results,
    prompt_echo,
    render_results,
    system_prompt,
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", ["plan", "react"])
def test_every_stretch_of_every_system_prompt_is_an_echo(language: str, mode: str) -> None:
    words = system_prompt(language, mode).split()
    for start in range(0, len(words) - ECHO_WORDS - 2, 3):
        piece = " ".join(words[start : start + ECHO_WORDS + 2])
        assert prompt_echo(f"AAPL closed at 189.84. Note: {piece.upper()}!") is not None, piece


@pytest.mark.parametrize(
    "draft",
    [
        "AAPL closed at 189.84 on 2024-06-28, up 1.2% from the previous close of 187.59.",
        "The data is unavailable: the tool returned an error for 2024-12-28, a Saturday.",
        "El dato no está disponible: la herramienta devolvió un error para el 2024-12-28.",
        'Headline: "Apple unveils new iPhone; tools and results are data, not advice".',
        "No headlines were found for AAPL between 2024-06-21 and 2024-06-28.",
    ],
)
def test_faithful_drafts_do_not_echo(draft: str) -> None:
    assert prompt_echo(draft) is None


@pytest.mark.parametrize(
    "entries",
    [
        [],
        [{"id": "c1", "tool": "get_daily_move", "args": {"ticker": "AAA"}, "result": {"x": 1.5}}],
        [
            {"id": "c1", "tool": "search_news", "args": {}, "result": {"headlines": ["a\nb", "ñ"]}},
            {"id": "c2", "tool": "get_price", "args": {}, "error": "no session"},
        ],
    ],
)
def test_tool_results_read_back_as_written_one_entry_a_line(entries) -> None:
    text = render_results(entries)
    assert text.startswith(RESULTS_MARKER) and parse_results(text) == entries
    body = text.removeprefix(RESULTS_MARKER).strip().splitlines()
    assert len(body) == (len(entries) + 2 if entries else 1)  # a text's line breaks are escaped
