import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Badge, EmptyState, ErrorBanner, Input, PageHeader, Spinner, Table } from "../components/ui";
import { errorMessage, getList } from "../lib/api";
import { can } from "../lib/boot";

interface ToolRow {
  name: string;
  types: string;
  tool_type: string;
  description: string;
}

export default function Tools() {
  const [search, setSearch] = useState("");
  const { data, isLoading, error } = useQuery({
    queryKey: ["list", "Agent Tool Function"],
    queryFn: () => getList<ToolRow>("Agent Tool Function", { fields: ["name", "types", "tool_type", "description"], order_by: "name asc", limit: 1000 }),
  });
  const term = search.trim().toLowerCase();
  const rows = (data ?? []).filter((r) => !term || `${r.name} ${r.description} ${r.types}`.toLowerCase().includes(term));
  const newButton = can("Agent Tool Function", "create") ? (
    <Link to="/tools/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
      New tool
    </Link>
  ) : null;
  return (
    <div>
      <PageHeader title="Tools" description="Actions agents can take: read and write records, call functions or web services." actions={newButton} />
      <div className="mb-3 max-w-sm">
        <Input type="search" placeholder="Search tools…" aria-label="Search tools" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {error && <ErrorBanner message={errorMessage(error)} />}
      {isLoading ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState title={term ? "No tools match your search" : "No tools yet"} description={term ? "Try another word." : "Create a tool to let agents act."} action={term ? undefined : newButton} />
      ) : (
        <Table head={["Tool", "Kind", "Category"]}>
          {rows.map((r) => (
            <tr key={r.name}>
              <td className="px-3 py-2">
                <Link className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" to={`/tools/${encodeURIComponent(r.name)}`}>
                  {r.name}
                </Link>
                <p className="line-clamp-1 text-xs text-slate-500">{r.description}</p>
              </td>
              <td className="px-3 py-2">
                <Badge color="blue">{r.types}</Badge>
              </td>
              <td className="px-3 py-2">{r.tool_type}</td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
