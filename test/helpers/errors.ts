import { ERROR_CATALOG, type ErrorCode } from '../../src/domain/errors/index.js';

/** An answer as the test app and fetch helpers return it: the status and the parsed JSON body. */
interface Answer {
  status: number;
  body: any;
}

/**
 * The one error assertion: the answer has this HTTP status and this catalog code, in either family's error
 * envelope (`error.code`), and the catalog gives the code that status. Status and code are compared together,
 * so a failure prints both (and the message) at once.
 */
export function expectError(res: Answer, status: number, code: ErrorCode): void {
  const error = res.body?.error;
  expect({ status: res.status, code: error?.code }).toEqual({ status, code });
  expect(ERROR_CATALOG[code].status).toBe(status);
}

/** The same for an MCP tool result: a tool error whose structured content carries the code. */
export function expectToolError(result: { isError?: boolean; structuredContent?: any }, code: ErrorCode): void {
  expect({ isError: result.isError, code: result.structuredContent?.code }).toEqual({ isError: true, code });
}
