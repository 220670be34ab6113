/** Tool calls waiting for an approver (huf.api.approvals; docs/approvals.md). */

import { call } from "../lib/api";

const API = "huf.api.approvals";

export const TOOL_APPROVALS_KEY = ["tool-approvals"];

export type ToolDecision = "approve" | "approve_conversation" | "approve_always" | "deny";

export interface PendingToolApproval {
  approval_id: string;
  status: string;
  agent: string;
  tool_name: string;
  agent_run_id: string | null;
  conversation_id: string | null;
  user: string | null;
  arguments: unknown;
  arguments_hash: string;
  prompt: string | null;
  requested_at: string | null;
  expires_at: string | null;
}

export const DECISION_LABELS: Record<ToolDecision, string> = {
  approve: "Approve once",
  approve_conversation: "Approve for this conversation",
  approve_always: "Always approve this tool for this agent",
  deny: "Deny",
};

export const fetchPendingToolApprovals = (): Promise<PendingToolApproval[]> =>
  call<PendingToolApproval[]>(`${API}.list_pending_tool_approvals`, {}, "GET");

export const decideToolApproval = (approvalId: string, decision: ToolDecision, comment: string) =>
  call<{ approval_id: string; status: string; scope: string }>(`${API}.decide_tool_approval`, {
    approval_id: approvalId,
    decision,
    comment: comment || null,
  });
