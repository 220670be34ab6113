import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { PaperclipIcon, ThumbDownIcon, ThumbUpIcon } from "../components/icons";
import { Markdown } from "../components/Markdown";
import { AnswerBody, ContentBlocks } from "../components/blocks/ContentBlocks";
import { hideBlockSources, parseBlocks } from "../lib/blocks";
import { Button, EmptyState, ErrorBanner, Select, Spinner, Textarea, cx } from "../components/ui";
import { errorMessage, getList, uploadFile } from "../lib/api";
import { can } from "../lib/boot";
import { formatCost, plural } from "../lib/format";
import { streamAgent } from "../lib/stream";
import { applyEvent, endTurn, interleave, queuedIfStillRunning, retryOf, storedIn, turnActivity, type LiveTurn } from "../lib/turn";
import { QueuedTurnNotice } from "../components/QueuedTurnNotice";
import { MESSAGE_FIELDS, ToolCallRow, toItems, type Message } from "../components/messages";
import { MicButton } from "../components/MicButton";
import { fileName, withoutFileList } from "../lib/files";
import { fileKind } from "../lib/fileKinds";
import { messageLink } from "./MessageView";
import ApprovalWaitNotice from "../approvals/ApprovalWaitNotice";
import { fetchRunStatus, hasEnded, markWaitingItems, runStatusKey, statusOfWait, unansweredRun, waitOf } from "../lib/approvalWait";
import { liveInterval, useHufEvents } from "../lib/hufEvents";
import { ConversationFilters, ConversationList } from "../chat/ConversationList";
import { agentConversationsKey, conversationsKey, createConversation, historyKey, listConversations, rateMessage } from "../chat/chatApi";
import { isWaiting, pollWhileInFlight } from "../lib/liveRuns";
import { useClientToolCalls } from "../clientTools/useClientToolCalls";

function Feedback({ message }: { message: string }) {
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rate = async (feedback: string) => {
    setError(null);
    try {
      await rateMessage(message, feedback);
      setValue(feedback);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <div className="mt-1 flex items-center gap-1 text-xs">
      {(["Thumbs Up", "Thumbs Down"] as const).map((f) => (
        <button
          key={f}
          type="button"
          aria-label={f === "Thumbs Up" ? "Good answer" : "Bad answer"}
          aria-pressed={value === f}
          onClick={() => void rate(f)}
          className={cx("rounded px-1.5 py-0.5 hover:bg-slate-200 dark:hover:bg-slate-700", value === f && "bg-indigo-100 dark:bg-indigo-900")}
        >
          {f === "Thumbs Up" ? <ThumbUpIcon /> : <ThumbDownIcon />}
        </button>
      ))}
      {value && <span className="text-slate-500">Thanks for the feedback.</span>}
      {error && <span className="text-red-600">{error}</span>}
    </div>
  );
}

/** "Copy link" of one message: its shareable view at /huf/view/<message>. */
function CopyLink({ message }: { message: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(messageLink(message));
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2000);
  };
  return (
    <button type="button" className="rounded px-1.5 py-0.5 text-xs text-slate-500 hover:bg-slate-200 dark:hover:bg-slate-700" onClick={() => void copy()}>
      {state === "copied" ? "Link copied" : state === "failed" ? "Copy failed" : "Copy link"}
    </button>
  );
}

function UserBubble({ text, attachment }: { text: string; attachment?: string | null }) {
  return (
    <div className="flex justify-end">
      <div className="max-w-[80%] whitespace-pre-wrap rounded-lg bg-indigo-600 px-3 py-2 text-sm text-white" data-testid="user-message">
        {attachment ? withoutFileList(text, [fileName(attachment)]) : text}
        {attachment && (
          <p className="mt-1 flex flex-wrap items-center gap-1 text-xs" data-testid="user-attachment">
            <PaperclipIcon />
            <span className="rounded border border-white/70 px-1" data-testid="attachment-kind">
              {fileKind(attachment)}
            </span>
            <a href={attachment} target="_blank" rel="noreferrer" className="underline underline-offset-2 hover:no-underline" title={`Open ${fileName(attachment)}`}>
              {fileName(attachment)}
            </a>
          </p>
        )}
      </div>
    </div>
  );
}

