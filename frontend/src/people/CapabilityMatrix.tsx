import { Fragment } from "react";
import { groupByArea, lockReason } from "./matrix";
import type { Capability, HufRole } from "./peopleApi";

/** Roles (columns) x capabilities (rows, grouped by area); a checkbox per cell, locked when not editable. */
export function CapabilityMatrix({
  roles,
  catalogue,
  draft,
  held,
  editable,
  onToggle,
  onEdit,
}: {
  roles: HufRole[];
  catalogue: Capability[];
  draft: Record<string, string[]>;
  held: string[];
  editable: boolean;
  onToggle: (role: string, capability: string, on: boolean) => void;
  onEdit?: (role: HufRole) => void;
}) {
  const areas = groupByArea(catalogue);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm" aria-label="Capabilities of each role">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium uppercase">
              Capability
            </th>
            {roles.map((role) => (
              <th key={role.role_name} scope="col" className="px-3 py-2 text-center font-medium">
                <div className="text-slate-800 dark:text-slate-100" title={role.description || undefined}>
                  {role.role_name}
                </div>
                {onEdit && (
                  <button type="button" className="text-xs text-indigo-600 hover:underline dark:text-indigo-400" onClick={() => onEdit(role)} aria-label={`Edit ${role.role_name}`}>
                    Edit
                  </button>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {areas.map((area) => (
            <Fragment key={area.key}>
              <tr className="bg-slate-50/60 dark:bg-slate-800/40">
                <th scope="rowgroup" colSpan={roles.length + 1} className="px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">
                  {area.label}
                </th>
              </tr>
              {area.capabilities.map((cap) => {
                const locked = lockReason(cap.capability, held);
                return (
                  <tr key={cap.capability}>
                    <th scope="row" className="px-3 py-1.5 font-normal">
                      <div>{cap.label}</div>
                      <code className="text-xs text-slate-500">{cap.capability}</code>
                    </th>
                    {roles.map((role) => {
                      const on = (draft[role.role_name] ?? role.capabilities).includes(cap.capability);
                      return (
                        <td key={role.role_name} className="px-3 py-1.5 text-center">
                          <input
                            type="checkbox"
                            className="h-4 w-4 accent-indigo-600"
                            aria-label={`${role.role_name}: ${cap.label} (${cap.capability})`}
                            checked={on}
                            disabled={!editable || Boolean(locked)}
                            title={editable ? (locked ?? undefined) : undefined}
                            onChange={(e) => onToggle(role.role_name, cap.capability, e.target.checked)}
                          />
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
