import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button, Input } from "../components/ui";
import { getList } from "../lib/api";
import { plural } from "../lib/format";
import { searchTools, type PickableTool } from "./toolSearch";

/** The agent editor's tool picker: the tools the agent does not have yet, searched by name and description,
 * each with its description and an Add button (Enter adds the only match). */
export function ToolPicker({ exclude, onAdd }: { exclude: string[]; onAdd: (tool: PickableTool) => void }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const tools = useQuery({
    queryKey: ["options", "Agent Tool Function", "with-description"],
    queryFn: () => getList<PickableTool>("Agent Tool Function", { fields: ["name", "description"], order_by: "name asc", limit: 1000 }),
  });
  const matches = searchTools(tools.data ?? [], query, exclude);
  const add = (tool: PickableTool) => {
    onAdd(tool);
    document.getElementById(`${id}-search`)?.focus(); // the Add button just pressed is gone
  };
  const empty = tools.isLoading
    ? "Loading tools…"
    : query.trim()
      ? `No tool matches "${query.trim()}".`
      : (tools.data ?? []).length
        ? "The agent has every tool already."
        : "There are no tools yet.";
  return (
    <div className="mt-3 space-y-2" data-testid="tool-picker">
      <label htmlFor={`${id}-search`} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        Add a tool
      </label>
      <Input
        id={`${id}-search`}
        type="search"
        placeholder="Search by name or description…"
        value={query}
        aria-describedby={`${id}-count`}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          e.preventDefault();
          const [only] = matches;
          if (only && matches.length === 1) add(only);
        }}
        className="max-w-md"
      />
      <p id={`${id}-count`} className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
        {matches.length ? `${plural(matches.length, "tool")} to add` : empty}
      </p>
      {matches.length > 0 && (
        <ul aria-label="Tools to add" className="max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {matches.map((tool) => (
            <li key={tool.name} className="flex items-start gap-3 px-3 py-2">
              <span className="min-w-0 flex-1">
                <span className="block break-all text-sm font-medium">{tool.name}</span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">{tool.description || "No description."}</span>
              </span>
              <Button variant="secondary" aria-label={`Add ${tool.name}`} onClick={() => add(tool)}>
                Add
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
