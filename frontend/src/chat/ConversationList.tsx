import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { PencilIcon, TrashIcon } from "../components/icons";
import { Badge, Button, ErrorBanner, Input, cx } from "../components/ui";
import { errorMessage, updateDoc } from "../lib/api";
import { formatDate } from "../lib/format";
import { agentConversationsKey, deleteConversation, type ConversationRow } from "./chatApi";
import { channelLabel } from "./conversations";

const titleOf = (c: ConversationRow) => c.title || "New conversation";

/** The search box and the "automated runs" switch above the list (the query is the page's). */
export function ConversationFilters({
  search,
  onSearch,
  automated,
  onAutomated,
}: {
  search: string;
  onSearch: (value: string) => void;
  automated: boolean;
  onAutomated: (value: boolean) => void;
}) {
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  // the list is asked again once typing pauses, not at every key
  useEffect(() => {
    if (text === search) return;
    const timer = setTimeout(() => onSearch(text), 300);
    return () => clearTimeout(timer);
  }, [text, search, onSearch]);
  return (
    <div className="space-y-1.5">
      <Input type="search" aria-label="Search conversations" placeholder="Search titles and messages…" value={text} onChange={(e) => setText(e.target.value)} />
      <label className="flex items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
        <input type="checkbox" checked={automated} onChange={(e) => onAutomated(e.target.checked)} />
        Show automated runs (flows, triggers, channels)
      </label>
    </div>
  );
}

/** One conversation: its link (title, time, what started it, the search's match), Rename and Delete. */
function ConversationItem({
  row,
  agent,
  current,
  canWrite,
  onPick,
  onDelete,
}: {
  row: ConversationRow;
  agent: string;
  current: boolean;
  canWrite: boolean;
  onPick: () => void;
  onDelete: (row: ConversationRow) => void;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(titleOf(row));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    const value = title.trim();
    if (!value) return setError("Give the conversation a title.");
    setSaving(true);
    setError(null);
    try {
      await updateDoc("Agent Conversation", row.name, { title: value });
      await queryClient.invalidateQueries({ queryKey: agentConversationsKey(agent) });
      setEditing(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  if (editing)
    return (
      <li className="rounded-md bg-white p-1.5 dark:bg-slate-900">
        <form
          className="flex flex-col gap-1.5"
          aria-label={`Rename ${titleOf(row)}`}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Input
            autoFocus
            aria-label="Title of the conversation"
            maxLength={140}
            value={title}
            invalid={Boolean(error)}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
          />
          {error && <p className="text-xs text-red-700 dark:text-red-300">{error}</p>}
          <div className="flex gap-1.5">
            <Button type="submit" disabled={saving}>
              {saving ? "Saving…" : "Save"}
            </Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      </li>
    );

  return (
    <li className="group flex items-start gap-0.5" data-testid="conversation-row" data-automated={row.automated ? "1" : "0"}>
      <Link
        to={`/chat/${encodeURIComponent(agent)}/${encodeURIComponent(row.name)}`}
        onClick={onPick}
        aria-current={current ? "page" : undefined}
        className={cx(
          "block min-w-0 flex-1 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-offset-[-2px] dark:hover:bg-slate-800",
          current && "bg-indigo-50 font-medium dark:bg-indigo-950",
        )}
      >
        <span className="block truncate">{titleOf(row)}</span>
        <span className="flex flex-wrap items-center gap-1 text-xs text-slate-600 dark:text-slate-400">
          {formatDate(row.last_activity || row.creation)}
          {row.automated && (
            <span data-testid="conversation-automated">
              <Badge color="yellow">
                <span className="sr-only">Automated: </span>
                {channelLabel(row.channel)}
              </Badge>
            </span>
          )}
        </span>
        {row.match && (
          <span className="mt-0.5 block truncate text-xs italic text-slate-600 dark:text-slate-400" data-testid="conversation-match">
            {row.match}
          </span>
        )}
      </Link>
      {canWrite && (
        <span className="flex shrink-0 pt-1">
          <button
            type="button"
            aria-label={`Rename ${titleOf(row)}`}
            title="Rename"
            className="rounded p-1.5 text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-700"
            onClick={() => {
              setTitle(titleOf(row));
              setError(null);
              setEditing(true);
            }}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            aria-label={`Delete ${titleOf(row)}`}
            title="Delete"
            className="rounded p-1.5 text-slate-600 hover:bg-slate-200 hover:text-red-700 dark:text-slate-300 dark:hover:bg-slate-700 dark:hover:text-red-300"
            onClick={() => onDelete(row)}
          >
            <TrashIcon />
          </button>
        </span>
      )}
    </li>
  );
}

/** The agent's conversations of the page's query, each with Rename and Delete (a confirmation first). */
export function ConversationList({
  agent,
  rows,
  search,
  current,
  canWrite,
  onPick,
}: {
  agent: string;
  rows: ConversationRow[] | undefined;
  search: string;
  current: string | undefined;
  canWrite: boolean;
  onPick: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<ConversationRow | null>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = async (row: ConversationRow) => {
    setDeleting(null);
    setError(null);
    try {
      await deleteConversation(row.name);
      await queryClient.invalidateQueries({ queryKey: agentConversationsKey(agent) });
      if (row.name === current) navigate(`/chat/${encodeURIComponent(agent)}`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <>
      {error && <ErrorBanner message={error} />}
      <nav aria-label="Conversations" className="max-h-[40vh] flex-1 overflow-y-auto md:max-h-none">
        {rows?.length === 0 && <p className="px-2 text-sm text-slate-600 dark:text-slate-400">{search ? `No conversations match “${search}”.` : "No conversations yet."}</p>}
        <ul className="space-y-0.5">
          {rows?.map((row) => (
            <ConversationItem key={row.name} row={row} agent={agent} current={row.name === current} canWrite={canWrite} onPick={onPick} onDelete={setDeleting} />
          ))}
        </ul>
      </nav>
      {deleting && (
        <ConfirmDialog
          title={`Delete conversation “${titleOf(deleting)}”?`}
          message="Its messages are deleted for good. Its runs stay in Executions, with their cost."
          confirmLabel="Delete"
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
