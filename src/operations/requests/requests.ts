import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { REQUEST_LOG_CAP, type RequestLogEntry } from '../../domain/request-log.js';
import { listCursorMember, listLimitMember, pageOf } from '../list-paging.js';
import * as out from '../outputs.js';
import { text } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';
import { requestLogOf } from './recorder.js';

const entryOutput = out.obj({
  request_id: out.str,
  at: out.str,
  face: v.picklist(['rest', 'console', 'mcp']),
  method: out.nullable(out.str),
  route: out.str,
  operation: out.str,
  status: out.num,
  error_code: out.nullable(out.str),
  credits: out.num,
  duration_ms: out.num,
  key_prefix: out.nullable(out.str),
  client: out.nullable(out.str),
});

function entryView(e: RequestLogEntry) {
  return {
    request_id: e.requestId,
    at: e.at,
    face: e.face,
    method: e.method,
    route: e.route,
    operation: e.operation,
    status: e.status,
    error_code: e.errorCode,
    credits: e.credits,
    duration_ms: e.durationMs,
    key_prefix: e.keyPrefix,
    client: e.client,
  };
}

/** The account's log, newest first (by time, then request id), with this process's unwritten entries written first. */
async function entriesOf(ctx: OpContext): Promise<RequestLogEntry[]> {
  await requestLogOf(ctx.services).flush();
  const all = await ctx.services.state.listRequestLog(ctx.account!.id);
  return all.sort((a, b) =>
    a.at > b.at ? -1 : a.at < b.at ? 1 : a.requestId > b.requestId ? -1 : a.requestId < b.requestId ? 1 : 0,
  );
}

const STATUS = /^([1-5])(\d\d|xx)$/i;

const LOG_NOTE =
  `The log keeps the last ${REQUEST_LOG_CAP.toLocaleString('en-US')} requests of the account: REST and console calls ` +
  'of keyed operations and MCP tool calls (face rest, console or mcp), each with its time, method and route ' +
  'template (or MCP tool name), operation, status, error_code, contact credits spent, duration_ms, request_id and ' +
  "the API key's prefix (or the OAuth client's name). Never a request body, a query string or contact data. " +
  'Entries are written within about a quarter second of the answer. Reading the log is not logged. Free.';

export const listRequests = defineOperation({
  name: 'requests.list',
  family: 'A',
  method: 'GET',
  path: '/v1/requests',
  auth: 'key',
  spends: false,
  summary: 'List recent requests',
  description:
    'The request log, newest first, page by page (limit default 50, at most 200). status filters by a status code ' +
    '(404) or a class (4xx); route by a part of the route or tool name, case-insensitive (/v1/exports, ' +
    `find_contacts); error_code by a code. ${LOG_NOTE}`,
  cost: 'free',
  output: out.list(entryOutput),
  errors: [],
  input: v.object({
    status: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(STATUS, 'must be a status code such as 404 or a class such as 4xx'),
        v.description('A status code (402) or class (4xx, 5xx).'),
      ),
    ),
    route: v.optional(text('Part of the route template or MCP tool name (case-insensitive).', 200)),
    error_code: v.optional(text('An error code, e.g. export.not_found.', 100)),
    cursor: listCursorMember,
    limit: listLimitMember(200, 50),
  }),
  handler: async (ctx, input) => {
    const status = input.status?.toLowerCase();
    const route = input.route?.trim().toLowerCase();
    const matches = (e: RequestLogEntry) =>
      (!status || (status.endsWith('xx') ? String(e.status)[0] === status[0] : String(e.status) === status)) &&
      (!route || e.route.toLowerCase().includes(route) || e.operation.toLowerCase() === route) &&
      (!input.error_code || e.errorCode === input.error_code);
    const all = (await entriesOf(ctx)).filter(matches);
    const { items, page } = pageOf(all, (e) => [e.at, e.requestId], input.cursor, input.limit, all.length);
    return { data: items.map(entryView), page };
  },
});

export const getRequest = defineOperation({
  name: 'requests.get',
  family: 'A',
  method: 'GET',
  path: '/v1/requests/:request_id',
  auth: 'key',
  spends: false,
  summary: 'Get one request',
  description:
    "One entry of the request log by its request_id (the request_id of the answer, or an MCP tool result's " +
    `_meta.request_id). An id not in this account's log answers 404 request.not_found. ${LOG_NOTE}`,
  cost: 'free',
  output: entryOutput,
  errors: ['request.not_found'],
  input: v.object({ request_id: text('The request id (req_…).', 100) }),
  handler: async (ctx, input) => {
    await requestLogOf(ctx.services).flush();
    const e = await ctx.services.state.getRequestLogEntry(ctx.account!.id, input.request_id);
    if (!e)
      throw new AppError('request.not_found', 'No request with this id in the request log of this account.', {
        field: 'request_id',
        hint: `The log keeps the last ${REQUEST_LOG_CAP.toLocaleString('en-US')} requests; GET /v1/requests lists them.`,
      });
    return { data: entryView(e) };
  },
});
