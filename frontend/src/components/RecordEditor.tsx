import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { deleteDoc, getDoc, insertDoc, updateDoc } from "../lib/api";
import { useConfirm } from "../lib/confirm";
import { can } from "../lib/boot";
import { deleteQuestion, recordNoun } from "../lib/format";
import { buildPayload, isDirty, type FieldDef } from "../lib/forms";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import { focusField, useFormErrors } from "../lib/useRecordForm";
import { FormFields, type Doc } from "./FormFields";
import { NotAllowed } from "./NotAllowed";
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
  derive,
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
  /** Values that follow a change of `changed` (e.g. a tool's category from its kind). */
  derive?: (next: Doc, changed: string, previous: Doc) => Doc;
}) {
  const queryClient = useQueryClient();
  const isNew = name === null;
  const readOnly = !(isNew ? can(doctype, "create") : can(doctype, "write"));
  const [doc, setDoc] = useState<Doc>(defaults);
  // the values as last loaded or saved: leaving with other values asks first
  const [base, setBase] = useState<Doc>(defaults);
  const [saved, setSaved] = useState(() => name !== null && justCreated.delete(`${doctype}:${name}`));
  const errors = useFormErrors(fields);
  const query = useQuery({
    queryKey: ["doc", doctype, name],
    queryFn: () => getDoc<Doc>(doctype, name ?? ""),
    enabled: !isNew,
  });

  // Mounted per record (callers key it by name): load the record's values when they arrive.
  useEffect(() => {
    if (!isNew && query.data) {
      setDoc(maskPasswords(query.data, fields));
      setBase(maskPasswords(query.data, fields));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data]);

  const set = (fieldname: string, value: unknown) => {
    setSaved(false);
    errors.touched(fieldname);
    setDoc((d) => {
      const next = { ...d, [fieldname]: value };
      return derive ? derive(next, fieldname, d) : next;
    });
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
      setBase(maskPasswords(result, fields));
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

  const noun = recordNoun(doctype);
  const idPrefix = doctype.replace(/\W/g, "");
  const dirty = !readOnly && isDirty(doc, base, fields, tables);
  useLeaveGuard(dirty, leaveQuestion(`this ${noun}`));
  const trySave = () => {
    const missing = errors.requireFilled(doc);
    if (missing) focusField(`${idPrefix}-${missing}`);
    else save.mutate();
  };
  useSaveShortcut(trySave, dirty && !save.isPending);
  const confirm = useConfirm();
  const askDelete = async () => {
    if (await confirm({ title: deleteQuestion(noun, name ?? ""), message: "This can't be undone.", confirmLabel: "Delete", destructive: true })) remove.mutate();
  };

  if (isNew && readOnly) return <NotAllowed what={`${noun}s`} />;
  if (!isNew && query.isLoading) return <Spinner />;
  if (!isNew && query.error) return <ErrorBanner message={errors.error ?? "This item could not be opened."} />;

  const shown = fields.map((f) => (nameField && f.fieldname === nameField && !isNew ? { ...f, readOnly: true } : f));
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        <div className="flex flex-wrap gap-2">
          {actions?.(doc)}
          {!isNew && name !== doctype && can(doctype, "delete") && (
            <Button variant="danger" onClick={() => void askDelete()}>
              Delete
            </Button>
          )}
          {!readOnly && (
            <Button onClick={trySave} disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
          )}
        </div>
      </div>
      <div aria-live="polite" className="space-y-2">
        {errors.error && <ErrorBanner title="Couldn't save" message={errors.error} />}
        {saved && !errors.error && <Notice message="Saved." />}
      </div>
      <FormFields fields={shown} doc={doc} onChange={set} invalid={errors.invalid} messages={errors.messages} readOnly={readOnly} idPrefix={idPrefix} />
      {children?.(doc, set, readOnly)}
    </Card>
  );
}