/** An answer that failed, stored (an Error message) or only seen in this page, with Retry. */
function FailedAnswer({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="flex">
      <div
        role="alert"
        data-testid="failed-answer"
        className="max-w-[85%] rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200"
      >
        <p className="font-semibold">The agent couldn't answer</p>
        <p className="whitespace-pre-wrap">{message || "Something went wrong."}</p>
        {onRetry && (
          <Button variant="secondary" className="mt-2" onClick={onRetry}>
            Retry
          </Button>
        )}
      </div>
    </div>
  );
}

/** A turn that was stopped (by its user, or cancelled in Executions): said as Executions says it, not as an error. */
function CancelledAnswer({ message, onRetry }: { message?: string | null; onRetry?: () => void }) {
  return (
    <div className="flex">
      <div
        role="status"
        data-testid="cancelled-answer"
        className="max-w-[85%] rounded-lg border border-slate-300 bg-slate-100 px-3 py-2 text-sm text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
      >
        <p className="font-semibold">Cancelled</p>
        <p className="whitespace-pre-wrap text-slate-700 dark:text-slate-300">{message || "This answer was stopped before it finished."}</p>
        {onRetry && (
          <Button variant="secondary" className="mt-2" onClick={onRetry}>
            Ask again
          </Button>
        )}
      </div>
    </div>
  );
}

/** `wide`: an answer with content blocks takes the thread's width (tables and charts need the room). */
function AgentBubble({ children, testid, wide = false }: { children: ReactNode; testid?: string; wide?: boolean }) {
  return (
    <div className="flex">
      <div className={cx("min-w-0 max-w-[85%] rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900", wide && "w-full")} data-testid={testid}>
        {children}
      </div>
    </div>
  );
}

/** A turn of this page: the one streaming (its activity, then its text), or one the server did not store. */
function LiveTurnView({ turn, onRetry }: { turn: LiveTurn; onRetry?: () => void }) {
  const activity = turnActivity(turn);
  return (
    <>
      <UserBubble text={turn.prompt} attachment={turn.attachment} />
      {turn.tools.map((t) => (
        <ToolCallRow key={t.id} call={t} />
      ))}
      {turn.blocks?.length ? (
        <AgentBubble testid="live-answer" wide>
          <ContentBlocks blocks={turn.blocks} />
        </AgentBubble>
      ) : (
        turn.text && (
          <AgentBubble testid="live-answer">
            <Markdown text={hideBlockSources(turn.text)} />
          </AgentBubble>
        )
      )}
      {activity && (
        <p role="status" data-testid="turn-activity" className="animate-pulse text-sm text-slate-500 dark:text-slate-400">
          {activity}
        </p>
      )}
      {turn.state === "done" && turn.usage && (
        <p className="text-xs text-slate-500">
          {plural(turn.usage.total_tokens ?? 0, "token")} · {formatCost(turn.cost ?? 0)}
        </p>
      )}
      {turn.state === "failed" && <FailedAnswer message={turn.error ?? ""} onRetry={onRetry} />}
      {turn.state === "stopped" && <CancelledAnswer message="You stopped this answer." onRetry={onRetry} />}
      {turn.state === "waiting" && turn.approval && <ApprovalWaitNotice wait={turn.approval} />}
      {turn.state === "queued" && turn.runId && <QueuedTurnNotice runId={turn.runId} note={turn.note} conversation={turn.conversation} />}
    </>
  );
}

const historyQuery = (conversation: string | undefined) => ({
  queryKey: historyKey(conversation),
  queryFn: () =>
    getList<Message>("Agent Message", {
      fields: MESSAGE_FIELDS,
      filters: [
        ["conversation", "=", conversation],
        ["visibility", "not in", ["model_visible", "audit_only"]],
      ],
      order_by: "conversation_index asc",
      limit: 500,
    }),
});

