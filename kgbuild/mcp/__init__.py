"""`kgbuild mcp`: the project's graph and query engine as a Model Context Protocol server (docs/mcp.md).

The modules, each for one job:

- `project`: the opened engine and its explorer, set aside while a build writes;
- `read_tools`: the read-only tools (search, entity, neighbourhood, triples, passages, retrieve, answer,
  strategies, schema, stats) over the explorer's queries and the engine;
- `build_tools`: build and remove, only with `--allow-build`;
- `triples`, `schema_view`, `records`: the triple pattern filter, the schema as a record, the records
  the explorer has no shape for;
- `resources`: the schema YAML, the last build report, the grounding prompt;
- `publish`: a tool function -> an SDK tool with the output schema of what it sends;
- `failures`: user mistakes as tool errors carrying the CLI's one line;
- `server`: the SDK server and its two transports; `stdout_guard`: stdout kept for the protocol.
"""
