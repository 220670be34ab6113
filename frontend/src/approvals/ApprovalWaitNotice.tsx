import { ShieldCheck } from "lucide-react";
import { Link } from "react-router-dom";
import { isWaiting } from "../lib/liveRuns";
import { hasCapability } from "../lib/boot";
import type { ApprovalWait } from "../lib/approvalWait";
import ClientCallNotice from "../clientTools/ClientCallNotice";

/** The chat's turn whose run waits for an approver (with the way to the inbox for those who may decide), or goes on after the decision. */
export default function ApprovalWaitNotice({ wait }: { wait: ApprovalWait }) {
  if (wait.client && isWaiting(wait.status)) return <ClientCallNotice tool={wait.tool} />;
  if (!isWaiting(wait.status)) {
    return (
      <p role="status" data-testid="run-activity" className="animate-pulse text-sm text-slate-600 dark:text-slate-300">
        The agent is working on the answer…
      </p>
    );
  }
  return (
    <div className="flex">
      <div
        role="status"
        data-testid="approval-wait"
        data-run={wait.runId}
        className="max-w-[85%] space-y-1 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
      >
        <p className="flex items-center gap-1.5 font-semibold">
          <ShieldCheck size={16} aria-hidden="true" />
          Waiting for approval by an approver
        </p>
        <p>
          The agent wants to run <span className="font-mono" data-testid="approval-wait-tool">{wait.tool || "a tool"}</span>. The answer shows here once the call is
          decided; new messages in this conversation wait until then.
        </p>
        {hasCapability("tools.approve") && (
          <Link to="/approvals" className="inline-block font-medium text-amber-900 underline underline-offset-2 hover:no-underline dark:text-amber-100">
            Open the Approvals inbox
          </Link>
        )}
      </div>
    </div>
  );
}
