/**
 * A step's settings form built from the server's node schemas (huf.ai.flow_api.get_node_schemas): the
 * same settings, required marks, options and conditions the server checks when the flow is saved
 * (huf/ai/flows/nodes/schema.py), so the two never disagree.
 */

import { useQuery } from "@tanstack/react-query";
import { Spinner, Toggle } from "../components/ui";
import { errorMessage } from "../lib/api";
import { ExpressionInput } from "./ExpressionInput";
import { LinkField, SelectField, TextField } from "./fields";
import { flowApi, flowKeys, type NodeSetting } from "./flowApi";
import type { FormProps } from "./nodeForms";
import { schemaProblems, settingApplies, withDefaults } from "./nodeSchemas";

const str = (value: unknown): string => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

function SettingField({ setting, value, onChange, problem }: { setting: NodeSetting; value: unknown; onChange: (value: unknown) => void; problem?: string }) {
  const common = { label: setting.label, required: setting.required && setting.default === undefined, problem, help: setting.description || undefined };
  switch (setting.type) {
    case "select":
      return <SelectField {...common} value={str(value ?? setting.default)} options={(setting.options ?? []).map(String)} onChange={onChange} />;
    case "boolean":
      return <Toggle label={setting.label} checked={Boolean(value ?? setting.default)} onChange={onChange} />;
    case "number":
      return <TextField {...common} type="number" value={str(value)} onChange={(v) => onChange(v === "" ? undefined : Number(v))} />;
    case "expression":
      return <ExpressionInput {...common} kind="expression" value={str(value)} onChange={(v) => onChange(v || undefined)} />;
    case "doctype_select":
      return <LinkField {...common} doctype="DocType" value={str(value)} onChange={(v) => onChange(v || undefined)} />;
    default:
      if (setting.supports_variables) {
        return <ExpressionInput {...common} kind="template" rows={setting.type === "text" ? 4 : 1} value={str(value)} onChange={(v) => onChange(v || undefined)} />;
      }
      return <TextField {...common} multiline={setting.type === "text"} mono={setting.type === "text"} value={str(value)} onChange={(v) => onChange(v || undefined)} />;
  }
}

/** The form of a node of `type`, from its server schema; problems the server found are shown at their fields. */
export function SchemaForm({ type, config, set, problems }: FormProps & { type: string }) {
  const schemas = useQuery({ queryKey: flowKeys.nodeSchemas, queryFn: flowApi.nodeSchemas, staleTime: Infinity });
  if (schemas.isLoading) return <Spinner label="Loading the step's settings…" />;
  if (schemas.error) return <p className="text-sm text-red-600">{errorMessage(schemas.error)}</p>;
  const schema = schemas.data?.[type];
  if (!schema) return <p className="text-sm text-red-600">The server does not know the step type {type}.</p>;
  const settings = schema.config_schema;
  const missing = schemaProblems(settings, config);
  const filled = withDefaults(settings, config);
  return (
    <div className="space-y-3" data-testid="schema-form" data-node-type={type}>
      {schema.description && <p className="text-xs text-slate-500 dark:text-slate-400">{schema.description}</p>}
      {settings
        .filter((setting) => settingApplies(setting, filled))
        .map((setting) => (
          <SettingField key={setting.name} setting={setting} value={config[setting.name]} onChange={(value) => set({ [setting.name]: value }, setting.name)} problem={problems.get(setting.name) ?? missing.get(setting.name)} />
        ))}
    </div>
  );
}
