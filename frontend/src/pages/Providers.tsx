import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ActionButton, summarize } from "../components/ActionButton";
import { MasterDetail } from "../components/MasterDetail";
import { RecordEditor } from "../components/RecordEditor";
import { can } from "../lib/boot";
import { PROVIDER_ROUTES_KEY, getProviderRoutes, providerRouteKey, testProviderConnection } from "./providerApi";
import { PROVIDER_DEFAULTS, providerFields, resolveRoute, routeLine, shouldAsk, type Probe, type RouteState } from "./providerRoutes";

/** Typing pauses this long before the server is asked what the name means. */
const ASK_DELAY_MS = 350;

const sameProbe = (a: Probe, b: Probe) => a.type === b.type && a.name === b.name;

/** `probe` once its name has stayed the same for a moment; at once when there was no name before (a
 * record just loaded, the first letter typed) or another type was picked. */
function useSettled(probe: Probe): Probe {
  const [settled, setSettled] = useState(probe);
  useEffect(() => {
    if (sameProbe(probe, settled)) return;
    const typing = Boolean(settled.name.trim()) && probe.type === settled.type;
    const timer = setTimeout(() => setSettled(probe), typing ? ASK_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [probe, settled]);
  return settled;
}

/** Tells the page the type and name now in the form (RecordEditor owns the values). */
function ProbeReporter({ probe, onChange }: { probe: Probe; onChange: (probe: Probe) => void }) {
  const { type, name } = probe;
  // before paint: the fields of a newly picked type show in the same frame as the pick
  useLayoutEffect(() => onChange({ type, name }), [type, name, onChange]);
  return null;
}

/** One provider's form: a Provider Type select with the route the provider gets below it (updated as the
 * user types; a type from the list is looked up here, a name is asked of the server), and the fields
 * that route uses. */
function ProviderEditor({ name, select }: { name: string | null; select: (name: string | null | undefined) => void }) {
  const isNew = name === null;
  const [probe, setProbe] = useState<Probe>({ type: "", name: "" });
  const report = useCallback((next: Probe) => setProbe((previous) => (sameProbe(previous, next) ? previous : next)), []);
  const asked = useSettled(probe);

  const types = useQuery({ queryKey: PROVIDER_ROUTES_KEY, queryFn: () => getProviderRoutes(), staleTime: Infinity, retry: 1 });
  const typeList = types.data?.types ?? [];
  const ask = shouldAsk(typeList, !types.isPending, asked);
  const answer = useQuery({
    queryKey: providerRouteKey(asked.type, asked.name.trim()),
    queryFn: () => getProviderRoutes({ provider_type: asked.type || undefined, provider_name: asked.name.trim() || undefined }),
    enabled: ask,
    staleTime: Infinity,
    retry: false,
  });

  // the line keeps what it said until the new answer is in: no "checking" flicker while typing
  const shown = useRef<RouteState>(isNew ? { kind: "empty" } : { kind: "unavailable" });
  const resolved = resolveRoute({
    types: typeList,
    probe,
    isNew,
    answer: ask && answer.isSuccess ? answer.data.route : undefined,
    failed: ask && answer.isError,
  });
  if (resolved) shown.current = resolved;
  const state = shown.current;

  return (
    <RecordEditor
      doctype="AI Provider"
      name={name}
      fields={providerFields(typeList, state, probe.type)}
      nameField="provider_name"
      defaults={PROVIDER_DEFAULTS}
      title={name ?? "New provider"}
      onSaved={(doc) => select(String(doc.name))}
      onDeleted={() => select(undefined)}
      actions={() =>
        name !== null && can("AI Provider", "write") ? (
          // a tiny real request with the saved key: a one-token answer of its first model, else its model list
          <ActionButton label="Test connection" action={() => testProviderConnection(name)} describe={(result) => summarize(result, "Connected.")} />
        ) : null
      }
    >
      {(doc) => (
        <>
          <ProbeReporter probe={{ type: String(doc.provider_type ?? ""), name: String(doc.provider_name ?? "") }} onChange={report} />
          {/* the line under Provider Type, read out when it changes */}
          <p className="sr-only" role="status" aria-live="polite" data-testid="provider-route">
            {routeLine(state)}
          </p>
        </>
      )}
    </RecordEditor>
  );
}

export default function Providers() {
  return (
    <MasterDetail
      doctype="AI Provider"
      title="Providers"
      description="The AI services your agents use, with their keys."
      listFields={[]}
      newLabel="New provider"
      emptyTitle="No providers yet"
      emptyDescription="Add a provider and its API key to start."
      renderRow={(row) => <span className="font-medium">{row.name}</span>}
      renderEditor={(name, select) => <ProviderEditor key={name ?? "new"} name={name} select={select} />}
    />
  );
}
