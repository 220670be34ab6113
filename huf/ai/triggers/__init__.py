"""Agent Triggers: what starts an agent run without a person typing a prompt.

| module | owns |
| --- | --- |
| `common` | who a trigger's run acts as (Run As, else the owner, checked each run), disabling a trigger, queueing its run, which conversation it continues |
| `doc_events` | Doc Event triggers: matching a saved document, conditions, the prompt built from the document, its files, queued or after the save, once per 30 s |
| `app_events` | App Event triggers: `huf.fire_app_event(app, event, payload)` |
| `webhooks` | Webhook triggers: key check, rate limit, payload templates |
| `schedule` | Schedule triggers: due runs without drift, backoff, auto-disable |
| `run_now` | a trigger's run started by hand (Desk, dashboard) |
| `listing` | an agent's triggers as the dashboard lists them, with their state |
| `webhook_keys` | a Webhook trigger's URL, and its key shown once or replaced |

Their endpoints are in `huf.api.triggers`. May import: `huf.ai.runtime` (to queue runs) and the layers
below it, `huf.huf` helpers. Never the entry modules of `huf.ai`, `huf.api` nor DocType controllers
(the Agent Trigger controller imports from here).
"""
