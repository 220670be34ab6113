import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ActionButton, summarize } from "../components/ActionButton";
import { Button, Card, ErrorBanner, Notice } from "../components/ui";
import { CopyButton } from "../flows/CopyButton";
import { errorMessage } from "../lib/api";
import { can } from "../lib/boot";
import { channelUrlList, connectionState, connectLabel, isOAuth, serviceLabel, type ConnectionState } from "./integrationForm";
import { INTEGRATIONS_KEY, SETTINGS_DOCTYPE, setupTelegramWebhook, startOAuth, testConnection, type ServiceSummary, type SettingsSummary } from "./integrationsApi";

/** The stored outcome of the last Test connection (it survives a reload): the server's message. */
function LastTest({ state }: { state: ConnectionState }) {
  const when = state.at ? ` (${state.at})` : "";
  if (state.outcome === "failed") return <ErrorBanner title={`Connection failed${when}`} message={state.message} />;
  if (state.outcome === "untested") return <p className="text-sm text-slate-600 dark:text-slate-300">Not tested yet.</p>;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="last-connection">
      Last test{when}: {state.message}
    </p>
  );
}

/** Connection test, OAuth status and the channel URLs of a saved settings record. */
export function ConnectionPanel({ service, settings }: { service: ServiceSummary; settings: SettingsSummary }) {
  const queryClient = useQueryClient();
  const canWrite = can(SETTINGS_DOCTYPE, "write");
  const test = useMutation({
    mutationFn: () => testConnection(settings.name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY }),
  });
  const connect = useMutation({
    mutationFn: () => startOAuth(settings.name),
    onSuccess: ({ authorize_url }) => window.location.assign(authorize_url),
  });
  const urls = channelUrlList(settings.channel_urls as Record<string, string | undefined>);
  return (
    <Card className="space-y-4">
      <section className="space-y-2" aria-label="Connection">
        <h3 className="font-medium">Connection</h3>
        {test.data ? (
          test.data.ok ? <Notice message={test.data.message} /> : <ErrorBanner title="Connection failed" message={test.data.message} />
        ) : test.error ? (
          <ErrorBanner title="Connection failed" message={errorMessage(test.error)} />
        ) : (
          <LastTest state={connectionState(settings)} />
        )}
        {canWrite && (
          <Button variant="secondary" onClick={() => test.mutate()} disabled={test.isPending}>
            {test.isPending ? "Testing…" : "Test connection"}
          </Button>
        )}
        {isOAuth(service.auth_type) && (
          <div className="space-y-2">
            <p className="text-sm" data-testid="oauth-status">
              Authorization: {settings.oauth_status || "not connected"}
            </p>
            {connect.error && <ErrorBanner title="Could not start the authorization" message={errorMessage(connect.error)} />}
            {canWrite && (
              <Button variant="secondary" onClick={() => connect.mutate()} disabled={connect.isPending}>
                {connect.isPending ? "Opening…" : connectLabel(service)}
              </Button>
            )}
          </div>
        )}
      </section>

      {urls.length > 0 && (
        <section className="space-y-2" aria-label="Channel setup">
          <h3 className="font-medium">Channel setup</h3>
          <p className="text-xs text-slate-500">Paste these addresses into {serviceLabel(service)}'s settings so its messages reach your agent.</p>
          {urls.map(({ label, url }) => (
            <div key={label} className="space-y-1" data-testid="channel-url">
              <p className="text-sm font-medium">{label}</p>
              <div className="flex items-center gap-2">
                <code className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs dark:bg-slate-800">{url}</code>
                <CopyButton text={url} label={`Copy ${label}`} />
              </div>
            </div>
          ))}
          {canWrite && settings.channel_urls.telegram_webhook && (
            <ActionButton
              label="Register Telegram webhook"
              action={() => setupTelegramWebhook(settings.name)}
              describe={(result) => summarize(result, "Webhook registered with Telegram.")}
            />
          )}
        </section>
      )}
    </Card>
  );
}
