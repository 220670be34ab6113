import { useState } from "react";
import { errorMessage } from "../lib/api";
import { Badge, Button, Select } from "../components/ui";
import { setUserEnabled, updateUserRole, type HufRole, type Person } from "./peopleApi";

/** One person: their Huf role (a choice for whoever may manage users) and whether they may sign in. */
export function UserRow({
  person,
  roles,
  manage,
  isMe,
  onChanged,
}: {
  person: Person;
  roles: HufRole[];
  manage: boolean;
  isMe: boolean;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const who = person.full_name || person.user;
  const editable = manage && !isMe && !person.built_in;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setOutcome(null);
    try {
      await action();
      setOutcome({ ok: true, text: done });
      onChanged();
    } catch (e) {
      setOutcome({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };

  const roleNames = roles.map((r) => r.role_name);
  return (
    <tr data-testid="user-row" data-user={person.user}>
      <td className="px-3 py-2">
        <div className="font-medium">{who}</div>
        {person.full_name && <div className="text-xs text-slate-500">{person.user}</div>}
      </td>
      <td className="px-3 py-2">
        {editable ? (
          <Select
            aria-label={`Huf role of ${who}`}
            value={person.huf_role ?? ""}
            disabled={busy}
            onChange={(e) => void run(() => updateUserRole(person.user, e.target.value), `${who} is now ${e.target.value}.`)}
          >
            {!person.huf_role && <option value="">No Huf role</option>}
            {person.huf_role && !roleNames.includes(person.huf_role) && <option value={person.huf_role}>{person.huf_role}</option>}
            {roleNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        ) : (
          <span data-testid="user-role">{person.huf_role ?? "No Huf role"}</span>
        )}
      </td>
      <td className="px-3 py-2">
        <Badge>{person.enabled ? "Enabled" : "Disabled"}</Badge>
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap items-center gap-2">
          {editable && (
            <Button
              variant="secondary"
              disabled={busy}
              aria-label={`${person.enabled ? "Disable" : "Enable"} ${who}`}
              onClick={() => void run(() => setUserEnabled(person.user, !person.enabled), `${who} is ${person.enabled ? "disabled" : "enabled"}.`)}
            >
              {person.enabled ? "Disable" : "Enable"}
            </Button>
          )}
          {isMe && manage && <span className="text-xs text-slate-500 dark:text-slate-400">You cannot change your own role.</span>}
          {person.built_in && !isMe && <span className="text-xs text-slate-500 dark:text-slate-400">Built in: the site's administrator holds every role and stays enabled.</span>}
          {outcome && (
            <span role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "text-xs text-emerald-700 dark:text-emerald-400" : "text-xs text-red-600 dark:text-red-400"}>
              {outcome.text}
            </span>
          )}
        </div>
      </td>
    </tr>
  );
}
