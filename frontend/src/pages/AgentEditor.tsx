import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { FormFields, LinkSelect, READ_ONLY_CLASS, type Doc } from "../components/FormFields";
import { NotAllowed } from "../components/NotAllowed";
import { Badge, Button, Card, ErrorBanner, Input, Notice, PageHeader, Select, Spinner, Toggle, cx } from "../components/ui";
import { deleteDoc, errorMessage, getDoc, insertDoc, updateDoc } from "../lib/api";
import { can } from "../lib/boot";
import { useConfirm } from "../lib/confirm";
import { deleteQuestion, plural } from "../lib/format";
import { buildPayload, isDirty } from "../lib/forms";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import { focusField, useFormErrors } from "../lib/useRecordForm";
import { KINDS, promptKeys, type KindConfig } from "../prompts/promptApi";
import { SaveAsTemplate, TemplatePicker } from "../prompts/TemplatePicker";
import { AGENT_FIELDS, AGENT_TABLES, AGENT_TABS, NEW_AGENT, newRow, withAgentDefaults } from "./agentFields";
import { NEW_AGENT_DEFAULTS_KEY, getNewAgentDefaults } from "./agentsApi";
import { ToolPicker } from "./ToolPicker";
import { actingWithoutApproval, asksApproval, getToolApprovals } from "./toolApproval";

type Row = Record<string, unknown>;

/** One input of a table row with its label shown above it (the label also names the input, by its id). */
function RowInput({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <span className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-xs font-medium text-slate-600 dark:text-slate-300">
        {label}
      </label>
      {children(id)}
    </span>
  );
}

/** A number input of a table row, labelled: empty means no value (null). */
function NumberRowInput({
  label,
  value,
  onChange,
  readOnly,
  placeholder,
  className,
}: {
  label: string;
  value: unknown;
  onChange: (value: number | null) => void;
  readOnly: boolean;
  placeholder?: string;
  className: string;
}) {
  return (
    <RowInput label={label}>
      {(id) => (
        <Input
          id={id}
          type="number"
          placeholder={placeholder}
          value={value === undefined || value === null ? "" : String(value)}
          onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
          readOnly={readOnly}
          className={cx(className, readOnly && READ_ONLY_CLASS)}
        />
      )}
    </RowInput>
  );
}

function rowsOf(doc: Doc, table: string): Row[] {
  const rows = doc[table];
  return Array.isArray(rows) ? (rows as Row[]) : [];
}

