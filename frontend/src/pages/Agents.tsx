import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Badge, EmptyState, ErrorBanner, Input, PageHeader, Spinner, Table } from "../components/ui";
import { errorMessage, getList } from "../lib/api";
import { can } from "../lib/boot";
import { formatDate } from "../lib/format";
import { McpConnectPanel } from "../mcp/McpConnectPanel";

interface AgentRow {
  name: string;
  description: string | null;
  provider: string;
  model: string;
  disabled: number;
  allow_chat: number;
  last_run: string | null;
}

export default function Agents() {
  const [search, setSearch] = useState("");
  const { data, isLoading, error } = useQuery({
    queryKey: ["list", "Agent"],
    queryFn: () =>
      getList<AgentRow>("Agent", {
        fields: ["name", "description", "provider", "model", "disabled", "allow_chat", "last_run"],
        order_by: "modified desc",
        limit: 500,
      }),
  });
  const term = search.trim().toLowerCase();
  const rows = (data ?? []).filter(
    (r) => !term || r.name.toLowerCase().includes(term) || (r.description ?? "").toLowerCase().includes(term),
  );
  const newButton = can("Agent", "create") ? (
    <Link to="/agents/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
      New agent
    </Link>
  ) : null;

  return (
    <div>
      <PageHeader title="Agents" description="Assistants with their own instructions, model and tools." actions={newButton} />
      <div className="mb-3 max-w-sm">
        <Input type="search" placeholder="Search agents…" aria-label="Search agents" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {error && <ErrorBanner message={errorMessage(error)} />}
      {isLoading ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState
          title={term ? "No agents match your search" : "No agents yet"}
          description={term ? "Try another name." : "Create an agent to start chatting with it."}
          action={term ? undefined : newButton}
        />
      ) : (
        <Table head={["Agent", "Model", "Status", "Last run", ""]}>
          {rows.map((r) => (
            <tr key={r.name} data-testid="agent-row">
              <td className="px-3 py-2">
                <Link className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" to={`/agents/${encodeURIComponent(r.name)}`}>
                  {r.name}
                </Link>
                {r.description && <p className="line-clamp-1 text-xs text-slate-500">{r.description}</p>}
              </td>
              <td className="px-3 py-2">{r.model}</td>
              <td className="px-3 py-2">
                <Badge>{r.disabled ? "Disabled" : "Active"}</Badge>
              </td>
              <td className="px-3 py-2">{formatDate(r.last_run) || "Never"}</td>
              <td className="px-3 py-2 text-right">
                {r.allow_chat && !r.disabled && can("Agent Conversation") ? (
                  <Link className="text-sm text-indigo-600 hover:underline dark:text-indigo-400" to={`/chat/${encodeURIComponent(r.name)}`}>
                    Chat
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {can("Agent Conversation", "create") && <McpConnectPanel />}
    </div>
  );
}
