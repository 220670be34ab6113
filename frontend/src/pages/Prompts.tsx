import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { NotAllowed } from "../components/NotAllowed";
import { EmptyState, ErrorBanner, PageHeader, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { PromptDetail } from "../prompts/PromptDetail";
import { PromptList } from "../prompts/PromptList";
import { KINDS, listTemplates, promptKeys, type PromptKind } from "../prompts/promptApi";

/** The prompt library (/prompts) or the summary prompt library (/summary-prompts): templates, versions, diffs, agents using them. */
export default function Prompts({ kind }: { kind: PromptKind }) {
  const config = KINDS[kind];
  const { name } = useParams();
  const isNew = name === "new";
  const query = useQuery({ queryKey: promptKeys.list(kind), queryFn: () => listTemplates(config) });
  const templates = query.data ?? [];
  const selected = name && !isNew ? templates.find((t) => t.name === name)?.lineage : undefined;
  const canCreate = can(config.doctype, "create");
  const other = KINDS[kind === "prompt" ? "summary" : "prompt"];
  return (
    <div>
      <PageHeader
        title={config.title}
        description={config.description}
        actions={
          <>
            {can(other.doctype) && (
              <Link to={other.path} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                {other.title}
              </Link>
            )}
            {canCreate && (
              <Link to={`${config.path}/new`} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
                New template
              </Link>
            )}
          </>
        }
      />
      {query.error && <ErrorBanner title="The templates could not be loaded" message={errorMessage(query.error)} />}
      <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
        <div>
          {query.isLoading ? (
            <Spinner />
          ) : templates.length === 0 && !query.error ? (
            <EmptyState title="No templates yet" description={canCreate ? "Create one, or save an agent's instructions as a template." : "Nobody has shared a template with you yet."} />
          ) : (
            <PromptList config={config} templates={templates} selected={selected} />
          )}
        </div>
        <div>
          {isNew ? (
            canCreate ? (
              <PromptDetail key="new" config={config} name={null} />
            ) : (
              <NotAllowed what="templates" />
            )
          ) : name ? (
            <PromptDetail key={name} config={config} name={name} />
          ) : templates.length > 0 ? (
            <p className="p-4 text-sm text-slate-500">Choose a template to see its versions.</p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
