"""The news model: named features that carry from one company to another, a verdict with its
reasons, and a fit that gives the same weights every time."""

from __future__ import annotations

from data import news_training
from data.news_model import load
from data.news_screen import Company, post_features, screen_news

APPLE = Company.of("AAPL", "Apple Inc.")
EXXON = Company.of("XOM", "Exxon Mobil Corporation")
PFIZER = Company.of("PFE", "Pfizer Inc.")


def test_features_name_the_company_alike_whatever_it_is() -> None:
    apple = post_features("Apple upgraded to Buy at Jefferies $AAPL https://t.co/x", APPLE, "wire")
    exxon = post_features("Exxon upgraded to Buy at Jefferies $XOM https://t.co/y", EXXON, "wire")

    def pooled(names: list[str]) -> list[str]:  # runs of characters read the text as written
        return [n for n in names if not n.startswith("char:")]

    assert pooled(apple) == pooled(exxon)
    assert {"word:CO", "pair:^_CO", "word:OWN", "near:analyst", "source:wire"} <= set(apple)
    other = post_features("Apple upgraded to Buy $XOM", APPLE)
    assert "word:TAG" in other and "shape:other_cashtags=1" in other


def test_features_say_whether_the_prose_opens_with_the_company_or_someone_else() -> None:
    exxon = post_features("$XOM - Exxon cuts spending https://t.co/x", EXXON, "wire")
    assert "lead:company" in exxon and "lead:capital_not_named" not in exxon
    other = post_features("$PFE AstraZeneca in talks to buy Acerta https://t.co/x", PFIZER)
    assert {"lead:capital", "lead:capital_not_named"} <= set(other)
    talk = post_features("$PFE looks cheap here, adding more", PFIZER)
    assert "lead:lower" in talk


def test_the_threshold_puts_precision_first_when_both_targets_cannot_be_met() -> None:
    # 10 worthy posts scored 0.3..0.95, 10 not worthy scored 0.1..0.75: no threshold keeps
    # 80% of the worthy at 95% precision; the lowest that is 95% precise wins.
    worthy = [0.3 + 0.072 * i for i in range(10)]
    noise = [0.1 + 0.072 * i for i in range(10)]
    labels = [True] * 10 + [False] * 10
    threshold = news_training.choose_threshold(labels, worthy + noise)
    precision, recall = news_training.figures(labels, worthy + noise, threshold)
    assert precision >= 0.95 and recall < 0.8
    assert news_training.figures(labels, worthy + noise, threshold - 0.01)[0] < 0.95
    # When both can be met, the lowest threshold that meets both is chosen.
    assert news_training.choose_threshold([True, True, False], [0.9, 0.8, 0.2]) == 0.21


def test_a_wire_headline_is_quoted_and_chatter_is_dropped_with_its_reasons() -> None:
    wire = "Pfizer to buy Allergan in $160 billion deal https://t.co/x $PFE"
    assert screen_news(wire, PFIZER, [PFIZER], "WSJ") is None
    chatter = screen_news("lol I bought more $PFE today, to the moon!!", PFIZER, [PFIZER], "fan")
    assert chatter is not None and chatter.kind == "no_story"
    assert "reads as news at" in chatter.detail and "rule:chatter" in chatter.detail


def test_the_shipped_model_is_a_probability_with_a_threshold_between() -> None:
    model = load()
    assert 0.0 < model.threshold < 1.0 and len(model.weights) > 500
    names = post_features("Apple reports record quarterly revenue $AAPL", APPLE)
    assert 0.0 < model.probability(names) < 1.0


def test_the_fit_is_deterministic() -> None:
    train = [e for e in news_training.examples() if e.split == "train" and not e.ruled_out]
    first, second = news_training.fit(train[:300]), news_training.fit(train[:300])
    assert first.weights == second.weights and first.bias == second.bias


def test_runs_of_four_characters_catch_a_stem_whatever_its_ending() -> None:
    upgraded = post_features("Apple upgraded at Jefferies https://t.co/abcd $AAPL", APPLE)
    upgrades = post_features("Jefferies upgrades Apple", APPLE)
    shared = {n for n in upgraded if n.startswith("char:")} & set(upgrades)
    assert {"char:upgr", "char:pgra", "char:rade"} <= shared
    assert not any("t.co" in n or "abcd" in n for n in upgraded)
    assert "char:appl" in upgraded and "char:jeff" in upgrades
