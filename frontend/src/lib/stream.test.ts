import { afterEach, describe, expect, it, vi } from "vitest";
import { CONNECTION_LOST, FrameParser, RECONNECT_DELAYS, frameId, parseFrame, streamAgent, type StreamEvent } from "./stream";

describe("FrameParser", () => {
  it("returns whole events only, across arbitrary chunk boundaries", () => {
    const parser = new FrameParser();
    const wire = 'data: {"type":"delta","content":"Hel"}\n\ndata: {"type":"delta","content":"lo"}\n\ndata: {"type":"complete","full_response":"Hello"}\n\n';
    const events = [];
    for (let i = 0; i < wire.length; i += 7) events.push(...parser.push(wire.slice(i, i + 7)));
    expect(events).toEqual([
      { type: "delta", content: "Hel" },
      { type: "delta", content: "lo" },
      { type: "complete", full_response: "Hello" },
    ]);
  });

  it("accepts CRLF line ends, and keeps a partial frame until it is complete", () => {
    const parser = new FrameParser();
    expect(parser.push('data: {"type":"error","content":"No key"}\r\n')).toEqual([]);
    expect(parser.push("\r\n")).toEqual([{ type: "error", content: "No key" }]);
  });

  it("ignores comments, unknown event types and broken JSON", () => {
    const parser = new FrameParser();
    const events = parser.push(': keep-alive\n\ndata: {"type":"surprise"}\n\ndata: {not json\n\ndata: {"type":"run_status","status":"Started","agent_run_id":"R1"}\n\n');
    expect(events).toEqual([{ type: "run_status", status: "Started", agent_run_id: "R1" }]);
  });

  it("flushes a last frame without its blank line", () => {
    const parser = new FrameParser();
    expect(parser.push('data: {"type":"delta","content":"x"}')).toEqual([]);
    expect(parser.flush()).toEqual([{ type: "delta", content: "x" }]);
  });

  it("passes content_block frames with a valid block and drops malformed ones", () => {
    const block = { type: "table", columns: ["A"], rows: [["x"]] };
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 0, block })}`)).toEqual({ type: "content_block", index: 0, block });
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: -1, block })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 0, block: { type: "video" } })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ type: "content_block", index: 1 })}`)).toBeNull();
  });

  it("joins multi-line data fields", () => {
    expect(parseFrame('data: {"type":"delta",\ndata: "content":"a"}')).toEqual({ type: "delta", content: "a" });
  });

  it("passes the approval_required frame that ends a run waiting for an approver, and drops one without its tool", () => {
    const parser = new FrameParser();
    const wait = { type: "approval_required", approval_id: "TA-1", tool_name: "create_todo", agent_run_id: "R1", content: "The run waits for an approver to allow the call of create_todo." };
    const wire = `data: {"type":"run_status","status":"Waiting Approval","agent_run_id":"R1"}\n\ndata: ${JSON.stringify(wait)}\n\n`;
    expect(parser.push(wire)).toEqual([{ type: "run_status", status: "Waiting Approval", agent_run_id: "R1" }, wait]);
    expect(parseFrame(`data: ${JSON.stringify({ ...wait, tool_name: undefined })}`)).toBeNull();
    expect(parseFrame(`data: ${JSON.stringify({ ...wait, agent_run_id: null })}`)).toBeNull();
  });
});

describe("numbered frames", () => {
  it("gives each event the id of its frame", () => {
    const parser = new FrameParser();
    const wire = 'retry: 2000\n\nid: 1\ndata: {"type":"delta","content":"a"}\n\ndata: {"type":"delta","content":"b"}\n\nid: 3\ndata: {"type":"delta","content":"c"}';
    expect(parser.pushNumbered(wire)).toEqual([
      { id: 1, event: { type: "delta", content: "a" } },
      { id: null, event: { type: "delta", content: "b" } },
    ]);
    expect(parser.flushNumbered()).toEqual([{ id: 3, event: { type: "delta", content: "c" } }]);
    expect(frameId("id: x\ndata: {}")).toBeNull();
  });
});

/** A streaming Response whose body sends `frames` and then ends, or breaks (`broken`) like a lost connection. */
function sse(frames: string[], broken = false): Response {
  const rest = [...frames];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 5)); // the reader takes each frame before the next step
      const next = rest.shift();
      if (next !== undefined) controller.enqueue(new TextEncoder().encode(next));
      else if (broken) controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

const frame = (id: number, event: object) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
const queued = { type: "run_status", status: "Queued", agent_run_id: "R1" };
const delta = (content: string) => ({ type: "delta", content });
const complete = { type: "complete", full_response: "Hello world", agent_run_id: "R1" };

