import { Textarea } from "../components/ui";

/** The optional comment a decision in the approvals inbox carries (flow steps and tool calls alike). */
export default function CommentField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        Comment (optional)
      </label>
      <Textarea id={id} rows={2} value={value} onChange={(e) => onChange(e.target.value)} maxLength={2000} />
    </div>
  );
}
