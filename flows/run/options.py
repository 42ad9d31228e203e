"""The options of a night, derived from its one model (`RunConfig` and its `budget`): each field
is one `nightdesk run` option, a field of the Prefect form (the flow's parameter) and a key of
the manifest's `parameters`; the rerun hint and the messages worded for either side come from
the same list, so no option can be missing from one of them."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from agent.budget.limits import FOLLOWERS
from contract.errors import InputError, first_error
from flows.run.config import Flag, RunConfig


@dataclass(frozen=True, slots=True)
class RunOption:
    """One field of the run's model and the `nightdesk run` option that sets it."""

    path: tuple[str, ...]  # ("budget", "run_tokens")
    flag: str  # "run-tokens", given as --run-tokens
    field: FieldInfo

    @property
    def name(self) -> str:
        """The option's Python name (the CLI's keyword argument)."""
        return self.flag.replace("-", "_")

    def value(self, config: BaseModel) -> Any:
        for part in self.path:
            config = getattr(config, part)
        return config


def _options(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> Iterator[RunOption]:
    for name, field in model.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            yield from _options(field.annotation, (*prefix, name))
            continue
        flags = [m.name for m in field.metadata if isinstance(m, Flag)]
        yield RunOption((*prefix, name), flags[0] if flags else name.replace("_", "-"), field)


RUN_OPTIONS: tuple[RunOption, ...] = tuple(_options(RunConfig))
ALWAYS = ("date", "data", "out")
"""What a rerun hint always names: the night it reruns, wherever it is pasted."""
_BY_FIELD = {option.path[-1]: option for option in RUN_OPTIONS}
_BY_FLAG = {option.flag: option for option in RUN_OPTIONS}


def config_of(given: Mapping[str, Any]) -> RunConfig:
    """The configuration of the options given (by `RunOption.name`; an option left out or None
    takes the model's default, and a budget cap left out follows the broader one); a bad value
    is one line naming the option."""
    nested: dict[str, Any] = {}
    for option in RUN_OPTIONS:
        value = given.get(option.name)
        if value is None:
            continue
        *parents, last = option.path
        place = nested
        for part in parents:
            place = place.setdefault(part, {})
        place[last] = value
    try:
        return RunConfig.model_validate(nested)
    except ValidationError as exc:
        where, what = first_error(exc)
        named = _BY_FIELD.get(where.split(".")[-1]) if where else None
        if named is None:  # a rule between fields speaks for itself
            raise InputError(as_options(what)) from None
        raise InputError(f"invalid --{named.flag}: {as_options(what)}") from None


def as_argv(config: RunConfig) -> list[str]:
    """The `nightdesk run` arguments that give this configuration again: the night (date,
    data, out; paths made absolute) and every option whose value differs from what the
    options before it already give (a cap that follows the run's budget is not repeated)."""
    assert config.report_date is not None
    argv: list[str] = []
    given: dict[str, Any] = {}
    base = config_of(given)
    for option in RUN_OPTIONS:
        value = option.value(config)
        if option.flag not in ALWAYS and value == option.value(base):
            continue
        if isinstance(value, Path):
            value = value.resolve()
        given[option.name] = value
        argv += _words(option, value)
        base = config_of(given)
    return argv


def _words(option: RunOption, value: Any) -> list[str]:
    if isinstance(value, bool):
        return [f"--{option.flag}" if value else f"--no-{option.flag}"]
    if isinstance(value, list):
        return [word for item in value for word in (f"--{option.flag}", str(item))]
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return [f"--{option.flag}", text]


def as_command(config: RunConfig) -> str:
    """The `nightdesk run` command line that runs this configuration again, for a hint an
    operator can paste: every option the night set is in it."""
    return shlex.join(["nightdesk", "run", *as_argv(config)])


_FLAG = re.compile(
    r"(?<![\w-])--(no-)?(" + "|".join(sorted(_BY_FLAG, key=len, reverse=True)) + r")\b"
)
_PASS_FLAG = re.compile(
    r"\bpass --(" + "|".join(sorted(_BY_FLAG, key=len, reverse=True)) + r")\b(?! as)"
)
_FIELD = re.compile(
    r"(?<![\w-])("
    + "|".join(sorted((f for f in _BY_FIELD if "_" in f), key=len, reverse=True))
    + r")\b"
)


def as_parameters(message: str) -> str:
    """A refusal worded for a run started in the Prefect UI or by its API: where the CLI's
    message names an option ("pass --date 2024-06-03 or earlier"), name the `config` field
    ("set report_date to 2024-06-03 or earlier")."""
    message = _PASS_FLAG.sub(lambda m: f"set {_BY_FLAG[m.group(1)].path[-1]} to", message)
    return _FLAG.sub(lambda m: _BY_FLAG[m.group(2)].path[-1], message)


def as_options(message: str) -> str:
    """A message of the model (worded with its fields) worded for the CLI: `run_tokens` is
    `--run-tokens` (a one-word field, such as `model`, is left alone: it is also a word)."""
    return _FIELD.sub(lambda m: f"--{_BY_FIELD[m.group(1)].flag}", message)


def form_values(config: RunConfig) -> dict[str, Any]:
    """The configuration as a deployment's form is filled with it: the budget caps that follow
    a broader one are left empty (lowering only `run_tokens` then lowers them too)."""
    values = config.model_dump(mode="json")
    for name in FOLLOWERS:
        if name not in config.budget.model_fields_set:
            values["budget"][name] = None
    return values
