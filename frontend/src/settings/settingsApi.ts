/** The server calls of the Settings page: seed from the installed apps (huf.ai.app_seeding.seeder, the spec's). */
import { call } from "../lib/api";
import type { SeedReport } from "./seedReport";

const SEEDER = "huf.ai.app_seeding.seeder";

/** Create or update the prompts, tools, knowledge, agents and triggers the installed apps ship. */
export const seedAllApps = () => call<SeedReport>(`${SEEDER}.seed_all_apps`);
