import { afterEach, describe, expect, it } from "vitest";
import { setFetch } from "../lib/api";
import { createVersion, detachAgent, forkTemplate, KINDS, listTemplates, saveAgentAsTemplate, versionHistory } from "./promptApi";

type Sent = { url: string; method: string; body: unknown };

function fakeServer(answer: unknown): Sent[] {
  const sent: Sent[] = [];
  setFetch(async (url, init) => {
    sent.push({ url, method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify({ message: answer }), { status: 200, headers: { "Content-Type": "application/json" } });
  });
  return sent;
}

afterEach(() => setFetch((input, init) => fetch(input, init)));

const fields = { title: "Support", category: "", visibility: "Public", description: "Polite", prompt_body: "Be kind." };

describe("prompt API", () => {
  it("lists the templates of each kind through list_prompts", async () => {
    const sent = fakeServer([]);
    await listTemplates(KINDS.summary);
    expect(sent[0]).toMatchObject({ url: "/api/method/huf.api.prompts.list_prompts?kind=summary", method: "GET" });
  });

  it("uses the summary twins for summary prompts", async () => {
    const sent = fakeServer({ name: "p2", version: 2 });
    expect(await createVersion(KINDS.summary, "p1", fields)).toBe("p2");
    expect(sent[0]).toEqual({
      url: "/api/method/huf.ai.prompt_api.create_new_summary_version",
      method: "POST",
      body: { prompt_name: "p1", prompt_body: "Be kind.", title: "Support", description: "Polite" },
    });
    await forkTemplate(KINDS.prompt, "p1", "Mine");
    expect(sent[1]).toMatchObject({ url: "/api/method/huf.ai.prompt_api.fork_prompt", body: { prompt_name: "p1", title: "Mine" } });
    await detachAgent(KINDS.summary, "Agent A");
    expect(sent[2]).toMatchObject({ url: "/api/method/huf.ai.prompt_api.detach_from_summary_template", body: { agent_name: "Agent A" } });
  });

  it("sorts the history newest first and reads the saved template's name", async () => {
    fakeServer([{ name: "a", version: 1 }, { name: "c", version: 3 }, { name: "b", version: 2 }]);
    expect((await versionHistory(KINDS.prompt, "a")).map((v) => v.name)).toEqual(["c", "b", "a"]);
    const sent = fakeServer({ prompt: { name: "new1", version: 1 }, agent: { mode: "Template" } });
    expect(await saveAgentAsTemplate(KINDS.prompt, "Agent A", { title: "T", category: "", visibility: "Private", description: "" })).toBe("new1");
    expect(sent[0]).toMatchObject({ url: "/api/method/huf.ai.prompt_api.save_as_template", body: { agent_name: "Agent A", title: "T", visibility: "Private" } });
  });
});
