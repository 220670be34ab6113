import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { Markdown } from "../components/Markdown";
import { Badge, Card, ErrorBanner, PageHeader, Spinner } from "../components/ui";
import { errorMessage, getDoc, getList } from "../lib/api";
import { formatCost, formatDate, formatNumber } from "../lib/format";
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

export default function ExecutionDetail() {
  const { name = "" } = useParams();
  const run = useQuery({ queryKey: ["doc", "Agent Run", name], queryFn: () => getDoc<Run>("Agent Run", name) });
  const messages = useQuery({
    queryKey: ["run-messages", name],
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
          <Link to="/executions" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
            All runs
          </Link>
        }
      />
      <Card>
        <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
          <div>
            <p className="text-xs text-slate-500">Status</p>
            <Badge>{r.status}</Badge>
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
                {item.kind === "user" ? <p className="whitespace-pre-wrap">{item.m.content}</p> : <Markdown text={item.m.content ?? ""} />}
              </div>
            ),
          )
        )}
        {r.conversation && (
          <Link className="text-sm text-indigo-600 hover:underline dark:text-indigo-400" to={`/chat/${encodeURIComponent(r.agent)}/${encodeURIComponent(r.conversation)}`}>
            Open the conversation
          </Link>
        )}
      </Card>
    </div>
  );
}
