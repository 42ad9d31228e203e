"""The vocabulary every room shares: the trace, reason codes, errors, tool outcomes and traits.

It depends on nothing of the project; every other package may depend on it.

JSON boundaries: a question's data stays typed from the loop's `Trace` through the verifier's
`Verdict` to `flows.publish.records.QuestionRecord` and, after a night, `flows.publish.cases.
ReviewCase` (the review page, its state, reruns and `nightdesk review` read those models).
`dict[str, Any]` is kept to the places where data is JSON by nature or leaves the process:
- the verifier's JSON door: `verifier.verify.verify_json` and `nightdesk verify`
  (`verifier.trace_files`) parse a decoded trace once, into `verifier.trace_view.TraceView`;
  `verify` itself takes the loop's `Trace`;
- the files a night writes and reads back: case files (`ReviewCase`, written and validated by
  pydantic), `rejected/index.jsonl`, the manifest and its counts (`flows.night.outputs`, read by
  `flows.publish.cases.read_manifest`), the reports' evidence, the ticker store and shards;
- a tool's arguments and results (`contract.tools`, `tools/`, `ToolEvent.args`/`result`);
- a provider's wire format: request and response bodies, JSON schemas (`agent/providers`,
  `agent.structured`, `agent.prompts`);
- Prefect's side: flow parameters and results, the run options' form (`flows.run.options`,
  `flows.night`);
- the values a Jinja template lays out (`flows.review.page`, `flows.publish.view`).
"""
