import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Button, Card, ErrorBanner, Field, Input, Select, Textarea } from "../components/ui";
import { errorMessage } from "../lib/api";
import { credentialSpecs } from "./integrationForm";
import { createService, INTEGRATIONS_KEY } from "./integrationsApi";

const AUTH_TYPES = ["Bearer Token", "Bot Token", "Bot Token in URL", "API Key Header", "Basic", "OAuth 2.0", "Frappe Token", "Webhook URL", "None"];
const CATEGORIES = ["Communication", "Project Management", "Finance", "Developer", "CRM", "Productivity", "Storage", "Other"];
const EXAMPLE = '[{"key": "token", "label": "API token", "secret": true, "required": true}]';

/** An admin's custom service: name, base URL, auth type and the credentials it needs. */
export function NewServiceForm({ onDone }: { onDone: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [doc, setDoc] = useState({ service_name: "", category: "Other", description: "", api_base_url: "", auth_type: "Bearer Token", auth_header_name: "", test_method: "GET", test_path: "", required_credentials: EXAMPLE });
  const [problem, setProblem] = useState("");
  const set = (field: keyof typeof doc) => (e: { target: { value: string } }) => setDoc({ ...doc, [field]: e.target.value });
  const save = useMutation({
    mutationFn: () => createService(doc),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
      onDone();
      navigate(`/integrations/${encodeURIComponent(String(saved.name))}`);
    },
  });
  const submit = () => {
    if (!doc.service_name.trim()) return setProblem("Give the service a key.");
    if (doc.required_credentials.trim() && !credentialSpecs(doc.required_credentials).length) {
      return setProblem('Credentials must be a JSON list like [{"key": "token", "secret": true, "required": true}].');
    }
    setProblem("");
    save.mutate();
  };
  return (
    <Card className="space-y-3">
      <h2 className="font-medium">New service</h2>
      {(problem || save.error) && <ErrorBanner message={problem || errorMessage(save.error)} />}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Key" htmlFor="svc-name" help="Lowercase letters, digits, _ and -, for example acme_crm; tools are named after it.">
          <Input id="svc-name" value={doc.service_name} onChange={set("service_name")} />
        </Field>
        <Field label="Category" htmlFor="svc-category">
          <Select id="svc-category" value={doc.category} onChange={set("category")}>
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </Select>
        </Field>
        <Field label="API base URL" htmlFor="svc-base">
          <Input id="svc-base" value={doc.api_base_url} onChange={set("api_base_url")} placeholder="https://api.example.com" />
        </Field>
        <Field label="Authentication" htmlFor="svc-auth">
          <Select id="svc-auth" value={doc.auth_type} onChange={set("auth_type")}>
            {AUTH_TYPES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </Field>
        {doc.auth_type === "API Key Header" && (
          <Field label="Header name" htmlFor="svc-header">
            <Input id="svc-header" value={doc.auth_header_name} onChange={set("auth_header_name")} placeholder="X-API-Key" />
          </Field>
        )}
        <Field label="Connection test" htmlFor="svc-test" help="The cheapest authenticated call, for example GET /me.">
          <div className="flex gap-2">
            <Select aria-label="Test method" className="w-24" value={doc.test_method} onChange={set("test_method")}>
              <option>GET</option>
              <option>POST</option>
            </Select>
            <Input id="svc-test" value={doc.test_path} onChange={set("test_path")} placeholder="/me" />
          </div>
        </Field>
      </div>
      <Field label="Description" htmlFor="svc-desc">
        <Textarea id="svc-desc" rows={2} value={doc.description} onChange={set("description")} />
      </Field>
      <Field label="Credentials (JSON)" htmlFor="svc-creds" help="key, label, secret, required, description for each value the service needs.">
        <Textarea id="svc-creds" rows={3} className="font-mono text-xs" value={doc.required_credentials} onChange={set("required_credentials")} />
      </Field>
      <div className="flex gap-2">
        <Button onClick={submit} disabled={save.isPending}>
          {save.isPending ? "Creating…" : "Create service"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </Card>
  );
}
