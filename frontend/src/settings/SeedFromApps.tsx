import { useMutation } from "@tanstack/react-query";
import { Button, Card, ErrorBanner, Notice } from "../components/ui";
import { errorMessage } from "../lib/api";
import { countsText, errorLine, kindLines } from "./seedReport";
import { seedAllApps } from "./settingsApi";

/** Settings action: create or update the prompts, tools, knowledge, agents and triggers that installed apps ship. */
export function SeedFromApps() {
  const seed = useMutation({ mutationFn: seedAllApps });
  const report = seed.data;
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="font-semibold">Seed from apps</h2>
          <p className="text-sm text-slate-500">Apps can ship agents, tools, prompts, knowledge and triggers in a huf/ folder. Seeding again changes only what differs.</p>
        </div>
        <Button variant="secondary" onClick={() => seed.mutate()} disabled={seed.isPending}>
          {seed.isPending ? "Seeding…" : "Seed from apps"}
        </Button>
      </div>
      {seed.error && <ErrorBanner title="Seeding failed" message={errorMessage(seed.error)} />}
      {report && (
        <section aria-label="Seed report" className="space-y-2 text-sm" data-testid="seed-report">
          <Notice message={`Seeded: ${countsText(report)}`} />
          {kindLines(report).length > 0 && (
            <ul className="list-inside list-disc text-slate-600 dark:text-slate-300">
              {kindLines(report).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          {(report.errors?.length ?? 0) > 0 && (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
              <p className="font-semibold">
                {report.errors?.length} {report.errors?.length === 1 ? "seed was" : "seeds were"} not applied:
              </p>
              <ul className="list-inside list-disc" aria-label="Seed errors">
                {report.errors?.map((e, i) => (
                  <li key={i}>{errorLine(e)}</li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
    </Card>
  );
}
