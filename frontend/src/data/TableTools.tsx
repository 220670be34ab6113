import { useState } from "react";
import { Link } from "react-router-dom";
import { LinkSelect } from "../components/FormFields";
import { Button, Card, ErrorBanner, Field, Notice } from "../components/ui";
import { errorMessage } from "../lib/api";
import { createTableTools, TOOL_ACTIONS, type ToolAction } from "./dataApi";

const ACTION_LABELS: Record<ToolAction, string> = {
  list: "List records",
  get: "Read a record",
  create: "Create records",
  update: "Update records",
  delete: "Delete records",
};

/** Make the table's tools (list, read, create, update, delete records) and give them to an agent. */
export function TableTools({ name, tableName }: { name: string; tableName: string }) {
  const [agent, setAgent] = useState("");
  const [actions, setActions] = useState<ToolAction[]>([...TOOL_ACTIONS]);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ tools: string[]; agent: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await createTableTools(name, agent || null, actions));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold">Create tools for an agent</h2>
      <p className="text-sm text-slate-500">Let an agent work with the records of {tableName}. It can do only what the person it runs for may do.</p>
      <div className="max-w-sm">
        <Field label="Agent" htmlFor="tools-agent">
          <LinkSelect id="tools-agent" doctype="Agent" value={agent} onChange={setAgent} placeholder="No agent: only create the tools" />
        </Field>
      </div>
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium">Tools</legend>
        {TOOL_ACTIONS.map((a) => (
          <label key={a} className="flex items-center gap-1.5 text-sm">
            <input type="checkbox" checked={actions.includes(a)} onChange={(e) => setActions(e.target.checked ? TOOL_ACTIONS.filter((x) => x === a || actions.includes(x)) : actions.filter((x) => x !== a))} />
            {ACTION_LABELS[a]}
          </label>
        ))}
      </fieldset>
      <Button onClick={() => void create()} disabled={busy || !actions.length}>
        Create tools
      </Button>
      {done && (
        <Notice
          message={`${done.tools.length === 1 ? "1 tool is" : `${done.tools.length} tools are`} ready: ${done.tools.join(", ")}${done.agent ? `, given to ${done.agent}` : ""}.`}
        />
      )}
      {done?.agent && (
        <Link className="text-sm text-indigo-600 hover:underline dark:text-indigo-400" to={`/agents/${encodeURIComponent(done.agent)}`}>
          Open {done.agent}
        </Link>
      )}
      {error && <ErrorBanner title="The tools could not be created" message={error} />}
    </Card>
  );
}
