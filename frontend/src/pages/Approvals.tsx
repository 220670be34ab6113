import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, Card, EmptyState, ErrorBanner, Notice, PageHeader, Spinner } from "../components/ui";
import CommentField from "../approvals/CommentField";
import { errorMessage } from "../lib/api";
import { formatDate } from "../lib/format";
import { flowApi, type NodeState, type PendingApproval, type PendingInput } from "../flows/flowApi";
import { InputRequestForm } from "../flows/InputRequestForm";
import { fetchPendingApprovals, fetchPendingInputs, PENDING_APPROVALS_KEY, PENDING_INPUTS_KEY } from "../flows/pendingApprovals";
import { showValue } from "../flows/runState";
import ToolApprovalCard from "../approvals/ToolApprovalCard";
import { WaitingRunHeader, WaitingRunPayload } from "../approvals/WaitingRun";
import { fetchPendingToolApprovals, TOOL_APPROVALS_KEY } from "../approvals/toolApprovals";
import { useLiveApprovals } from "../approvals/liveApprovals";
import { liveInterval } from "../lib/hufEvents";

function ApprovalCard({ item, onDecided }: { item: PendingApproval; onDecided: (text: string) => void }) {
  const [comment, setComment] = useState("");
  const decide = useMutation({
    mutationFn: (decision: "approve" | "reject") => (decision === "approve" ? flowApi.approve(item.flow_run_id, comment) : flowApi.reject(item.flow_run_id, comment)),
    onSuccess: (_answer, decision) => onDecided(`${decision === "approve" ? "Approved" : "Rejected"}: ${item.flow_name || item.flow_id} (run ${item.flow_run_id}).`),
  });
  const id = `comment-${item.flow_run_id}`;
  const nodes = (item.context?.nodes ?? {}) as Record<string, NodeState>;
  const steps = Object.entries(nodes).filter(([id, entry]) => id !== item.node_id && entry && typeof entry === "object");
  return (
    <Card className="space-y-3">
      <article aria-label={`Approval for ${item.flow_name || item.flow_id}`} data-testid="approval" data-flow-run={item.flow_run_id} className="space-y-3">
        <WaitingRunHeader item={item}>
          {item.timeout_at && <p className="text-xs text-amber-700 dark:text-amber-400">Counts as rejected after {formatDate(item.timeout_at)}.</p>}
        </WaitingRunHeader>
        {item.message && <p className="whitespace-pre-wrap text-sm" data-testid="approval-message">{item.message}</p>}
        <WaitingRunPayload item={item} testId="approval-payload" />
        {steps.length > 0 && (
          <details>
            <summary className="cursor-pointer text-sm text-slate-600 dark:text-slate-300">What the steps before produced</summary>
            <dl className="mt-2 space-y-2 text-xs">
              {steps.map(([id, entry]) => (
                <div key={id}>
                  <dt className="font-medium">
                    {id} <span className="text-slate-500">({entry.status})</span>
                  </dt>
                  <dd>
                    <pre className="max-h-40 overflow-auto rounded bg-slate-900 p-2 text-slate-100">{showValue(entry.error ?? entry.output ?? null)}</pre>
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        )}
        <CommentField id={id} value={comment} onChange={setComment} />
        <div className="flex gap-2">
          <Button onClick={() => decide.mutate("approve")} disabled={decide.isPending}>
            Approve
          </Button>
          <Button variant="danger" onClick={() => decide.mutate("reject")} disabled={decide.isPending}>
            Reject
          </Button>
        </div>
        {decide.error && <ErrorBanner message={errorMessage(decide.error)} />}
      </article>
    </Card>
  );
}

/** A Wait for input step's form, for one of its assignees (or a manager) to fill in. */
function InputCard({ item, onAnswered }: { item: PendingInput; onAnswered: (text: string) => void }) {
  return (
    <Card className="space-y-3">
      <article aria-label={`Input for ${item.flow_name || item.flow_id}`} data-testid="input-request-card" data-flow-run={item.flow_run_id} className="space-y-3">
        <WaitingRunHeader item={item} />
        <WaitingRunPayload item={item} />
        <InputRequestForm
          request={{ flow_run_id: item.flow_run_id, title: item.title, instructions: item.instructions, fields: item.fields }}
          onAnswered={() => onAnswered(`Answered: ${item.title || item.flow_name || item.flow_id} (run ${item.flow_run_id}).`)}
        />
      </article>
    </Card>
  );
}

/** /approvals: the tool calls and flow runs waiting for the signed-in user's decision or input. */
export default function Approvals() {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const connected = useLiveApprovals(); // new and decided requests come as live events; polled without them
  const pending = useQuery({ queryKey: PENDING_APPROVALS_KEY, queryFn: fetchPendingApprovals, refetchInterval: liveInterval(connected, 15_000) });
  const items = pending.data ?? [];
  const tools = useQuery({ queryKey: TOOL_APPROVALS_KEY, queryFn: fetchPendingToolApprovals, refetchInterval: liveInterval(connected, 15_000) });
  const toolItems = tools.data ?? [];
  // input requests have no live event: read again every 15 s
  const inputs = useQuery({ queryKey: PENDING_INPUTS_KEY, queryFn: fetchPendingInputs, refetchInterval: 15_000 });
  const inputItems = inputs.data ?? [];
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader title="Approvals" description="Tool calls and flow runs that wait for your decision or input." />
      {notice && <Notice message={notice} />}
      {tools.error ? (
        <ErrorBanner title="The tool approvals could not be loaded" message={errorMessage(tools.error)} />
      ) : (
        toolItems.map((item) => (
          <ToolApprovalCard
            key={item.approval_id}
            item={item}
            onDecided={(text) => {
              setNotice(text);
              void queryClient.invalidateQueries({ queryKey: TOOL_APPROVALS_KEY });
            }}
          />
        ))
      )}
      {inputs.error ? (
        <ErrorBanner title="The input requests could not be loaded" message={errorMessage(inputs.error)} />
      ) : (
        inputItems.map((item) => (
          <InputCard
            key={item.flow_run_id}
            item={item}
            onAnswered={(text) => {
              setNotice(text);
              void queryClient.invalidateQueries({ queryKey: PENDING_INPUTS_KEY });
            }}
          />
        ))
      )}
      {pending.error ? (
        <ErrorBanner title="The approvals could not be loaded" message={errorMessage(pending.error)} />
      ) : pending.isLoading ? (
        <Spinner />
      ) : items.length === 0 && toolItems.length === 0 && inputItems.length === 0 ? (
        <EmptyState title="Nothing waits for you" description="When a tool call or a flow needs your approval or input, it shows up here." />
      ) : (
        items.map((item) => (
          <ApprovalCard
            key={item.flow_run_id}
            item={item}
            onDecided={(text) => {
              setNotice(text);
              void queryClient.invalidateQueries({ queryKey: PENDING_APPROVALS_KEY });
            }}
          />
        ))
      )}
    </div>
  );
}
