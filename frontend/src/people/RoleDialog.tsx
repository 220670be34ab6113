import { useState } from "react";
import { Dialog } from "../flows/Dialog";
import { Button, ErrorBanner, Field, Input, Select, Textarea } from "../components/ui";
import { errorMessage } from "../lib/api";
import type { HufRole } from "./peopleApi";

/** Create a role (name, description, capabilities copied from an existing role) or edit a role's description. */
export function RoleDialog({
  role,
  roles,
  onSave,
  onClose,
}: {
  role?: HufRole;
  roles: HufRole[];
  onSave: (values: { role_name: string; description: string; copy_from: string }) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(role?.role_name ?? "");
  const [description, setDescription] = useState(role?.description ?? "");
  const [copyFrom, setCopyFrom] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const save = async () => {
    setBusy(true);
    setError("");
    try {
      await onSave({ role_name: name.trim(), description: description.trim(), copy_from: copyFrom });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={role ? `Edit ${role.role_name}` : "New role"}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={busy || !name.trim()}>
            {busy ? "Saving…" : role ? "Save" : "Create"}
          </Button>
        </>
      }
    >
      {!role && (
        <Field label="Role name *" htmlFor="role-name">
          <Input id="role-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </Field>
      )}
      <Field label="Description" htmlFor="role-description">
        <Textarea id="role-description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      {!role && (
        <Field label="Start with the capabilities of" htmlFor="role-copy" help="You can change each capability in the matrix afterwards.">
          <Select id="role-copy" value={copyFrom} onChange={(e) => setCopyFrom(e.target.value)}>
            <option value="">No capabilities</option>
            {roles.map((r) => (
              <option key={r.role_name} value={r.role_name}>
                {r.role_name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {error && <ErrorBanner title={role ? "The role was not saved" : "The role was not created"} message={error} />}
    </Dialog>
  );
}
