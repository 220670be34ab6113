// The MCP panel of the Agents page in headless Chromium (driven by huf/tests/browser/test_mcp_connect.py):
// a Huf User opens Agents, unfolds "Use these agents from an MCP client", reads the endpoint and the client
// configurations, and the endpoint shown answers MCP's tools/list in the page's session with the agent's tool.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user: {user, password}}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, step } from "../support/e2e.mjs";

const browser = await launch();

try {
  step("log in and open Agents");
  const page = await openAs(browser, config.user);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();

  step("unfold the MCP panel");
  const panel = page.getByTestId("mcp-connect");
  await panel.getByText("Use these agents from an MCP client").click();
  const endpoint = panel.getByTestId("mcp-endpoint");
  await endpoint.waitFor();
  result.endpoint = (await endpoint.textContent()).trim();
  result.configs = await panel.locator("section").evaluateAll((sections) => sections.map((s) => ({ label: s.getAttribute("aria-label"), text: s.querySelector("pre")?.textContent ?? "" })));
  await audit(page, "01-mcp-panel", "[data-testid=mcp-connect]");

  step("the endpoint shown answers tools/list in this session");
  result.tools = await page.evaluate(async (url) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Frappe-CSRF-Token": window.huf_boot.csrf_token },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const body = await response.json();
    return { status: response.status, names: (body.result?.tools ?? []).map((tool) => tool.name) };
  }, result.endpoint);
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
