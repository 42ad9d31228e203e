"""Cheap checks that let the verifier skip a costly pattern must never skip a match: each guard
finds something wherever the pattern it guards does, under the same case rules (Python's
`(?i)` also folds "ſ", "ı" and the Kelvin sign)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.rules.closed_world import _CAUSE_WORDS, _cause

JOINTS = [
    "thanks to",
    "due to",
    "because of",
    "on the back of",
    "in response to",
    "gracias a",
    "debido a",
    "a causa de",
]
MOVES = ["rose", "fell", "gained", "dropped", "subió", "cayó", "rallied", "slid"]
OBJECTS = ["the news", "the report", '"Acme wins"', "la noticia", "an announcement", "*"]
FOLDS = {"s": "ſ", "i": "ı", "k": "\u212a", "a": "A", "e": "E", "t": "T"}


def _fold(text: str, picks: list[bool]) -> str:
    return "".join(
        FOLDS[c] if c in FOLDS and picks[i % len(picks)] else c for i, c in enumerate(text)
    )


@settings(max_examples=300, deadline=None)
@given(
    move=st.sampled_from(MOVES),
    joint=st.sampled_from(JOINTS),
    what=st.sampled_from(OBJECTS),
    gap=st.sampled_from([" ", "  ", "\n", "\t"]),
    picks=st.lists(st.booleans(), min_size=1, max_size=7),
    before=st.text(max_size=20),
)
def test_the_cause_guard_finds_a_word_wherever_a_cause_is_said(
    move: str, joint: str, what: str, gap: str, picks: list[bool], before: str
) -> None:
    text = before + " " + _fold(gap.join([move, *joint.split(), what]), picks)
    if _cause()[0].search(text) is not None:
        assert _CAUSE_WORDS.search(text) is not None


def test_the_cause_guard_is_reached_by_real_causes() -> None:
    for joint in JOINTS:
        text = f"AXO rose {joint} the news."
        assert _cause()[0].search(text) and _CAUSE_WORDS.search(text)


RANKED = st.lists(
    st.sampled_from(
        [
            "3rd ",
            "12th ",
            "٣rd ",
            "2nd best ",
            "second-best performer ",
            "1st by return ",
            "third largest by weight ",
            "5th of 25 positions by return ",
            "2ª posición por peso ",
            "closed higher ",
            "rose for 3 straight sessions ",
            "fell in each of the last 4 sessions ",
            "4th straight day in a row that AXO has closed higher ",
            "up 5 days in a row ",
            "down for a third consecutive session ",
            "worst ",
            "top ",
            "(",
            "-",
            ", ",
            "7",
            "x",
            "\n",
        ]
    ),
    max_size=20,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(RANKED, st.text(max_size=60)))
def test_every_phrase_scan_finds_what_its_reference_pattern_finds(text: str) -> None:
    """Those whose fragments may open with a digit included: they are tried where a stem or
    any decimal digit starts a word, not at every position."""
    from verifier.rules.relations import scans
    from verifier.scanner import PhraseScan, fold_aligned
    from verifier.verify import warm_up

    warm_up()
    scans()
    folded = fold_aligned(text)
    for scan in PhraseScan.made:
        expected = [(m.span(), m.lastgroup) for m in scan.reference.finditer(folded)]
        assert [(m.span(), m.lastgroup) for m in scan.finditer(folded)] == expected


SAID = st.lists(
    st.sampled_from(
        [
            *MOVES,
            *JOINTS,
            *OBJECTS,
            "move came on",
            "movimiento llegó con la noticia",
            "after the close",
            "before the open",
            "en la preapertura",
            "1.31%",
            "un 2 %",
            "to $10.50",
            "ROSE",
            "xrose",
            "_fell",
            "3rose",
            "árose",
            ",",
            "(",
            "«",
        ]
    ),
    max_size=12,
)


@settings(max_examples=1000, deadline=None)
@given(
    words=SAID,
    gaps=st.lists(st.sampled_from([" ", "  ", "\n", "\t", ""]), min_size=1, max_size=5),
    picks=st.lists(st.booleans(), min_size=1, max_size=7),
    noise=st.text(max_size=12),
)
def test_patterns_tried_where_a_move_word_starts_find_what_finditer_finds(
    words: list[str], gaps: list[str], picks: list[bool], noise: str
) -> None:
    """A move pattern tried only where one of its stems starts a word finds every match of its
    plain scan, also where `(?i)` reads a character the case fold does not ("ı", "İ")."""
    from verifier.rules.closed_world import _in_session
    from verifier.scanner import fold_aligned, matches_at_word_hints

    text = noise + "".join(w + gaps[i % len(gaps)] for i, w in enumerate(words))
    text = _fold(text, picks)
    if len(picks) > 4:  # the small i read as the dotless or the dotted capital one
        text = text.replace("i", "ı" if picks[1] else "İ")
    for pattern, hint in (_cause(), _in_session()):
        assert hint is not None
        found = matches_at_word_hints(pattern, text, fold_aligned(text), hint)
        assert [m.regs for m in found] == [m.regs for m in pattern.finditer(text)]


def test_every_phrase_scan_is_tried_only_where_an_opening_of_its_fragments_starts() -> None:
    """A fragment with no literal opening sends its whole scan back to a plain `finditer`, which
    the engine enters at every position of every draft (one such scan cost a third of all the
    scans' time): each fragment opens with a word, an escaped mark, a digit or a lookbehind
    before one."""
    from verifier.rules.relations import scans
    from verifier.scanner import PhraseScan
    from verifier.verify import warm_up

    warm_up()
    scans()
    plain = [scan.source[:120] for scan in PhraseScan.made if scan.hint is None]
    assert plain == []


WIRES = [
    "Reuters",
    "Bloomberg",
    "Dow Jones",
    "Dow Jones Newswires",
    "Jones",
    "MarketWatch",
    "Kiplinger's",
    "Zacks (US)",
    "Sk",
    "X",
    "News",
    "After Hours",
    "Before the Open Daily",
    "The Street",
    "Opening Bell",
    "Business Wire",
    "Wire",
    "Ran Times",
    "Bloomberg Law",
    "Zacks (US) Daily",
    "(US) Zacks",
    "Jones Daily",
]
SAID = [
    "The {w} story came after the close.",
    "{w} ran it before the open.",
    "La noticia de {w} salió antes de la apertura.",
    "News: 1 ({w}, before the open).",
    "| {w} | after the close |",
    "It came out on Monday; {w} published the item.",
    "The {w} item came before {v}'s report.",
    "The story in {w} ran after {v}.",
    "the news came out {w} before the open",
    "{w}'s piece, then {v} after-hours",
    "({w}, {v}, before the open)",
    "{w} {v} ran it after the close",
]


@settings(max_examples=1000, deadline=None)
@given(
    held=st.lists(st.sampled_from(WIRES), min_size=1, max_size=6, unique=True),
    said=st.lists(
        st.tuples(st.sampled_from(SAID), st.sampled_from(WIRES), st.sampled_from(WIRES)),
        max_size=3,
    ),
    picks=st.lists(st.booleans(), min_size=1, max_size=7),
)
def test_wire_patterns_over_the_masked_text_find_what_a_pattern_of_every_wire_finds(
    held: list[str], said: list[tuple[str, str, str]], picks: list[bool]
) -> None:
    """The news-time patterns are compiled once, with one slot for any wire: the wires a draft
    names are written over in its text (a pattern per set of wires cost a compile for almost
    every ticker of a real feed). What they find, read back on the draft, is what a pattern
    built for every wire of the trace finds on it, case folds included; a wire that shares a
    word with the patterns is searched for by name, as before."""
    from verifier.rules.news_times import (
        _found,
        _item_came,
        _order_of_wires,
        _reading,
        _sessions_and_wires,
        _wire_aside,
        _wires,
    )

    text = _fold(" ".join(form.format(w=w, v=v) for form, w, v in said), picks)
    every = tuple(sorted(held))
    reading = _reading(text, every)
    assert len(reading.searched) == len(text)
    for build in (
        _item_came,
        _wire_aside,
        _order_of_wires,
        lambda slot: _sessions_and_wires(slot)[1],
    ):
        full = build(_wires(every))
        found = [(m.span(), _groups(m)) for m in _found(build(reading.slot), reading, text)]
        assert found == [(m.span(), m.groupdict()) for m in full.finditer(text)]


def _groups(found: Any) -> dict[str, str | None]:
    return {name: found[name] for name in found._match.groupdict()}


def test_no_cache_of_the_verifier_grows_with_the_night() -> None:
    """A cache keyed by what a trace holds (its wires, its timestamps) gains an entry per ticker:
    every such cache has a bound, so a 20,000-ticker night's memory does not grow with it."""
    import importlib
    import inspect
    import pkgutil

    import verifier

    unbounded = []
    for info in pkgutil.walk_packages(verifier.__path__, "verifier."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            wrapped = getattr(value, "__wrapped__", None)
            if not hasattr(value, "cache_parameters") or wrapped is None:
                continue
            if (
                inspect.signature(wrapped).parameters
                and value.cache_parameters()["maxsize"] is None
            ):
                unbounded.append(f"{info.name}.{name}")
    assert unbounded == []
