import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { Button, Card, ErrorBanner, Field, Input, Notice, PageHeader, Select, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { hasCapability } from "../lib/boot";
import { useConfirm } from "../lib/confirm";
import { leaveQuestion, useLeaveGuard } from "../lib/useLeaveGuard";
import { useSaveShortcut } from "../lib/useSaveShortcut";
import { AUTONAME_METHODS, createDataTable, getTableSchema, schemaKey, tablesKey, updateDataTable, type AutonameMethod, type TableSchema } from "./dataApi";
import { FieldList } from "./FieldList";
import { FieldProperties } from "./FieldProperties";
import { FormPreview } from "./FormPreview";
import { createArgs, draftChanged, draftFromSchema, emptyDraft, removedFields, emptyField, moveItem, namingCandidates, pendingChanges, updateArgs, updateField, validateDraft, type DraftErrors, type FieldDraft, type SchemaDraft } from "./schemaDraft";
import { TABLE_ICONS, TableIcon } from "./TableIcon";
import { TableTools } from "./TableTools";

const AUTONAME_HELP: Record<AutonameMethod, string> = {
  Autoincrement: "Records are numbered 1, 2, 3…",
  Hash: "Records get a random ID.",
  Field: "A required, unique field names each record.",
  "Naming Series": "Records are numbered with a prefix, like LEAD-00001.",
  Prompt: "The person adding a record gives its ID.",
};

/** /huf/data/new and /huf/data/:name/schema: design a table's fields. */
export default function SchemaEditor() {
  const { name = "" } = useParams();
  const isNew = !name;
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const created = Boolean((location.state as { created?: boolean } | null)?.created);
  const schema = useQuery({ queryKey: schemaKey(name), queryFn: () => getTableSchema(name), enabled: !isNew });
  const [draft, setDraft] = useState<SchemaDraft | null>(isNew ? emptyDraft() : null);
  const [selected, setSelected] = useState<string | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(created ? "The table was created. Add records, or give an agent tools to work with it." : null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (isNew) setDraft(emptyDraft());
    else if (schema.data) setDraft(draftFromSchema(schema.data));
  }, [isNew, schema.data]);

  // leaving (a link, another table, back, closing the tab) with unsaved fields asks first; Ctrl+S saves
  const manage = hasCapability("data.tables.manage");
  const changed = manage && draft !== null && (isNew || schema.data !== undefined) && draftChanged(draft, schema.data);
  useLeaveGuard(changed && !busy, leaveQuestion("this table"));
  useSaveShortcut(() => void save(), changed && !busy);
  const confirm = useConfirm();

  if (!manage) return <ErrorBanner title="Not allowed" message="Only people who manage data tables can change their fields." />;
  if (!isNew && schema.isLoading) return <Spinner />;
  if (!isNew && schema.error) return <ErrorBanner title="The table could not be loaded" message={errorMessage(schema.error)} />;
  if (!draft) return <Spinner />;

  const set = (patch: Partial<SchemaDraft>) => setDraft({ ...draft, ...patch });
  const setFields = (fields: FieldDraft[]) => set({ fields });
  const current = draft.fields.find((f) => f.key === selected) ?? null;
  const title = isNew ? "New data table" : `Fields of ${schema.data?.table_name ?? name}`;

  const addField = () => {
    const field = emptyField(draft.fields);
    setFields([...draft.fields, field]);
    setSelected(field.key);
  };

  async function save() {
    if (!draft) return;
    const found = validateDraft(draft, isNew);
    setErrors(found);
    setSaveError(null);
    setNotice(null);
    if (Object.keys(found).length) {
      const firstField = draft.fields.find((f) => found[f.key]);
      if (firstField) setSelected(firstField.key);
      return;
    }
    const changes = pendingChanges(draft, schema.data);
    if (changes.length && !(await confirm({ title: "Save these changes?", message: changes.join("\n"), confirmLabel: "Save changes", destructive: removedFields(draft, schema.data).length > 0 }))) return;
    setBusy(true);
    try {
      let saved: TableSchema;
      if (isNew) {
        saved = await createDataTable(createArgs(draft));
        void queryClient.invalidateQueries({ queryKey: tablesKey });
        navigate(`/data/${encodeURIComponent(saved.name)}/schema`, { state: { created: true }, replace: true });
      } else {
        saved = await updateDataTable(name, updateArgs(draft));
        setNotice("Saved.");
        void queryClient.invalidateQueries({ queryKey: tablesKey });
      }
      queryClient.setQueryData(schemaKey(saved.name), saved);
      setDraft(draftFromSchema(saved));
      setSelected(null);
    } catch (e) {
      setSaveError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const naming = namingCandidates(draft.fields);
  return (
    <div className="max-w-6xl space-y-4">
      <PageHeader
        title={title}
        description={isNew ? "Name the table and design its fields. Fields can be changed later." : "Add, rename, reorder or remove fields. Removing a field removes its values."}
        actions={
          <>
            {!isNew && (
              <Link className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800" to={`/data/${encodeURIComponent(name)}`}>
                Open records
              </Link>
            )}
            <Button onClick={() => void save()} disabled={busy}>
              {isNew ? "Create table" : "Save"}
            </Button>
          </>
        }
      />
      {notice && <Notice message={notice} />}
      {saveError && <ErrorBanner title="The table could not be saved" message={saveError} />}
      <Card className="grid gap-3 md:grid-cols-2">
        <Field label="Table name" htmlFor="table-name" help={errors.table_name}>
          <Input id="table-name" value={draft.table_name} disabled={!isNew} invalid={Boolean(errors.table_name)} onChange={(e) => set({ table_name: e.target.value })} />
        </Field>
        <Field label="Icon" htmlFor="table-icon">
          <div className="flex items-center gap-2">
            <TableIcon icon={draft.icon} />
            <Select id="table-icon" value={draft.icon} onChange={(e) => set({ icon: e.target.value })}>
              <option value="">Default</option>
              {TABLE_ICONS.map((i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </Select>
          </div>
        </Field>
        <div className="md:col-span-2">
          <Field label="Description" htmlFor="table-description">
            <Input id="table-description" value={draft.description} onChange={(e) => set({ description: e.target.value })} />
          </Field>
        </div>
        <Field label="Record IDs" htmlFor="table-autoname" help={isNew ? AUTONAME_HELP[draft.autoname_method] : "Fixed when the table was created."}>
          <Select id="table-autoname" value={draft.autoname_method} disabled={!isNew} onChange={(e) => set({ autoname_method: e.target.value as AutonameMethod })}>
            {AUTONAME_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </Field>
        {draft.autoname_method === "Field" && (
          <Field label="Naming field" htmlFor="table-naming-field" help={errors.naming_field ?? "Only required, unique fields can name records."}>
            <Select id="table-naming-field" value={draft.naming_field} disabled={!isNew} invalid={Boolean(errors.naming_field)} onChange={(e) => set({ naming_field: e.target.value })}>
              <option value="">Choose a field…</option>
              {(isNew ? naming : draft.fields.filter((f) => f.fieldname === draft.naming_field)).map((f) => (
                <option key={f.key} value={f.fieldname}>
                  {f.label}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {draft.autoname_method === "Naming Series" && (
          <Field label="Naming series" htmlFor="table-naming-series" help={errors.naming_series ?? 'A prefix and .#####, like "LEAD-.#####".'}>
            <Input id="table-naming-series" value={draft.naming_series} disabled={!isNew} invalid={Boolean(errors.naming_series)} onChange={(e) => set({ naming_series: e.target.value })} />
          </Field>
        )}
        <Field label="Title field" htmlFor="table-title-field" help={errors.title_field ?? "Shown as the name of each record."}>
          <Select id="table-title-field" value={draft.title_field} invalid={Boolean(errors.title_field)} onChange={(e) => set({ title_field: e.target.value })}>
            <option value="">None</option>
            {draft.fields
              .filter((f) => f.fieldname)
              .map((f) => (
                <option key={f.key} value={f.fieldname}>
                  {f.label}
                </option>
              ))}
          </Select>
        </Field>
      </Card>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="space-y-3">
          <div className="flex items-center justify-between">
            <h2 className="font-semibold">Fields</h2>
            <Button variant="secondary" onClick={addField}>
              Add field
            </Button>
          </div>
          {errors.fields && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {errors.fields}
            </p>
          )}
          <FieldList
            fields={draft.fields}
            selected={selected}
            errors={errors}
            onSelect={setSelected}
            onMove={(from, to) => setFields(moveItem(draft.fields, from, to))}
            onRemove={(key) => {
              setFields(draft.fields.filter((f) => f.key !== key));
              if (selected === key) setSelected(null);
            }}
          />
        </Card>
        <Card className="space-y-3">
          <h2 className="font-semibold">Field properties</h2>
          {current ? (
            <FieldProperties field={current} error={errors[current.key]} onChange={(patch) => setFields(draft.fields.map((f) => (f.key === current.key ? updateField(f, patch) : f)))} />
          ) : (
            <p className="text-sm text-slate-500">Pick a field to change it.</p>
          )}
        </Card>
        <Card className="space-y-3">
          <h2 className="font-semibold">Preview</h2>
          <FormPreview fields={draft.fields} />
        </Card>
      </div>
      {!isNew && schema.data && <TableTools name={name} tableName={schema.data.table_name} />}
    </div>
  );
}
