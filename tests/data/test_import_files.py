"""The importer on small hand-made files: layouts, every drop and repair, precedence, atomicity."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from contract.errors import InputError
from data.check import check_dataset
from data.import_log import ImportLog
from data.import_news import read_news
from data.import_prices import HEADERS, detect_format, read_price_file
from data.importer import ImportSources, import_dataset
from data.staging import staged_folder

YAHOO = ",".join(HEADERS["yahoo"])
CSVDIR = ",".join(HEADERS["csvdir"])
NIGHTDESK = Path(sys.executable).with_name("nightdesk")


def write(path: Path, *lines: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def yahoo_row(day: str, close: float, adj: float | None = None, volume: int = 1000) -> str:
    return f"{day},{close},{close + 1},{close - 1},{close},{adj or close},{volume}"


def test_layout_is_detected_from_the_header(tmp_path: Path) -> None:
    assert detect_format(write(tmp_path / "A.csv", YAHOO)) == "yahoo"
    assert detect_format(write(tmp_path / "B.csv", CSVDIR)) == "csvdir"
    with pytest.raises(InputError, match=r"neither Yahoo .* nor csvdir"):
        detect_format(write(tmp_path / "C.csv", "day,price"))


def test_every_unusable_row_is_dropped_with_its_reason(tmp_path: Path) -> None:
    path = write(
        tmp_path / "abc.csv",
        YAHOO,
        yahoo_row("2024-03-04", 10.0),
        "2024-03-05,null,null,null,null,null,null",
        yahoo_row("2024-03-04", 11.0),
        "2024-03-06,10,11,9,-1,-1,100",
        "2024-03-07,10,11,9,10,10,-5",
        yahoo_row("2024-03-09", 10.0),
        "03/11/2024,10,11,9,10,10,100",
        "2024-03-12,10,11,9,10,10,",
        yahoo_row("2024-03-13", 12.0),
    )
    log = ImportLog()
    part = read_price_file(path, "p/abc.csv", log)
    reasons = {n.line: n.reason for n in log.notes}
    assert reasons == {
        3: "missing or unreadable price on 2024-03-05",
        4: "duplicate date 2024-03-04 (line 2 kept)",
        5: "non-positive price on 2024-03-06",
        6: "negative volume on 2024-03-07",
        7: "2024-03-09 is not a NYSE session",
        8: "unreadable date '03/11/2024'",
        9: "null volume on 2024-03-12",
    }
    assert all(n.action == "dropped" and n.source == "p/abc.csv" for n in log.notes)
    assert part.ticker == "ABC"
    assert part.rows["date"].tolist() == [date(2024, 3, 4), date(2024, 3, 13)]
    assert part.rows["close"].tolist() == [10.0, 12.0]
    assert log.read["prices"] == 9


def test_high_and_low_are_widened_to_contain_open_and_close(tmp_path: Path) -> None:
    path = write(tmp_path / "X.csv", YAHOO, "2024-03-04,10.5,10.2,9.8,9.5,9.5,100")
    log = ImportLog()
    row = read_price_file(path, "X.csv", log).rows.iloc[0]
    assert (row["high"], row["low"]) == (10.5, 9.5)
    (note,) = log.notes
    assert note.action == "repaired" and note.line == 2
    assert "set to 10.5/9.5" in note.reason


def test_dividend_is_inferred_on_its_ex_date_from_adj_close(tmp_path: Path) -> None:
    closes = [50.0, 51.0, 52.0, 50.8, 51.5]
    ex, cash = 3, 0.65  # ex-date is the 4th session; Yahoo scales earlier Adj Close by 1 - D/C[t-1]
    factor = 1 - cash / closes[ex - 1]
    days = ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"]
    rows = [
        yahoo_row(d, c, round(c * (factor if i < ex else 1.0), 6))
        for i, (d, c) in enumerate(zip(days, closes, strict=True))
    ]
    part = read_price_file(write(tmp_path / "D.csv", YAHOO, *rows), "D.csv", ImportLog())
    (event,) = part.events.to_dict("records")
    assert event["date"] == date(2024, 3, 7) and event["kind"] == "dividend"
    assert event["value"] == pytest.approx(cash, abs=1e-4) and not event["stated"]


def test_csvdir_states_splits_and_dividends(tmp_path: Path) -> None:
    path = write(
        tmp_path / "K.csv",
        CSVDIR,
        "2024-03-04,40,41,39,40,100,0.0,1.0",
        "2024-03-05,20,21,19,20,200,0.0,2.0",
        "2024-03-06,20,21,19,20,200,0.25,1.0",
    )
    events = read_price_file(path, "K.csv", ImportLog()).events
    assert events[["date", "kind", "value"]].values.tolist() == [
        [date(2024, 3, 6), "dividend", 0.25],
        [date(2024, 3, 5), "split", 2.0],
    ]


@pytest.fixture
def two_vendors(tmp_path: Path) -> tuple[Path, Path]:
    yahoo = write(
        tmp_path / "yahoo" / "KO.csv",
        YAHOO,
        yahoo_row("2024-03-05", 20.0, 19.0),
        yahoo_row("2024-03-06", 20.5, 19.475),
        yahoo_row("2024-03-07", 20.0, 19.0),
    ).parent
    csvdir = write(
        tmp_path / "csvdir" / "KO.csv",
        CSVDIR,
        "2024-03-04,19,21,18,19.5,100,0.0,1.0",
        "2024-03-05,19,21,18,19.9,100,0.0,1.0",
        "2024-03-07,19,21,18,19.8,100,0.26,1.0",
    ).parent
    return yahoo, csvdir


def test_first_prices_folder_wins_a_date_and_stated_actions_win(
    tmp_path: Path, two_vendors: tuple[Path, Path]
) -> None:
    yahoo, csvdir = two_vendors
    log = import_dataset(tmp_path / "out", ImportSources(prices=(yahoo, csvdir)))
    prices = pq.read_table(tmp_path / "out" / "prices.parquet").to_pandas()
    assert prices[["date", "close"]].values.tolist() == [
        [date(2024, 3, 4), 19.5],
        [date(2024, 3, 5), 20.0],
        [date(2024, 3, 6), 20.5],
        [date(2024, 3, 7), 20.0],
    ]
    events = pq.read_table(tmp_path / "out" / "events.parquet").to_pandas()
    assert events[["date", "kind", "value"]].values.tolist() == [
        [date(2024, 3, 7), "dividend", 0.26]
    ]
    assert events["announced_at"].iloc[0] == datetime(2024, 3, 7, 14, 30, tzinfo=UTC)
    assert any("2 sessions also in" in r and "differ on 2" in r for r in log.remarks)
    lines = log.render()
    assert (
        "prices: read 6, kept 4 (dropped 0, repaired 0); 2 also in an earlier source, kept once"
        in lines
    )
    assert "companies: read 0, kept 1 (dropped 0, repaired 0); 1 added by the import" in lines
    companies = pq.read_table(tmp_path / "out" / "companies.parquet").to_pylist()
    assert companies == [
        {"ticker": "KO", "name": "KO", "sector": "Unknown", "currency": "USD",
         "exchange": "NYSE", "price_basis": "split_adjusted"}
    ]  # fmt: skip


def test_reversed_order_lets_the_other_vendor_win(
    tmp_path: Path, two_vendors: tuple[Path, Path]
) -> None:
    yahoo, csvdir = two_vendors
    import_dataset(tmp_path / "out", ImportSources(prices=(csvdir, yahoo)))
    prices = pq.read_table(tmp_path / "out" / "prices.parquet").to_pandas()
    assert prices["close"].tolist() == [19.5, 19.9, 20.5, 19.8]


def test_companies_file_symbols_sectors_and_defaults(tmp_path: Path) -> None:
    prices = write(tmp_path / "p" / "AAPL.csv", YAHOO, yahoo_row("2024-03-04", 10.0)).parent
    write(tmp_path / "p" / "BRK-A.csv", YAHOO, yahoo_row("2024-03-04", 10.0))
    companies = write(
        tmp_path / "c.tsv",
        "Sector\tSymbol\tCompany",
        "Technology\t$AAPL\tApple Inc.",
        "Basic Matierials\t$brk-a\tBerkshire",
        "Technology\t$AAPL\tApple again",
    )
    log = import_dataset(tmp_path / "out", ImportSources(prices=(prices,), companies=companies))
    rows = pq.read_table(tmp_path / "out" / "companies.parquet").to_pylist()
    assert [(r["ticker"], r["name"], r["sector"], r["exchange"]) for r in rows] == [
        ("AAPL", "Apple Inc.", "Technology", "NASDAQ"),
        ("BRK-A", "Berkshire", "Basic Matierials", "NYSE"),
    ]
    assert [str(n) for n in log.notes] == ["dropped companies c.tsv:4: AAPL listed again"]
    with pytest.raises(InputError, match="no column for sector"):
        import_dataset(
            tmp_path / "o2",
            ImportSources(prices=(prices,), companies=write(tmp_path / "c.csv", "symbol,name")),
        )


def tweet(ticker: str, minutes: int, text: str, user: str = "u") -> str:
    at = datetime(2015, 10, 1, 13, 0, tzinfo=UTC) + timedelta(minutes=minutes)
    return json.dumps(
        {"ticker": ticker, "published_at": at.isoformat(), "text": text, "user": user}
    )


def test_retweets_and_reposts_are_removed_keeping_the_earliest(tmp_path: Path) -> None:
    original = "Apple beats estimates as iPhone sales rise 22% $AAPL http://t.co/rDStkWmQkS"
    long = "Apple agrees to buy a chip designer for $1 billion, its largest deal since Beats $AAPL $TSM"
    feed = write(
        tmp_path / "t.jsonl",
        tweet("AAPL", 5, f"RT @dh: {original}", "fan1"),
        tweet("AAPL", 0, original, "dh"),
        tweet("AAPL", 9, f"RT @dh: {original.upper()}", "fan2"),
        tweet("AAPL", 20, long, "dtg"),
        tweet("AAPL", 30, f"RT @dtg: {long[:60]}…", "fan3"),
        tweet("MSFT", 40, "RT @dh: Microsoft raises its dividend &amp; buys back $40B of shares $MSFT", "fan4"),
        tweet("AAPL", 50, "RT @x: Apple opens its first store in India &amp; plans two more", "fan5"),
        tweet("AAPL", 51, "Apple opens its first store in India & plans two more", "fan6"),
        tweet("AAPL", 52, original.replace("rDStkWmQkS", "UIgNJb9Oen"), "other"),
        tweet("AAPL", 8 * 24 * 60, original, "dh"),
        tweet("ZZZZ", 60, "unknown"),
        json.dumps(
            {"ticker": "AAPL", "published_at": "2015-10-01T10:00:00", "text": "t", "user": "u"}
        ),
        tweet("MSFT", 70, "Microsoft raises the price of its cloud plans $MSFT By @rep https://t.c…", "wire"),
        tweet("MSFT", 71, "Microsoft raises the price of its cloud plans https://t.co/q $MSFT", "fan7"),
    )  # fmt: skip
    log = ImportLog()
    news = read_news(feed, {"AAPL": "Apple Inc.", "MSFT": "Microsoft Corporation"}, log)
    rows = news.to_pylist()
    kept = [(r["ticker"], r["source"]) for r in rows]
    assert kept == [
        ("AAPL", "dh"), ("AAPL", "dtg"), ("AAPL", "x"), ("AAPL", "dh"), ("MSFT", "dh"), ("MSFT", "wire")
    ]  # fmt: skip
    assert rows[2]["headline"] == "Apple opens its first store in India & plans two more"
    assert rows[4]["headline"] == "Microsoft raises its dividend & buys back $40B of shares $MSFT"
    dropped = {n.line: (n.reason, n.kind) for n in log.notes}
    assert dropped == {
        1: ("retweet of AAPL post at 2015-10-01T13:00:00Z", "retweet copy"),
        3: ("retweet of AAPL post at 2015-10-01T13:00:00Z", "retweet copy"),
        5: ("retweet of AAPL post at 2015-10-01T13:20:00Z", "retweet copy"),
        8: ("repost of AAPL post at 2015-10-01T13:50:00Z", "repost copy"),
        9: ("repost of AAPL post at 2015-10-01T13:00:00Z", "repost copy"),
        11: ("ticker ZZZZ is not among the imported companies", "unknown ticker"),
        12: ("published_at 2015-10-01T10:00:00 has no UTC offset", "unreadable"),
        14: ("repost of MSFT post at 2015-10-01T14:10:00Z", "repost copy"),
    }


def test_posts_that_are_not_news_about_their_company_are_dropped_and_counted(
    tmp_path: Path,
) -> None:
    feed = write(
        tmp_path / "t.jsonl",
        tweet("D", 0, "Ridin' round in my system pumping L$D", "fan"),
        tweet("D", 1, "Dominion Resources raises its quarterly dividend $D", "wire"),
        tweet("AAPL", 2, "GDX Market Vectors Gold Miners Bid / https://t.co/a / $GDX $AAPL $FXI #GDX", "bot"),
        tweet("AAPL", 3, "$AAPL https://t.co/x https://t.co/y", "bot"),
        tweet("AAPL", 4, "See why these assets are trending in 1 watchlist $AAPL $FB", "bot"),
        tweet("AAPL", 5, "Apple reports record quarterly revenue, beating estimates https://t.co/z $AAPL", "news"),
    )  # fmt: skip
    log = ImportLog()
    news = read_news(feed, {"AAPL": "Apple Inc.", "D": "Dominion Resources Inc."}, log)
    assert news.column("source").to_pylist() == ["news", "wire"]
    kinds = {n.line: n.kind for n in log.notes}
    assert kinds == {1: "off topic", 3: "about another ticker", 4: "link only", 5: "promotional"}
    assert log.render()[-1] == "news: read 6, kept 2 (dropped 4, repaired 0)"


def test_many_drops_of_a_table_are_counted_by_kind_in_one_line() -> None:
    log = ImportLog()
    log.read["news"], log.kept["news"] = 40, 10
    for line in range(30):
        kind = "retweet copy" if line % 3 else "off topic"
        log.note("dropped", "news", "t.jsonl", line, f"reason {line}", kind)
    log.note("dropped", "prices", "p.csv", 2, "missing or unreadable price on 2024-03-05")
    lines = log.render()
    assert lines[0] == "dropped prices p.csv:2: missing or unreadable price on 2024-03-05"
    assert not any(line.startswith("dropped news") for line in lines)
    assert "news: read 40, kept 10 (dropped 30: 20 retweet copy, 10 off topic; repaired 0)" in lines


def test_holdings_derive_portfolios_and_bad_rows_are_refused(tmp_path: Path) -> None:
    prices = write(tmp_path / "p" / "KO.csv", YAHOO, yahoo_row("2024-03-04", 10.0)).parent
    header = "portfolio_id,as_of,ticker,quantity,cost_basis"
    good = write(tmp_path / "h.csv", header, "demo-income,2024-03-04,$KO,10,9.5")
    import_dataset(tmp_path / "out", ImportSources(prices=(prices,), holdings=good))
    assert pq.read_table(tmp_path / "out" / "portfolios.parquet").to_pylist() == [
        {
            "portfolio_id": "demo-income",
            "name": "Demo Income",
            "base_currency": "USD",
            "benchmark": None,
        }
    ]
    assert check_dataset(tmp_path / "out") == []
    bad = write(tmp_path / "b.csv", header, "demo,2024-03-04,PEP,10,9.5")
    with pytest.raises(InputError, match="line 2: ticker PEP has no prices"):
        import_dataset(
            tmp_path / "out", ImportSources(prices=(prices,), holdings=bad), overwrite=True
        )
    assert pq.read_table(tmp_path / "out" / "holdings.parquet").num_rows == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_cli_prints_the_summary_and_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    prices = write(
        tmp_path / "p" / "KO.csv", YAHOO, yahoo_row("2024-03-04", 10.0), "2024-03-05,null,,,,,"
    ).parent
    done = subprocess.run(
        [str(NIGHTDESK), "data", "import", "--out", str(tmp_path / "o"), "--prices", str(prices)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "/p/KO.csv:3: missing or unreadable price on 2024-03-05\n" in done.stdout
    assert "prices: read 2, kept 1 (dropped 1, repaired 0)" in done.stdout
    again = subprocess.run(
        [str(NIGHTDESK), "data", "import", "--out", str(tmp_path / "o"), "--prices", str(prices)],
        capture_output=True,
        text=True,
    )
    assert again.returncode != 0
    assert again.stderr.strip().count("\n") == 0 and "--overwrite" in again.stderr


def test_a_failed_build_leaves_the_old_set_and_no_staging_behind(tmp_path: Path) -> None:
    out = write(tmp_path / "set" / "prices.parquet", "old").parent
    with (
        pytest.raises(InputError, match="breaks the contract"),
        staged_folder(out, overwrite=True) as staging,
    ):
        (staging / "prices.parquet").write_text("new")
        raise InputError("the imported set breaks the contract")
    assert (out / "prices.parquet").read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["set"]


HOLDINGS_HEADER = "portfolio_id,as_of,ticker,quantity,cost_basis"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        # a file that is not UTF-8, in each kind of input
        (
            lambda d: ImportSources(
                prices=(_latin1(d / "p" / "KO.csv", YAHOO, "2024-03-04,10,11,9,10,10,100\xe9"),)
            ),
            "KO.csv line 2: not UTF-8 text (byte 0xe9)",
        ),
        (
            lambda d: ImportSources(
                prices=(_ko(d),),
                holdings=_latin1(d / "h.csv", HOLDINGS_HEADER, "démo,2024-03-04,KO,1,1"),
            ),
            "h.csv line 2: not UTF-8 text",
        ),
        # a price file none of whose rows can be read
        (
            lambda d: ImportSources(
                prices=(write(d / "q" / "KO.csv", YAHOO, "03/04/2024,10,11,9,10,10,100").parent,)
            ),
            "KO.csv: no usable row (first: line 2, unreadable date '03/04/2024'); dates are YYYY-MM-DD",
        ),
        (lambda d: ImportSources(prices=(_ko(d), _ko(d))), "is given twice; give each folder once"),
        # a file name that cannot be a ticker is named with its fix, not as a table row
        (
            lambda d: ImportSources(
                prices=(write(d / "q" / "BRK B.csv", YAHOO, "2024-03-04,10,11,9,10,10,100").parent,)
            ),
            "BRK B.csv: the file name makes the ticker 'BRK B', which cannot be one: use letters",
        ),
        # holdings: only ISO dates, finite numbers, and at least one row
        (
            lambda d: ImportSources(
                prices=(_ko(d),),
                holdings=write(d / "h.csv", HOLDINGS_HEADER, "demo,03/04/2024,KO,1,1"),
            ),
            "h.csv line 2: Invalid isoformat string",
        ),
        (
            lambda d: ImportSources(
                prices=(_ko(d),),
                holdings=write(d / "h.csv", HOLDINGS_HEADER, "demo,2024-03-04,KO,nan,1"),
            ),
            "h.csv line 2: quantity and cost_basis must be finite numbers",
        ),
        (
            lambda d: ImportSources(prices=(_ko(d),), holdings=write(d / "h.csv", HOLDINGS_HEADER)),
            "h.csv: no holdings",
        ),
        (
            lambda d: ImportSources(
                prices=(_ko(d),),
                holdings=write(
                    d / "h.csv", HOLDINGS_HEADER.replace(",", ";"), "demo;2024-03-04;KO;1;1"
                ),
            ),
            "h.csv line 1: the header has no portfolio_id, as_of, ticker, quantity, cost_basis (it "
            "is split by ';': write it with ',')",
        ),
    ],
)
def test_unreadable_input_is_refused_in_one_line_and_nothing_is_written(
    tmp_path: Path, make, message: str
) -> None:
    with pytest.raises(InputError) as refused:
        import_dataset(tmp_path / "out", make(tmp_path))
    assert message in refused.value.message and "\n" not in refused.value.message
    assert not (tmp_path / "out").exists()


def test_overwrite_replaces_a_data_set_but_no_other_folder(tmp_path: Path) -> None:
    other = tmp_path / "notes"
    (other / "sub").mkdir(parents=True)
    (other / "precious.txt").write_text("keep me")
    with pytest.raises(InputError, match=r"not part of a data set \(precious.txt, sub\)"):
        import_dataset(other, ImportSources(prices=(_ko(tmp_path),)), overwrite=True)
    assert (other / "precious.txt").read_text() == "keep me"
    import_dataset(tmp_path / "set", ImportSources(prices=(_ko(tmp_path),)))
    import_dataset(tmp_path / "set", ImportSources(prices=(_ko(tmp_path),)), overwrite=True)
    assert check_dataset(tmp_path / "set") == []


def _ko(root: Path) -> Path:
    return write(root / "p" / "KO.csv", YAHOO, yahoo_row("2024-03-04", 10.0)).parent


def _latin1(path: Path, *lines: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    return path if path.suffix != ".csv" or path.parent.name != "p" else path.parent


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("demo,2024-03-04,PEP,10,9", "ticker PEP has no prices"),
        ("demo,2024-03-08,KO,10,9", "snapshot of 2024-03-08 is after the last price (2024-03-04)"),
    ],
)
def test_holdings_no_night_could_report_on_are_refused(
    tmp_path: Path, row: str, message: str
) -> None:
    companies = write(
        tmp_path / "c.csv", "ticker,name,sector", "KO,Coca-Cola,Staples", "PEP,Pepsi,Staples"
    )
    holdings = write(tmp_path / "h.csv", HOLDINGS_HEADER, row)
    sources = ImportSources(prices=(_ko(tmp_path),), companies=companies, holdings=holdings)
    with pytest.raises(InputError, match=re.escape(message)):
        import_dataset(tmp_path / "out", sources)
    assert not (tmp_path / "out").exists()


def test_an_import_removes_what_a_killed_import_left_beside_its_folder(tmp_path: Path) -> None:
    dead = 4_194_304 + 1  # above any pid_max: no process has it
    left = tmp_path / f".out.{dead}.x1"
    (left / "prices.parquet").parent.mkdir(parents=True)
    (left / "prices.parquet").write_text("half")
    mine = tmp_path / f".out.{os.getpid()}.x3"  # a live import's staging stays
    mine.mkdir()

    import_dataset(tmp_path / "out", ImportSources(prices=(_ko(tmp_path),)))

    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name, "out", "p"]


def test_a_retired_set_is_kept_while_its_folder_is_missing(tmp_path: Path) -> None:
    from data.staging import remove_abandoned

    retired = tmp_path / ".set.old-.set.4194305.x2"
    retired.mkdir()
    remove_abandoned(tmp_path / "set")
    assert retired.exists()  # the kill struck between the renames: the only copy of the set
    (tmp_path / "set").mkdir()
    remove_abandoned(tmp_path / "set")
    assert not retired.exists()
