/** How an MCP client reaches this site's agents: Huf's MCP endpoint and client configurations (docs/mcp-server.md). */

export const MCP_PATH = "/api/method/huf.api.mcp_server.handle";
/** What the user replaces with their API key and secret (User settings → API Access → Generate Keys). */
export const TOKEN_PLACEHOLDER = "token API_KEY:API_SECRET";

/** The endpoint's URL on this site. */
export function mcpEndpoint(origin: string = typeof window !== "undefined" ? window.location.origin : ""): string {
  return `${origin.replace(/\/+$/, "")}${MCP_PATH}`;
}

export interface ClientConfig {
  client: string;
  where: string;
  text: string;
}

/** A configuration per client for the server named `name` at `url`. */
export function clientConfigs(url: string, name = "huf"): ClientConfig[] {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      client: "Claude Code",
      where: "Run in a terminal",
      text: `claude mcp add --transport http ${name} ${url} --header "Authorization: ${TOKEN_PLACEHOLDER}"`,
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json",
      text: json({ mcpServers: { [name]: { url, headers: { Authorization: TOKEN_PLACEHOLDER } } } }),
    },
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json (through the mcp-remote bridge; needs Node.js)",
      text: json({
        mcpServers: {
          [name]: {
            command: "npx",
            args: ["-y", "mcp-remote", url, "--header", "Authorization:${HUF_AUTH}"],
            env: { HUF_AUTH: TOKEN_PLACEHOLDER },
          },
        },
      }),
    },
  ];
}
