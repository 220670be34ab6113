import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { deleteDoc, getDoc, insertDoc, updateDoc } from "../lib/api";
import { can } from "../lib/boot";
import { buildPayload, type FieldDef } from "../lib/forms";
import { useFormErrors } from "../lib/useRecordForm";
import { FormFields, type Doc } from "./FormFields";
import { Button, Card, ErrorBanner, Notice, Spinner } from "./ui";

/** Passwords never come back to the browser: remember only that one is saved. */
function maskPasswords(doc: Doc, fields: FieldDef[]): Doc {
  const out = { ...doc };
  for (const f of fields) {
    if (f.type === "password") {
      out[`__has_${f.fieldname}`] = Boolean(doc[f.fieldname]);
      out[f.fieldname] = "";
    }
  }
  return out;
}

/** Records just created: their editor (mounted anew under the new name) still says "Saved.". */
const justCreated = new Set<string>();

/** Create or edit one record: the form, server errors next to it, save and delete. */
export function RecordEditor({
  doctype,
  name,
  fields,
  tables = [],
  defaults,
  title,
  onSaved,
  onDeleted,
  children,
  actions,
  nameField,
}: {
  doctype: string;
  name: string | null;
  fields: FieldDef[];
  tables?: string[];
  defaults: Doc;
  title: string;
  onSaved?: (doc: Doc) => void;
  onDeleted?: () => void;
  /** Extra content under the fields (tables, previews), given the values and a setter. */
  children?: (doc: Doc, set: (fieldname: string, value: unknown) => void, readOnly: boolean) => ReactNode;
  actions?: (doc: Doc) => ReactNode;
  /** The field that names the record: read-only once it exists. */
  nameField?: string;
}) {
  const queryClient = useQueryClient();
  const isNew = name === null;
  const readOnly = !(isNew ? can(doctype, "create") : can(doctype, "write"));
  const [doc, setDoc] = useState<Doc>(defaults);
  const [saved, setSaved] = useState(() => name !== null && justCreated.delete(`${doctype}:${name}`));
  const errors = useFormErrors(fields);
  const query = useQuery({
    queryKey: ["doc", doctype, name],
    queryFn: () => getDoc<Doc>(doctype, name ?? ""),
    enabled: !isNew,
  });

  // Mounted per record (callers key it by name): load the record's values when they arrive.
  useEffect(() => {
    if (!isNew && query.data) setDoc(maskPasswords(query.data, fields));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data]);

  const set = (fieldname: string, value: unknown) => {
    setSaved(false);
    setDoc((d) => ({ ...d, [fieldname]: value }));
  };

  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: ["list", doctype] });
    void queryClient.invalidateQueries({ queryKey: ["options", doctype] });
  };

  const save = useMutation({
    mutationFn: () => {
      const payload = buildPayload(doc, fields, tables);
      return isNew ? insertDoc<Doc>(doctype, payload) : updateDoc<Doc>(doctype, name ?? "", payload);
    },
    onMutate: () => errors.clear(),
    onSuccess: (result) => {
      invalidate();
      queryClient.setQueryData(["doc", doctype, result.name], result);
      setDoc(maskPasswords(result, fields));
      setSaved(true);
      if (isNew) justCreated.add(`${doctype}:${String(result.name)}`);
      onSaved?.(result);
    },
    onError: (e) => errors.fail(e),
  });

  const remove = useMutation({
    mutationFn: () => deleteDoc(doctype, name ?? ""),
    onSuccess: () => {
      invalidate();
      onDeleted?.();
    },
    onError: (e) => errors.fail(e),
  });

  if (!isNew && query.isLoading) return <Spinner />;
  if (!isNew && query.error) return <ErrorBanner message={errors.error ?? "This item could not be opened."} />;

  const shown = fields.map((f) => (nameField && f.fieldname === nameField && !isNew ? { ...f, readOnly: true } : f));
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        <div className="flex flex-wrap gap-2">
          {actions?.(doc)}
          {!isNew && can(doctype, "delete") && (
            <Button variant="danger" onClick={() => window.confirm("Delete this item?") && remove.mutate()}>
              Delete
            </Button>
          )}
          {!readOnly && (
            <Button onClick={() => save.mutate()} disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
          )}
        </div>
      </div>
      <div aria-live="polite" className="space-y-2">
        {errors.error && <ErrorBanner title="Couldn't save" message={errors.error} />}
        {saved && !errors.error && <Notice message="Saved." />}
      </div>
      <FormFields fields={shown} doc={doc} onChange={set} invalid={errors.invalid} readOnly={readOnly} idPrefix={doctype.replace(/\W/g, "")} />
      {children?.(doc, set, readOnly)}
    </Card>
  );
}
