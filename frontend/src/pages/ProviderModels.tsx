import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { Field, Select } from "../components/ui";
import { getProviderModels, providerModelsKey } from "./providerApi";

/** The model ids a provider offers, read by the server from its OpenAI-compatible /models with the stored key. */
export function useProviderModels(provider: string) {
  return useQuery({
    queryKey: providerModelsKey(provider),
    queryFn: () => getProviderModels(provider),
    enabled: Boolean(provider),
    staleTime: 60_000,
    retry: false,
  });
}

/** Pick the model name from those the chosen provider offers (a lone one is filled in); typing stays possible. */
export function ProviderModelPicker({ provider, value, onPick }: { provider: string; value: string; onPick: (model: string) => void }) {
  const list = useProviderModels(provider);
  const models = list.data?.models ?? [];
  const lone = models.length === 1 ? models[0] : undefined;
  useEffect(() => {
    if (lone && !value) onPick(lone);
  }, [lone, value, onPick]);

  if (!provider) return null;
  return (
    <div className="space-y-1" data-testid="provider-models">
      {list.isLoading ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
          Reading the models {provider} offers…
        </p>
      ) : models.length ? (
        <Field label={`Models ${provider} offers`} htmlFor="provider-model-pick" help="Picking one fills in Model Name.">
          <Select id="provider-model-pick" value={models.includes(value) ? value : ""} onChange={(e) => e.target.value && onPick(e.target.value)}>
            <option value="">Pick a model ({models.length})</option>
            {models.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {list.data?.error ?? (list.isError ? `The models of ${provider} could not be read.` : `${provider} lists no models.`)} Type the model name above.
        </p>
      )}
    </div>
  );
}
