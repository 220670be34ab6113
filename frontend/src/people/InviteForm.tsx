import { useState, type FormEvent } from "react";
import { errorMessage } from "../lib/api";
import { Button, ErrorBanner, Field, Input, Notice, Select } from "../components/ui";
import { WayIn } from "./WayIn";
import { inviteUser, type HufRole, type Invitation } from "./peopleApi";

/** Invite a person by email with a Huf role; the server refuses a role above the inviter's own. */
export function InviteForm({ roles, onInvited }: { roles: HufRole[]; onInvited: () => void }) {
  const [email, setEmail] = useState("");
  const [fullName, setFullName] = useState("");
  const [role, setRole] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [invited, setInvited] = useState<Invitation | null>(null);
  const chosen = role || roles.find((r) => r.role_name === "Huf User")?.role_name || roles[0]?.role_name || "";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    setInvited(null);
    try {
      setInvited(await inviteUser(email.trim(), fullName.trim(), chosen));
      setOutcome({ ok: true, text: `Invited ${email.trim()} as ${chosen}.` });
      setEmail("");
      setFullName("");
      onInvited();
    } catch (e) {
      setOutcome({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Invite a user" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Email *" htmlFor="invite-email">
          <Input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Full name" htmlFor="invite-name">
          <Input id="invite-name" value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Huf role *" htmlFor="invite-role">
          <Select id="invite-role" value={chosen} onChange={(e) => setRole(e.target.value)} disabled={!roles.length}>
            {roles.map((r) => (
              <option key={r.role_name} value={r.role_name}>
                {r.role_name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={busy || !email.trim() || !chosen}>
          {busy ? "Inviting…" : "Invite"}
        </Button>
      </div>
      {outcome && (outcome.ok ? <Notice message={outcome.text} /> : <ErrorBanner title="The invitation was refused" message={outcome.text} />)}
      {invited && <WayIn invitation={invited} />}
    </form>
  );
}
