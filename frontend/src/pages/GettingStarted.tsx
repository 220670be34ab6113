import { useQueries } from "@tanstack/react-query";
import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "react-router-dom";
import { Card } from "../components/ui";
import { getCount } from "../lib/api";
import { can } from "../lib/boot";

/** The first steps on a new site, each done once a record of its kind exists. */
export const SETUP_STEPS = [
  { doctype: "AI Provider", label: "Add a provider", hint: "The AI service your agents use, with its API key.", to: "/providers" },
  { doctype: "AI Model", label: "Add a model", hint: "A model of that provider; Huf can read the list from it.", to: "/models" },
  { doctype: "Agent", label: "Create an agent", hint: "Its instructions, model and tools.", to: "/agents" },
  { doctype: "Agent Conversation", label: "Chat with it", hint: "Ask it something and watch it answer.", to: "/chat" },
] as const;

/** Which steps are done, from record counts; null while unknown (loading, or a count refused). */
export function stepsDone(counts: (number | undefined)[]): boolean[] | null {
  if (counts.some((count) => count === undefined)) return null;
  return counts.map((count) => (count ?? 0) > 0);
}

/** A getting-started checklist on a site still being set up; gone once every step is done. */
export function GettingStarted() {
  const allowed = SETUP_STEPS.every((s) => can(s.doctype));
  // read again whenever the Dashboard opens: a step done on another page ticks at once
  const counts = useQueries({
    queries: SETUP_STEPS.map((s) => ({ queryKey: ["count", s.doctype], queryFn: () => getCount(s.doctype), enabled: allowed, retry: false, staleTime: 0 })),
  });
  const done = stepsDone(counts.map((c) => c.data));
  if (!allowed || !done || done.every(Boolean)) return null;
  const finished = done.filter(Boolean).length;
  return (
    <Card>
      <section aria-labelledby="getting-started-title" data-testid="getting-started">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="getting-started-title" className="font-semibold">
            Get started
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {finished} of {SETUP_STEPS.length} done
          </p>
        </div>
        <ol className="space-y-2">
          {SETUP_STEPS.map((s, i) => (
            <li key={s.doctype} data-testid="setup-step" data-done={done[i] ? "true" : "false"} className="flex items-start gap-3">
              {done[i] ? (
                <CheckCircle2 size={20} className="mt-0.5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              ) : (
                <Circle size={20} className="mt-0.5 shrink-0 text-slate-400" aria-hidden="true" />
              )}
              <div className="min-w-0">
                <Link to={s.to} className={done[i] ? "text-slate-600 line-through dark:text-slate-300" : "font-medium text-indigo-700 hover:underline dark:text-indigo-300"}>
                  {s.label}
                  <span className="sr-only">{done[i] ? " (done)" : " (to do)"}</span>
                </Link>
                <p className="text-xs text-slate-600 dark:text-slate-400">{s.hint}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </Card>
  );
}
