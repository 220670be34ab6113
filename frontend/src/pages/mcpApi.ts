/** The server calls of the MCP servers page (huf.ai.mcp_client, the spec's MCP endpoints). */
import { call } from "../lib/api";

const API = "huf.ai.mcp_client";

/** Connect and initialize: `{success, message, ...server info}` (needs read on the server). */
export const testMcpConnection = (server: string) => call<unknown>(`${API}.test_mcp_connection`, { server_name: server });

/** Fetch the server's tools and keep them in its Tools table (needs write). */
export const syncMcpServerTools = (server: string) => call<unknown>(`${API}.sync_mcp_server_tools`, { server_name: server });
