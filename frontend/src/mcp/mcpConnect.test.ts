import { describe, expect, it } from "vitest";
import { clientConfigs, mcpEndpoint } from "./mcpConnect";

describe("mcpConnect", () => {
  it("puts the endpoint on the site's origin", () => {
    expect(mcpEndpoint("https://erp.example.com/")).toBe("https://erp.example.com/api/method/huf.api.mcp_server.handle");
  });

  it("gives each client the endpoint and the token header", () => {
    const url = mcpEndpoint("https://erp.example.com");
    const configs = clientConfigs(url);
    expect(configs.map((c) => c.client)).toEqual(["Claude Code", "Cursor", "Claude Desktop"]);
    for (const config of configs) {
      expect(config.text).toContain(url);
      expect(config.text).toContain("token API_KEY:API_SECRET");
    }
    expect(JSON.parse(configs[1]!.text).mcpServers.huf.headers.Authorization).toBe("token API_KEY:API_SECRET");
    expect(JSON.parse(configs[2]!.text).mcpServers.huf.args).toContain("Authorization:${HUF_AUTH}");
  });
});
