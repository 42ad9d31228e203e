"""Text as people are shown it hides nothing and links nowhere; the redactor and the prompt-leak
check read text folded the same way, so invisible or full-width characters hide no key and no
prompt; text with nothing hidden is left as it is."""

from __future__ import annotations

import logging
import unicodedata

import pytest

from agent.prompts import prompt_echo, system_prompt
from contract.secrets import REDACTED, RedactingFilter, holds_secret, redact
from contract.text import (
    FORMAT_AND_CONTROL,
    as_ranges,
    asked_code_points,
    display_text,
    fold_text,
    format_and_control,
)

KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8J9k0"
INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u00ad",  # soft hyphen
    "\U000e0041",  # tag letter A
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\ufe0f",  # variation selector 16
    "\x1b",  # escape: a terminal's control sequences begin with it
    "\x9b",  # C1 control sequence introducer
]


@pytest.mark.parametrize("mark", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_a_key_split_by_an_invisible_character_is_redacted(mark: str) -> None:
    text = f"the key is {KEY[:10]}{mark}{KEY[10:]} and no other"
    assert holds_secret(text)
    assert KEY not in fold_text(redact(text)) and REDACTED in redact(text)


def test_a_key_in_full_width_letters_is_redacted() -> None:
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in KEY)
    assert unicodedata.normalize("NFKC", wide) == KEY
    assert redact(f"key: {wide}.") == f"key: {REDACTED}."


def test_a_registered_value_split_by_a_zero_width_space_is_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "vault-0123456789")
    assert redact("leaked vault-01234\u200b56789 here") == f"leaked {REDACTED} here"


def test_text_without_a_secret_keeps_every_character() -> None:
    text = "Ca\u00f1a rose 2\u202f% \u200bto 10,50 \u20ac (\u05e9\u05dc\u05d5\u05dd) \U0001f469\u200d\U0001f4bb"
    assert redact(text) == text


@pytest.mark.parametrize("mark", ["\u200b", "\u00ad", "\u2060", "\U000e0020"])
def test_a_prompt_with_invisible_characters_inside_its_words_is_an_echo(mark: str) -> None:
    words = system_prompt("en", "plan").split()[:9]
    hidden = " ".join(mark.join([w[:1], w[1:]]) if len(w) > 1 else w for w in words)
    assert prompt_echo(f"AAPL closed at 189.84. {hidden}") is not None


def test_a_prompt_in_full_width_letters_is_an_echo() -> None:
    words = " ".join(system_prompt("en", "plan").split()[:9])
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in words)
    assert prompt_echo(wide) is not None


@pytest.mark.parametrize("mark", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_shown_text_holds_no_invisible_or_control_character(mark: str) -> None:
    shown = display_text(f"AAPL {mark}fell{mark} 40%\n\tok")
    assert shown == "AAPL fell 40%\n\tok"


def test_the_table_of_hidden_code_points_is_what_unicodedata_says() -> None:
    """The table read instead of asking all 1.1 million code points at first use (about a
    second) holds exactly the format and control characters of this Python's Unicode."""
    assert unicodedata.unidata_version in FORMAT_AND_CONTROL  # else each process pays the second
    assert format_and_control() == as_ranges(asked_code_points())


def test_no_format_or_control_character_survives_anywhere_in_unicode() -> None:
    every = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)
    shown = display_text(every)
    assert {unicodedata.category(c) for c in shown}.isdisjoint({"Cf"})
    assert [c for c in shown if unicodedata.category(c) == "Cc"] == ["\t", "\n"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("see https://evil.example/x?a=1", "see https[:]//evil.example/x?a=1"),
        ("HTTP://EVIL.example", "HTTP[:]//EVIL.example"),
        ("javascript://%0aalert(1)", "javascript[:]//%0aalert(1)"),
        ("visit www.evil.example today", "visit www[.]evil.example today"),
        ("mail ceo@evil.example now", "mail ceo[@]evil.example now"),
        ("Amazon.com rose 2.5% to 180.25", "Amazon.com rose 2.5% to 180.25"),
    ],
)
def test_what_a_renderer_would_link_is_defanged(text: str, shown: str) -> None:
    assert display_text(text) == shown


def test_a_log_line_carries_no_control_or_invisible_character_from_data() -> None:
    record = logging.LogRecord(
        "n", logging.INFO, "f", 1, "%s: %s", ("AAA", "\x1b[2J\u202eup 4%"), None
    )
    assert RedactingFilter().filter(record)
    assert record.getMessage() == "AAA: [2Jup 4%"
