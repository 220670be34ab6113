/** The settings form of each node type (the keys huf/ai/flows/nodes/* read), validated as the user types. */

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button, ErrorBanner, Input, Select } from "../components/ui";
import { errorMessage, getDoc } from "../lib/api";
import { docEvents } from "../lib/boot";
import type { ToolParam } from "../lib/schema";
import { configValue, isDict, type Dict } from "./definition";
import { ExpressionInput } from "./ExpressionInput";
import { argumentText, argumentValue } from "./expressions";
import { KeyValueRows, LinkField, NameList, SelectField, TextField } from "./fields";
import { approversOf, HTTP_METHODS, TRANSFORM_OPS, configProblems } from "./nodeConfig";
import { formatDate } from "../lib/format";
import { CopyButton } from "./CopyButton";
import { Dialog } from "./Dialog";
import { flowApi, flowKeys, webhookUrl } from "./flowApi";
import { SchemaForm } from "./SchemaForm";
import { UserInputSettings } from "./UserInputSettings";

export interface FormProps {
  config: Dict;
  /** Change settings; `field` makes typing in one field one undo step. */
  set: (patch: Dict, field: string) => void;
  problems: Map<string, string>;
  flow: FlowContextInfo;
}

/** What a step's form knows of its flow. */
export interface FlowContextInfo {
  flowId: string;
  /** The saved version (undefined: never saved). */
  version?: number;
  status?: string;
  isEntry: boolean;
  readOnly: boolean;
  /** A new webhook key was made (the flow's version went up). */
  onKeyReset: () => void;
}

const str = (value: unknown): string => (value === undefined || value === null ? "" : typeof value === "string" ? value : String(value));