function TableSection({
  title,
  empty,
  table,
  rows,
  readOnly,
  addLabel,
  linkTo,
  linkField,
  onChange,
  extra,
  picker,
  note,
}: {
  title: string;
  empty: string;
  /** Shown under the title, above the rows. */
  note?: ReactNode;
  /** The child table: a new row gets its DocType's defaults. */
  table: string;
  rows: Row[];
  readOnly: boolean;
  addLabel: string;
  linkTo: string;
  linkField: string;
  onChange: (rows: Row[]) => void;
  extra?: (row: Row, update: (patch: Row) => void) => ReactNode;
  /** Another way to add rows than the list of `linkTo` records (given the records already added). */
  picker?: (taken: string[], add: (row: Row) => void) => ReactNode;
}) {
  const [pick, setPick] = useState("");
  const taken = new Set(rows.map((r) => String(r[linkField])));
  return (
    <Card>
      <h3 className="mb-3 font-medium">{title}</h3>
      {note}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row, i) => (
            <li key={String(row.name ?? row[linkField] ?? i)} className="flex flex-wrap items-center gap-3 py-2">
              <span className="min-w-40 flex-1 font-medium">{String(row[linkField])}</span>
              {extra?.(row, (patch) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))))}
              {!readOnly && (
                <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove ${String(row[linkField])}`}>
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && picker?.([...taken], (row) => onChange([...rows, row]))}
      {!readOnly && !picker && (
        <div className="mt-3 flex max-w-md gap-2">
          <LinkSelect doctype={linkTo} value={pick} onChange={setPick} placeholder={addLabel} label={`Add to ${title}`} exclude={[...taken]} />
          <Button
            variant="secondary"
            disabled={!pick || taken.has(pick)}
            onClick={() => {
              onChange([...rows, newRow(table, linkField, pick)]);
              setPick("");
            }}
          >
            Add
          </Button>
        </div>
      )}
    </Card>
  );
}

export default function AgentEditor() {
  const { name } = useParams();
  const isNew = name === undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = isNew ? can("Agent", "create") : can("Agent", "write");
  const readOnly = !canWrite;
  const [doc, setDoc] = useState<Doc>(NEW_AGENT);
  const [tab, setTab] = useState("basics");
  const location = useLocation();
  const [saved, setSaved] = useState(() => Boolean((location.state as { created?: boolean } | null)?.created));
  const errors = useFormErrors(AGENT_FIELDS);

  const query = useQuery({
    queryKey: ["doc", "Agent", name],
    queryFn: () => getDoc<Doc>("Agent", name ?? ""),
    enabled: !isNew,
  });
  useEffect(() => {
    if (query.data) setDoc(query.data);
  }, [query.data]);
  useEffect(() => {
    if (isNew) setDoc(NEW_AGENT);
  }, [isNew]);
  // a new agent starts with the site's default provider and model (Settings), or the only ones there are
  const agentDefaults = useQuery({
    queryKey: NEW_AGENT_DEFAULTS_KEY,
    queryFn: getNewAgentDefaults,
    enabled: isNew && canWrite,
    gcTime: 0, // read afresh for each new agent: Settings may have changed them since
  });
  const blank = useMemo(() => withAgentDefaults(NEW_AGENT, agentDefaults.data), [agentDefaults.data]);
  useEffect(() => {
    if (isNew && agentDefaults.data) setDoc((d) => withAgentDefaults(d, agentDefaults.data));
  }, [isNew, agentDefaults.data]);

  // the tools' own Requires Approval, to mark the ones that act without an approver
  const toolNames = rowsOf(doc, "agent_tool").map((row) => String(row.tool));
  const toolApprovals = useQuery({
    queryKey: ["agent-tool-approvals", [...toolNames].sort()],
    queryFn: () => getToolApprovals(toolNames),
    enabled: toolNames.length > 0 && can("Agent Tool Function"),
  });
  const approvals = toolApprovals.data ?? {};
  const unapproved = actingWithoutApproval(rowsOf(doc, "agent_tool"), approvals);

  const set = (fieldname: string, value: unknown) => {
    setSaved(false);
    errors.touched(fieldname);
    setDoc((d) => ({ ...d, [fieldname]: value }));
  };

  const save = useMutation({
    mutationFn: () => {
      const payload = buildPayload(doc, AGENT_FIELDS, AGENT_TABLES);
      return isNew ? insertDoc<Doc>("Agent", payload) : updateDoc<Doc>("Agent", name ?? "", payload);
    },
    onMutate: () => errors.clear(),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: ["list", "Agent"] });
      void queryClient.invalidateQueries({ queryKey: ["options", "Agent"] });
      queryClient.setQueryData(["doc", "Agent", result.name], result);
      setDoc(result);
      setSaved(true);
      if (isNew) navigate(`/agents/${encodeURIComponent(String(result.name))}`, { replace: true, state: { created: true } });
    },
    onError: (e) => {
      const hits = errors.fail(e);
      const first = AGENT_TABS.find((t) => t.fields.some((f) => hits.includes(f.fieldname)));
      if (first) setTab(first.key);
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteDoc("Agent", name ?? ""),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["list", "Agent"] });
      navigate("/agents");
    },
    onError: (e) => errors.fail(e),
  });

  const dirty = !isNew && Boolean(query.data) && isDirty(doc, query.data ?? {}, AGENT_FIELDS, AGENT_TABLES);
  const unsaved = canWrite && !save.isPending && (isNew ? isDirty(doc, blank, AGENT_FIELDS, AGENT_TABLES) : dirty);
  useLeaveGuard(unsaved, leaveQuestion("this agent"));
  /** Save, unless required fields are empty: then show the first one (on its tab) with its message. */
  const trySave = () => {
    const missing = errors.requireFilled(doc);
    if (!missing) return save.mutate();
    const first = AGENT_TABS.find((t) => t.fields.some((f) => f.fieldname === missing));
    if (first) setTab(first.key);
    focusField(`agent-${missing}`);
  };
  useSaveShortcut(trySave, unsaved);
  const confirm = useConfirm();
  const askDelete = async () => {
    const title = deleteQuestion("agent", String(doc.agent_name ?? name));
    if (await confirm({ title, message: "This can't be undone.", confirmLabel: "Delete", destructive: true })) remove.mutate();
  };
  const reloadAgent = () => {
    setSaved(false);
    void queryClient.invalidateQueries({ queryKey: ["doc", "Agent", name] });
    void queryClient.invalidateQueries({ queryKey: promptKeys.all });
  };
  /** The shared template of one kind (Template mode), or saving the agent's own text as one (Local mode). */
  const templateSection = (config: KindConfig) =>
    doc[config.agentMode] === "Template" ? (
      <TemplatePicker config={config} doc={doc} set={set} readOnly={readOnly} agent={isNew ? undefined : name} dirty={dirty} onServerChange={reloadAgent} />
    ) : (
      !isNew && !readOnly && can(config.doctype, "create") && <SaveAsTemplate config={config} agent={name ?? ""} dirty={dirty} onServerChange={reloadAgent} />
    );

  if (!isNew && query.isLoading) return <Spinner />;
  if (!isNew && query.error) return <ErrorBanner title="This agent could not be opened" message={errorMessage(query.error)} />;
  if (isNew && readOnly) return <NotAllowed what="agents" />;

  const tabFields = (key: string) =>
    (AGENT_TABS.find((t) => t.key === key)?.fields ?? []).map((f) => (f.fieldname === "agent_name" && !isNew ? { ...f, readOnly: true, help: "The name can't be changed." } : f));

  return (
    <div className="max-w-5xl">
      <PageHeader
        title={isNew ? "New agent" : String(doc.agent_name ?? name)}
        description={isNew ? "Give the agent a name, a model and instructions." : readOnly ? "You can view this agent but not change it." : undefined}
        actions={
          <>
            {!isNew && Boolean(doc.allow_chat) && (
              <Link to={`/chat/${encodeURIComponent(name ?? "")}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                Open chat
              </Link>
            )}
            {!isNew && can("Agent Trigger") && (
              <Link to={`/triggers/${encodeURIComponent(name ?? "")}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                Triggers
              </Link>
            )}
            {!isNew && (
              <Link to={`/evals/${encodeURIComponent(name ?? "")}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                Evals
              </Link>
            )}
            {!isNew && can("Agent", "delete") && (
              <Button variant="danger" onClick={() => void askDelete()}>
                Delete
              </Button>
            )}
            {canWrite && (
              <Button onClick={trySave} disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save"}
              </Button>
            )}
          </>
        }
      />
      <div className="mb-4 space-y-2" aria-live="polite">
        {errors.error && <ErrorBanner title="Couldn't save the agent" message={errors.error} />}
        {saved && !errors.error && <Notice message="Saved." />}
      </div>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List aria-label="Agent settings" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800">
          {AGENT_TABS.map((t) => {
            const bad = t.fields.some((f) => errors.invalid.includes(f.fieldname) || f.fieldname in errors.messages);
            return (
              <Tabs.Trigger
                key={t.key}
                value={t.key}
                className={cx(
                  "-mb-px border-b-2 px-3 py-2 text-sm",
                  "data-[state=active]:border-indigo-600 data-[state=active]:font-medium data-[state=inactive]:border-transparent",
                  bad && "text-red-600",
                )}
              >
                {t.label}
              </Tabs.Trigger>
            );
          })}
        </Tabs.List>
        {AGENT_TABS.map((t) => (
          <Tabs.Content key={t.key} value={t.key} className="space-y-4">
            {t.fields.length > 0 && (
              <Card>
                <FormFields
                  fields={tabFields(t.key)}
                  doc={doc}
                  onChange={set}
                  invalid={errors.invalid}
                  messages={errors.messages}
                  readOnly={readOnly}
                  idPrefix="agent"
                />
              </Card>
            )}
            {t.key === "instructions" && templateSection(KINDS.prompt)}
            {t.key === "context" && templateSection(KINDS.summary)}
            {t.key === "tools" && (
              <>
                <TableSection
                  title="Tools"
                  empty="No tools yet. Tools let the agent look things up and take actions."
                  table="agent_tool"
                  rows={rowsOf(doc, "agent_tool")}
                  readOnly={readOnly}
                  addLabel="Choose a tool…"
                  linkTo="Agent Tool Function"
                  linkField="tool"
                  onChange={(rows) => set("agent_tool", rows)}
                  note={
                    unapproved.length > 0 && (
                      <p className="mb-2 text-sm text-amber-800 dark:text-amber-300" data-testid="tools-without-approval">
                        {plural(unapproved.length, "tool")} {unapproved.length === 1 ? "acts" : "act"} without approval: {unapproved.join(", ")}. Set
                        Requires approval to Always to have each call approved first.
                      </p>
                    )
                  }
                  picker={(taken, add) => <ToolPicker exclude={taken} onAdd={(tool) => add({ ...newRow("agent_tool", "tool", tool.name), description: tool.description ?? "" })} />}
                  extra={(row, update) => (
                    <span className="flex flex-wrap items-center gap-2">
                      {asksApproval(row.requires_approval, approvals[String(row.tool)]) === false && <Badge color="yellow">No approval</Badge>}
                      <span className="text-xs text-slate-500">{String(row.description ?? "")}</span>
                      <label className="text-xs text-slate-600 dark:text-slate-300">
                        Requires approval{" "}
                        <select
                          className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs dark:border-slate-600 dark:bg-slate-800"
                          value={String(row.requires_approval || "Inherit")}
                          disabled={readOnly}
                          onChange={(e) => update({ requires_approval: e.target.value })}
                        >
                          <option value="Inherit">As the tool says</option>
                          <option value="Always">Always</option>
                          <option value="Never">Never</option>
                        </select>
                      </label>
                    </span>
                  )}
                />
                <TableSection
                  title="MCP servers"
                  empty="No MCP servers connected to this agent."
                  table="agent_mcp_server"
                  rows={rowsOf(doc, "agent_mcp_server")}
                  readOnly={readOnly}
                  addLabel="Choose an MCP server…"
                  linkTo="MCP Server"
                  linkField="mcp_server"
                  onChange={(rows) => set("agent_mcp_server", rows)}
                  extra={(row, update) => (
                    <Toggle
                      checked={row.enabled === undefined ? true : Boolean(row.enabled)}
                      onChange={(v) => update({ enabled: v ? 1 : 0 })}
                      label="Enabled"
                      disabled={readOnly}
                    />
                  )}
                />
              </>
            )}
            {t.key === "knowledge" && (
              <TableSection
                title="Knowledge sources"
                empty="No knowledge sources. Add one so the agent can answer from your documents."
                table="agent_knowledge"
                rows={rowsOf(doc, "agent_knowledge")}
                readOnly={readOnly}
                addLabel="Choose a knowledge source…"
                linkTo="Knowledge Source"
                linkField="knowledge_source"
                onChange={(rows) => set("agent_knowledge", rows)}
                extra={(row, update) => (
                  <div className="flex flex-wrap items-end gap-2">
                    <RowInput label="Mode">
                      {(id) => (
                        <Select
                          id={id}
                          value={String(row.mode ?? "")}
                          onChange={(e) => update({ mode: e.target.value })}
                          disabled={readOnly}
                          className={cx("w-32", readOnly && READ_ONLY_CLASS)}
                        >
                          {!row.mode && <option value="">Choose…</option>}
                          <option value="Optional">Optional</option>
                          <option value="Mandatory">Always</option>
                        </Select>
                      )}
                    </RowInput>
                    <NumberRowInput label="Priority" value={row.priority} onChange={(priority) => update({ priority })} readOnly={readOnly} className="w-20" />
                    <NumberRowInput label="Token budget" placeholder="No limit" value={row.token_budget} onChange={(token_budget) => update({ token_budget })} readOnly={readOnly} className="w-28" />
                  </div>
                )}
              />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
