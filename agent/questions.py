"""Question sets as data: what is asked about every ticker, and the tool calls each answer needs.

A set is a JSON (or YAML) file of question specs. Each spec has an id, a scope (`ticker`:
asked once per ticker; `portfolio`: once per portfolio holding it), what the answer must
contain (`requires`, read by the verifier), keywords that match free-form questions to it,
the text per language and the plan: tool calls whose string arguments may use the
placeholders `{ticker}`, `{portfolio_id}`, `{date}` and `{date+N}` / `{date-N}` (calendar days).

Loading a set checks every plan step against its tool's argument model, with the placeholders
filled by sample values, so a plan the tools would refuse fails before any token is spent. The
samples stand in soundly: argument models check the form of a value (pattern, range, ISO date),
never the data, and one sample date keeps every `{date±N}` window in its real order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from agent.prompts import LANGUAGES
from contract.errors import InputError, first_error
from contract.files import read_input_text
from data.contract import MAX_QUESTION_ID
from tools.registry import TOOLS, explain, signature

DEFAULT_SET = Path(__file__).parent / "question_sets" / "default.json"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)([+-]\d+)?\}")
_NAMES = {"ticker", "portfolio_id", "date"}
_SAMPLES: dict[str, Any] = {"ticker": "A", "portfolio_id": "P1", "date": date(2024, 1, 2)}


class PlannedCall(BaseModel):
    """One tool call a question needs; in a spec its arguments are templates."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


QUESTION_ID = r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"
"""A question id is part of every case id: one '_' at a time, so that case ids stay injective
(`data.contract.id_problem`)."""


class QuestionSpec(BaseModel):
    """One entry of a question set, before it is rendered for a ticker and a date."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=QUESTION_ID, max_length=MAX_QUESTION_ID)
    kind: str = ""
    scope: Literal["ticker", "portfolio"] = "ticker"
    requires: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    text: dict[str, str]
    plan: list[PlannedCall] = Field(min_length=1)
    tools: list[str] = Field(default_factory=list)
    """The tools a react-mode model is offered for this question; default: its plan's tools.
    Each schema offered costs prompt tokens on every call of the question."""

    @property
    def offered_tools(self) -> list[str]:
        return self.tools or list(dict.fromkeys(call.tool for call in self.plan))

    @model_validator(mode="after")
    def _check(self) -> QuestionSpec:
        self.kind = self.kind or self.id
        missing = [lang for lang in LANGUAGES if lang not in self.text]
        if missing:
            raise ValueError(f"question {self.id!r} has no text in {', '.join(missing)}")
        templates = [*self.text.values(), *(_strings(c.args) for c in self.plan)]
        for template in _flatten(templates):
            for name, offset in _PLACEHOLDER.findall(template):
                if name not in _NAMES or (offset and name != "date"):
                    raise ValueError(
                        f"question {self.id!r}: unknown placeholder {{{name}{offset}}}"
                    )
                if name == "portfolio_id" and self.scope != "portfolio":
                    raise ValueError(
                        f"question {self.id!r}: {{portfolio_id}} needs scope portfolio"
                    )
        for step, call in enumerate(self.plan, start=1):
            check_planned_call(call, f"question {self.id!r} plan step {step}")
        unknown = [name for name in self.tools if name not in TOOLS]
        if unknown:
            raise ValueError(
                f"question {self.id!r}: unknown tools {unknown}; known tools: {', '.join(TOOLS)}"
            )
        return self


class QuestionSet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    questions: list[QuestionSpec] = Field(min_length=1)
    beyond: list[str] = Field(default_factory=list)
    """Words no template answers (a forecast, advice, another subject): a free-form question
    that mentions one fits no entry, however many keywords it also mentions."""

    @model_validator(mode="after")
    def _unique_ids(self) -> QuestionSet:
        ids = [q.id for q in self.questions]
        if len(ids) != len(set(ids)):
            raise ValueError(f"question ids must be unique, got {ids}")
        return self

    def spec(self, spec_id: str) -> QuestionSpec:
        for spec in self.questions:
            if spec.id == spec_id:
                return spec
        raise InputError(f"no question {spec_id!r} in set {self.name!r}: use one of {self.ids}")

    @property
    def ids(self) -> list[str]:
        return [q.id for q in self.questions]


class Question(BaseModel):
    """A question rendered for one ticker (and portfolio) on one date, its plan resolved."""

    model_config = ConfigDict(frozen=True)

    id: str
    spec_id: str
    kind: str
    text: str
    ticker: str
    portfolio_id: str | None = None
    as_of: date
    language: str = "en"
    plan: list[PlannedCall] = Field(default_factory=list)
    requires: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    """What react mode offers the model; empty: every tool (a free-form question)."""


def check_planned_call(call: PlannedCall, where: str) -> None:
    """A `ValueError` naming `where` unless the tool exists and takes these (sample-filled) args."""
    tool = TOOLS.get(call.tool)
    if tool is None:
        raise ValueError(f"{where}: unknown tool {call.tool!r}; known tools: {', '.join(TOOLS)}")
    try:
        tool.args_model.model_validate(_fill(call.args, _SAMPLES))
    except ValidationError as exc:
        raise ValueError(
            f"{where} ({tool.name}): invalid arguments: {explain(exc)}; {signature(tool)}"
        ) from None


def load_question_set(path: Path | str | None = None) -> QuestionSet:
    """The default set, or an operator's own file (.json, .yaml, .yml)."""
    source = Path(path) if path is not None else DEFAULT_SET
    text = read_input_text(source, "question set")
    try:
        raw = yaml.safe_load(text) if source.suffix in (".yaml", ".yml") else json.loads(text)
        return QuestionSet.model_validate(raw)
    except (ValueError, yaml.YAMLError) as exc:
        detail = describe_error(exc)
        raise InputError(f"invalid question set {source}: {detail.splitlines()[0]}") from None


