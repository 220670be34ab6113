import { useNavigate, useParams } from "react-router-dom";
import type { Doc } from "../components/FormFields";
import { NotAllowed } from "../components/NotAllowed";
import { RecordEditor } from "../components/RecordEditor";
import { SecretHeaderRows } from "../components/SecretHeaderRows";
import { Button, Card, Input, PageHeader, Select, Textarea } from "../components/ui";
import { approvalKinds, can } from "../lib/boot";
import type { FieldDef } from "../lib/forms";
import { buildToolSchema, toFieldname, type ToolParam } from "../lib/schema";
import type { SecretRow } from "../lib/secretRows";
import { KINDS, NO_RECORD_TYPE, withApprovalDefault, withKind } from "./toolKinds";

const kind = (doc: Record<string, unknown>) => String(doc.types ?? "");

const FIELDS: FieldDef[] = [
  { fieldname: "tool_name", label: "Tool Name", type: "data", required: true, help: "The name the agent calls the tool by." },
  { fieldname: "types", label: "Kind", type: "select", options: ["", ...KINDS], required: true },
  { fieldname: "tool_type", label: "Category", type: "link", linkTo: "Agent Tool Type", required: true, help: "Filled in from the kind; change it if you like." },
  { fieldname: "description", label: "Description", type: "text", required: true, help: "Tell the agent when to use this tool." },
  {
    fieldname: "requires_approval",
    label: "Requires approval",
    type: "check",
    help: "Each call waits in Approvals until an approver allows it (an agent's tool row can override this). New tools that delete records or send outside the site start with it on.",
  },
  { fieldname: "reference_doctype", label: "Record Type", type: "doctype", showIf: (d) => !!kind(d) && !NO_RECORD_TYPE.includes(kind(d)), help: "For example Customer or ToDo." },
  {
    fieldname: "function_path",
    label: "Function Path",
    type: "data",
    showIf: (d) => ["Custom Function", "App Provided", "Client Side"].includes(kind(d)),
    help: "For example my_app.tools.get_weather; for a Client Side tool the browser function the chat runs, e.g. get_current_page (empty: the tool name).",
  },
  { fieldname: "pass_parameters_as_json", label: "Pass parameters as one JSON value", type: "check", showIf: (d) => kind(d) === "Custom Function" },
  { fieldname: "provider_app", label: "Provider App", type: "data", showIf: (d) => kind(d) === "App Provided" },
  { fieldname: "agent", label: "Agent to run", type: "link", linkTo: "Agent", showIf: (d) => kind(d) === "Run Agent" },
  { fieldname: "base_url", label: "URL", type: "data", showIf: (d) => ["GET", "POST"].includes(kind(d)) },
];

const PARAM_TYPES = ["string", "integer", "number", "boolean", "array", "object"];

