/** The approvals waiting for the signed-in user, read again when a live event says a request came or was decided. */

import { useQueryClient } from "@tanstack/react-query";
import { PENDING_APPROVALS_KEY } from "../flows/pendingApprovals";
import { useHufEvents } from "../lib/hufEvents";
import { TOOL_APPROVALS_KEY } from "./toolApprovals";

/** Refetch both inboxes on every approval event; answers whether the live stream is connected. */
export function useLiveApprovals(): boolean {
  const queryClient = useQueryClient();
  return useHufEvents("approval", () => {
    void queryClient.invalidateQueries({ queryKey: TOOL_APPROVALS_KEY });
    void queryClient.invalidateQueries({ queryKey: PENDING_APPROVALS_KEY });
  });
}