function WebhookForm({ flow }: FormProps) {
  const url = webhookUrl(flow.flowId);
  const [key, setKey] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const reset = useMutation({
    mutationFn: () => flowApi.resetWebhookKey(flow.flowId),
    onSuccess: (answer) => {
      setAsking(false);
      setKey(answer.webhook_key);
      flow.onKeyReset();
    },
  });
  return (
    <div className="space-y-2 text-sm">
      <p>Apps start this flow by posting JSON to its webhook URL, with the flow's key in the <code>X-Huf-Flow-Key</code> header. The body becomes the run's payload.</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800" data-testid="webhook-url" title={url}>
          {url}
        </code>
        <CopyButton text={url} label="Copy webhook URL" />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {flow.isEntry ? "" : "This trigger starts runs only when it is the start step. "}Webhooks start only Active flows. The key is shown once, when the flow is created; a new key replaces the old one.
      </p>
      {flow.version !== undefined && !flow.readOnly && (
        <Button variant="secondary" onClick={() => setAsking(true)}>
          New webhook key
        </Button>
      )}
      {asking && (
        <Dialog
          title="Make a new webhook key?"
          onClose={() => setAsking(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button variant="danger" onClick={() => reset.mutate()} disabled={reset.isPending}>
                {reset.isPending ? "Making…" : "Make a new key"}
              </Button>
            </>
          }
        >
          <p className="text-sm">Apps using the current key will be refused until they use the new one.</p>
          {reset.error && <ErrorBanner message={errorMessage(reset.error)} />}
        </Dialog>
      )}
      {key && <KeyReveal flowKey={key} onClose={() => setKey(null)} />}
    </div>
  );
}

/** Shows a flow's webhook key once: it is never shown again. */
export function KeyReveal({ flowKey, onClose }: { flowKey: string; onClose: () => void }) {
  return (
    <Dialog title="The flow's webhook key" onClose={onClose} footer={<Button onClick={onClose}>I have copied it</Button>}>
      <p className="text-sm">Apps that start this flow by webhook send this key in the X-Huf-Flow-Key header. Copy it now: it is shown only this once.</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800" data-testid="webhook-key">
          {flowKey}
        </code>
        <CopyButton text={flowKey} label="Copy webhook key" />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">Lost it? Make a new key on the flow's webhook step (the old one stops working).</p>
    </Dialog>
  );
}

/** The next planned runs of the saved flow, when it starts on a schedule. */
function NextRuns({ flow }: { flow: FlowContextInfo }) {
  const schedule = useQuery({
    queryKey: flowKeys.schedule(flow.flowId, flow.version),
    queryFn: () => flowApi.schedule(flow.flowId),
    enabled: flow.version !== undefined && flow.isEntry,
    retry: false,
  });
  if (flow.version === undefined || !flow.isEntry) return null;
  if (schedule.isLoading) return <p className="text-xs text-slate-500">Loading the next runs…</p>;
  if (schedule.error) return <p className="text-xs text-slate-500">Next runs: {errorMessage(schedule.error)}</p>;
  return (
    <div className="text-xs">
      <p className="font-medium">Next runs of the saved version{flow.status === "Active" ? "" : " (once Active)"}</p>
      <ul className="list-disc pl-5 text-slate-600 dark:text-slate-300" data-testid="next-runs">
        {(schedule.data?.next_runs ?? []).map((time) => (
          <li key={time}>{formatDate(time)}</li>
        ))}
      </ul>
    </div>
  );
}

function ScheduleForm({ config, set, problems, flow }: FormProps) {
  const usesCron = Boolean(str(configValue(config, "cron", "cron_expression")));
  const once = Boolean(str(configValue(config, "at")) || str(configValue(config, "in_minutes")));
  const [mode, setMode] = useState(once ? "once" : usesCron ? "cron" : "interval");
  return (
    <div className="space-y-3">
      <SelectField
        label="Repeat"
        value={mode}
        options={[["interval", "Every few minutes"], ["cron", "On a cron schedule"], ["once", "Once, then stop"]]}
        onChange={(value) => {
          setMode(value);
          const repeat = { at: undefined, in_minutes: undefined };
          if (value === "once") set({ cron: undefined, cron_expression: undefined, interval_minutes: undefined, every_minutes: undefined, in_minutes: 60 }, "schedule");
          else set(value === "cron" ? { ...repeat, interval_minutes: undefined, every_minutes: undefined, cron: str(config.cron) || "0 9 * * 1-5" } : { ...repeat, cron: undefined, cron_expression: undefined, interval_minutes: 60 }, "schedule");
        }}
      />
      {mode === "once" ? (
        str(configValue(config, "in_minutes")) ? (
          <TextField label="In (minutes)" type="number" required value={str(configValue(config, "in_minutes"))} onChange={(v) => set({ in_minutes: v === "" ? "" : Number(v), at: undefined }, "in_minutes")} problem={problems.get("in_minutes")} help="Counted from saving the flow: saving turns it into the date and time below." />
        ) : (
          <TextField label="At (YYYY-MM-DD HH:MM)" mono required value={str(configValue(config, "at"))} onChange={(v) => set({ at: v, in_minutes: undefined }, "at")} problem={problems.get("at")} help="The one run starts at or after this time (server time); then the schedule is done." />
        )
      ) : mode === "cron" ? (
        <TextField label="Cron expression" mono required value={str(configValue(config, "cron", "cron_expression"))} onChange={(v) => set({ cron: v, cron_expression: undefined }, "cron")} problem={problems.get("cron")} help="Minute, hour, day of month, month, day of week; e.g. 0 9 * * 1-5 is 9:00 on weekdays (in the time zone below)." />
      ) : (
        <TextField label="Every (minutes)" type="number" required value={str(configValue(config, "interval_minutes", "every_minutes"))} onChange={(v) => set({ interval_minutes: v === "" ? "" : Number(v), every_minutes: undefined }, "interval_minutes")} problem={problems.get("interval_minutes")} />
      )}
      {mode === "cron" && <TextField label="Time zone" value={str(configValue(config, "timezone", "time_zone"))} onChange={(v) => set({ timezone: v || undefined, time_zone: undefined }, "timezone")} placeholder="e.g. Europe/Berlin" help="The clock the cron expression is read on. Empty: the site's time zone." />}
      <TextField label="Schedule name (optional)" value={str(config.schedule_name)} onChange={(v) => set({ schedule_name: v || undefined }, "schedule_name")} />
      <p className="text-xs text-slate-500 dark:text-slate-400">Schedules start only Active flows whose start step is this trigger.</p>
      <NextRuns flow={flow} />
    </div>
  );
}

function DocEventForm({ config, set, problems }: FormProps) {
  return (
    <div className="space-y-3">
      <TextField label="Record type" required value={str(config.doctype)} onChange={(v) => set({ doctype: v }, "doctype")} problem={problems.get("doctype")} placeholder="e.g. Sales Order" />
      <SelectField label="Event" required value={str(config.event) || "after_insert"} options={docEvents().map((e) => [e, e.replace(/_/g, " ")] as [string, string])} onChange={(v) => set({ event: v }, "event")} problem={problems.get("event")} />
      <ExpressionInput label="Only when (optional)" kind="expression" value={str(config.condition)} onChange={(v) => set({ condition: v }, "condition")} help="An expression on the record, e.g. doc.status == 'Open'." />
    </div>
  );
}

function AgentForm({ config, set, problems }: FormProps) {
  return (
    <div className="space-y-3">
      <LinkField label="Agent" doctype="Agent" required value={str(config.agent)} onChange={(v) => set({ agent: v }, "agent")} problem={problems.get("agent")} />
      <ExpressionInput label="Prompt" kind="template" rows={4} value={str(config.prompt)} onChange={(v) => set({ prompt: v }, "prompt")} help="Text with {{ placeholders }}, e.g. Summarise {{ payload.text }}. Empty: the previous step's output." />
      <SelectField label="Conversation" value={str(config.conversation) || "shared"} options={[["shared", "Shared by the whole run"], ["new", "New for every visit"]]} onChange={(v) => set({ conversation: v }, "conversation")} problem={problems.get("conversation")} />
      <SelectField label="Answer" value={str(config.output) === "json" ? "json" : ""} options={[["", "Text"], ["json", "JSON (kept as data)"]]} onChange={(v) => set({ output: v || undefined }, "output")} />
    </div>
  );
}

function RouterForm({ config, set, problems }: FormProps) {
  return (
    <div className="space-y-3">
      <LinkField label="Agent" doctype="Agent" required value={str(config.agent)} onChange={(v) => set({ agent: v }, "agent")} problem={problems.get("agent")} help="Its model picks one of this step's outgoing connections; give them labels." />
      <ExpressionInput label="Instructions" kind="template" rows={4} value={str(config.instructions)} onChange={(v) => set({ instructions: v }, "instructions")} help="How to choose. Empty: choose for the previous step's output." />
    </div>
  );
}

function ToolForm({ config, set, problems }: FormProps) {
  const tool = str(configValue(config, "tool", "tool_name"));
  const args = isDict(config.arguments) ? config.arguments : isDict(config.args) ? config.args : {};
  const params = useQuery({
    queryKey: ["doc", "Agent Tool Function", tool],
    queryFn: () => getDoc<{ parameters?: ToolParam[]; description?: string }>("Agent Tool Function", tool),
    enabled: Boolean(tool),
  });
  const rows = params.data?.parameters ?? [];
  const setArg = (name: string, value: unknown) => {
    const next = { ...args };
    if (value === "" || value === undefined) delete next[name];
    else next[name] = value;
    set({ arguments: next, args: undefined }, `arg:${name}`);
  };
  const extra = Object.fromEntries(Object.entries(args).filter(([k]) => !rows.some((r) => r.fieldname === k)));
  return (
    <div className="space-y-3">
      <LinkField label="Tool" doctype="Agent Tool Function" required value={tool} onChange={(v) => set({ tool: v, tool_name: undefined }, "tool")} problem={problems.get("tool")} />
      {params.error && <p className="text-xs text-red-600">{errorMessage(params.error)}</p>}
      {params.data?.description && <p className="text-xs text-slate-500 dark:text-slate-400">{params.data.description}</p>}
      {rows.length > 0 && (
        <fieldset className="space-y-2 rounded-md border border-slate-200 p-2 dark:border-slate-700">
          <legend className="px-1 text-sm font-medium">Arguments</legend>
          {rows.map((row) => (
            <TextField
              key={row.fieldname}
              label={row.label || row.fieldname}
              required={Boolean(row.required)}
              value={argumentText(args[row.fieldname])}
              onChange={(v) => setArg(row.fieldname, v === "" ? "" : argumentValue(v, row.type))}
              problem={row.required && !argumentText(args[row.fieldname]) ? "The tool needs this value." : undefined}
              help={`${row.type}${row.description ? ` — ${row.description}` : ""}. Use {{ payload.x }} for values from the flow.`}
              mono
            />
          ))}
        </fieldset>
      )}
      <JsonField
        label={rows.length ? "Other arguments (JSON)" : "Arguments (JSON)"}
        value={rows.length ? extra : args}
        onChange={(value) => {
          const kept = Object.fromEntries(Object.entries(args).filter(([k]) => rows.some((r) => r.fieldname === k)));
          set({ arguments: { ...kept, ...value }, args: undefined }, "arguments");
        }}
        problem={problems.get("arguments")}
      />
    </div>
  );
}

/** A JSON object typed as text: kept while it does not parse, written when it does. */
function JsonField({ label, value, onChange, problem }: { label: string; value: Dict; onChange: (value: Dict) => void; problem?: string }) {
  const [text, setText] = useState(() => (Object.keys(value).length ? JSON.stringify(value, null, 2) : ""));
  const [error, setError] = useState<string | undefined>();
  const serialized = JSON.stringify(value);
  useEffect(() => {
    // the value changed elsewhere (undo): show it
    try {
      if (JSON.stringify(text.trim() ? JSON.parse(text) : {}) === serialized) return;
    } catch {
      /* the text is being typed */
    }
    setText(serialized === "{}" ? "" : JSON.stringify(value, null, 2));
    setError(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serialized]);
  return (
    <TextField
      label={label}
      multiline
      mono
      value={text}
      placeholder='{"name": "{{ payload.name }}"}'
      problem={error ?? problem}
      onChange={(next) => {
        setText(next);
        try {
          const parsed: unknown = next.trim() ? JSON.parse(next) : {};
          if (!isDict(parsed)) throw new Error("Write an object: {\"name\": value}.");
          setError(undefined);
          onChange(parsed);
        } catch (e) {
          setError(e instanceof SyntaxError ? "This is not valid JSON yet." : e instanceof Error ? e.message : String(e));
        }
      }}
    />
  );
}

function rowsOf(value: unknown): Array<[string, string]> {
  return isDict(value) ? Object.entries(value).map(([k, v]) => [k, argumentText(v)]) : [];
}

function HeaderRows({ label, value, onChange }: { label: string; value: unknown; onChange: (value: Dict | undefined) => void }) {
  const [rows, setRows] = useState(() => rowsOf(value));
  const serialized = JSON.stringify(value ?? {});
  useEffect(() => {
    const mine = JSON.stringify(Object.fromEntries(rows.filter(([k]) => k.trim())));
    if (mine !== serialized) setRows(rowsOf(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serialized]);
  return (
    <KeyValueRows
      label={label}
      rows={rows}
      onChange={(next) => {
        setRows(next);
        const object = Object.fromEntries(next.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v]));
        onChange(Object.keys(object).length ? object : undefined);
      }}
    />
  );
}

function HttpForm({ config, set, problems }: FormProps) {
  const hasBody = !["GET", "HEAD", "DELETE"].includes(str(config.method).toUpperCase() || "GET");
  const body = config.json !== undefined ? config.json : config.body !== undefined ? config.body : config.data;
  return (
    <div className="space-y-3">
      <SelectField label="Method" value={str(config.method).toUpperCase() || "GET"} options={HTTP_METHODS} onChange={(v) => set({ method: v }, "method")} problem={problems.get("method")} />
      <ExpressionInput label="URL" kind="template" rows={1} required value={str(config.url)} onChange={(v) => set({ url: v }, "url")} problem={problems.get("url")} help="https://… (public hosts only); {{ placeholders }} are filled in." />
      <LinkField label="Tool with credentials (optional)" doctype="Agent Tool Function" value={str(configValue(config, "tool", "tool_name"))} onChange={(v) => set({ tool: v || undefined, tool_name: undefined }, "tool")} help="A GET or POST tool: the URL is resolved against its Base URL and its secret headers are sent. Keep secrets there, not in the flow." />
      <HeaderRows label="Headers" value={config.headers} onChange={(v) => set({ headers: v }, "headers")} />
      {problems.get("headers") && <p className="text-xs text-red-600">{problems.get("headers")}</p>}
      <HeaderRows label="Query parameters" value={config.params} onChange={(v) => set({ params: v }, "params")} />
      {hasBody && (
        <ExpressionInput
          label="Body"
          kind="template"
          rows={4}
          value={typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body, null, 2)}
          onChange={(v) => {
            let parsed: unknown = v;
            try {
              parsed = JSON.parse(v);
            } catch {
              /* text */
            }
            set(isDict(parsed) || Array.isArray(parsed) ? { json: parsed, body: undefined, data: undefined } : { body: v || undefined, json: undefined, data: undefined }, "body");
          }}
          help="JSON is sent as JSON; anything else as text."
        />
      )}
      <TextField label="Timeout (seconds)" type="number" value={str(config.timeout)} onChange={(v) => set({ timeout: v === "" ? undefined : Number(v) }, "timeout")} problem={problems.get("timeout")} />
    </div>
  );
}

function ApprovalForm({ config, set, problems }: FormProps) {
  const { users, roles } = approversOf(config);
  const setApprovers = (next: { users: string[]; roles: string[] }) =>
    set({ approvers: next, approval_type: undefined, user: undefined, users: undefined, role: undefined, roles: undefined }, "approvers");
  return (
    <div className="space-y-3">
      <NameList label="Users" placeholder="user@example.com" values={users} onChange={(v) => setApprovers({ users: v, roles })} invalid={Boolean(problems.get("approvers"))} />
      <NameList label="Roles" placeholder="e.g. Huf Manager" values={roles} onChange={(v) => setApprovers({ users, roles: v })} invalid={Boolean(problems.get("approvers"))} />
      {problems.get("approvers") && <p className="text-xs text-red-600 dark:text-red-400">{problems.get("approvers")}</p>}
      <ExpressionInput label="Message to the approvers" kind="template" rows={3} value={str(config.message)} onChange={(v) => set({ message: v }, "message")} help="e.g. Refund {{ payload.amount }} for order {{ payload.order }}?" />
      <TextField label="Timeout (minutes, optional)" type="number" value={str(config.timeout_minutes)} onChange={(v) => set({ timeout_minutes: v === "" ? undefined : Number(v) }, "timeout_minutes")} problem={problems.get("timeout_minutes")} help="Without a decision in time the approval counts as rejected (or follows a Timed out connection)." />
    </div>
  );
}

function ConditionForm({ config, set, problems }: FormProps) {
  const value = str(configValue(config, "condition", "expression"));
  return (
    <ExpressionInput
      label="Condition"
      kind="expression"
      required
      value={value}
      onChange={(v) => set({ condition: v, expression: undefined }, "condition")}
      problem={problems.get("condition")}
      placeholder="payload.amount > 100"
      help="True: the on-success connections are followed; false: the on-failure ones."
    />
  );
}

type Operation = Dict & { op?: string };

function TransformForm({ config, set, problems }: FormProps) {
  const raw = configValue(config, "operations", "ops");
  const operations: Operation[] = Array.isArray(raw) ? (raw.filter(isDict) as Operation[]) : [];
  const write = (next: Operation[], field: string) => set({ operations: next, ops: undefined }, field);
  const update = (index: number, patch: Dict, field: string) => write(operations.map((o, i) => (i === index ? { ...o, ...patch } : o)), `op:${index}:${field}`);
  return (
    <div className="space-y-3">
      {problems.get("operations") && <p className="text-xs text-red-600 dark:text-red-400">{problems.get("operations")}</p>}
      {operations.map((operation, index) => {
        const at = `operations.${index}`;
        const op = str(operation.op ?? operation.type) || "copy";
        return (
          <fieldset key={index} className="space-y-2 rounded-md border border-slate-200 p-2 dark:border-slate-700" data-testid="transform-operation">
            <legend className="px-1 text-sm font-medium">Operation {index + 1}</legend>
            <div className="flex gap-2">
              <Select aria-label={`Operation ${index + 1} kind`} value={op} onChange={(e) => update(index, { op: e.target.value, type: undefined }, "op")} invalid={Boolean(problems.get(`${at}.op`))}>
                {TRANSFORM_OPS.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </Select>
              <Input aria-label={`Operation ${index + 1} variable`} placeholder="variable" value={str(operation.to)} onChange={(e) => update(index, { to: e.target.value }, "to")} invalid={Boolean(problems.get(`${at}.to`))} />
              <Button variant="ghost" aria-label={`Remove operation ${index + 1}`} onClick={() => write(operations.filter((_, i) => i !== index), "remove")}>
                ×
              </Button>
            </div>
            {problems.get(`${at}.to`) && <p className="text-xs text-red-600">{problems.get(`${at}.to`)}</p>}
            {op === "template" ? (
              <ExpressionInput label="Template" kind="template" value={str(operation.template)} onChange={(v) => update(index, { template: v }, "template")} problem={problems.get(`${at}.template`)} />
            ) : op === "concat" ? (
              <TextField
                label="Values to join (one expression per line)"
                multiline
                mono
                value={Array.isArray(operation.from) ? operation.from.join("\n") : str(operation.from)}
                onChange={(v) => update(index, { from: v.split("\n") }, "from")}
                problem={problems.get(`${at}.from`)}
              />
            ) : (
              <ExpressionInput label={op === "map" ? "List" : "From"} kind="expression" value={str(operation.from)} onChange={(v) => update(index, { from: v }, "from")} problem={problems.get(`${at}.from`)} placeholder="payload.items" />
            )}
            {op === "map" && <ExpressionInput label="Each item becomes" kind="expression" value={str(operation.expression)} onChange={(v) => update(index, { expression: v }, "expression")} problem={problems.get(`${at}.expression`)} placeholder="item.price * 2" />}
            {(op === "concat" || op === "split") && (
              <TextField label="Separator" value={str(operation.separator)} onChange={(v) => update(index, { separator: v }, "separator")} placeholder={op === "split" ? "," : ""} />
            )}
          </fieldset>
        );
      })}
      <Button variant="secondary" onClick={() => write([...operations, { op: "copy", to: "", from: "" }], "add")}>
        Add operation
      </Button>
    </div>
  );
}

function LoopForm({ config, set, problems }: FormProps) {
  return (
    <div className="space-y-3">
      <ExpressionInput label="Items" kind="expression" required value={str(configValue(config, "items", "items_expression", "from"))} onChange={(v) => set({ items: v, items_expression: undefined, from: undefined }, "items")} problem={problems.get("items")} placeholder="payload.orders" help="An expression giving a list (at most 1000 items)." />
      <p className="text-xs text-slate-500 dark:text-slate-400">Connect “Each item” to the first step of the body, and the body's last step back to this loop. “Done” is followed after the last item; without it the run ends there. Inside the body, item and index hold the current item.</p>
    </div>
  );
}

function EndForm({ config, set }: FormProps) {
  return <ExpressionInput label="Result (optional)" kind="template" rows={3} value={str(config.output)} onChange={(v) => set({ output: v || undefined }, "output")} help="The run's result, e.g. {{ payload.order }} refunded. Empty: the previous step's output." />;
}

const FORMS: Record<string, (props: FormProps) => JSX.Element> = {
  "trigger.webhook": WebhookForm,
  "trigger.schedule": ScheduleForm,
  "trigger.doc-event": DocEventForm,
  "agent.run": AgentForm,
  "router.llm": RouterForm,
  "tool.call": ToolForm,
  http_request: HttpForm,
  "human.approval": ApprovalForm,
  "human.input": UserInputSettings,
  condition: ConditionForm,
  transform: TransformForm,
  loop: LoopForm,
  end: EndForm,
  // settings forms built from the server's node schemas (SchemaForm.tsx)
  "trigger.app-event": (props) => <SchemaForm type="trigger.app-event" {...props} />,
  code: (props) => <SchemaForm type="code" {...props} />,
  email: (props) => <SchemaForm type="email" {...props} />,
  file: (props) => <SchemaForm type="file" {...props} />,
  date: (props) => <SchemaForm type="date" {...props} />,
};

/** The form of a node of `type`, with its problems by field. */
export function NodeSettingsForm({ type, config, set, flow }: { type: string; config: Dict; set: FormProps["set"]; flow: FlowContextInfo }) {
  const Form = FORMS[type];
  const problems = new Map(configProblems(type, config).map((p) => [p.field, p.message]));
  if (!Form) return <p className="text-sm text-red-600">This step has the unknown type {type}; remove it or change the flow's JSON.</p>;
  return <Form config={config} set={set} problems={problems} flow={flow} />;
}
