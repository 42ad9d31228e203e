"""Each portfolio's report artifact has a key of its own that Prefect accepts, however its id
is spelled: the slug drops case and punctuation, the hash of the exact id does not."""

from __future__ import annotations

from prefect.client.schemas.actions import ArtifactCreate

from flows.night.artifacts import MAX_KEY, report_key

DAY = "2024-12-31"
LONG = "P" * 39


def test_portfolios_whose_slugs_collide_get_different_keys() -> None:
    portfolios = ["P_1", "P-1", "p1", "P1", "p.1", "P1.", f"{LONG}A", f"{LONG}a", f"{LONG}_"]
    keys = [report_key(p, DAY) for p in portfolios]
    assert len(set(keys)) == len(portfolios)
    for key in keys:
        assert ArtifactCreate(key=key, type="markdown", data="x").key == key
        assert len(key) <= MAX_KEY and key.startswith("report-") and key.endswith(f"-{DAY}")


def test_a_key_is_the_same_for_the_same_portfolio_on_every_night() -> None:
    assert report_key("P001", DAY) == report_key("P001", DAY)
    assert report_key("P001", DAY).startswith("report-p001-")
    assert report_key("P001", DAY) != report_key("P001", "2025-01-02")