function ParamsTable({ rows, onChange, readOnly }: { rows: ToolParam[]; onChange: (rows: ToolParam[]) => void; readOnly: boolean }) {
  const update = (i: number, patch: Partial<ToolParam>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="space-y-2">
      <h3 className="font-medium">Parameters</h3>
      {rows.length === 0 && <p className="text-sm text-slate-500">No parameters. Add the values the agent must give when it calls the tool.</p>}
      {rows.map((row, i) => (
        <div key={i} className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 p-2 md:grid-cols-[1fr_1fr_8rem_6rem_2fr_auto] dark:border-slate-700" data-testid="param-row">
          <Input
            aria-label="Label"
            placeholder="Label"
            value={row.label ?? ""}
            readOnly={readOnly}
            onChange={(e) => update(i, { label: e.target.value, ...(row.fieldname && row.fieldname !== toFieldname(row.label ?? "") ? {} : { fieldname: toFieldname(e.target.value) }) })}
          />
          <Input aria-label="Field name" placeholder="field_name" value={row.fieldname} readOnly={readOnly} onChange={(e) => update(i, { fieldname: e.target.value })} />
          <Select aria-label="Type" value={row.type} disabled={readOnly} onChange={(e) => update(i, { type: e.target.value })}>
            {PARAM_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={Boolean(row.required)} disabled={readOnly} onChange={(e) => update(i, { required: e.target.checked ? 1 : 0 })} />
            Required
          </label>
          <Input aria-label="Description" placeholder="Description" value={row.description ?? ""} readOnly={readOnly} onChange={(e) => update(i, { description: e.target.value })} />
          {!readOnly && (
            <Button variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              Remove
            </Button>
          )}
          {row.type === "string" && (
            <Textarea
              aria-label="Allowed values"
              placeholder="Allowed values, one per line (optional)"
              rows={1}
              className="col-span-2 md:col-span-6"
              value={row.options ?? ""}
              readOnly={readOnly}
              onChange={(e) => update(i, { options: e.target.value })}
            />
          )}
        </div>
      ))}
      {!readOnly && (
        <Button variant="secondary" onClick={() => onChange([...rows, { label: "", fieldname: "", type: "string", required: 0, description: "" }])}>
          Add parameter
        </Button>
      )}
    </div>
  );
}

const GENERIC = ["", "Custom Function", "App Provided", "Create Document"];

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function SchemaPreview({ doc }: { doc: Doc }) {
  const params = (Array.isArray(doc.parameters) ? doc.parameters : []) as ToolParam[];
  const schema = buildToolSchema(String(doc.tool_name ?? ""), String(doc.description ?? ""), params);
  const saved = typeof doc.function_definition === "string" ? doc.function_definition : "";
  const live = GENERIC.includes(kind(doc));
  return (
    <Card>
      <h3 className="mb-1 font-medium">What the agent sees</h3>
      <p className="mb-2 text-xs text-slate-500">
        {live ? "Updated as you edit." : "For this kind of tool the values are set when you save."}
      </p>
      <pre data-testid="schema-preview" tabIndex={0} aria-label="Schema preview" className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
        {live || !saved ? JSON.stringify(schema, null, 2) : pretty(saved)}
      </pre>
    </Card>
  );
}

export default function ToolEditor() {
  const { name } = useParams();
  const navigate = useNavigate();
  if (!name && !can("Agent Tool Function", "create")) return <NotAllowed what="tools" />;
  return (
    <div className="max-w-5xl">
      <PageHeader title={name ?? "New tool"} description="Describe the tool and the values it needs." />
      <RecordEditor
        key={name ?? "new"}
        doctype="Agent Tool Function"
        name={name ?? null}
        fields={FIELDS}
        tables={["parameters", "http_headers"]}
        nameField="tool_name"
        defaults={{ tool_name: "", types: "", tool_type: "", description: "", parameters: [], http_headers: [] }}
        title="Tool"
        derive={(next, changed, previous) => {
          if (changed !== "types") return next;
          const kinded = withKind(next, previous.types);
          return name ? kinded : withApprovalDefault(kinded, approvalKinds()); // a saved tool keeps its setting
        }}
        onSaved={(doc) => !name && navigate(`/tools/${encodeURIComponent(String(doc.name))}`, { replace: true })}
        onDeleted={() => navigate("/tools")}
      >
        {(doc, set, readOnly) => (
          <div className="space-y-4">
            <ParamsTable rows={(Array.isArray(doc.parameters) ? doc.parameters : []) as ToolParam[]} onChange={(rows) => set("parameters", rows)} readOnly={readOnly} />
            {["GET", "POST"].includes(kind(doc)) && (
              <SecretHeaderRows
                title="HTTP headers"
                help="Sent only to the tool's URL, for example an API key. Values are stored encrypted and never shown again."
                rows={(Array.isArray(doc.http_headers) ? doc.http_headers : []) as SecretRow[]}
                onChange={(rows) => set("http_headers", rows)}
                readOnly={readOnly}
                keyField="key"
                valueField="value"
              />
            )}
            <SchemaPreview doc={doc} />
          </div>
        )}
      </RecordEditor>
    </div>
  );
}
