"""Reports with the analyst's decisions applied.

A withheld answer whose case was approved is shown with its draft, marked analyst-approved with
the note; a re-asked case whose new attempt the verifier accepted shows the new answer; a
rejected or undecided case stays withheld with its reason. A decision holds only for the draft
the analyst read: when a later run rewrote the case, the decision no longer applies.
Applying is idempotent: every answer that points at a case is derived from the case again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from contract.errors import InputError
from flows.publish.cases import ReviewCase, load_cases, load_reruns
from flows.publish.layout import RunLayout, read_owned
from flows.publish.report import Answer, PortfolioReport, evidence_of
from flows.review.decisions import Decision, digest_draft, latest_decisions, read_decisions


@dataclass
class ReviewState:
    """A run's cases, re-asked attempts and decisions, read once.

    Commands load it strictly (a damaged decision log is an error); the nightly publisher and the
    review page load it leniently: the night is still published, without decisions, and the
    page says in a banner why none are applied.
    """

    cases: dict[str, ReviewCase] = field(default_factory=dict)
    reruns: dict[str, ReviewCase] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)
    problem: str | None = None

    @classmethod
    def load(cls, layout: RunLayout, *, strict: bool = True) -> ReviewState:
        state = cls(cases={c.case_id: c for c in load_cases(layout)}, reruns=load_reruns(layout))
        try:
            state.decisions = read_decisions(layout)
        except InputError as exc:
            if strict:
                raise
            state.problem = f"{exc.message}; no decision is applied until it is repaired"
        return state

    @property
    def latest(self) -> dict[str, Decision]:
        return latest_decisions(self.decisions)

    def decision_for(self, case: ReviewCase) -> Decision | None:
        """The decision in force, if it was made on this very draft."""
        decision = self.latest.get(case.case_id)
        if decision is None or decision.draft_digest != digest_draft(case.draft):
            return None
        return decision

    def apply(self, report: PortfolioReport) -> PortfolioReport:
        """The report with every case-backed answer derived from its case and decision; `report`
        is left as it is (its answers are shared, never changed: a new one replaces one)."""
        sections = [
            section.model_copy(
                update={
                    "answers": [self.review_answer(a) for a in section.answers],
                    "summary": self.review_answer(section.summary) if section.summary else None,
                }
            )
            for section in report.tickers
        ]
        return report.model_copy(update={"tickers": sections})

    def review_answer(self, answer: Answer) -> Answer:
        case = self.cases.get(answer.case_id or "")
        if case is None:
            return answer
        withheld = Answer(
            question_id=answer.question_id,
            kind=answer.kind,
            question=answer.question,
            status="withheld",
            reason=case.reason,
            case_id=case.case_id,
        )
        decision = self.decision_for(case)
        if decision is None:
            return withheld
        if decision.action == "approve":
            note = f"analyst-approved by {decision.by}: {decision.note}"
            return withheld.model_copy(
                update={
                    "status": "approved",
                    "answer": case.draft,
                    "reason": None,
                    "note": note,
                    "evidence": evidence_of(case.trace),
                }
            )
        attempt = self.reruns.get(decision.rerun_case or "")
        if attempt is not None and attempt.rerun_of != case.case_id:
            attempt = None  # another case's answer is never shown for this one
        if decision.action == "rerun" and attempt is not None and attempt.status == "accepted":
            note = f"re-asked as {attempt.case_id} and verified; {decision.by}: {decision.note}"
            return withheld.model_copy(
                update={
                    "status": "accepted",
                    "answer": attempt.draft,
                    "reason": None,
                    "note": note,
                    "evidence": evidence_of(attempt.trace),
                }
            )
        if decision.action == "rerun":
            reason = attempt.reason if attempt is not None else "rerun missing"
            return withheld.model_copy(
                update={"note": f"re-asked as {decision.rerun_case}: still withheld ({reason})"}
            )
        return withheld.model_copy(
            update={"note": f"analyst-rejected by {decision.by}: {decision.note}"}
        )


def load_reports(layout: RunLayout) -> list[PortfolioReport]:
    reports = []
    for path in sorted(layout.accepted.glob("*.json")):
        try:
            reports.append(PortfolioReport.model_validate_json(read_owned(path)))
        except (OSError, ValidationError) as exc:
            first = str(exc).splitlines()[0]
            raise InputError(
                f"report {path} is unreadable ({first}); run the night again"
            ) from None
    return reports
