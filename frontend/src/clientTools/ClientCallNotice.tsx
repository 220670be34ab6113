/** The chat's turn whose run waits for this browser to run a Client Side tool (answered by ./answer.ts). */
export default function ClientCallNotice({ tool }: { tool: string }) {
  return (
    <div className="flex">
      <p
        role="status"
        data-testid="client-call-wait"
        className="max-w-[85%] animate-pulse rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
      >
        Running <span className="font-mono">{tool || "a tool"}</span> in this browser…
      </p>
    </div>
  );
}
