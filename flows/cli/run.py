"""`nightdesk run`: its options are the fields of the run's model (`flows.run.options`), each
with the field's type, bounds, default and description; none is listed here."""

from __future__ import annotations

import gc
import inspect
import sys
from typing import Annotated, Any, Optional

from cyclopts import Parameter

from flows.run.config import RunConfig
from flows.run.options import RUN_OPTIONS, RunOption, as_options, config_of


def run_nightly(**options: Any) -> None:
    """Run the nightly reports locally (no server needed) and print where they are.

    Every option is a field of the Prefect deployment's form too; a cap set above the broader
    one (--question-tokens above --run-tokens) is lowered to fit, with a note saying so."""
    gc.disable()  # until the night starts: see `flows.night.launch.settled_heap`
    try:
        from flows.cli.main import fail
        from flows.cli.terminal import print_summary
        from flows.night.launch import run_with_progress
        from flows.night.summary import TooManyWithheld

        config = config_of(options)
        for note in config.budget.notes:  # said here, in the options' words, not by the flow
            print(f"nightdesk: note: {as_options(note)}", file=sys.stderr)
        config = RunConfig.model_validate(config.model_dump())
        try:
            print_summary(run_with_progress(config))
        except TooManyWithheld as exc:
            print_summary(exc.result)
            fail(exc.message, code=1)
    finally:
        gc.enable()


def _shown(default: Any) -> str | bool:
    if default is None or default in ([], ""):
        return False
    if isinstance(default, bool):
        return str(default)
    if isinstance(default, int):
        return f"{default:,}"
    return str(default)


def _parameter(option: RunOption) -> inspect.Parameter:
    """The option as cyclopts reads it: the field's type or None (left out, the model's
    default applies, and a cap follows the broader one)."""
    field = option.field
    default = field.get_default(call_default_factory=True)
    help_text, _, empty = as_options(field.description or "").partition("; empty: ")
    help_text += "." if empty else ""
    shown = empty.removesuffix(".") if empty else _shown(default)  # what an unset value means
    typed = Parameter(name=f"--{option.flag}", help=help_text, show_default=shown)
    return inspect.Parameter(
        option.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[Optional[field.annotation], typed],  # type: ignore[name-defined]  # noqa: UP045
    )


run_nightly.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [_parameter(option) for option in RUN_OPTIONS]
)
