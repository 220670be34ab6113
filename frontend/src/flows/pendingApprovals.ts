/** The approvals and input requests waiting for the signed-in user (the navigation's count and the approvals
 * inbox share them). */

import { call } from "../lib/api";
import type { PendingApproval, PendingInput } from "./flowApi";

export const PENDING_APPROVALS_KEY = ["flow-approvals"];

export const fetchPendingApprovals = (): Promise<PendingApproval[]> =>
  call<PendingApproval[]>("huf.api.flows.list_pending_approvals", {}, "GET");

export const PENDING_INPUTS_KEY = ["flow-inputs"];

export const fetchPendingInputs = (): Promise<PendingInput[]> =>
  call<PendingInput[]>("huf.api.flows.list_pending_inputs", {}, "GET");
