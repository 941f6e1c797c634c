/**
 * The request log of an account: one entry per answered request of a keyed operation (REST, the console's calls, MCP
 * tool calls), the newest `REQUEST_LOG_CAP` kept. An entry names the route and the outcome, never a body, a query
 * string or contact data.
 */
export interface RequestLogEntry {
  requestId: string;
  accountId: string;
  /** When the answer was made (RFC 3339, ms). */
  at: string;
  /** rest: the API; console: the web console's calls (/app/api); mcp: a tool call. */
  face: 'rest' | 'console' | 'mcp';
  /** HTTP method of the operation's route; null for an MCP tool call. */
  method: string | null;
  /** The route template (`/v1/exports/:id`) or the MCP tool name. */
  route: string;
  /** The operation's name in the table (`exports.get`). */
  operation: string;
  status: number;
  errorCode: string | null;
  /** Contact credits the answer spent (its quota block's contact_credits_used). */
  credits: number;
  durationMs: number;
  /** The API key's prefix (never the key), or null. */
  keyPrefix: string | null;
  /** The OAuth client that called, when the caller came through OAuth. */
  client: string | null;
}

/** Entries kept per account: older ones are dropped as new ones come. */
export const REQUEST_LOG_CAP = 1000;

/** The StateStore's part for the request log (both adapters). */
export interface RequestLogStore {
  /** Appends entries (of any accounts, oldest first) and trims each account to its newest `cap`. */
  appendRequestLog(entries: readonly RequestLogEntry[], cap: number): Promise<void>;
  /** The account's entries, newest first (in the order they were appended). */
  listRequestLog(accountId: string): Promise<RequestLogEntry[]>;
  getRequestLogEntry(accountId: string, requestId: string): Promise<RequestLogEntry | undefined>;
}
