import { describe, expect, it } from "vitest";
import type { FlowRunTimeline } from "./flowApi";
import { formatLatency, timelineRows } from "./timeline";

const run: FlowRunTimeline = {
  flow_run_id: "r1",
  flow_id: "f",
  flow_name: "F",
  status: "Success",
  trigger_type: "Manual",
  user: "a@example.com",
  hop_count: 2,
  current_node_id: "done",
  last_error: null,
  started_at: "2026-01-01 10:00:00",
  completed_at: "2026-01-01 10:00:10",
  duration_ms: 10000,
  cancelled_by: null,
  cancelled_at: null,
  can_cancel: false,
  total_cost: 0.01,
  total_tokens: 30,
  steps: [
    { node_id: "start", label: "Start", type: "trigger.webhook", status: "success", started_at: "2026-01-01 10:00:00", finished_at: "2026-01-01 10:00:00.000001", duration_ms: 0, agent_runs: [] },
    {
      node_id: "ask",
      label: "Ask",
      type: "agent.run",
      status: "success",
      started_at: "2026-01-01 10:00:01",
      finished_at: "2026-01-01 10:00:10",
      duration_ms: 9000,
      agent_runs: [
        {
          name: "ar1",
          agent: "Helper",
          run_kind: "agent",
          status: "Success",
          start_time: "2026-01-01 10:00:01",
          end_time: "2026-01-01 10:00:10",
          duration_ms: 9000,
          total_tokens: 30,
          total_cost: 0.01,
          error_message: null,
          spans: [
            { kind: "llm", name: "LLM call", status: "success", started_at: "2026-01-01 10:00:01", finished_at: "2026-01-01 10:00:06", duration_ms: 5000 },
            { kind: "tool", name: "todo", status: "success", started_at: "2026-01-01 10:00:06", finished_at: "2026-01-01 10:00:07", duration_ms: 1000 },
          ],
        },
      ],
    },
  ],
};

describe("timelineRows", () => {
  it("puts steps, agent runs and calls on one axis from the run's start to its end", () => {
    const rows = timelineRows(run, Date.now());
    expect(rows.map((r) => [r.kind, r.depth, r.label])).toEqual([
      ["step", 0, "Start"],
      ["step", 0, "Ask"],
      ["agent", 1, "Agent run of Helper"],
      ["llm", 2, "LLM call"],
      ["tool", 2, "Tool todo"],
    ]);
    expect(rows[0]).toMatchObject({ offset: 0, width: 0.5 });
    const [, ask, , llm, tool] = rows.map((r) => ({ offset: r.offset, width: r.width }));
    expect(ask?.offset).toBeCloseTo(10);
    expect(ask?.width).toBeCloseTo(90);
    expect(llm?.width).toBeCloseTo(50);
    expect(tool?.offset).toBeCloseTo(60);
    expect(tool?.width).toBeCloseTo(10);
  });

  it("runs the axis to now while the run goes on", () => {
    const first = { ...run.steps[0]!, finished_at: null, status: "running" };
    const live: FlowRunTimeline = { ...run, status: "Running", completed_at: null, steps: [first] };
    const now = new Date("2026-01-01T10:00:04").getTime();
    const [row] = timelineRows(live, now);
    expect(row?.width).toBeCloseTo(100);
  });
});

describe("formatLatency", () => {
  it("reads as ms, s or min", () => {
    expect([formatLatency(850), formatLatency(1250), formatLatency(125000), formatLatency(null)]).toEqual(["850 ms", "1.25 s", "2 min 05 s", "—"]);
  });
});
