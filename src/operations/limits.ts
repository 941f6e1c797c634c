/** Rows one MCP tool call returns at most (spec "Limits": search rows per MCP call, decision makers per call). */
export const MCP_ROWS_PER_CALL = 100;

/** Items in one family B batch (spec "Limits": batch items). */
export const BATCH_MAX = 100;
