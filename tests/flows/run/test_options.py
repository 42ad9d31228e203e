"""Each run option is declared once, as a field of the run's model: set to a value other than its
default, it goes through the CLI, the rerun hint, the Prefect flow's parameters (and the form's
schema) and the manifest, and comes back the same."""

from __future__ import annotations

import json
import shlex
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from contract.errors import InputError
from flows.run.config import RunConfig
from flows.run.options import RUN_OPTIONS, RunOption, as_command, as_parameters, config_of

ROOT = Path("/srv/nightdesk")
NON_DEFAULT: dict[str, Any] = {
    "date": date(2024, 12, 31),
    "portfolio": ["P001", "P003"],
    "provider": "anthropic",
    "model": "claude-x",
    "mode": "react",
    "language": "es",
    "run-tokens": 900_000,
    "question-tokens": 40_000,
    "max-output-tokens": 2_000,
    "max-steps": 3,
    "requests-per-minute": 90,
    "tokens-per-minute": 50_000,
    "usage-fault-factor": 2.5,
    "price-file": ROOT / "prices.json",
    "concurrency": 3,
    "threads": 3,
    "verifier-processes": 2,
    "drafting": "structured",
    "dtype": "bfloat16",
    "questions": ROOT / "my questions.yaml",
    "data": ROOT / "my data",
    "out": ROOT / "out",
    "shards": 4,
    "pool": "night-pool",
    "shard-stall-minutes": 45,
    "fresh": True,
    "batch": True,
    "batch-window-minutes": 90.5,
    "batch-poll-seconds": 7.5,
    "batch-fallback": "provider_error",
    "holdings-max-age-days": 30,
    "max-withheld-share": 0.25,
}
"""A value other than the default for every option: a new option without one fails below."""
NEEDS = {"batch": ["--provider", "openai"]}
"""What an option's value needs of the others (the model's cross-field rules)."""


def words(flag: str, value: Any) -> list[str]:
    if value is True:
        return [f"--{flag}"]
    if isinstance(value, list):
        return [w for item in value for w in (f"--{flag}", str(item))]
    return [f"--{flag}", value.isoformat() if isinstance(value, date) else str(value)]


def parse(argv: list[str]) -> RunConfig:
    """What `nightdesk run ARGV` runs: cyclopts parses, the model validates."""
    from flows.cli.main import app
    from flows.cli.run import run_nightly

    function, bound, _ = app.parse_args(["run", *argv])
    assert function is run_nightly
    return config_of(bound.arguments)


def test_every_option_has_a_value_to_try() -> None:
    assert sorted(NON_DEFAULT) == sorted(option.flag for option in RUN_OPTIONS)


@pytest.mark.parametrize("option", RUN_OPTIONS, ids=lambda option: option.flag)
def test_an_option_round_trips_through_cli_hint_flow_and_manifest(option: RunOption) -> None:
    from prefect.utilities.callables import parameter_schema
    from prefect.utilities.schema_tools import validate

    from flows.night.flow import nightly_reports

    value = NON_DEFAULT[option.flag]
    day = [] if option.flag == "date" else ["--date", "2024-12-31"]
    argv = [*day, *words(option.flag, value), *NEEDS.get(option.flag, [])]
    config = parse(argv)
    assert option.value(config) == value
    assert option.value(config) != option.value(RunConfig())

    hint = shlex.split(as_command(config))
    assert hint[:2] == ["nightdesk", "run"]
    folders = {"data_dir": config.data_dir.resolve(), "out_dir": config.out_dir.resolve()}
    assert parse(hint[2:]) == config.model_copy(update=folders)  # pasted, it runs this night

    dumped = config.model_dump(mode="json")  # the flow's parameter, and the manifest's record
    assert nightly_reports.validate_parameters({"config": dumped})["config"] == config
    schema = parameter_schema(nightly_reports).model_dump_for_openapi()
    assert validate({"config": dumped}, schema, raise_on_error=True) == []  # the form takes it
    assert option.path[-1] in json.dumps(schema["definitions"])
    recorded = dumped
    for part in option.path:
        recorded = recorded[part]
    assert recorded == json.loads(json.dumps(value, default=str))


def test_the_hint_names_only_what_differs_and_never_a_cap_that_follows() -> None:
    config = parse(["--date", "2024-12-31", "--run-tokens", "6000", "--data", "d"])
    hint = as_command(config)
    assert "--run-tokens 6000" in hint and "--question-tokens" not in hint
    assert f"--data {Path('d').resolve()}" in hint and f"--out {Path('outputs').resolve()}" in hint
    assert config.budget.question_tokens == 6_000


def test_the_rate_limit_is_in_the_hint() -> None:
    """The stale list called --requests-per-minute Prefect-only and dropped it."""
    config = parse(["--date", "2024-12-31", "--requests-per-minute", "90"])
    assert "--requests-per-minute 90" in as_command(config)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--run-tokens", "0"], "invalid --run-tokens: Input should be greater than or equal to 2"),
        (["--concurrency", "0"], "invalid --concurrency: Input should be greater than or equal"),
        (["--pool", ""], "invalid --pool: String should have at least 1 character"),
        (["--batch"], "--batch needs --provider openai or anthropic"),
        (["--batch", "--provider", "openai", "--mode", "react"], "--batch needs --mode plan"),
    ],
)
def test_a_bad_option_is_named_as_the_cli_spells_it(argv: list[str], message: str) -> None:
    with pytest.raises(InputError) as refused:
        parse(argv)
    assert refused.value.message.startswith(message)
    assert "\n" not in refused.value.message


def test_a_cli_message_is_worded_with_the_form_fields() -> None:
    said = as_parameters("pass --date 2024-06-03 or earlier, or lower --run-tokens; --no-batch")
    assert said == "set report_date to 2024-06-03 or earlier, or lower run_tokens; batch"
