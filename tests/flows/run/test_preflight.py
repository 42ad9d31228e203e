"""Bad input to a night is refused before anything runs, with one line saying what to pass."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from contract.errors import InputError
from data.calendar import trading_days
from flows.run.config import RunConfig
from flows.run.preflight import check_night


def config(data: Path, out: Path, **options: object) -> RunConfig:
    return RunConfig(data_dir=data, out_dir=out, **options)


def test_no_date_resolves_to_the_last_session(small_data: Path, tmp_path: Path) -> None:
    end = date.fromisoformat(json.loads((small_data / "generation.json").read_text())["end"])
    last = max(d for d in trading_days(end.replace(month=1, day=1), end))
    assert check_night(config(small_data, tmp_path)).report_date == last


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"report_date": date(2024, 7, 4)},
            "2024-07-04 is not a trading session; the sessions around it are 2024-07-03 and 2024-07-05",
        ),
        (
            {"report_date": date(2030, 1, 2)},
            "has no prices after 2024-12-31 up to 2030-01-02: pass --date 2024-12-31",
        ),
        (
            {"report_date": date(2020, 6, 1)},
            "has no prices up to 2020-06-01: its prices start on 2024-01-02; pass --date 2024-01-02",
        ),
        (
            {"report_date": date(9999, 12, 31)},
            "report date 9999-12-31 has no next day, so its night has no end: pass --date",
        ),
        ({"report_date": date(9999, 12, 30)}, "has no prices after 2024-12-31 up to 9999-12-30"),
        ({"portfolios": ["NOPE"]}, "unknown portfolio NOPE: the data has P001"),
        ({"provider": "local"}, "provider local needs a model folder: pass --model PATH"),
        (
            {"provider": "local", "model": "/nonexistent/model"},
            "local model /nonexistent/model not found",
        ),
        (
            {"budget": {"price_file": "/nonexistent/prices.json"}},
            "cannot read price file /nonexistent/prices.json",
        ),
    ],
)
def test_bad_input_is_refused_before_the_run(
    small_data: Path, tmp_path: Path, options: dict, message: str
) -> None:
    with pytest.raises(InputError) as refused:
        check_night(config(small_data, tmp_path, **options))
    assert message in refused.value.message
    assert "\\n" not in refused.value.message
    assert not [p for p in tmp_path.iterdir() if p.name != ".catalog"]
    with pytest.raises(InputError):  # an output folder the refused night would have made
        check_night(config(small_data, tmp_path / "new" / "out", **options))
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("day", [date(9999, 12, 31), date(2300, 1, 2), date(1, 1, 1)])
def test_a_date_outside_the_data_builds_no_catalog(
    small_data: Path, tmp_path: Path, day: date
) -> None:
    with pytest.raises(InputError):
        check_night(config(small_data, tmp_path, report_date=day))
    assert not list(tmp_path.rglob("catalog-*"))


def test_a_provider_without_its_key_is_refused(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(InputError, match="provider openai needs OPENAI_API_KEY"):
        check_night(config(small_data, tmp_path, provider="openai"))


def test_a_key_given_in_code_reaches_the_check_and_the_tokenizer_is_loaded(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.providers.tokens import encoding_for, encoding_named
    from flows.run.provider import provider_options

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    encoding_for.cache_clear()  # an earlier test's model would otherwise skip the load
    encoding_named.cache_clear()
    with provider_options(api_key="sk-from-a-vault-0123456789"):
        check_night(config(small_data, tmp_path, provider="openai", model="gpt-4o-mini"))
    assert encoding_named.cache_info().currsize == 1  # the night's first estimate waits for nothing


@pytest.mark.parametrize(
    "in_the_way", [".", "2024-12-31/accepted", "2024-12-31/rejected", ".results"]
)
def test_outputs_that_cannot_be_written_are_refused_before_the_run(
    small_data: Path, tmp_path: Path, in_the_way: str
) -> None:
    out = tmp_path / "out"
    blocker = out / in_the_way if in_the_way != "." else out
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where a folder must go")
    with pytest.raises(InputError) as refused:
        check_night(config(small_data, out, report_date=date(2024, 12, 31)))
    assert f"{blocker} is a file, not a folder; pass --out" in refused.value.message


def test_a_held_ticker_that_is_no_file_name_is_refused_before_the_run(
    small_data: Path, tmp_path: Path
) -> None:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    data = tmp_path / "data"
    data.mkdir()
    holdings = pq.read_table(small_data / "holdings.parquet")
    ticker = holdings.column("ticker")[0].as_py()
    for source in small_data.glob("*.parquet"):
        table = pq.read_table(source)
        if "ticker" in table.column_names:
            column = table["ticker"]
            renamed = pc.if_else(pc.equal(column, ticker), f"{ticker}/X", column)
            table = table.set_column(table.column_names.index("ticker"), "ticker", renamed)
        pq.write_table(table, data / source.name)
    with pytest.raises(InputError) as refused:
        check_night(config(data, tmp_path / "out", report_date=date(2024, 12, 31)))
    assert f"ticker '{ticker}/X' cannot be a file name" in refused.value.message
    assert f"write it as '{ticker}.X'" in refused.value.message


def test_a_special_file_system_is_refused_in_one_line(small_data: Path) -> None:
    with pytest.raises(InputError, match=r"cannot write the run's outputs to /proc/nightdesk-x"):
        check_night(config(small_data, Path("/proc/nightdesk-x")))


def test_a_night_whose_portfolios_hold_nothing_is_refused(small_data: Path, tmp_path: Path) -> None:
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    data = tmp_path / "late-holdings"
    shutil.copytree(small_data, data)
    frame = pq.read_table(data / "holdings.parquet").to_pandas()
    first = frame[frame["as_of"] == frame.groupby("portfolio_id")["as_of"].transform("min")]
    holdings = pa.Table.from_pandas(first, preserve_index=False)
    late = pa.array(
        [date(2024, 9, 3)] * holdings.num_rows, type=holdings.schema.field("as_of").type
    )
    pq.write_table(
        holdings.set_column(holdings.schema.get_field_index("as_of"), "as_of", late),
        data / "holdings.parquet",
    )
    with pytest.raises(InputError, match=r"holds anything on 2024-03-28: import holdings"):
        check_night(config(data, tmp_path / "out", report_date=date(2024, 3, 28)))
    assert not (tmp_path / "out").exists()


def test_writable_folders_that_exist_or_not_are_checked_and_left_as_found(tmp_path: Path) -> None:
    from flows.run.preflight import check_writable

    existing = tmp_path / "there"
    existing.mkdir()
    check_writable(existing)
    check_writable(tmp_path / "new" / "deeper")
    assert existing.is_dir() and not list(existing.iterdir())
    assert not (tmp_path / "new").exists()
