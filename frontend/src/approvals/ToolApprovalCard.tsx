import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, Card, ErrorBanner } from "../components/ui";
import CommentField from "./CommentField";
import { errorMessage } from "../lib/api";
import { formatDate } from "../lib/format";
import { showValue } from "../flows/runState";
import { DECISION_LABELS, decideToolApproval, type PendingToolApproval, type ToolDecision } from "./toolApprovals";

/** One tool call waiting for the signed-in approver: what the agent wants to run, and the four decisions. */
export default function ToolApprovalCard({ item, onDecided }: { item: PendingToolApproval; onDecided: (text: string) => void }) {
  const [comment, setComment] = useState("");
  const decide = useMutation({
    mutationFn: (decision: ToolDecision) => decideToolApproval(item.approval_id, decision, comment),
    onSuccess: (_answer, decision) => onDecided(`${DECISION_LABELS[decision]}: ${item.tool_name} for ${item.agent}.`),
  });
  const id = `tool-comment-${item.approval_id}`;
  return (
    <Card className="space-y-3">
      <article aria-label={`Tool call ${item.tool_name} of ${item.agent}`} data-testid="tool-approval" data-approval={item.approval_id} className="space-y-3">
        <header>
          <h2 className="font-semibold">
            {item.agent} wants to run {item.tool_name}
          </h2>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {item.user ? `For ${item.user}` : "Run"}
            {item.agent_run_id ? ` · run ${item.agent_run_id}` : ""}
            {item.requested_at ? ` · asked ${formatDate(item.requested_at)}` : ""}
          </p>
          {item.expires_at && <p className="text-xs text-amber-700 dark:text-amber-400">Counts as not approved after {formatDate(item.expires_at)}.</p>}
        </header>
        {item.prompt && <p className="whitespace-pre-wrap text-sm">“{item.prompt}”</p>}
        <div>
          <p className="text-sm font-medium">Arguments</p>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100" data-testid="tool-approval-arguments">
            {showValue(item.arguments ?? {})}
          </pre>
        </div>
        <CommentField id={id} value={comment} onChange={setComment} />
        <div className="flex flex-wrap gap-2">
          {(["approve", "approve_conversation", "approve_always"] as const).map((decision) => (
            <Button key={decision} variant={decision === "approve" ? undefined : "secondary"} onClick={() => decide.mutate(decision)} disabled={decide.isPending}>
              {DECISION_LABELS[decision]}
            </Button>
          ))}
          <Button variant="danger" onClick={() => decide.mutate("deny")} disabled={decide.isPending}>
            Deny
          </Button>
        </div>
        {decide.error && <ErrorBanner message={errorMessage(decide.error)} />}
      </article>
    </Card>
  );
}
