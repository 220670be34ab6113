import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { Markdown } from "../components/Markdown";
import { AnswerBody } from "../components/blocks/ContentBlocks";
import { Badge, Card, ErrorBanner, PageHeader, Spinner } from "../components/ui";
import { errorMessage, getDoc, getList } from "../lib/api";
import { agentRunKey, cancelAgentRun } from "./executionsApi";
import { useFlowRun } from "../flows/RunPanel";
import { flowApi, flowKeys } from "../flows/flowApi";
import { CancelledBy, CancelRunForm } from "../components/CancelRunForm";
import { getBoot, hasCapability } from "../lib/boot";
import { formatCost, formatDate, formatNumber } from "../lib/format";
import { elapsedSeconds, formatElapsed, isInFlight, isWaiting, pollWhileInFlight } from "../lib/liveRuns";
import { useNow } from "../lib/useNow";
import { OrchestrationPanel } from "../orchestration/OrchestrationPanel";
import { MESSAGE_FIELDS, ToolCallRow, toItems, type Message } from "../components/messages";

interface Run {
  name: string;
  agent: string;
  status: string;
  conversation: string | null;
  user: string | null;
  provider: string | null;
  model: string | null;
  start_time: string | null;
  end_time: string | null;
  prompt: string | null;
  response: string | null;
  error_message: string | null;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  total_cost: number;
  creation: string;
  flow_run: string | null;
  cancelled_by: string | null;
  cancelled_at: string | null;
}


function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <p className="text-xs text-slate-500">{label}</p>
      <p className="font-medium" data-testid={`run-${label.toLowerCase().replace(/\W+/g, "-")}`}>
        {value}
      </p>
    </div>
  );
}

/** While the run is queued or running: how long it has been, counted every second. */
function Elapsed({ run }: { run: Run }) {
  const live = isInFlight(run.status);
  const now = useNow(live);
  const seconds = elapsedSeconds(run.status === "Started" ? (run.start_time ?? run.creation) : run.creation, now);
  if (!live || seconds === null) return null;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300" data-testid="run-elapsed">
      <span className="h-2 w-2 animate-pulse rounded-full bg-amber-500" aria-hidden="true" />
      {run.status === "Queued" ? "Waiting in the queue for" : "Running for"} {formatElapsed(seconds)}
    </p>
  );
}

/** Cancels a run in flight or waiting for an approval, for good: offered to its user and to holders of
 * chat.view_all (Huf Managers, System Managers), as the server allows. */
function CancelRun({ run }: { run: Run }) {
  const queryClient = useQueryClient();
  const boot = getBoot();
  if (!isInFlight(run.status) && !isWaiting(run.status)) return null;
  if (boot.user === "Guest" || (run.user !== boot.user && !hasCapability("chat.view_all", boot))) return null;
  return (
    <CancelRunForm
      onCancel={async (reason) => {
        await cancelAgentRun(run.name, reason);
        await queryClient.invalidateQueries({ queryKey: agentRunKey(run.name) });
      }}
    />
  );
}

