import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { Badge, Button, Card, EmptyState, ErrorBanner, PageHeader, Spinner } from "../components/ui";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { connectionState, groupByCategory, serviceLabel, serviceStatus, settingsInUse, type ServiceStatus } from "./integrationForm";
import { INTEGRATIONS_KEY, listIntegrations, SERVICE_DOCTYPE } from "./integrationsApi";
import { NewServiceForm } from "./NewServiceForm";
import { ServicePanel } from "./ServicePanel";

const STATUS_COLOR: Record<ServiceStatus, string> = {
  Connected: "green",
  "Connection failed": "red",
  "Not tested": "blue",
  Incomplete: "yellow",
  "Not configured": "gray",
};

/** /huf/integrations: the service catalog; /huf/integrations/<service>: its settings records. */
export default function Integrations() {
  const { service: selected } = useParams();
  const [creating, setCreating] = useState(false);
  const query = useQuery({ queryKey: INTEGRATIONS_KEY, queryFn: listIntegrations });
  const services = query.data ?? [];
  const current = selected ? services.find((s) => s.service === selected) : undefined;

  if (query.isLoading) return <Spinner />;
  if (query.error) return <ErrorBanner title="The integrations could not be loaded" message={errorMessage(query.error)} />;
  if (selected) {
    if (!current) return <EmptyState title="Service not found" description={`There is no service named "${selected}".`} action={<Link to="/integrations">Back to integrations</Link>} />;
    return <ServicePanel service={current} />;
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title="Integrations"
        description="External services your agents can use as tools, and the channels people can talk to them through."
        actions={can(SERVICE_DOCTYPE, "create") && !creating ? <Button onClick={() => setCreating(true)}>New service</Button> : undefined}
      />
      {creating && <NewServiceForm onDone={() => setCreating(false)} />}
      {services.length === 0 && <EmptyState title="No services yet" description="Built-in services appear here after the app is installed or migrated." />}
      {groupByCategory(services).map((group) => (
        <section key={group.category} aria-label={group.category} className="space-y-2">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{group.category}</h2>
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {group.services.map((service) => {
              const status = serviceStatus(service);
              const used = settingsInUse(service);
              return (
                <Link key={service.service} to={`/integrations/${encodeURIComponent(service.service)}`} data-testid="service-card" className="block">
                  <Card className="h-full hover:border-indigo-400">
                    <div className="flex items-start justify-between gap-2">
                      <span className="font-medium">{serviceLabel(service)}</span>
                      <Badge color={STATUS_COLOR[status]}>{status}</Badge>
                    </div>
                    {service.description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{service.description}</p>}
                    {status === "Connection failed" && used && (
                      <p className="mt-1 text-sm text-red-700 dark:text-red-300" data-testid="connection-error">
                        {connectionState(used).message}
                      </p>
                    )}
                    <p className="mt-2 text-xs text-slate-500">
                      {service.auth_type || "No authentication"}
                      {!service.is_builtin && " · custom"}
                    </p>
                  </Card>
                </Link>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
