import { describe, expect, it } from "vitest";
import type { FlowRunView } from "./flowApi";
import { pollInterval, showValue, stepRun } from "./runState";

function run(overrides: Partial<FlowRunView>): FlowRunView {
  return {
    flow_run_id: "r1",
    flow_id: "f",
    flow_version: 1,
    mode: "Normal",
    status: "Running",
    trigger_type: "Manual",
    user: "a@x.com",
    current_node_id: null,
    hop_count: 0,
    max_hops: 100,
    context: {},
    result: null,
    waiting: null,
    last_error: null,
    errors: {},
    started_at: null,
    completed_at: null,
    agent_runs: [],
    ...overrides,
  };
}

describe("stepRun", () => {
  it("shows the current step as running, or waiting while the run waits", () => {
    expect(stepRun(run({ current_node_id: "ask" }), "ask").status).toBe("current");
    expect(stepRun(run({ status: "Waiting Approval", current_node_id: "ok" }), "ok").status).toBe("waiting");
    expect(stepRun(undefined, "ask").status).toBe("idle");
  });

  it("shows finished steps with their output, error and Agent Runs, and steps not run", () => {
    const view = run({
      status: "Failed",
      current_node_id: "ask",
      context: { nodes: { hook: { status: "success", output: { a: 1 } }, ask: { status: "failure", output: null, error: "boom" } } },
      errors: { ask: "The agent failed: boom" },
      agent_runs: [
        { name: "AR1", flow_node_id: "ask", agent: "Helper", run_kind: "agent", status: "Failed", start_time: "2026-01-01 10:00:00", end_time: "2026-01-01 10:00:02.5", total_tokens: 3, total_cost: 0, error_message: "boom" },
        { name: "AR2", flow_node_id: "other", agent: "Helper", run_kind: "agent", status: "Success", start_time: null, end_time: null, total_tokens: 0, total_cost: 0, error_message: null },
      ],
    });
    expect(stepRun(view, "hook")).toMatchObject({ status: "success", entry: { output: { a: 1 } }, agentRuns: [] });
    const ask = stepRun(view, "ask");
    expect(ask).toMatchObject({ status: "failure", error: "The agent failed: boom", seconds: 2.5 });
    expect(ask.agentRuns.map((r) => r.name)).toEqual(["AR1"]);
    expect(stepRun(view, "end").status).toBe("idle");
  });

  it("prefers the step's own timing when the run has it", () => {
    const view = run({ status: "Success", context: { nodes: { t: { status: "success", duration_ms: 1500 }, u: { status: "success", started_at: "2026-01-01 10:00:00", finished_at: "2026-01-01 10:00:04" } } } });
    expect(stepRun(view, "t").seconds).toBe(1.5);
    expect(stepRun(view, "u").seconds).toBe(4);
  });
});

describe("polling and values", () => {
  it("polls live runs every second, waiting runs less often, finished runs never", () => {
    expect(pollInterval("Queued")).toBe(1000);
    expect(pollInterval("Running")).toBe(1000);
    expect(pollInterval("Waiting Approval")).toBe(3000);
    expect(pollInterval("Success")).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
  });

  it("shows text as it is and other values as JSON", () => {
    expect(showValue("hi")).toBe("hi");
    expect(showValue({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(showValue(undefined)).toBe("");
  });
});
