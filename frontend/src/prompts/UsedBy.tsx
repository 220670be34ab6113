import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { Badge, ErrorBanner, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { agentsUsing, promptKeys, type KindConfig, type PromptVersion } from "./promptApi";

/** The agents attached to one of the versions of a template, and whether they keep their version. */
export function UsedBy({ config, versions }: { config: KindConfig; versions: PromptVersion[] }) {
  const name = versions[0]?.name ?? "";
  const versionOf = new Map(versions.map((v) => [v.name, v.version]));
  const query = useQuery({
    queryKey: promptKeys.usedBy(config.kind, name),
    queryFn: () => agentsUsing(config, name),
    enabled: can("Agent") && Boolean(name),
  });
  if (!can("Agent")) return <p className="text-sm text-slate-500">You can't see agents.</p>;
  if (query.isLoading) return <Spinner />;
  if (query.error) return <ErrorBanner title="The agents could not be loaded" message={errorMessage(query.error)} />;
  const agents = query.data ?? [];
  if (!agents.length) return <p className="text-sm text-slate-500">No agent uses this template yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label="Agents using this template">
      {agents.map((agent) => (
        <li key={agent.agent} className="flex items-center gap-2 px-3 py-2 text-sm">
          <Link to={`/agents/${encodeURIComponent(agent.agent)}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            {agent.agent_name || agent.agent}
          </Link>
          <span className="ml-auto text-xs text-slate-500">
            {agent.locked ? `Keeps version ${agent.version_at_attach ?? versionOf.get(agent.prompt) ?? ""}` : "Follows the latest version"}
          </span>
          {agent.locked && <Badge color="blue">Locked</Badge>}
        </li>
      ))}
    </ul>
  );
}
