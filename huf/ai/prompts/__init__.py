"""The prompt library: versions, forks, attaching templates to agents, history and "used by" (docs/prompts.md)."""
