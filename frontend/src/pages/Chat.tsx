import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { PaperclipIcon, ThumbDownIcon, ThumbUpIcon } from "../components/icons";
import { Markdown } from "../components/Markdown";
import { Button, EmptyState, ErrorBanner, Select, Spinner, Textarea, cx } from "../components/ui";
import { call, errorMessage, getList, uploadFile } from "../lib/api";
import { can, getBoot } from "../lib/boot";
import { formatCost, formatDate, formatNumber } from "../lib/format";
import { streamAgent } from "../lib/stream";
import { applyEvent, type LiveTurn } from "../lib/turn";
import { MESSAGE_FIELDS, ToolCallRow, toItems, type Message } from "../components/messages";
import { MicButton } from "../components/MicButton";
import { fileName, withoutFileList } from "../lib/files";
import { messageLink } from "./MessageView";

function Feedback({ message }: { message: string }) {
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rate = async (feedback: string) => {
    setError(null);
    try {
      await call("huf.huf.doctype.agent_run_feedback.agent_run_feedback.rate_message", { agent_message: message, feedback });
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
        {attachment ? withoutFileList(text) : text}
        {attachment && (
          <p className="mt-1 flex items-center gap-1 text-xs opacity-80" data-testid="user-attachment">
            <PaperclipIcon /> {fileName(attachment)}
          </p>
        )}
      </div>
    </div>
  );
}

function AgentBubble({ children, testid }: { children: ReactNode; testid?: string }) {
  return (
    <div className="flex">
      <div className="max-w-[85%] rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900" data-testid={testid}>
        {children}
      </div>
    </div>
  );
}

export default function Chat() {
  const { agent, conversation } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canSend = can("Agent Conversation", "create");
  const [draft, setDraft] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [live, setLive] = useState<LiveTurn | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);

  const agents = useQuery({
    queryKey: ["chat-agents"],
    queryFn: () => getList<{ name: string; description: string | null }>("Agent", { fields: ["name", "description"], filters: { allow_chat: 1, disabled: 0 }, order_by: "name asc", limit: 500 }),
  });
  const conversations = useQuery({
    queryKey: ["conversations", agent],
    enabled: Boolean(agent),
    queryFn: () =>
      getList<{ name: string; title: string | null; last_activity: string | null; creation: string }>("Agent Conversation", {
        fields: ["name", "title", "last_activity", "creation"],
        filters: { agent, user: getBoot().user },
        order_by: "modified desc",
        limit: 100,
      }),
  });
  const history = useQuery({
    queryKey: ["history", conversation],
    enabled: Boolean(conversation),
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

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [live?.text, live?.tools.length, history.data?.length]);

  useEffect(() => {
    setLive((current) => (current && current.conversation === conversation ? current : null));
    setError(null);
  }, [agent, conversation]);

  const newConversation = async (): Promise<string | null> => {
    if (!agent) return null;
    try {
      const info = await call<{ conversation_id: string }>("huf.ai.agent_chat.create_conversation", { agent });
      void queryClient.invalidateQueries({ queryKey: ["conversations", agent] });
      navigate(`/chat/${encodeURIComponent(agent)}/${encodeURIComponent(info.conversation_id)}`);
      return info.conversation_id;
    } catch (e) {
      setError(errorMessage(e));
      return null;
    }
  };

  const send = async (prompt: string, attach: File | null) => {
    if (!agent || !prompt.trim() || live?.state === "streaming") return;
    setError(null);
    const target = conversation ?? (await newConversation());
    if (!target) return;
    let attachment: string | undefined;
    if (attach) {
      try {
        attachment = await uploadFile(attach, "Agent Conversation", target);
      } catch (e) {
        setError(errorMessage(e));
        return;
      }
    }
    setDraft("");
    setFile(null);
    const controller = new AbortController();
    abort.current = controller;
    let turn: LiveTurn = { conversation: target, prompt, attachment, text: "", tools: [], state: "streaming" };
    setLive(turn);
    try {
      await streamAgent({
        agent,
        prompt,
        conversationId: target,
        attachments: attachment ? [attachment] : undefined,
        signal: controller.signal,
        onEvent: (event) => {
          turn = applyEvent(turn, event);
          setLive(turn);
        },
      });
      if (turn.state === "streaming") turn = { ...turn, state: turn.text ? "done" : "failed", error: turn.text ? undefined : "The answer ended unexpectedly." };
    } catch (e) {
      turn = controller.signal.aborted ? { ...turn, state: "stopped" } : { ...turn, state: "failed", error: errorMessage(e) };
    }
    setLive(turn);
    abort.current = null;
    void queryClient.invalidateQueries({ queryKey: ["conversations", agent] });
    if (turn.state === "done") {
      await queryClient.refetchQueries({ queryKey: ["history", target] });
      setLive((current) => (current === turn ? null : current));
    }
  };

  const items = toItems(history.data ?? []);
  const lastPrompt = live?.prompt ?? [...items].reverse().find((i): i is { kind: "user"; m: Message } => i.kind === "user")?.m.content ?? "";
  const agentList = agents.data ?? [];

  return (
    <div className="flex h-[calc(100vh-3rem)] gap-4">
      <aside className="flex w-64 shrink-0 flex-col gap-3">
        <Select aria-label="Agent" value={agent ?? ""} onChange={(e) => navigate(e.target.value ? `/chat/${encodeURIComponent(e.target.value)}` : "/chat")}>
          <option value="">Choose an agent…</option>
          {agentList.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </Select>
        {agent && canSend && (
          <Button variant="secondary" onClick={() => void newConversation()}>
            New conversation
          </Button>
        )}
        <nav aria-label="Conversations" className="flex-1 space-y-0.5 overflow-y-auto">
          {agent && conversations.data?.length === 0 && <p className="px-2 text-sm text-slate-500">No conversations yet.</p>}
          {conversations.data?.map((c) => (
            <Link
              key={c.name}
              to={`/chat/${encodeURIComponent(agent ?? "")}/${encodeURIComponent(c.name)}`}
              className={cx(
                "block rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800",
                c.name === conversation && "bg-indigo-50 font-medium dark:bg-indigo-950",
              )}
            >
              <span className="block truncate">{c.title || "New conversation"}</span>
              <span className="block text-xs text-slate-500">{formatDate(c.last_activity || c.creation)}</span>
            </Link>
          ))}
        </nav>
      </aside>
      <section className="flex min-w-0 flex-1 flex-col rounded-lg border border-slate-200 bg-slate-50/50 dark:border-slate-800 dark:bg-slate-900/30">
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
              {history.isLoading && <Spinner />}
              {history.error && <ErrorBanner message={errorMessage(history.error)} />}
              {!conversation && !live && <p className="text-center text-sm text-slate-500">Send a message to start a new conversation with {agent}.</p>}
              {items.map((item) =>
                item.kind === "user" ? (
                  <UserBubble key={item.m.name} text={item.m.content ?? ""} attachment={item.m.attachment} />
                ) : item.kind === "agent" ? (
                  <AgentBubble key={item.m.name} testid="agent-message">
                    <Markdown text={item.m.content ?? ""} />
                    <div className="flex flex-wrap items-center gap-1">
                      {canSend && item.m.kind !== "Error" && <Feedback message={item.m.name} />}
                      <CopyLink message={item.m.name} />
                    </div>
                  </AgentBubble>
                ) : (
                  <ToolCallRow key={item.key} call={item.call} />
                ),
              )}
              {live && (
                <>
                  <UserBubble text={live.prompt} attachment={live.attachment} />
                  {live.tools.map((t) => (
                    <ToolCallRow key={t.id} call={t} />
                  ))}
                  {(live.text || live.state === "streaming") && (
                    <AgentBubble testid="live-answer">
                      {live.text ? <Markdown text={live.text} /> : <span className="animate-pulse text-slate-500">Thinking…</span>}
                    </AgentBubble>
                  )}
                  {live.state === "done" && live.usage && (
                    <p className="text-xs text-slate-500">
                      {formatNumber(live.usage.total_tokens ?? 0)} tokens · {formatCost(live.cost ?? 0)}
                    </p>
                  )}
                  {live.state === "failed" && <ErrorBanner title="The agent couldn't answer" message={live.error ?? "Something went wrong."} />}
                  {live.state === "stopped" && <p className="text-sm text-slate-500">Stopped.</p>}
                </>
              )}
              <div ref={bottom} />
            </div>
            {error && (
              <div className="px-4">
                <ErrorBanner message={error} />
              </div>
            )}
            {canSend ? (
              <form
                className="space-y-2 border-t border-slate-200 p-3 dark:border-slate-800"
                onSubmit={(e) => {
                  e.preventDefault();
                  void send(draft, file);
                }}
              >
                <Textarea
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
                    <input type="file" className="sr-only" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
                  </label>
                  <MicButton
                    agent={agent}
                    conversation={conversation}
                    onError={setError}
                    onTranscript={(text) => setDraft((d) => (d.trim() ? `${d.trimEnd()} ${text}` : text))}
                  />
                  {file && (
                    <span className="text-xs text-slate-500">
                      {file.name}{" "}
                      <button type="button" className="underline" onClick={() => setFile(null)}>
                        remove
                      </button>
                    </span>
                  )}
                  <div className="ml-auto flex gap-2">
                    {live?.state === "streaming" ? (
                      <Button variant="danger" onClick={() => abort.current?.abort()}>
                        Stop
                      </Button>
                    ) : (
                      <>
                        {lastPrompt && (
                          <Button variant="secondary" onClick={() => void send(lastPrompt, null)}>
                            Retry
                          </Button>
                        )}
                        <Button type="submit" disabled={!draft.trim()}>
                          Send
                        </Button>
                      </>
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
