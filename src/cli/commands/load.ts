import { loadRelease } from '../../../loaders/load/index.js';
import { progressReporter } from '../../../loaders/load/progress.js';
import { writeLoadReport } from '../../../loaders/load/report-file.js';
import { loadConfig } from '../../config.js';
import { type CommandSpec, parse, UsageError } from '../args.js';
import { stateSuppression } from '../suppression.js';

export const loadSpec: CommandSpec = {
  name: 'load',
  usage: 'cds load [--data DIR] --people FILE --companies FILE [--strict] [--report FILE] [--full-cards]',
  summary:
    'Loads source dumps (JSON Lines, CSV or Parquet by file extension; JSON Lines and CSV may be gzip-compressed, ' +
    '.gz) as a new release. Bad rows are skipped and reported ' +
    '(count, line numbers, reasons; all of them in DIR/releases/<id>.rejects.jsonl); --strict fails the load ' +
    'instead. People on the opt-out list (cds optout) are left out and counted by identifier type. A failed load ' +
    'leaves the previous release serving.',
  options: {
    data: { type: 'string' },
    people: { type: 'string' },
    companies: { type: 'string' },
    strict: { type: 'boolean' },
    report: { type: 'string' },
    'full-cards': { type: 'boolean' },
  },
  help:
    'Options:\n  --data DIR         data directory (default ./data)\n  --people FILE      people dump (.jsonl, ' +
    '.ndjson, .json or .csv)\n  --companies FILE   companies dump (.jsonl, .ndjson, .json or .csv)\n  --strict      ' +
    '     fail on the first bad row\n  --report FILE      also write a machine-readable report (release id, ' +
    'duration, rows read/loaded/rejected, rejects by reason)\n  --full-cards       keep every column ready for point reads: ' +
    'enrichment and lookups with columns ["*"] read the point store (about 4x its size) instead of the columns\n',
};

export async function load(argv: string[]): Promise<void> {
  const { values } = parse(loadSpec, argv);
  if (typeof values.people !== 'string' || typeof values.companies !== 'string')
    throw new UsageError('--people and --companies are required (see cds load --help)');
  const config = loadConfig(argv);
  const report = await loadRelease({
    dataDir: config.dataDir,
    peopleFile: values.people,
    companiesFile: values.companies,
    strict: values.strict === true,
    networkHost: config.networkHost,
    onProgress: progressReporter(),
    suppression: await stateSuppression(config),
    fullCards: values['full-cards'] === true,
  });
  if (typeof values.report === 'string') {
    await writeLoadReport(values.report, report, { people: values.people, companies: values.companies });
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
