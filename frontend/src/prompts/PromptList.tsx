import { useState } from "react";
import { Link } from "react-router-dom";
import { FilterSelect } from "../components/FilterSelect";
import { Badge, EmptyState, Input, cx } from "../components/ui";
import { templateCategories, filterTemplates } from "./listFilter";
import type { KindConfig, PromptVersion } from "./promptApi";

/** The latest version of each template, filtered by search text and category. */
export function PromptList({ config, templates, selected }: { config: KindConfig; templates: PromptVersion[]; selected?: string }) {
  const [term, setTerm] = useState("");
  const [category, setCategory] = useState("");
  const categories = templateCategories(templates);
  const shown = filterTemplates(templates, term, category);
  return (
    <div className="space-y-2">
      <div className="flex gap-2">
        <Input aria-label="Search templates" placeholder="Search…" value={term} onChange={(e) => setTerm(e.target.value)} />
        <FilterSelect label="Category" allLabel="All categories" className="w-40" value={category} values={categories} onChange={setCategory} display={(c) => c || "No category"} />
      </div>
      {shown.length === 0 ? (
        <EmptyState title="Nothing matches" description="Try another search or category." />
      ) : (
        <ul className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={config.title}>
          {shown.map((t) => (
            <li key={t.name}>
              <Link
                to={`${config.path}/${encodeURIComponent(t.name)}`}
                className={cx("block px-3 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-800", selected === t.lineage && "bg-indigo-50 dark:bg-indigo-950")}
              >
                <span className="flex items-center gap-2">
                  <span className="font-medium">{t.title}</span>
                  <span className="text-xs text-slate-500">v{t.version}</span>
                  {!t.is_active && <Badge color="gray">Inactive</Badge>}
                </span>
                <span className="mt-0.5 flex items-center gap-2 text-xs text-slate-500">
                  {t.category && <span>{t.category}</span>}
                  <Badge color={t.visibility === "Private" ? "yellow" : t.visibility === "App" ? "blue" : "green"}>{t.visibility ?? "Public"}</Badge>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
