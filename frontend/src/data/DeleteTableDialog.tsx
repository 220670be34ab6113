import { useState } from "react";
import { Button, ErrorBanner, Field, Input } from "../components/ui";
import { Dialog } from "../flows/Dialog";
import { errorMessage } from "../lib/api";
import { deleteDataTable } from "./dataApi";

/** Deleting a table and all its records: the user types the table's name to confirm. */
export function DeleteTableDialog({ name, tableName, recordCount, onClose, onDeleted }: { name: string; tableName: string; recordCount?: number; onClose: () => void; onDeleted: () => void }) {
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteDataTable(name, typed);
      onDeleted();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Delete the table ${tableName}`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" disabled={busy || typed !== tableName} onClick={() => void remove()}>
            Delete table
          </Button>
        </>
      }
    >
      <p className="text-sm">
        The table, its fields and {recordCount === undefined ? "all its records" : recordCount === 1 ? "its 1 record" : `all its ${recordCount} records`} are deleted for good. Tools of agents that use it stop working.
      </p>
      <Field label={`Type ${tableName} to confirm`} htmlFor="delete-table-confirm">
        <Input id="delete-table-confirm" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
      </Field>
      {error && <ErrorBanner message={error} />}
    </Dialog>
  );
}
