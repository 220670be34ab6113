import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams } from "react-router-dom";
import { ActionButton, summarize } from "../components/ActionButton";
import { MasterDetail } from "../components/MasterDetail";
import { RecordEditor } from "../components/RecordEditor";
import { SecretHeaderRows } from "../components/SecretHeaderRows";
import { Badge, Toggle } from "../components/ui";
import { can, getBoot } from "../lib/boot";
import { formatDate } from "../lib/format";
import type { FieldDef } from "../lib/forms";
import type { SecretRow } from "../lib/secretRows";
import { syncMcpServerTools, testMcpConnection } from "./mcpApi";

const isStdio = (doc: Record<string, unknown>) => doc.transport_type === "stdio";
const authIn = (...types: string[]) => (doc: Record<string, unknown>) => !isStdio(doc) && types.includes(String(doc.auth_type ?? ""));

/** stdio (a server of the site config's allow-list run as a child process) is for System Managers only. */
const TRANSPORTS = getBoot().roles.includes("System Manager") ? ["http", "sse", "stdio"] : ["http", "sse"];

const FIELDS: FieldDef[] = [
  { fieldname: "server_name", label: "Server Name", type: "data", required: true, help: "Letters, digits, dots, dashes and underscores." },
  { fieldname: "server_url", label: "Server URL", type: "data", required: true, showIf: (d) => !isStdio(d), help: "For example https://mcp.example.com/mcp" },
  { fieldname: "description", label: "Description", type: "text" },
  { fieldname: "transport_type", label: "Connection type", type: "select", options: TRANSPORTS, optionLabels: { http: "HTTP (recommended)", sse: "Event stream (older servers)", stdio: "Local process (stdio)" } },
  { fieldname: "stdio_server", label: "stdio server", type: "data", required: true, showIf: isStdio, help: "A key of huf_mcp_stdio_servers in the site config, which holds the command to run." },
  { fieldname: "timeout_seconds", label: "Timeout (seconds)", type: "int" },
  { fieldname: "tool_namespace", label: "Tool name prefix", type: "data", help: "Added before the server's tool names to keep them apart." },
  {
    fieldname: "auth_type",
    label: "Authentication",
    type: "select",
    showIf: (d) => !isStdio(d),
    options: ["none", "api_key", "bearer_token", "custom_header", "oauth"],
    optionLabels: { none: "None", api_key: "API key", bearer_token: "Bearer token", custom_header: "Custom header", oauth: "OAuth (set up in the full settings)" },
  },
  { fieldname: "auth_header_name", label: "Header Name", type: "data", showIf: authIn("api_key", "custom_header") },
  { fieldname: "auth_header_value", label: "Secret", type: "password", showIf: authIn("api_key", "bearer_token", "custom_header"), help: "Stored encrypted; never shown again." },
  { fieldname: "enabled", label: "Enabled", type: "check" },
  { fieldname: "enable_auto_sync", label: "Refresh tools automatically", type: "check" },
  { fieldname: "auto_sync_interval", label: "Refresh every (hours)", type: "int", showIf: (d) => Boolean(d.enable_auto_sync) },
];

type ToolRow = { name?: string; tool_name: string; enabled: number; description?: string };

export default function McpServers() {
  const { name } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const select = (next: string | null | undefined) => navigate(next === undefined ? "/mcp" : next === null ? "/mcp/new" : `/mcp/${encodeURIComponent(next)}`);
  const selected = name === undefined ? undefined : name === "new" ? null : name;
  return (
    <MasterDetail
      doctype="MCP Server"
      title="MCP servers"
      description="Outside servers that offer extra tools to your agents."
      listFields={["enabled", "server_url", "stdio_server", "last_sync"]}
      newLabel="New MCP server"
      emptyTitle="No MCP servers yet"
      emptyDescription="Connect a server to give agents its tools."
      selected={selected}
      onSelect={select}
      renderRow={(row) => (
        <span className="flex items-center justify-between gap-2">
          <span className="min-w-0">
            <span className="block truncate font-medium">{row.name}</span>
            <span className="block truncate text-xs text-slate-500">{String(row.server_url || (row.stdio_server ? `stdio: ${row.stdio_server}` : ""))}</span>
          </span>
          <Badge>{row.enabled ? "Enabled" : "Disabled"}</Badge>
        </span>
      )}
      renderEditor={(current) => (
        <RecordEditor
          key={current ?? "new"}
          doctype="MCP Server"
          name={current}
          fields={FIELDS}
          tables={["tools", "custom_headers"]}
          nameField="server_name"
          defaults={{ server_name: "", server_url: "", transport_type: "http", timeout_seconds: 30, auth_type: "none", enabled: 1, tools: [], custom_headers: [] }}
          title={current ?? "New MCP server"}
          onSaved={(doc) => select(String(doc.name))}
          onDeleted={() => select(undefined)}
          actions={(doc) =>
            current ? (
              <>
                <ActionButton label="Test connection" action={() => testMcpConnection(current)} describe={(r) => summarize(r, "The server answered.")} />
                {can("MCP Server", "write") && (
                  <ActionButton
                    label="Sync tools"
                    action={() => syncMcpServerTools(current)}
                    describe={(r) => summarize(r, "Tools refreshed.")}
                    onDone={() => void queryClient.invalidateQueries({ queryKey: ["doc", "MCP Server", current] })}
                    disabled={!doc.enabled}
                  />
                )}
              </>
            ) : null
          }
        >
          {(doc, set, readOnly) => {
            const tools = (Array.isArray(doc.tools) ? doc.tools : []) as ToolRow[];
            return (
              <div className="space-y-4">
                {!isStdio(doc) && (
                  <SecretHeaderRows
                    title="Custom headers"
                    help="Sent with every request to this server. Values are stored encrypted and never shown again."
                    rows={(Array.isArray(doc.custom_headers) ? doc.custom_headers : []) as SecretRow[]}
                    onChange={(rows) => set("custom_headers", rows)}
                    readOnly={readOnly}
                    keyField="header_name"
                    valueField="header_value"
                  />
                )}
                <div className="space-y-2">
                  <h3 className="font-medium">Tools</h3>
                  <p className="text-xs text-slate-500">{doc.last_sync ? `Last refreshed ${formatDate(doc.last_sync)}` : "Not refreshed yet. Use “Sync tools” to fetch the server's tools."}</p>
                  {tools.length === 0 ? (
                    <p className="text-sm text-slate-500">No tools yet.</p>
                  ) : (
                    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
                      {tools.map((t, i) => (
                        <li key={t.name ?? t.tool_name} className="flex items-start justify-between gap-3 py-2">
                          <span className="min-w-0">
                            <span className="block font-medium">{t.tool_name}</span>
                            <span className="block text-xs text-slate-500">{t.description}</span>
                          </span>
                          <Toggle
                            checked={Boolean(t.enabled)}
                            label="Enabled"
                            disabled={readOnly}
                            onChange={(v) => set("tools", tools.map((r, j) => (j === i ? { ...r, enabled: v ? 1 : 0 } : r)))}
                          />
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </div>
            );
          }}
        </RecordEditor>
      )}
    />
  );
}
