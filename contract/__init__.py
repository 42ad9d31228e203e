"""The vocabulary every room shares: the trace, reason codes, errors, tool outcomes and traits.

It depends on nothing of the project; every other package may depend on it.

JSON boundaries: inside a run a question's data stays typed, from the loop's `Trace` through the
verifier's `Verdict` to `flows.publish.records.QuestionRecord`. It becomes JSON (plain
dicts) only where it leaves the process or a file is read back:
- the verifier's input (`verifier.verify` reads the serialised trace, as `nightdesk verify` does);
- the files a night writes (`flows.night.publish`: case files, `rejected/index.jsonl`, the
  manifest; `flows.publish.render`: the reports) and the ticker store and shards that hold
  `TickerResult`s between runs (pydantic writes and reads those back as models);
- the files read back for review and reruns (`flows.publish.cases.ReviewCase` holds a case
  file's `trace` and `verdict` as written);
- a tool's arguments and results, which are JSON by nature (`contract.tools`).
"""
