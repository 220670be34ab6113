import { Card } from "../components/ui";
import { CopyButton } from "../flows/CopyButton";
import { clientConfigs, mcpEndpoint } from "./mcpConnect";

/** Agents page: this site's MCP endpoint and how Claude Code, Cursor and Claude Desktop connect to it. */
export function McpConnectPanel() {
  const url = mcpEndpoint();
  return (
    <Card className="mt-4">
      <details data-testid="mcp-connect">
        <summary className="cursor-pointer font-semibold">Use these agents from an MCP client</summary>
        <div className="mt-3 space-y-3 text-sm">
          <p className="text-slate-600 dark:text-slate-300">
            Each agent you may run is a tool <code>ask_&lt;agent&gt;</code> of this site's MCP server; the runs are yours, with your permissions and
            approvals. Sign in with your API key and secret (your user settings → API Access → Generate Keys).
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">Endpoint</span>
            <code className="break-all rounded bg-slate-100 px-2 py-1 dark:bg-slate-800" data-testid="mcp-endpoint">
              {url}
            </code>
            <CopyButton text={url} label="Copy the MCP endpoint" />
          </div>
          {clientConfigs(url).map((config) => (
            <section key={config.client} aria-label={`${config.client} configuration`} className="space-y-1">
              <div className="flex items-center justify-between gap-2">
                <span>
                  <span className="font-medium">{config.client}</span> <span className="text-slate-500">{config.where}</span>
                </span>
                <CopyButton text={config.text} label={`Copy the ${config.client} configuration`} />
              </div>
              <pre className="overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">{config.text}</pre>
            </section>
          ))}
        </div>
      </details>
    </Card>
  );
}
