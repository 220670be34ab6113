/** A sent message whose run waits behind an earlier run of the conversation: followed until it has run. */

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { historyKey } from "../chat/chatApi";
import { fetchRunStatus, hasEnded, runStatusKey } from "../lib/approvalWait";
import { LIVE_POLL_MS, pollWhileInFlight } from "../lib/liveRuns";

export function QueuedTurnNotice({ runId, note, conversation }: { runId: string; note?: string; conversation: string }) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: runStatusKey(runId),
    queryFn: () => fetchRunStatus(runId),
    refetchInterval: (query) => (hasEnded(query.state.data?.status) ? false : pollWhileInFlight([query.state.data?.status]) || LIVE_POLL_MS),
    refetchOnWindowFocus: true,
    retry: false,
  });
  const ended = hasEnded(status.data?.status);
  useEffect(() => {
    // its answer (or failure) is stored now: the history brings it, and the page drops this turn
    if (ended) void queryClient.invalidateQueries({ queryKey: historyKey(conversation) });
  }, [ended, conversation, queryClient]);
  return (
    <div role="status" data-testid="queued-turn" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200">
      <p className="font-medium">Queued: this message runs after the earlier one.</p>
      {note && <p className="mt-1 text-slate-600 dark:text-slate-300">{note}</p>}
    </div>
  );
}