export default function Chat() {
  const { agent, conversation } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canSend = can("Agent Conversation", "create");
  const [draft, setDraft] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [fileInput, setFileInput] = useState(0);
  // this page's turns not (yet) in the stored history: the one streaming, and those the server never stored
  const [turns, setTurns] = useState<LiveTurn[]>([]);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);
  const messageBox = useRef<HTMLTextAreaElement | null>(null);
  const [listOpen, setListOpen] = useState(false); // the conversation list of narrow screens

  const agents = useQuery({
    queryKey: ["chat-agents"],
    queryFn: () => getList<{ name: string; description: string | null }>("Agent", { fields: ["name", "description"], filters: { allow_chat: 1, disabled: 0 }, order_by: "name asc", limit: 500 }),
  });
  // the user's own chats; automated ones (flows, triggers, channels) on request, marked
  const [search, setSearch] = useState("");
  const [automated, setAutomated] = useState(false);
  const conversations = useQuery({
    queryKey: conversationsKey(agent, search, automated),
    enabled: Boolean(agent),
    queryFn: () => listConversations(agent ?? "", search, automated),
    // while a new search loads, the last one of this agent stays (not another agent's)
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === agent ? previous : undefined),
  });
  // the conversation itself, as the server lets this user see it (none: missing or someone else's)
  const opened = useQuery({
    queryKey: ["conversation", conversation],
    enabled: Boolean(conversation),
    queryFn: () => getList<{ name: string; agent: string }>("Agent Conversation", { fields: ["name", "agent"], filters: { name: conversation }, limit: 1 }),
  });
  const found = opened.data?.[0];
  const history = useQuery({ ...historyQuery(conversation), enabled: Boolean(found) });

  const live = turns.find((t) => t.state === "streaming");

  // the runs of stored failures: a Cancelled one is shown as cancelled, not as an error
  const failedRuns = [...new Set((history.data ?? []).filter((m) => m.kind === "Error" && m.agent_run).map((m) => m.agent_run as string))];
  const failedRunStates = useQuery({
    queryKey: ["chat-run-states", conversation, failedRuns.join(",")],
    enabled: failedRuns.length > 0,
    queryFn: () => getList<{ name: string; status: string }>("Agent Run", { fields: ["name", "status"], filters: [["name", "in", failedRuns]], limit: failedRuns.length }),
  });
  const cancelledRuns = new Set((failedRunStates.data ?? []).filter((r) => r.status === "Cancelled").map((r) => r.name));
  const failuresKnown = failedRuns.length === 0 || failedRunStates.isFetched;

  // the conversation's last run without an answer (waiting for a tool approval, or running in the background):
  // its status is read again until it ends, then the history brings its answer
  const unanswered = live ? null : unansweredRun(history.data ?? []);
  // a run of this conversation moved on (queued again after an approval, ended): read its status and the history
  const connected = useHufEvents("run", ({ message }) => {
    if (!conversation || message.conversation_id !== conversation) return;
    void queryClient.invalidateQueries({ queryKey: runStatusKey(String(message.agent_run_id ?? "")) });
    if (!live) void queryClient.invalidateQueries({ queryKey: historyKey(conversation) });
  });
  const runStatus = useQuery({
    queryKey: runStatusKey(unanswered),
    enabled: Boolean(unanswered),
    queryFn: () => fetchRunStatus(unanswered ?? ""),
    refetchInterval: (query) => liveInterval(connected, pollWhileInFlight([query.state.data?.status])),
    refetchOnWindowFocus: true,
    retry: false,
  });
  const wait = unanswered ? waitOf(runStatus.data) : null;
  const runState = unanswered ? runStatus.data?.status : undefined;
  const refreshed = useRef(new Set<string>()); // runs whose end brought the history again (once each)
  useEffect(() => {
    if (!unanswered || !hasEnded(runState) || refreshed.current.has(unanswered)) return;
    refreshed.current.add(unanswered);
    void queryClient.invalidateQueries({ queryKey: historyKey(conversation) });
  }, [unanswered, runState, conversation, queryClient]);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [live?.text, live?.tools.length, history.data?.length, turns.length, wait?.status]);

  useEffect(() => setError(null), [agent, conversation]);

  // an opened chat is ready to type in (not on touch screens, whose keyboard would cover the thread);
  // on a narrow screen the conversation list folds away once one is picked
  useEffect(() => {
    setListOpen(false);
    if (agent && !window.matchMedia?.("(pointer: coarse)").matches) messageBox.current?.focus({ preventScroll: true });
  }, [agent, conversation]);

  // a conversation of another agent opened under this one: show it under its own agent
  useEffect(() => {
    if (found && agent && found.agent !== agent) navigate(`/chat/${encodeURIComponent(found.agent)}/${encodeURIComponent(found.name)}`, { replace: true });
  }, [found, agent, navigate]);

  const newConversation = async (): Promise<string | null> => {
    if (!agent) return null;
    try {
      const info = await createConversation(agent);
      void queryClient.invalidateQueries({ queryKey: agentConversationsKey(agent) });
      navigate(`/chat/${encodeURIComponent(agent)}/${encodeURIComponent(info.conversation_id)}`);
      return info.conversation_id;
    } catch (e) {
      setError(errorMessage(e));
      return null;
    }
  };

  const update = (turn: LiveTurn) => setTurns((all) => all.map((t) => (t.id === turn.id ? turn : t)));
  const answerClientCall = useClientToolCalls(conversation); // Client Side tools: this browser answers them

  /** Send `prompt` with a new file, or again with a file already uploaded (`uploaded`, a retry). */
  const send = async (prompt: string, attach: File | null, uploaded?: string) => {
    if (!agent || !prompt.trim() || live) return;
    setError(null);
    const target = conversation ?? (await newConversation());
    if (!target) return;
    let attachment = uploaded;
    if (attach) {
      try {
        attachment = await uploadFile(attach, "Agent Conversation", target);
      } catch (e) {
        setError(errorMessage(e));
        return;
      }
    }
    if (!uploaded) {
      setDraft("");
      setFile(null);
      setFileInput((n) => n + 1);
    }
    const controller = new AbortController();
    abort.current = controller;
    const after = target === conversation ? items.length : 0;
    let turn: LiveTurn = { id: `${Date.now()}-${Math.random()}`, conversation: target, after, prompt, attachment, text: "", tools: [], state: "streaming" };
    setTurns((all) => [...all, turn]);
    try {
      await streamAgent({
        agent,
        prompt,
        conversationId: target,
        attachments: attachment ? [attachment] : undefined,
        signal: controller.signal,
        onEvent: (event) => {
          answerClientCall(event);
          turn = applyEvent(turn, event);
          update(turn);
        },
      });
      turn = endTurn(turn);
    } catch (e) {
      turn = controller.signal.aborted ? { ...turn, state: "stopped" } : { ...turn, state: "failed", error: errorMessage(e) };
    }
    if (turn.state === "failed" && turn.runId) {
      // a run still waiting behind an earlier one did not fail: it runs in the background (no retry)
      const now = await fetchRunStatus(turn.runId).catch(() => null);
      turn = queuedIfStillRunning(turn, now?.status);
    }
    update(turn);
    abort.current = null;
    // a run waiting for a tool approval: the chat follows its status from here (kept after a reload)
    if (turn.state === "waiting" && turn.approval) queryClient.setQueryData(runStatusKey(turn.approval.runId), statusOfWait(turn.approval));
    void queryClient.invalidateQueries({ queryKey: agentConversationsKey(agent) });
    if (turn.state === "stopped") return; // the server records the stop as it notices it: shown on the next load
    // answers and failures the server stored come back with the history; a turn it never stored stays here
    const stored = await queryClient.fetchQuery({ ...historyQuery(target), staleTime: 0 }).catch(() => null);
    if (stored && storedIn(turn, stored.map((m) => m.agent_run))) setTurns((all) => all.filter((t) => t.id !== turn.id));
  };

  const storedRuns = (history.data ?? []).map((m) => m.agent_run);
  // a turn is shown by the page until the stored history holds its run (then only there)
  const pending = turns.filter((t) => t.conversation === conversation && (t.state === "streaming" || !storedIn(t, storedRuns)));
  const streamingRuns = pending.map((t) => t.state === "streaming" && t.runId).filter(Boolean);
  const shown = toItems((history.data ?? []).filter((m) => !streamingRuns.includes(m.agent_run ?? "")));
  const items = wait && isWaiting(wait.status) ? markWaitingItems(shown, wait.tool) : shown;
  const thread = interleave(items, pending);
  const agentList = agents.data ?? [];
  const loading = Boolean(conversation) && pending.length === 0 && (opened.isLoading || (Boolean(found) && history.isLoading));
  const missing = Boolean(conversation) && opened.isSuccess && !found;
  const retryTurn = (t: LiveTurn) => () => void send(t.prompt, null, t.attachment);
  const retryStored = (index: number) => {
    const again = retryOf(items, index);
    return again ? () => void send(again.prompt, null, again.attachment) : undefined;
  };

  return (
    <div className="huf-screen flex flex-col gap-3 md:flex-row md:gap-4">
      <aside className="flex w-full shrink-0 flex-col gap-3 md:w-64">
        <div className="flex items-center justify-between gap-2">
          <h1 className="text-xl font-semibold">Chat</h1>
          {agent && (
            <Button variant="secondary" className="md:hidden" aria-expanded={listOpen} aria-controls="chat-conversations" onClick={() => setListOpen((open) => !open)}>
              Conversations{conversations.data?.length ? ` (${conversations.data.length})` : ""}
            </Button>
          )}
        </div>
        <Select aria-label="Agent" value={agent ?? ""} onChange={(e) => navigate(e.target.value ? `/chat/${encodeURIComponent(e.target.value)}` : "/chat")}>
          <option value="">Choose an agent…</option>
          {agentList.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </Select>
        <div id="chat-conversations" className={cx("min-h-0 flex-col gap-3 md:flex md:flex-1", listOpen ? "flex" : "hidden")}>
          {agent && canSend && (
            <Button variant="secondary" onClick={() => void newConversation()}>
              New conversation
            </Button>
          )}
          {agent && <ConversationFilters search={search} onSearch={setSearch} automated={automated} onAutomated={setAutomated} />}
          {agent && (
            <ConversationList
              agent={agent}
              rows={conversations.data}
              search={search}
              current={conversation}
              canWrite={can("Agent Conversation", "write")}
              onPick={() => setListOpen(false)}
            />
          )}
        </div>
      </aside>
      <section className="flex min-h-[12rem] min-w-0 flex-1 flex-col rounded-lg border border-slate-200 bg-slate-50/50 dark:border-slate-800 dark:bg-slate-900/30">
        {!agent ? (
          <div className="m-auto max-w-md p-6">
            {agents.isLoading ? (
              <Spinner />
            ) : agentList.length === 0 ? (
              <EmptyState title="No agents to chat with" description="Turn on “Allow Chat” for an agent to chat with it here." />
            ) : (
              <EmptyState title="Choose an agent" description="Pick an agent on the left to start a conversation." />
            )}
          </div>
        ) : (
          <>
            <div className="flex-1 space-y-3 overflow-y-auto p-4" data-testid="chat-messages">
              {loading && <Spinner label="Opening the conversation…" />}
              {opened.error && <ErrorBanner message={errorMessage(opened.error)} />}
              {history.error && <ErrorBanner message={errorMessage(history.error)} />}
              {missing && (
                <EmptyState
                  title="This conversation does not exist or you cannot open it"
                  description="It may have been deleted, or it belongs to someone else."
                  action={
                    <Link to={`/chat/${encodeURIComponent(agent)}`} className="text-sm text-indigo-600 underline dark:text-indigo-400">
                      Start a new conversation with {agent}
                    </Link>
                  }
                />
              )}
              {!conversation && <p className="text-center text-sm text-slate-500">Send a message to start a new conversation with {agent}.</p>}
              {!loading &&
                thread.map((entry) =>
                  entry.kind === "turn" ? (
                    <LiveTurnView key={entry.turn.id} turn={entry.turn} onRetry={canSend ? retryTurn(entry.turn) : undefined} />
                  ) : entry.item.kind === "user" ? (
                    <UserBubble key={entry.item.m.name} text={entry.item.m.content ?? ""} attachment={entry.item.m.attachment} />
                  ) : entry.item.kind === "agent" && entry.item.m.kind === "Error" ? (
                    cancelledRuns.has(entry.item.m.agent_run ?? "") ? (
                      <CancelledAnswer key={entry.item.m.name} message={entry.item.m.content} onRetry={canSend ? retryStored(entry.index) : undefined} />
                    ) : failuresKnown ? (
                      <FailedAnswer key={entry.item.m.name} message={entry.item.m.content ?? ""} onRetry={canSend ? retryStored(entry.index) : undefined} />
                    ) : null
                  ) : entry.item.kind === "agent" ? (
                    <AgentBubble key={entry.item.m.name} testid="agent-message" wide={Boolean(parseBlocks(entry.item.m.content_blocks))}>
                      <AnswerBody content={entry.item.m.content} blocks={entry.item.m.content_blocks} />
                      <div className="flex flex-wrap items-center gap-1">
                        {canSend && <Feedback message={entry.item.m.name} />}
                        <CopyLink message={entry.item.m.name} />
                      </div>
                    </AgentBubble>
                  ) : (
                    <ToolCallRow key={entry.item.key} call={entry.item.call} />
                  ),
                )}
              {!loading && wait && <ApprovalWaitNotice wait={wait} />}
              {!loading && !live && runState === "Cancelled" && <CancelledAnswer message={runStatus.data?.error_message} />}
              <div ref={bottom} />
            </div>
            {error && (
              <div className="px-4">
                <ErrorBanner message={error} />
              </div>
            )}
            {missing ? null : canSend ? (
              <form
                className="space-y-2 border-t border-slate-200 p-3 dark:border-slate-800"
                onSubmit={(e) => {
                  e.preventDefault();
                  void send(draft, file);
                }}
              >
                <Textarea
                  ref={messageBox}
                  aria-label="Message"
                  placeholder={`Message ${agent}…`}
                  rows={2}
                  value={draft}
                  onChange={(e) => setDraft(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && !e.shiftKey) {
                      e.preventDefault();
                      void send(draft, file);
                    }
                  }}
                />
                <div className="flex flex-wrap items-center gap-2">
                  <label className="cursor-pointer rounded-md border border-slate-300 px-2 py-1 text-sm dark:border-slate-700">
                    Attach file
                    <input key={fileInput} type="file" className="sr-only" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
                  </label>
                  <MicButton
                    agent={agent}
                    conversation={conversation}
                    onError={setError}
                    onTranscript={(text) => setDraft((d) => (d.trim() ? `${d.trimEnd()} ${text}` : text))}
                  />
                  {file && (
                    <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="picked-file">
                      {fileKind(file.name, file.type)}: {file.name}{" "}
                      <button
                        type="button"
                        className="underline"
                        onClick={() => {
                          setFile(null);
                          setFileInput((n) => n + 1);
                        }}
                      >
                        remove
                      </button>
                    </span>
                  )}
                  <div className="ml-auto flex gap-2">
                    {live ? (
                      <Button variant="danger" onClick={() => abort.current?.abort()}>
                        Stop
                      </Button>
                    ) : (
                      <Button type="submit" disabled={!draft.trim()}>
                        Send
                      </Button>
                    )}
                  </div>
                </div>
              </form>
            ) : (
              <p className="border-t border-slate-200 p-3 text-sm text-slate-500 dark:border-slate-800">You can read conversations but not send messages.</p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
