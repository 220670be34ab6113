/** The form a Wait for input step asks a person to fill in; the answer resumes the run (resume_flow_run). */

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button, ErrorBanner, Input, Select, Textarea } from "../components/ui";
import { errorMessage } from "../lib/api";
import { flowApi } from "./flowApi";
import { answerValues, type InputRequest, type RequestField } from "./userInput";

function FieldInput({ field, value, onChange }: { field: RequestField; value: string | boolean | undefined; onChange: (value: string | boolean) => void }) {
  const id = useId();
  const label = `${field.label}${field.required ? " *" : ""}`;
  if (field.fieldtype === "Check") {
    return (
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} data-fieldname={field.fieldname} />
        {label}
      </label>
    );
  }
  const text = typeof value === "string" ? value : "";
  const common = { id, value: text, "aria-required": Boolean(field.required), "data-fieldname": field.fieldname };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {field.fieldtype === "Text" ? (
        <Textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : field.fieldtype === "Select" ? (
        <Select {...common} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </Select>
      ) : (
        <Input
          {...common}
          type={field.fieldtype === "Date" ? "date" : field.fieldtype === "Int" || field.fieldtype === "Float" ? "number" : "text"}
          step={field.fieldtype === "Float" ? "any" : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/** Fill in and send the answer to `request`; `onAnswered` after the server took it. */
export function InputRequestForm({ request, onAnswered }: { request: InputRequest; onAnswered: () => void }) {
  const [typed, setTyped] = useState<Record<string, string | boolean>>({});
  const send = useMutation({
    mutationFn: () => flowApi.resume(request.flow_run_id, answerValues(request.fields, typed)),
    onSuccess: onAnswered,
  });
  return (
    <form
      aria-label={request.title || "Input requested"}
      data-testid="input-request"
      data-flow-run={request.flow_run_id}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      {request.title && <h3 className="font-semibold">{request.title}</h3>}
      {request.instructions && <p className="whitespace-pre-wrap text-sm">{request.instructions}</p>}
      {request.fields.map((field) => (
        <FieldInput key={field.fieldname} field={field} value={typed[field.fieldname]} onChange={(value) => setTyped((current) => ({ ...current, [field.fieldname]: value }))} />
      ))}
      {send.error && <ErrorBanner title="The answer was not taken" message={errorMessage(send.error)} />}
      <Button type="submit" disabled={send.isPending}>
        {send.isPending ? "Sending…" : "Send answer"}
      </Button>
    </form>
  );
}
