import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ChangeEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { FilterSelect } from "../components/FilterSelect";
import { Badge, Button, EmptyState, ErrorBanner, Input, Notice, PageHeader, Spinner, Table, Textarea } from "../components/ui";
import { ApiError, errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { formatDate } from "../lib/format";
import type { Problem } from "../flows/definition";
import { Dialog } from "../flows/Dialog";
import { FieldShell, TextField } from "../flows/fields";
import { FLOW_ID_PATTERN, FLOW_STATUSES, flowApi, flowIdFrom, flowKeys, type FlowSummary } from "../flows/flowApi";
import { checkImport, groupProblems, mergeProblems, type ImportCheck } from "../flows/importCheck";

function download(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function NewFlowDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [id, setId] = useState("");
  const [idTouched, setIdTouched] = useState(false);
  const [category, setCategory] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const flowId = idTouched ? id : flowIdFrom(name);
  const idProblem = flowId && !FLOW_ID_PATTERN.test(flowId) ? "Use letters, digits, - and _ (starting with a letter or digit)." : undefined;
  const queryClient = useQueryClient();
  // saved at once as an empty draft, then opened: the editor never shows a flow the server does not have
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const flow = await flowApi.create({ flow_id: flowId, flow_name: name.trim(), ...(category.trim() ? { category: category.trim() } : {}) });
      queryClient.setQueryData(flowKeys.flow(flow.flow_id), flow);
      void queryClient.invalidateQueries({ queryKey: flowKeys.flows });
      navigate(`/flows/${encodeURIComponent(flow.flow_id)}`, { state: { webhookKey: flow.webhook_key } });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Dialog
      title="New flow"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void create()} disabled={!name.trim() || !flowId || Boolean(idProblem) || busy}>
            {busy ? "Creating…" : "Create"}
          </Button>
        </>
      }
    >
      <TextField label="Name" required value={name} onChange={setName} placeholder="Refund approval" />
      <TextField
        label="Flow ID"
        required
        mono
        value={flowId}
        onChange={(v) => {
          setIdTouched(true);
          setId(v);
        }}
        problem={idProblem}
        help="Used in the webhook URL and by agents; it cannot be changed later."
      />
      <TextField label="Category" value={category} onChange={setCategory} placeholder="e.g. Support" />
      {error && <ErrorBanner message={error} />}
    </Dialog>
  );
}

function ImportDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [serverError, setServerError] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);

  const runCheck = async (value: string) => {
    const local = checkImport(value);
    setCheck(local);
    setServerProblems([]);
    setServerError([]);
    if (!local.definition) return;
    // the server's own rules (its expression evaluator included); the imported flow takes the file's id
    setChecking(true);
    try {
      const answer = await flowApi.validate({ ...local.definition, id: local.flowId ?? local.definition.id });
      setServerProblems(answer.errors ?? []);
    } catch (e) {
      setServerError([`The server could not check the file: ${errorMessage(e)}`]);
    } finally {
      setChecking(false);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const content = await file.text();
    setText(content);
    void runCheck(content);
  };

  const doImport = useMutation({
    mutationFn: () => flowApi.importFlow(check?.data ?? {}),
    onSuccess: (flow) => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.flows });
      navigate(`/flows/${encodeURIComponent(flow.flow_id)}`);
    },
    onError: (e) => setServerError(e instanceof ApiError ? e.messages : [errorMessage(e)]),
  });

  const problems = check ? mergeProblems(check.problems, serverProblems) : [];
  const blocking = problems.filter((p) => !p.field);
  return (
    <Dialog
      title="Import a flow"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="secondary" onClick={() => void runCheck(text)} disabled={!text.trim() || checking}>
            {checking ? "Checking…" : "Check"}
          </Button>
          <Button onClick={() => doImport.mutate()} disabled={!check?.definition || blocking.length > 0 || checking || doImport.isPending}>
            {doImport.isPending ? "Importing…" : "Import"}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">Choose a file exported from Huf, or paste its JSON. The flow is imported as a draft; an id in use gets a number added.</p>
      <FieldShell id="import-file" label="File">
        <input id="import-file" type="file" accept=".json,application/json" onChange={(e) => void onFile(e)} className="block text-sm" />
      </FieldShell>
      <FieldShell id="import-text" label="JSON">
        <Textarea
          id="import-text"
          rows={8}
          className="font-mono text-xs"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setCheck(null);
          }}
          spellCheck={false}
        />
      </FieldShell>
      {serverError.length > 0 && (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
          <ul className="list-disc pl-5">
            {serverError.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {check && problems.length === 0 && !checking && <Notice message={`No problems found in ${check.flowName ?? check.flowId ?? "this flow"}.`} />}
      {problems.length > 0 && (
        <div role="alert" aria-label="Problems in the file" className="space-y-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200" data-testid="import-problems">
          <p className="font-semibold">{blocking.length ? "This flow cannot be imported:" : "The flow can be imported, but some steps are incomplete:"}</p>
          {groupProblems(problems).map(([place, messages]) => (
            <div key={place} data-testid="import-problem-group" data-place={place}>
              <p className="font-medium">{place}</p>
              <ul className="list-disc pl-5">
                {messages.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </Dialog>
  );
}

function DuplicateDialog({ flow, onClose, onDone }: { flow: FlowSummary; onClose: () => void; onDone: (id: string) => void }) {
  const [id, setId] = useState(`${flow.flow_id}-copy`);
  const duplicate = useMutation({ mutationFn: () => flowApi.duplicate(flow.flow_id, id.trim()), onSuccess: (copy) => onDone(copy.flow_id) });
  const problem = id && !FLOW_ID_PATTERN.test(id) ? "Use letters, digits, - and _." : undefined;
  return (
    <Dialog
      title={`Duplicate “${flow.flow_name || flow.flow_id}”`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => duplicate.mutate()} disabled={!id.trim() || Boolean(problem) || duplicate.isPending}>
            {duplicate.isPending ? "Duplicating…" : "Duplicate"}
          </Button>
        </>
      }
    >
      <TextField label="ID of the copy" required mono value={id} onChange={setId} problem={problem} help="The copy is a draft with its own webhook key." />
      {duplicate.error && <ErrorBanner message={errorMessage(duplicate.error)} />}
    </Dialog>
  );
}

function DeleteDialog({ flow, onClose, onDone }: { flow: FlowSummary; onClose: () => void; onDone: () => void }) {
  const remove = useMutation({ mutationFn: () => flowApi.remove(flow.flow_id), onSuccess: onDone });
  return (
    <ConfirmDialog
      title="Delete flow"
      message={
        <>
          <p>
            Delete the flow <strong>{flow.flow_name || flow.flow_id}</strong> ({flow.flow_id})? This cannot be undone. A flow that has runs cannot be deleted: archive it instead.
          </p>
          {remove.error && <ErrorBanner message={errorMessage(remove.error)} />}
        </>
      }
      confirmLabel={remove.isPending ? "Deleting…" : `Delete ${flow.flow_name || flow.flow_id}`}
      busy={remove.isPending}
      destructive
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    />
  );
}

/** /flows: every flow the user may see, with search, category and status filters, and their actions. */
export default function Flows() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  const [category, setCategory] = useState("");
  const [status, setStatus] = useState("");
  const [dialog, setDialog] = useState<{ kind: "new" | "import" | "duplicate" | "delete"; flow?: FlowSummary } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setTerm(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);

  const list = useQuery({
    queryKey: flowKeys.list(term, category, status),
    queryFn: () => flowApi.list({ search: term || undefined, category: category || undefined, status: status || undefined }),
  });
  const all = useQuery({ queryKey: flowKeys.list("", "", ""), queryFn: () => flowApi.list() });
  const categories = [...new Set((all.data ?? []).map((f) => f.category).filter((c): c is string => Boolean(c)))].sort();
  const canCreate = can("Flow Definition", "create");
  const canDelete = can("Flow Definition", "delete");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: flowKeys.flows });
  const close = () => setDialog(null);

  const exportFlow = async (flow: FlowSummary) => {
    setActionError(null);
    try {
      download(`${flow.flow_id}.flow.json`, await flowApi.exportFlow(flow.flow_id));
    } catch (e) {
      setActionError(errorMessage(e));
    }
  };

  const rows = list.data ?? [];
  const filtered = Boolean(term || category || status);
  return (
    <div>
      <PageHeader
        title="Flows"
        description="Workflows that mix agents, tools, approvals and web requests, built on a canvas."
        actions={
          <>
            {can("Flow Run", "read") && (
              <Link to="/flow-runs" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                Flow runs
              </Link>
            )}
            {canCreate && (
              <>
                <Button variant="secondary" onClick={() => setDialog({ kind: "import" })}>
                  Import
                </Button>
                <Button onClick={() => setDialog({ kind: "new" })}>New flow</Button>
              </>
            )}
          </>
        }
      />
      <div className="mb-3 flex flex-wrap gap-2">
        <div className="w-64">
          <Input type="search" placeholder="Search flows…" aria-label="Search flows" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="w-48">
          <FilterSelect label="Category" allLabel="All categories" value={category} values={categories} onChange={setCategory} />
        </div>
        <div className="w-40">
          <FilterSelect label="Status" allLabel="Any status" value={status} values={FLOW_STATUSES} onChange={setStatus} />
        </div>
      </div>
      {notice && (
        <div className="mb-3">
          <Notice message={notice} />
        </div>
      )}
      {actionError && (
        <div className="mb-3">
          <ErrorBanner message={actionError} />
        </div>
      )}
      {list.error ? (
        <ErrorBanner title="The flows could not be loaded" message={errorMessage(list.error)} />
      ) : list.isLoading ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState
          title={filtered ? "No flows match" : "No flows yet"}
          description={filtered ? "Try another search, category or status." : "A flow runs steps one after another: a trigger, agents, tools, approvals, and an end."}
          action={!filtered && canCreate ? <Button onClick={() => setDialog({ kind: "new" })}>New flow</Button> : undefined}
        />
      ) : (
        <Table head={["Flow", "Category", "Status", "Version", "Updated", ""]}>
          {rows.map((flow) => (
            <tr key={flow.flow_id} data-testid="flow-row" data-flow-id={flow.flow_id}>
              <td className="px-3 py-2">
                <Link className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" to={`/flows/${encodeURIComponent(flow.flow_id)}`}>
                  {flow.flow_name || flow.flow_id}
                </Link>
                <p className="text-xs text-slate-500">
                  {flow.flow_id}
                  {flow.description ? ` · ${flow.description}` : ""}
                </p>
              </td>
              <td className="px-3 py-2">{flow.category || "—"}</td>
              <td className="px-3 py-2">
                <Badge color={flow.status === "Archived" ? "gray" : flow.status === "Draft" ? "blue" : undefined}>{flow.status}</Badge>
              </td>
              <td className="px-3 py-2">{flow.version}</td>
              <td className="px-3 py-2">{formatDate(flow.updated_at ?? flow.modified)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right">
                <Button variant="ghost" onClick={() => void exportFlow(flow)} aria-label={`Export ${flow.flow_name || flow.flow_id}`}>
                  Export
                </Button>
                {canCreate && (
                  <Button variant="ghost" onClick={() => setDialog({ kind: "duplicate", flow })} aria-label={`Duplicate ${flow.flow_name || flow.flow_id}`}>
                    Duplicate
                  </Button>
                )}
                {canDelete && (
                  <Button variant="ghost" className="text-red-600 dark:text-red-400" onClick={() => setDialog({ kind: "delete", flow })} aria-label={`Delete ${flow.flow_name || flow.flow_id}`}>
                    Delete
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {dialog?.kind === "new" && <NewFlowDialog onClose={close} />}
      {dialog?.kind === "import" && <ImportDialog onClose={close} />}
      {dialog?.kind === "duplicate" && dialog.flow && (
        <DuplicateDialog
          flow={dialog.flow}
          onClose={close}
          onDone={(id) => {
            close();
            setNotice(`Copied as ${id}.`);
            refresh();
          }}
        />
      )}
      {dialog?.kind === "delete" && dialog.flow && (
        <DeleteDialog
          flow={dialog.flow}
          onClose={close}
          onDone={() => {
            setNotice(`Deleted ${dialog.flow?.flow_name || dialog.flow?.flow_id}.`);
            close();
            refresh();
          }}
        />
      )}
    </div>
  );
}
