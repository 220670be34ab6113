/** The settings form of a Wait for input step (human.input): title, instructions, the form's fields, assignees. */

import { Button, Input, Select, Textarea } from "../components/ui";
import { isDict, type Dict } from "./definition";
import { ExpressionInput } from "./ExpressionInput";
import { NameList, TextField } from "./fields";
import type { FormProps } from "./nodeForms";
import { names } from "./nodeConfig";
import { fieldnameFrom, INPUT_FIELD_TYPES, inputFields, type InputField } from "./userInput";

const str = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

function FieldRow({ field, index, update, remove, problems }: { field: InputField; index: number; update: (patch: Dict, key: string) => void; remove: () => void; problems: Map<string, string> }) {
  const at = `fields.${index}`;
  const n = index + 1;
  const type = str(field.fieldtype) || "Data";
  const rowProblems = ["fieldname", "fieldtype", "options"].map((key) => problems.get(`${at}.${key}`)).filter(Boolean);
  return (
    <fieldset className="space-y-2 rounded-md border border-slate-200 p-2 dark:border-slate-700" data-testid="input-field-setting">
      <legend className="px-1 text-sm font-medium">Field {n}</legend>
      <div className="flex gap-2">
        <Input
          aria-label={`Field ${n} label`}
          placeholder="Label"
          value={str(field.label)}
          onChange={(e) => {
            const label = e.target.value;
            // the fieldname follows the label until someone changes it by hand
            const follows = !field.fieldname || field.fieldname === fieldnameFrom(str(field.label));
            update(follows ? { label, fieldname: fieldnameFrom(label) } : { label }, "label");
          }}
        />
        <Input aria-label={`Field ${n} fieldname`} placeholder="fieldname" className="font-mono text-xs" value={str(field.fieldname)} onChange={(e) => update({ fieldname: e.target.value }, "fieldname")} invalid={Boolean(problems.get(`${at}.fieldname`))} />
      </div>
      <div className="flex items-center gap-2">
        <Select aria-label={`Field ${n} type`} value={type} onChange={(e) => update({ fieldtype: e.target.value, type: undefined }, "fieldtype")} invalid={Boolean(problems.get(`${at}.fieldtype`))}>
          {INPUT_FIELD_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <label className="flex items-center gap-1 whitespace-nowrap text-sm">
          <input type="checkbox" aria-label={`Field ${n} required`} checked={Boolean(Number(field.required ?? 0))} onChange={(e) => update({ required: e.target.checked ? 1 : 0 }, "required")} />
          Required
        </label>
        <Button variant="ghost" aria-label={`Remove field ${n}`} onClick={remove}>
          ×
        </Button>
      </div>
      {type === "Select" && (
        <Textarea aria-label={`Field ${n} options`} rows={3} placeholder="One option per line" value={names(field.options).join("\n")} onChange={(e) => update({ options: e.target.value.split("\n") }, "options")} invalid={Boolean(problems.get(`${at}.options`))} />
      )}
      {rowProblems.map((message) => (
        <p key={message} className="text-xs text-red-600 dark:text-red-400">
          {message}
        </p>
      ))}
    </fieldset>
  );
}

export function UserInputSettings({ config, set, problems }: FormProps) {
  const fields = inputFields(config);
  const write = (next: InputField[], key: string) => set({ fields: next }, key);
  const assignees = isDict(config.assignees) ? config.assignees : {};
  const users = names(assignees.users);
  const roles = names(assignees.roles);
  const setAssignees = (next: { users: string[]; roles: string[] }) => set({ assignees: next }, "assignees");
  return (
    <div className="space-y-3">
      <TextField label="Title" value={str(config.title)} onChange={(v) => set({ title: v || undefined }, "title")} placeholder="e.g. Refund details" />
      <ExpressionInput label="Instructions" kind="template" rows={3} value={str(config.instructions)} onChange={(v) => set({ instructions: v || undefined }, "instructions")} help="Shown above the form, e.g. How much do we refund for {{ payload.order }}?" />
      <div className="space-y-2">
        <p className="text-sm font-medium">Fields</p>
        {problems.get("fields") && <p className="text-xs text-red-600 dark:text-red-400">{problems.get("fields")}</p>}
        {fields.map((field, index) => (
          <FieldRow
            key={index}
            field={field}
            index={index}
            problems={problems}
            update={(patch, key) => write(fields.map((f, i) => (i === index ? { ...f, ...patch } : f)), `field:${index}:${key}`)}
            remove={() => write(fields.filter((_, i) => i !== index), "remove")}
          />
        ))}
        <Button variant="secondary" onClick={() => write([...fields, { label: "", fieldname: "", fieldtype: "Data", required: 0 }], "add")}>
          Add field
        </Button>
      </div>
      <NameList label="Assignee users" placeholder="user@example.com" values={users} onChange={(v) => setAssignees({ users: v, roles })} />
      <NameList label="Assignee roles" placeholder="e.g. Huf Manager" values={roles} onChange={(v) => setAssignees({ users, roles: v })} />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        The assignees find the form in their approvals inbox; Huf Managers may answer it too. Without assignees, the user the run acts as answers. Later steps read the answer as nodes.&lt;this step&gt;.output.values.&lt;fieldname&gt;.
      </p>
    </div>
  );
}
