/**
 * One example of an operation: a request as a client sends it and the answer it gets. The same examples are run
 * against the real app (test/contract/examples.test.ts), published in OpenAPI and shown on `/docs` as a curl
 * command and an MCP `tools/call`.
 */
export interface OperationExample {
  /** One line: what the example does. */
  summary: string;
  request: {
    /** Path parameters, by the route's `:name`. */
    params?: Record<string, string>;
    /** The query string of a GET or DELETE (arrays are sent comma-separated). */
    query?: Record<string, string | number | boolean | readonly string[]>;
    /** The JSON body of a POST or PATCH. */
    body?: Record<string, unknown>;
  };
  /**
   * The answer: its status and the whole JSON body (family A's envelope, family B's body). Values that depend on
   * the data and the moment (ids, counts, dates) differ from call to call; the shape does not.
   */
  response: { status: number; body: Record<string, unknown> };
}

/** Examples by operation name. */
export type ExampleTable = Record<string, readonly OperationExample[]>;