def describe_error(exc: Exception) -> str:
    """The first problem; a rule of our own speaks for itself, a field error says where."""
    if not isinstance(exc, ValidationError):
        return str(exc)
    where, what = first_error(exc)
    own = exc.errors()[0]["type"] == "value_error"
    return what if own or not where else f"{where}: {what}"


def questions_for(
    ticker: str,
    portfolios: Iterable[str],
    as_of: date,
    language: str,
    qset: QuestionSet,
) -> list[Question]:
    """Every question of the set for one ticker: ticker-scope once, portfolio-scope per portfolio."""
    found: list[Question] = []
    for spec in qset.questions:
        if spec.scope == "ticker":
            found.append(render_question(spec, ticker, as_of, language))
        else:
            found.extend(render_question(spec, ticker, as_of, language, p) for p in portfolios)
    return found


def render_question(
    spec: QuestionSpec,
    ticker: str,
    as_of: date,
    language: str,
    portfolio_id: str | None = None,
    text: str | None = None,
) -> Question:
    """One spec filled in; `text` replaces the set's wording (free-form questions)."""
    if language not in spec.text:
        raise InputError(f"question {spec.id!r} has no text in {language!r}")
    if spec.scope == "portfolio" and not portfolio_id:
        raise InputError(f"question {spec.id!r} is about a position: give a portfolio id")
    values = {"ticker": ticker, "portfolio_id": portfolio_id or "", "date": as_of}
    plan = [PlannedCall(tool=c.tool, args=_fill(c.args, values)) for c in spec.plan]
    qid = "/".join(
        x for x in (ticker, spec.id, portfolio_id if spec.scope == "portfolio" else None) if x
    )
    return Question(
        id=qid,
        spec_id=spec.id,
        kind=spec.kind,
        text=text or _fill_text(spec.text[language], values),
        ticker=ticker,
        portfolio_id=portfolio_id,
        as_of=as_of,
        language=language,
        plan=plan,
        requires=list(spec.requires),
        tools=[] if text else spec.offered_tools,
    )


def match_spec(text: str, qset: QuestionSet, *, has_portfolio: bool) -> QuestionSpec | None:
    """The spec whose keywords a free-form question mentions most (first wins a tie), or None
    when it mentions none, or a word of the set's `beyond`."""
    words = set(re.findall(r"[\w&]+", text.lower()))
    lowered = text.lower()

    def mentions(keyword: str) -> bool:
        return keyword in words if " " not in keyword else keyword in lowered

    if any(mentions(word) for word in qset.beyond):
        return None
    best: tuple[int, QuestionSpec] | None = None
    for spec in qset.questions:
        if spec.scope == "portfolio" and not has_portfolio:
            continue
        hits = sum(1 for k in spec.keywords if mentions(k))
        if hits and (best is None or hits > best[0]):
            best = (hits, spec)
    return best[1] if best else None


def _fill_text(template: str, values: dict[str, Any]) -> str:
    def one(match: re.Match[str]) -> str:
        name, offset = match.group(1), match.group(2)
        value = values[name]
        if name == "date":
            value = value + timedelta(days=int(offset or 0))
            return value.isoformat()
        return str(value)

    return _PLACEHOLDER.sub(one, template)


def _fill(args: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    return {k: _fill_text(v, values) if isinstance(v, str) else v for k, v in args.items()}


def _strings(args: dict[str, Any]) -> list[str]:
    return [v for v in args.values() if isinstance(v, str)]


def _flatten(items: list[Any]) -> list[str]:
    return [s for item in items for s in (item if isinstance(item, list) else [item])]
