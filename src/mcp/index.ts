export { MCP_PATH, mcpEndpoint } from './endpoint.js';
export { columnName, labelPayload, labelRow, unlabelRow } from './labels.js';
export { normalizeOrigin, originAllowed } from './origin.js';
export { buildTools, type ToolEntry } from './tools.js';
