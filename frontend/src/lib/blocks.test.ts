import { describe, expect, it } from "vitest";
import { chartConfig, chartSummary, deltaDirection, formatCell, hideBlockSources, isBlock, parseBlocks, statusTone, withBlock, type ChartBlock } from "./blocks";

const table = { type: "table", title: "Orders", columns: ["Order", "Total"], rows: [["SO-1", 12.5]] };
const chart: ChartBlock = {
  type: "chart",
  kind: "bar",
  title: "Sales",
  labels: ["Jan", "Feb", "Mar"],
  series: [{ name: "2025", data: [10, 30, null] }, { data: [5, 4, 3] }],
};

describe("parseBlocks", () => {
  it("reads the stored JSON string or a list, and nothing else", () => {
    expect(parseBlocks(JSON.stringify([table]))).toEqual([table]);
    expect(parseBlocks([table, { type: "markdown", text: "x", fallback: "why" }])).toHaveLength(2);
    expect(parseBlocks(null)).toBeNull();
    expect(parseBlocks("[]")).toBeNull();
    expect(parseBlocks("{not json")).toBeNull();
    // a list with a block of an unknown type or a broken shape is not rendered as blocks
    expect(parseBlocks([table, { type: "video" }])).toBeNull();
    expect(parseBlocks([{ type: "table", columns: ["A"], rows: "x" }])).toBeNull();
  });

  it("checks the shape each renderer relies on", () => {
    expect(isBlock({ type: "kpi", label: "Revenue", value: 3 })).toBe(true);
    expect(isBlock({ type: "kpi", label: "Revenue", value: { n: 3 } })).toBe(false);
    expect(isBlock({ type: "chart", kind: "pie", labels: ["a"], series: [{ data: [1] }] })).toBe(true);
    expect(isBlock({ type: "chart", kind: "pie", labels: ["a"], series: [{}] })).toBe(false);
    expect(isBlock({ type: "status_list", items: [] })).toBe(true);
    expect(isBlock({ type: "markdown" })).toBe(false);
  });
});

describe("hideBlockSources", () => {
  it("replaces closed and still-open huf-block fences with a note while the answer streams", () => {
    const text = 'Here:\n```huf-block\n{"type": "kpi"}\n```\nMore text\n```huf-block\n{"type": "tab';
    const shown = hideBlockSources(text);
    expect(shown).not.toContain('"type"');
    expect(shown.match(/Preparing a block…/g)).toHaveLength(2);
    expect(shown).toContain("Here:");
    expect(shown).toContain("More text");
  });

  it("leaves other code blocks and plain text alone", () => {
    const text = "```python\nprint(1)\n```\nok";
    expect(hideBlockSources(text)).toBe(text);
  });
});

describe("withBlock", () => {
  it("places blocks by their index, whatever order they arrive in", () => {
    const md = { type: "markdown" as const, text: "a" };
    const blocks = withBlock(withBlock(undefined, 1, md), 0, table as never);
    expect(blocks).toEqual([table, md]);
  });
});

describe("block helpers", () => {
  it("maps status words to tones", () => {
    expect(statusTone("OK")).toBe("ok");
    expect(statusTone("Failed")).toBe("error");
    expect(statusTone("degraded")).toBe("warning");
    expect(statusTone("running")).toBe("info");
    expect(statusTone("whatever")).toBe("neutral");
  });

  it("reads the direction of a KPI's change", () => {
    expect(deltaDirection("+4%")).toBe("up");
    expect(deltaDirection(-12)).toBe("down");
    expect(deltaDirection("−3 pts")).toBe("down");
    expect(deltaDirection("0")).toBe("flat");
    expect(deltaDirection("n/a")).toBeNull();
    expect(deltaDirection(undefined)).toBeNull();
  });

  it("formats cells", () => {
    expect(formatCell(null)).toBe("");
    expect(formatCell(true)).toBe("Yes");
    expect(formatCell("x")).toBe("x");
  });

  it("describes a chart in words (its text alternative)", () => {
    expect(chartSummary(chart)).toBe("Bar chart: Sales, 3 labels; 2025: highest 30 at Feb; Series 2: highest 5 at Jan.");
    expect(chartSummary({ type: "chart", kind: "pie", labels: ["a"], series: [{ data: [null] }] })).toBe("Pie chart, 1 label; Series 1: no values.");
  });

  it("configures Chart.js for the theme: axes for bar and line, one colour per slice for pie", () => {
    const light = chartConfig(chart, false);
    expect(light.type).toBe("bar");
    expect(light.data.datasets.map((d) => d.label)).toEqual(["2025", "Series 2"]);
    expect(light.options.plugins.legend.display).toBe(true);
    expect(Object.keys(light.options.scales)).toEqual(["x", "y"]);
    const dark = chartConfig(chart, true);
    expect(dark.options.plugins.legend.labels.color).not.toBe(light.options.plugins.legend.labels.color);
    const pie = chartConfig({ type: "chart", kind: "pie", labels: ["a", "b", "c"], series: [{ data: [1, 2, 3] }] }, false);
    expect(pie.options.scales).toEqual({});
    expect(new Set(pie.data.datasets[0]!.backgroundColor as string[]).size).toBe(3);
  });
});
