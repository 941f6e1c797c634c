import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP prompts: worked plans an agent's user can pick ("build an audience and export it", "enrich a CSV"). Each names
 * the tools in the order to call them and the free steps to take first; tools/list holds their schemas. The test
 * suite checks that every tool a prompt names is listed.
 */
interface PromptDef {
  prompt: Prompt;
  render(args: Record<string, string>): string;
}

const PROMPTS: readonly PromptDef[] = [
  {
    prompt: {
      name: 'build_audience_and_export',
      title: 'Build an audience and export it',
      description:
        'Turns a plain description of the people wanted into a contact filter, sizes it for free, previews a few ' +
        'rows, quotes the export and, once confirmed, exports it to a CSV link.',
      arguments: [
        {
          name: 'audience',
          description: 'Who to find, in words (e.g. "VPs of sales at US software companies with 50 to 500 staff").',
          required: true,
        },
        { name: 'max_rows', description: 'Most rows to export (default: every match).', required: false },
      ],
    },
    render: (a) =>
      [
        `Build a contact audience for: ${a.audience}`,
        '',
        'Steps:',
        '1. Read the `filter` member of the count_matches input schema: every filter key with its type and, for closed ' +
          'lists, its enum. For a long list (countries, industries) call get_values with the column it names to find ' +
          'the exact values. Use the `where` tree only for what no flat key covers.',
        '2. Call count_matches with the filter (free). If the count is zero, read the no_rows warning and loosen the ' +
          'filter; if it is far from what the user expects, adjust and count again.',
        '3. Call find_contacts with the same filter and limit 5 to preview rows (one contact credit per row) and show ' +
          'them to the user. Pass page.next_cursor as `cursor` only if the user wants more pages.',
        `4. Call start_export with the filter${a.max_rows ? ` and max_rows ${a.max_rows}` : ''} and dry_run true: it ` +
          'answers the credits the export would take and whether they suffice. Tell the user and ask to go on.',
        '5. On yes, call start_export without dry_run, then get_export with its export_id until status is completed ' +
          '(or failed); hand the user the `url` (a signed CSV link) and rows_exported.',
        'Every result carries `quota` (credits left); errors come back with code, message and hint: follow the hint.',
      ].join('\n'),
  },
  {
    prompt: {
      name: 'enrich_csv',
      title: 'Enrich a CSV of contacts',
      description:
        'Enriches a spreadsheet of people (emails, profile URLs, or names with companies) through a browser upload ' +
        'link, then hands back the enriched CSV.',
      arguments: [
        {
          name: 'file_description',
          description: 'What the file holds, e.g. "work emails" or "first name, last name and company domain".',
          required: false,
        },
      ],
    },
    render: (a) =>
      [
        `Enrich a CSV of contacts${a.file_description ? ` (the file holds: ${a.file_description})` : ''}.`,
        '',
        'Steps:',
        '1. Call create_csv_enrichment_upload_link (free) and give the user its upload_url: they upload the CSV (up ' +
          'to 15 MB) or paste a public spreadsheet link in the browser, map its columns and start the run there.',
        '2. Call check_enrichment_upload with the upload_id until it answers a run_id (the user has started the run).',
        '3. Call check_enrichment_status with the run_id until the run is completed; it reports processed rows and ' +
          'matches (one contact credit per matched row).',
        '4. Call get_enrichment_result with the run_id and hand the user its signed CSV link (valid one hour).',
        'For a handful of people, enrich_contact (or service_enrich_person_batch) answers directly without a file.',
      ].join('\n'),
  },
];

export function listPrompts(): Prompt[] {
  return PROMPTS.map((p) => p.prompt);
}

/** The prompt's one user message with the arguments filled in; a missing required argument is -32602. */
export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const def = PROMPTS.find((p) => p.prompt.name === name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  for (const arg of def.prompt.arguments ?? []) {
    if (arg.required && !args[arg.name]?.trim())
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument ${arg.name}.`);
  }
  return {
    description: def.prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: def.render(args) } }],
  };
}
