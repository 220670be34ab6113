import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CapabilityMatrix } from "./CapabilityMatrix";
import type { HufRole } from "./peopleApi";

const catalogue = [
  { capability: "agent.view", label: "See agents" },
  { capability: "roles.manage", label: "Manage roles" },
];
const role = (role_name: string, capabilities: string[]): HufRole => ({ role_name, description: "", frappe_role: null, role_weight: 0, is_system_role: false, capabilities });

function checkbox(html: string, label: string): string {
  const found = html.match(new RegExp(`<input[^>]*aria-label="${label.replace(/[().]/g, "\\$&")}"[^>]*/?>`));
  if (!found) throw new Error(`no checkbox ${label} in ${html}`);
  return found[0];
}

const render = (props: Partial<Parameters<typeof CapabilityMatrix>[0]>) =>
  renderToStaticMarkup(
    createElement(CapabilityMatrix, {
      roles: [role("Huf Viewer", ["agent.view"]), role("Ops", [])],
      catalogue,
      draft: {},
      held: ["agent.view"],
      editable: true,
      onToggle: () => undefined,
      ...props,
    }),
  );

describe("the capability matrix table", () => {
  it("has a labelled checkbox per role and capability, grouped under area headers", () => {
    const html = render({ onEdit: () => undefined });
    expect(html).toContain('aria-label="Edit Ops"');
    expect(html).toContain(">Agents</th>");
    expect(html).toContain(">Roles</th>");
    expect(checkbox(html, "Huf Viewer: See agents (agent.view)")).toContain("checked");
    expect(checkbox(html, "Ops: See agents (agent.view)")).not.toContain("checked");
  });

  it("locks what the editor does not hold, and shows the draft instead of the saved set", () => {
    const html = render({ draft: { Ops: ["agent.view"] } });
    expect(checkbox(html, "Ops: Manage roles (roles.manage)")).toContain("disabled");
    expect(checkbox(html, "Ops: Manage roles (roles.manage)")).toContain("cannot grant or remove it");
    expect(checkbox(html, "Ops: See agents (agent.view)")).not.toContain("disabled");
    expect(checkbox(html, "Ops: See agents (agent.view)")).toContain("checked");
  });

  it("is read-only without roles.manage", () => {
    const html = render({ editable: false, held: ["agent.view", "roles.manage"] });
    expect(checkbox(html, "Ops: See agents (agent.view)")).toContain("disabled");
  });
});
