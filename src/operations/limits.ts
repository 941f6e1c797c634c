/** Rows one MCP tool call returns at most (spec "Limits": search rows per MCP call, decision makers per call). */
export const MCP_ROWS_PER_CALL = 100;

/**
 * The one place the MCP row cap is enforced: the rows an operation pages for `asked` on the face that called.
 * Every operation that returns rows passes its page size through here; MCP tool schemas advertise the cap.
 */
export function rowsPerCall(face: 'rest' | 'mcp', asked: number): number {
  return face === 'mcp' ? Math.min(asked, MCP_ROWS_PER_CALL) : asked;
}

/** Items in one family B batch (spec "Limits": batch items). */
export const BATCH_MAX = 100;
