/** The approvals waiting for the signed-in user (the navigation's count and the approvals inbox share it). */

import { call } from "../lib/api";
import type { PendingApproval } from "./flowApi";

export const PENDING_APPROVALS_KEY = ["flow-approvals"];

export const fetchPendingApprovals = (): Promise<PendingApproval[]> =>
  call<PendingApproval[]>("huf.api.flows.list_pending_approvals", {}, "GET");
