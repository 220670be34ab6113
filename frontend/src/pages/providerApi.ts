/** The server calls of the Providers and Models pages (huf.api.providers; the Test connection of an AI Provider). */
import { call, runDocMethod } from "../lib/api";
import type { RoutesAnswer } from "./providerRoutes";

const API = "huf.api.providers";
const PROVIDER_DOCTYPE = "AI Provider";

/** The model ids a provider offers, or why they could not be read. */
export interface ProviderModelList {
  models: string[];
  /** Why the list could not be read (the provider's own error when it gave one). */
  error?: string;
}

export const PROVIDER_ROUTES_KEY = ["provider-routes"];
export const providerRouteKey = (type: string, name: string) => ["provider-route", type, name];

/** Every provider type with its route, and the route of `provider_type` (else of `provider_name`). */
export const getProviderRoutes = (args: { provider_type?: string; provider_name?: string } = {}) =>
  call<RoutesAnswer>(`${API}.get_provider_routes`, args, "GET");

export const providerModelsKey = (provider: string) => ["provider-models", provider];

/** The model ids a provider offers, read by the server from its OpenAI-compatible /models with the stored key. */
export const getProviderModels = (provider: string) => call<ProviderModelList>(`${API}.get_provider_models`, { provider }, "GET");

/** A tiny real request with the provider's saved key (the AI Provider's `test_connection`). */
export const testProviderConnection = (provider: string) => runDocMethod(PROVIDER_DOCTYPE, provider, "test_connection");
