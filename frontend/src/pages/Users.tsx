import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Card, EmptyState, ErrorBanner, Input, PageHeader, Spinner, Table } from "../components/ui";
import { errorMessage } from "../lib/api";
import { getBoot, hasCapability } from "../lib/boot";
import { InviteForm } from "../people/InviteForm";
import { getHufRoles, getUsers, PEOPLE_KEY, ROLES_KEY } from "../people/peopleApi";
import { UserRow } from "../people/UserRow";

/** /huf/users: who uses Huf, with their Huf role; invite, change a role, enable or disable. */
export default function Users() {
  const client = useQueryClient();
  const me = getBoot().user;
  const canInvite = hasCapability("users.invite");
  const canManage = hasCapability("users.manage");
  const [search, setSearch] = useState("");
  const users = useQuery({ queryKey: PEOPLE_KEY, queryFn: getUsers, retry: false });
  const roles = useQuery({ queryKey: ROLES_KEY, queryFn: getHufRoles, retry: false, enabled: canInvite || canManage });
  const refresh = () => void client.invalidateQueries({ queryKey: PEOPLE_KEY });

  const needle = search.trim().toLowerCase();
  const rows = (users.data ?? []).filter((p) => !needle || `${p.user} ${p.full_name} ${p.huf_role ?? ""}`.toLowerCase().includes(needle));

  return (
    <div className="space-y-4">
      <PageHeader title="Users" description="The people who use Huf and the Huf role each one holds." />
      {canInvite && (
        <Card>
          <h2 className="mb-3 font-semibold">Invite a user</h2>
          {roles.isError ? (
            <ErrorBanner title="The roles could not be loaded" message={errorMessage(roles.error)} />
          ) : roles.isLoading ? (
            <Spinner label="Loading roles…" />
          ) : (
            <InviteForm roles={roles.data ?? []} onInvited={refresh} />
          )}
        </Card>
      )}
      {users.isLoading ? (
        <Spinner label="Loading users…" />
      ) : users.isError ? (
        <ErrorBanner title="The users could not be loaded" message={errorMessage(users.error)} />
      ) : !users.data?.length ? (
        <EmptyState title="No users yet" description={canInvite ? "Invite someone above." : undefined} />
      ) : (
        <div className="space-y-2">
          <Input aria-label="Search users" placeholder="Search by name, email or role" value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
          {rows.length ? (
            <Table head={["User", "Huf role", "Status", ""]}>
              {rows.map((person) => (
                <UserRow key={person.user} person={person} roles={roles.data ?? []} manage={canManage} isMe={person.user === me} onChanged={refresh} />
              ))}
            </Table>
          ) : (
            <EmptyState title="No user matches this search" />
          )}
        </div>
      )}
    </div>
  );
}
