"""The gate every tool call passes: what one question's calls may reach, the tools offered to
it and the portfolio it is about. A tool that does not exist or is not offered is refused here
(`ToolScope.refusal`, which the registry asks before a tool runs), and so is a portfolio out of
scope; `run_sql`'s workers hold only the rows of the portfolios in scope (`sql_sandbox`), so
another portfolio's holdings are not in what a question can read at all."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ToolScope:
    """`tools`: the names a call may use, in the order offered (None: every tool). `portfolios`:
    the portfolios whose rows the calls may read (None: every one; empty: none)."""

    tools: tuple[str, ...] | None = None
    portfolios: frozenset[str] | None = None

    @classmethod
    def question(cls, tools: Iterable[str], portfolio_id: str | None) -> ToolScope:
        """A question's scope: its offered tools, and its own portfolio or none."""
        own = frozenset({portfolio_id}) if portfolio_id else frozenset()
        return cls(tuple(dict.fromkeys(tools)), own)

    def refusal(self, tool: str, known: Collection[str]) -> str | None:
        """Why a call of `tool` is refused before it runs (a tool that is not among `known`, or
        one not offered to this question), or None when it may run."""
        if tool not in known:
            valid = self.tools if self.tools is not None else known
            return f"unknown tool {tool!r}; valid tools: {', '.join(valid) or 'none'}"
        if not self.offers(tool):
            return self.not_offered(tool)
        return None

    def offers(self, tool: str) -> bool:
        return self.tools is None or tool in self.tools

    def reads(self, portfolio_id: str) -> bool:
        return self.portfolios is None or portfolio_id in self.portfolios

    def not_offered(self, tool: str) -> str:
        offered = ", ".join(self.tools or ()) or "none"
        return f"tool {tool!r} is not offered for this question; offered tools: {offered}"

    def out_of_scope(self, portfolio_id: str) -> str:
        if not self.portfolios:
            return (
                f"portfolio {portfolio_id!r} is out of scope: this question is about a ticker "
                "and reads no portfolio's holdings"
            )
        own = ", ".join(sorted(self.portfolios))
        return (
            f"portfolio {portfolio_id!r} is out of scope: this question reads portfolio {own} only"
        )


TRUSTED = ToolScope()
"""The program's own calls (the portfolio table, preflight, `nightdesk tools call`): every tool
and every portfolio. A model's calls always run under a question's scope."""
NOTHING = ToolScope(tools=(), portfolios=frozenset())
"""No tool, no portfolio: where nothing was offered."""
