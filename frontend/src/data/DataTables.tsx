import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { Button, EmptyState, ErrorBanner, Notice, PageHeader, Spinner, Table } from "../components/ui";
import { errorMessage } from "../lib/api";
import { hasCapability } from "../lib/boot";
import { formatDate, formatNumber } from "../lib/format";
import { getTableRecordCounts, listDataTables, tablesKey, type TableSummary } from "./dataApi";
import { DeleteTableDialog } from "./DeleteTableDialog";
import { TableIcon } from "./TableIcon";

/** /huf/data: the data tables the user may see, with live record counts. */
export default function DataTables() {
  const queryClient = useQueryClient();
  const manage = hasCapability("data.tables.manage");
  const [deleting, setDeleting] = useState<TableSummary | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const tables = useQuery({ queryKey: tablesKey, queryFn: listDataTables });
  const names = (tables.data ?? []).map((t) => t.name);
  // refetchInterval pauses while the page is hidden (react-query's default)
  const counts = useQuery({
    queryKey: ["data-table-counts", names],
    queryFn: () => getTableRecordCounts(names),
    enabled: names.length > 0,
    refetchInterval: 10_000,
  });
  const countOf = (t: TableSummary) => counts.data?.[t.name] ?? t.record_count;

  return (
    <div className="max-w-6xl space-y-4">
      <PageHeader
        title="Data tables"
        description="Your own tables of records, for people and agents."
        actions={
          manage ? (
            <Link to="/data/new" className="inline-flex items-center rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">
              New table
            </Link>
          ) : undefined
        }
      />
      {notice && <Notice message={notice} />}
      {tables.isLoading ? (
        <Spinner />
      ) : tables.error ? (
        <ErrorBanner title="The tables could not be loaded" message={errorMessage(tables.error)} />
      ) : !tables.data?.length ? (
        <EmptyState
          title="No data tables yet"
          description={manage ? "Design a table, then add records by hand, from a CSV file or through an agent." : "Ask a manager to create one."}
          action={
            manage ? (
              <Link to="/data/new" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                New table
              </Link>
            ) : undefined
          }
        />
      ) : (
        <Table head={["Table", "Fields", "Records", "Changed", ""]}>
          {tables.data.map((t) => (
            <tr key={t.name} data-testid="data-table-row" aria-label={t.table_name}>
              <td className="px-3 py-2">
                <div className="flex items-start gap-2">
                  <TableIcon icon={t.icon} />
                  <div>
                    <Link className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" to={`/data/${encodeURIComponent(t.name)}`}>
                      {t.table_name}
                    </Link>
                    {t.description && <p className="text-xs text-slate-500">{t.description}</p>}
                  </div>
                </div>
              </td>
              <td className="px-3 py-2">{formatNumber(t.field_count)}</td>
              <td className="px-3 py-2" data-testid="record-count">
                {formatNumber(countOf(t))}
              </td>
              <td className="px-3 py-2 text-xs">{formatDate(t.modified)}</td>
              <td className="px-3 py-2">
                {manage && (
                  <div className="flex justify-end gap-1">
                    <Link className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800" to={`/data/${encodeURIComponent(t.name)}/schema`} aria-label={`Edit fields of ${t.table_name}`}>
                      Edit fields
                    </Link>
                    <Button variant="ghost" aria-label={`Delete ${t.table_name}`} onClick={() => setDeleting(t)}>
                      Delete
                    </Button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {deleting && (
        <DeleteTableDialog
          name={deleting.name}
          tableName={deleting.table_name}
          recordCount={countOf(deleting)}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setNotice(`The table ${deleting.table_name} was deleted.`);
            setDeleting(null);
            void queryClient.invalidateQueries({ queryKey: tablesKey });
          }}
        />
      )}
    </div>
  );
}