/** The flow run this run is a step of, followed while it runs or waits; it may be cancelled from here. */
function FlowRunLine({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const flow = useFlowRun(id);
  if (!flow.data) return null;
  const f = flow.data;
  return (
    <div className="space-y-2" data-testid="run-flow">
      <p className="text-sm">
        Step of flow run{" "}
        <Link className="text-indigo-700 underline dark:text-indigo-300" to={`/flow-runs/${encodeURIComponent(f.flow_run_id)}`}>
          {f.flow_run_id}
        </Link>{" "}
        <span data-testid="flow-run-status">
          <Badge>{f.status}</Badge>
        </span>{" "}
        <Link className="text-indigo-700 underline dark:text-indigo-300" to={`/flows/${encodeURIComponent(f.flow_id)}`}>
          Open the flow
        </Link>
      </p>
      {f.can_cancel && (
        <CancelRunForm
          what="flow run"
          onCancel={async (reason) => {
            await flowApi.cancel(f.flow_run_id, reason || undefined);
            await queryClient.invalidateQueries({ queryKey: flowKeys.run(f.flow_run_id) });
          }}
        />
      )}
      <CancelledBy by={f.cancelled_by} at={f.cancelled_at} />
    </div>
  );
}

export default function ExecutionDetail() {
  const { name = "" } = useParams();
  // a run still queued or running is read again every 2 s (status, usage, its steps) until it finishes
  const run = useQuery({
    queryKey: agentRunKey(name),
    queryFn: () => getDoc<Run>("Agent Run", name),
    refetchInterval: (query) => pollWhileInFlight([query.state.data?.status]),
  });
  const status = run.data?.status;
  const messages = useQuery({
    // keyed by the status too: the messages are read once more when the run finishes
    queryKey: ["run-messages", name, status],
    placeholderData: keepPreviousData,
    enabled: Boolean(status),
    refetchInterval: pollWhileInFlight([status]),
    queryFn: () =>
      getList<Message>("Agent Message", {
        fields: MESSAGE_FIELDS,
        filters: { agent_run: name },
        order_by: "conversation_index asc",
        limit: 500,
      }),
  });

  if (run.isLoading) return <Spinner />;
  if (run.error || !run.data) return <ErrorBanner title="This run could not be opened" message={errorMessage(run.error)} />;
  const r = run.data;
  const items = toItems(messages.data ?? []);
  const seconds = r.start_time && r.end_time ? (new Date(r.end_time.replace(" ", "T")).getTime() - new Date(r.start_time.replace(" ", "T")).getTime()) / 1000 : null;

  return (
    <div className="max-w-5xl space-y-4">
      <PageHeader
        title={`Run of ${r.agent}`}
        description={formatDate(r.creation)}
        actions={
          <div className="flex items-start gap-2">
            <CancelRun run={r} />
            <Link to="/executions" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
              All runs
            </Link>
          </div>
        }
      />
      <Card className="space-y-3">
        <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
          <div>
            <p className="text-xs text-slate-500">Status</p>
            <span aria-live="polite" data-testid="run-status">
              <Badge>{r.status}</Badge>
            </span>
          </div>
          <Stat label="Model" value={r.model ?? "—"} />
          <Stat label="Input tokens" value={formatNumber(r.input_tokens)} />
          <Stat label="Output tokens" value={formatNumber(r.output_tokens)} />
          <Stat label="Total tokens" value={formatNumber(r.total_tokens)} />
          <Stat label="Cost" value={formatCost(r.total_cost)} />
          <Stat label="User" value={r.user ?? "—"} />
          <Stat label="Duration" value={seconds === null ? "—" : `${seconds.toFixed(1)} s`} />
          <Stat label="Cached tokens" value={formatNumber(r.cached_tokens)} />
        </div>
        <Elapsed run={r} />
        <CancelledBy by={r.cancelled_by} at={r.cancelled_at} />
        {r.flow_run && <FlowRunLine id={r.flow_run} />}
      </Card>
      {r.error_message && <ErrorBanner title="Error" message={r.error_message} />}
      <OrchestrationPanel run={r.name} runUser={r.user} />
      <Card className="space-y-3">
        <h2 className="font-semibold">Conversation</h2>
        {messages.error && <ErrorBanner message={errorMessage(messages.error)} />}
        {items.length === 0 ? (
          <>
            {r.prompt && <p className="whitespace-pre-wrap rounded-md bg-indigo-50 p-2 text-sm dark:bg-indigo-950">{r.prompt}</p>}
            {r.response && <Markdown text={r.response} />}
          </>
        ) : (
          items.map((item) =>
            item.kind === "tool" ? (
              <ToolCallRow key={item.key} call={item.call} />
            ) : (
              <div key={item.m.name} className={item.kind === "user" ? "rounded-md bg-indigo-50 p-2 text-sm dark:bg-indigo-950" : "text-sm"}>
                <p className="mb-1 text-xs font-medium text-slate-500">{item.kind === "user" ? "Prompt" : "Answer"}</p>
                {item.kind === "user" ? <p className="whitespace-pre-wrap">{item.m.content}</p> : <AnswerBody content={item.m.content} blocks={item.m.content_blocks} />}
              </div>
            ),
          )
        )}
        {isInFlight(r.status) && <Spinner label={r.status === "Queued" ? "Waiting for its turn…" : "Working on it…"} />}
        {r.conversation && (
          <Link className="text-sm text-indigo-600 hover:underline dark:text-indigo-400" to={`/chat/${encodeURIComponent(r.agent)}/${encodeURIComponent(r.conversation)}`}>
            Open the conversation
          </Link>
        )}
      </Card>
    </div>
  );
}
