import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, EmptyState, ErrorBanner, Notice, PageHeader, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { hasCapability, getBoot } from "../lib/boot";
import { CapabilityMatrix } from "../people/CapabilityMatrix";
import { differs, toggle } from "../people/matrix";
import { CATALOGUE_KEY, createHufRole, getCatalogue, getHufRoles, ROLES_KEY, updateHufRole, type HufRole } from "../people/peopleApi";
import { RoleDialog } from "../people/RoleDialog";

/** /huf/roles: the capability matrix of the Huf roles; create a role, change its capabilities and description. */
export default function Roles() {
  const client = useQueryClient();
  const editable = hasCapability("roles.manage");
  const held = getBoot().capabilities;
  const roles = useQuery({ queryKey: ROLES_KEY, queryFn: getHufRoles, retry: false });
  const catalogue = useQuery({ queryKey: CATALOGUE_KEY, queryFn: getCatalogue, retry: false, staleTime: Infinity });
  const [draft, setDraft] = useState<Record<string, string[]>>({});
  const [dialog, setDialog] = useState<{ role?: HufRole } | null>(null);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [notice, setNotice] = useState("");

  const list = roles.data ?? [];
  const edited = (role: HufRole): string[] => draft[role.role_name] ?? role.capabilities;
  const changed = list.filter((r) => differs(edited(r), r.capabilities));
  const reload = () => client.invalidateQueries({ queryKey: ROLES_KEY });

  const onToggle = (role: string, capability: string, on: boolean) => {
    const current = draft[role] ?? list.find((r) => r.role_name === role)?.capabilities ?? [];
    setDraft({ ...draft, [role]: toggle(current, capability, on, catalogue.data ?? []) });
    setNotice("");
  };

  const saveAll = async () => {
    setSaving(true);
    setErrors([]);
    setNotice("");
    const failed: string[] = [];
    const next = { ...draft };
    for (const role of changed) {
      try {
        await updateHufRole(role.role_name, edited(role), role.description);
        delete next[role.role_name];
      } catch (e) {
        failed.push(`${role.role_name}: ${errorMessage(e)}`);
      }
    }
    await reload();
    setDraft(next);
    setErrors(failed);
    if (!failed.length) setNotice(changed.length === 1 ? `${changed[0]?.role_name} saved.` : `${changed.length} roles saved.`);
    setSaving(false);
  };

  const saveDialog = async (values: { role_name: string; description: string; copy_from: string }) => {
    const role = dialog?.role;
    if (role) {
      await updateHufRole(role.role_name, edited(role), values.description);
      setNotice(`${role.role_name} saved.`);
    } else {
      const start = list.find((r) => r.role_name === values.copy_from)?.capabilities ?? [];
      await createHufRole(values.role_name, values.description, start);
      setNotice(`${values.role_name} created.`);
    }
    await reload();
    setDialog(null);
  };

  const actions = editable ? (
    <>
      <Button variant="secondary" onClick={() => setDialog({})}>
        New role
      </Button>
      <Button onClick={() => void saveAll()} disabled={saving || !changed.length}>
        {saving ? "Saving…" : changed.length ? `Save changes (${changed.length})` : "Save changes"}
      </Button>
    </>
  ) : undefined;

  return (
    <div className="space-y-4">
      <PageHeader title="Roles" description="What each Huf role may do. You can grant only capabilities you hold yourself." actions={actions} />
      {!editable && <p data-testid="roles-read-only" className="text-sm text-slate-500">You can see the roles; changing them needs the roles.manage capability.</p>}
      {notice && <Notice message={notice} />}
      {errors.length > 0 && <ErrorBanner title="Some changes were refused" message={errors.join(" ")} />}
      {roles.isLoading || catalogue.isLoading ? (
        <Spinner label="Loading roles…" />
      ) : roles.isError || catalogue.isError ? (
        <ErrorBanner title="The roles could not be loaded" message={errorMessage(roles.error ?? catalogue.error)} />
      ) : !list.length ? (
        <EmptyState title="No roles yet" />
      ) : (
        <CapabilityMatrix
          roles={list}
          catalogue={catalogue.data ?? []}
          draft={draft}
          held={held}
          editable={editable && !saving}
          onToggle={onToggle}
          onEdit={editable ? (role) => setDialog({ role }) : undefined}
        />
      )}
      {dialog && <RoleDialog role={dialog.role} roles={list} onSave={saveDialog} onClose={() => setDialog(null)} />}
    </div>
  );
}
