import { useEffect, useState } from "react";
import { Badge, Select } from "../components/ui";
import { DiffView } from "./DiffView";
import type { PromptVersion } from "./promptApi";

const label = (v: PromptVersion) => `Version ${v.version}`;

/** Every version of a template, and two of them compared side by side. */
export function VersionHistory({ versions }: { versions: PromptVersion[] }) {
  // versions come newest first: compare the one before the newest with the newest
  const [after, setAfter] = useState(versions[0]?.name ?? "");
  const [before, setBefore] = useState(versions[1]?.name ?? versions[0]?.name ?? "");
  useEffect(() => {
    setAfter(versions[0]?.name ?? "");
    setBefore(versions[1]?.name ?? versions[0]?.name ?? "");
  }, [versions]);
  const a = versions.find((v) => v.name === before);
  const b = versions.find((v) => v.name === after);
  return (
    <div className="space-y-4">
      <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label="Versions">
        {versions.map((v) => (
          <li key={v.name} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
            <span className="font-medium">{label(v)}</span>
            {Boolean(v.is_latest) && <Badge color="green">Latest</Badge>}
            <span className="text-slate-500">{v.title}</span>
            <span className="ml-auto text-xs text-slate-500">
              {v.owner ? `${v.owner}, ` : ""}
              {v.modified ? new Date(v.modified.replace(" ", "T")).toLocaleString() : ""}
            </span>
          </li>
        ))}
      </ol>
      {versions.length < 2 ? (
        <p className="text-sm text-slate-500">Only one version so far. Save a change to compare versions.</p>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <label htmlFor="diff-before">Compare</label>
            <div className="w-36">
              <Select id="diff-before" value={before} onChange={(e) => setBefore(e.target.value)}>
                {versions.map((v) => (
                  <option key={v.name} value={v.name}>
                    {label(v)}
                  </option>
                ))}
              </Select>
            </div>
            <label htmlFor="diff-after">with</label>
            <div className="w-36">
              <Select id="diff-after" value={after} onChange={(e) => setAfter(e.target.value)}>
                {versions.map((v) => (
                  <option key={v.name} value={v.name}>
                    {label(v)}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          {a && b && <DiffView before={a.prompt_body ?? ""} after={b.prompt_body ?? ""} beforeLabel={label(a)} afterLabel={label(b)} />}
        </>
      )}
    </div>
  );
}