describe("streamAgent reads a run on after a broken connection", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("reconnects with Last-Event-ID and delivers every event once", async () => {
    const calls: Array<{ url: string; init?: RequestInit }> = [];
    const replies = [
      sse([frame(1, queued), frame(2, delta("Hel")), frame(3, delta("lo"))], true),
      // the server replays from the id it was given; an event seen before is skipped all the same
      sse([frame(3, delta("lo")), frame(4, delta(" world")), frame(5, complete)]),
    ];
    vi.stubGlobal("fetch", vi.fn(async (url: string, init?: RequestInit) => (calls.push({ url, init }), replies.shift()!)));
    const events: StreamEvent[] = [];
    await streamAgent({ agent: "My Agent", prompt: "Hi", onEvent: (e) => events.push(e) });
    const text = events.filter((e) => e.type === "delta").map((e) => (e as { content: string }).content).join("");
    expect(text).toBe("Hello world");
    expect(events.filter((e) => e.type === "complete")).toHaveLength(1);
    expect(calls[0]!.init?.method).toBe("POST");
    expect(calls[1]!.url).toBe("/huf/stream/My%20Agent?run=R1");
    expect(calls[1]!.init?.method).toBe("GET");
    expect((calls[1]!.init?.headers as Record<string, string>)["Last-Event-ID"]).toBe("3");
  });

  it("keeps trying while the server cannot be reached, and gives up with a clear message", async () => {
    vi.useFakeTimers();
    try {
      let resumes = 0;
      vi.stubGlobal(
        "fetch",
        vi.fn(async (_url: string, init?: RequestInit) => {
          if (init?.method === "POST") return sse([frame(1, queued), frame(2, delta("Hel"))], true);
          resumes += 1;
          throw new TypeError("Failed to fetch");
        }),
      );
      const done = streamAgent({ agent: "A", prompt: "Hi", onEvent: () => undefined }).catch((e: Error) => e.message);
      await vi.runAllTimersAsync();
      expect(await done).toBe(CONNECTION_LOST);
      expect(resumes).toBe(RECONNECT_DELAYS.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends quietly when reading on brings nothing more, and a refusal ends with its message", async () => {
    const replies = [sse([frame(1, queued), frame(2, delta("Hel"))]), sse([])];
    vi.stubGlobal("fetch", vi.fn(async () => replies.shift()!));
    const events: StreamEvent[] = [];
    await streamAgent({ agent: "A", prompt: "Hi", onEvent: (e) => events.push(e) });
    expect(events).toHaveLength(2);

    const refused = [sse([frame(1, queued)], true), new Response(JSON.stringify({ message: "Agent Run not found or access denied." }), { status: 403 })];
    vi.stubGlobal("fetch", vi.fn(async () => refused.shift()!));
    await expect(streamAgent({ agent: "A", prompt: "Hi", onEvent: () => undefined })).rejects.toThrow("Agent Run not found or access denied.");
  });

  it("Stop cancels the run, since the server runs on without its client", async () => {
    const controller = new AbortController();
    const posts: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        posts.push(`${init?.method} ${url} ${String(init?.body ?? "")}`);
        if (url.startsWith("/huf/stream/")) {
          const body = new ReadableStream<Uint8Array>({
            start(stream) {
              stream.enqueue(new TextEncoder().encode(frame(1, queued)));
              init?.signal?.addEventListener("abort", () => stream.error(new DOMException("aborted", "AbortError")));
            },
          });
          return new Response(body, { status: 200 });
        }
        return new Response(JSON.stringify({ message: {} }), { status: 200 });
      }),
    );
    const run = streamAgent({ agent: "A", prompt: "Hi", signal: controller.signal, onEvent: () => controller.abort() });
    await expect(run).rejects.toThrow();
    await vi.waitFor(() => expect(posts.some((p) => p.startsWith("POST /api/method/huf.api.runs.cancel_agent_run") && p.includes('"run_id":"R1"'))).toBe(true));
  });

  it("Stop before the run is known cancels it as soon as its first event names it, and delivers only that", async () => {
    const controller = new AbortController();
    const posts: string[] = [];
    let release: () => void = () => undefined;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        posts.push(`${init?.method} ${url} ${String(init?.body ?? "")}`);
        if (!url.startsWith("/huf/stream/")) return new Response(JSON.stringify({ message: {} }), { status: 200 });
        const body = new ReadableStream<Uint8Array>({
          start(stream) {
            release = () => stream.enqueue(new TextEncoder().encode(frame(1, queued)));
            init?.signal?.addEventListener("abort", () => stream.error(new DOMException("aborted", "AbortError")));
          },
        });
        return new Response(body, { status: 200 });
      }),
    );
    const events: StreamEvent[] = [];
    const run = streamAgent({ agent: "A", prompt: "Hi", signal: controller.signal, onEvent: (e) => events.push(e) });
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    controller.abort(); // Stop, before the server's first frame
    release();
    await expect(run).rejects.toThrow("stopped");
    expect(events).toEqual([queued]); // the run it names, nothing more
    await vi.waitFor(() => expect(posts.some((p) => p.startsWith("POST /api/method/huf.api.runs.cancel_agent_run") && p.includes('"run_id":"R1"'))).toBe(true));
  });
});
