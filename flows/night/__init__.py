"""The night as Prefect runs it: the flow, the ticker task, the fan-out, shards, the deployment,
artifacts, and running it from a shell with its temporary server. The only Prefect code."""
