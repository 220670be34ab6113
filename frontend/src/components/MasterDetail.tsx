import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { errorMessage, getList } from "../lib/api";
import { can } from "../lib/boot";
import { confirmLeave } from "../lib/leaveGuard";
import { Button, EmptyState, ErrorBanner, PageHeader, Spinner, cx } from "./ui";

type Row = Record<string, unknown> & { name: string };

/** A list of records beside the editor of the selected one (or of a new one). Choosing another record
 * while the editor has unsaved changes asks first (lib/leaveGuard.ts); Cancel keeps the edits. */
export function MasterDetail({
  doctype,
  title,
  description,
  listFields,
  newLabel,
  emptyTitle,
  emptyDescription,
  renderRow,
  renderEditor,
  selected: controlled,
  onSelect,
}: {
  doctype: string;
  title: string;
  description: string;
  listFields: string[];
  newLabel: string;
  emptyTitle: string;
  emptyDescription: string;
  renderRow: (row: Row) => ReactNode;
  /** `name` null means a new record; `done` goes back to the list selection. */
  renderEditor: (name: string | null, select: (name: string | null | undefined) => void) => ReactNode;
  selected?: string | null | undefined;
  onSelect?: (name: string | null | undefined) => void;
}) {
  const [own, setOwn] = useState<string | null | undefined>(undefined);
  const selected = controlled !== undefined || onSelect ? controlled : own;
  const select = onSelect ?? setOwn;
  // another record (or a new one) replaces the form: unsaved edits in it are lost unless the user keeps them
  const choose = (next: string | null) => {
    if (next !== selected) void confirmLeave().then((leave) => leave && select(next));
  };
  const { data, isLoading, error } = useQuery({
    queryKey: ["list", doctype],
    queryFn: () => getList<Row>(doctype, { fields: ["name", ...listFields], order_by: "modified desc", limit: 500 }),
  });
  const rows = data ?? [];
  const canCreate = can(doctype, "create");
  return (
    <div>
      <PageHeader
        title={title}
        description={description}
        actions={canCreate ? <Button onClick={() => choose(null)}>{newLabel}</Button> : undefined}
      />
      {error && <ErrorBanner message={errorMessage(error)} />}
      <div className="grid gap-4 lg:grid-cols-[minmax(14rem,20rem)_1fr]">
        <div>
          {isLoading ? (
            <Spinner />
          ) : rows.length === 0 ? (
            <EmptyState title={emptyTitle} description={emptyDescription} />
          ) : (
            <ul className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={title}>
              {rows.map((row) => (
                <li key={row.name}>
                  <button
                    type="button"
                    onClick={() => choose(row.name)}
                    aria-current={selected === row.name ? "true" : undefined}
                    className={cx(
                      "block w-full px-3 py-2 text-left text-sm hover:bg-slate-50 dark:hover:bg-slate-800",
                      selected === row.name && "bg-indigo-50 dark:bg-indigo-950",
                    )}
                  >
                    {renderRow(row)}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>{selected !== undefined ? renderEditor(selected, select) : rows.length > 0 ? <p className="p-4 text-sm text-slate-500">Choose an item to see its details.</p> : null}</div>
      </div>
    </div>
  );
}
