import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { CopyButton } from "../flows/CopyButton";
import { AnswerBody } from "../components/blocks/ContentBlocks";
import { Card, EmptyState, PageHeader, Spinner } from "../components/ui";
import { getDoc } from "../lib/api";
import { formatDate } from "../lib/format";
import { fileName } from "../lib/files";
import { fileKind } from "../lib/fileKinds";

interface SharedMessage {
  name: string;
  role: string;
  content: string | null;
  content_blocks?: unknown;
  attachment: string | null;
  agent: string | null;
  conversation: string | null;
  creation: string;
}

/** The link that opens one message at /huf/view/<message>. */
export function messageLink(message: string): string {
  return `${window.location.origin}/huf/view/${encodeURIComponent(message)}`;
}

/** One message shared by link (/huf/view/:messageId): shown only to users the server lets read it. */
export default function MessageView() {
  const { messageId = "" } = useParams();
  const message = useQuery({ queryKey: ["doc", "Agent Message", messageId], queryFn: () => getDoc<SharedMessage>("Agent Message", messageId), retry: false });
  const conversation = useQuery({
    queryKey: ["doc", "Agent Conversation", message.data?.conversation],
    queryFn: () => getDoc<{ name: string; title: string | null; agent: string }>("Agent Conversation", message.data?.conversation ?? ""),
    enabled: Boolean(message.data?.conversation),
    retry: false,
  });

  if (message.isLoading) return <Spinner />;
  if (message.error || !message.data)
    return (
      <div className="max-w-3xl">
        <PageHeader title="Shared message" />
        <EmptyState title="Message not found or not allowed" description="This message does not exist, or you are not allowed to see it. Ask the person who shared the link." />
      </div>
    );
  const m = message.data;
  const conv = conversation.data;
  const agent = m.agent ?? conv?.agent ?? "";
  return (
    <div className="max-w-3xl space-y-4">
      <PageHeader
        title="Shared message"
        description={[agent && `${m.role === "user" ? "To" : "From"} ${agent}`, conv && (conv.title || "Untitled conversation"), formatDate(m.creation)].filter(Boolean).join(" · ")}
        actions={
          <>
            <CopyButton text={messageLink(m.name)} label="Copy link" />
            {conv && agent && (
              <Link to={`/chat/${encodeURIComponent(agent)}/${encodeURIComponent(conv.name)}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">
                Open conversation
              </Link>
            )}
          </>
        }
      />
      <Card>
        <article aria-label="Message" data-testid="shared-message">
          {m.role === "user" ? <p className="whitespace-pre-wrap text-sm">{m.content}</p> : <AnswerBody content={m.content} blocks={m.content_blocks} />}
          {m.attachment && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              Attachment ({fileKind(m.attachment)}): {fileName(m.attachment)}
            </p>
          )}
        </article>
      </Card>
    </div>
  );
}
