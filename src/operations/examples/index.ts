import type { Operation } from '../types.js';
import { accountExamples } from './account.js';
import { adminExamples } from './admin.js';
import { audiencesExamples } from './audiences.js';
import { companiesExamples } from './companies.js';
import { contactsExamples } from './contacts.js';
import { enrichmentRunsExamples } from './enrichment-runs.js';
import { familyBExamples } from './family-b.js';
import { requestsExamples } from './requests.js';
import { schemaExamples } from './schema.js';
import { signalsExamples } from './signals.js';
import { systemExamples } from './system.js';
import type { ExampleTable, OperationExample } from './types.js';
import { webhooksExamples } from './webhooks.js';

export type { ExampleTable, OperationExample } from './types.js';

/** Every operation's examples by name, one file per resource (the operation table attaches them: withExamples). */
export const EXAMPLES: ExampleTable = {
  ...systemExamples,
  ...accountExamples,
  ...schemaExamples,
  ...contactsExamples,
  ...companiesExamples,
  ...signalsExamples,
  ...familyBExamples,
  ...adminExamples,
  ...audiencesExamples,
  ...enrichmentRunsExamples,
  ...requestsExamples,
  ...webhooksExamples,
};

/** The operation with its examples attached (none when the table has no line for it; a test requires one). */
export function withExamples<O extends Operation>(op: O): O {
  return { ...op, examples: EXAMPLES[op.name] ?? [] };
}

/** An operation's examples: those attached to it, else the table's. */
export function examplesOf(op: Pick<Operation, 'name' | 'examples'>): readonly OperationExample[] {
  return op.examples ?? EXAMPLES[op.name] ?? [];
}

/** The operation's input as one object: path parameters, query and body merged (the MCP tool's arguments). */
export function exampleInput(example: OperationExample): Record<string, unknown> {
  const { params, query, body } = example.request;
  return { ...params, ...query, ...body };
}

/** The request path of an example: the route with its parameters filled in, and the query string. */
export function examplePath(op: Pick<Operation, 'path'>, example: OperationExample): string {
  const params = example.request.params ?? {};
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? `:${name}`));
  const query = new URLSearchParams(
    Object.entries(example.request.query ?? {}).map(([k, v]): [string, string] => [
      k,
      Array.isArray(v) ? v.join(',') : String(v),
    ]),
  ).toString();
  return query ? `${path}?${query}` : path;
}
