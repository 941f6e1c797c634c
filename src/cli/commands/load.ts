import { loadDelta, loadRelease } from '../../../loaders/load/index.js';
import { progressReporter } from '../../../loaders/load/progress.js';
import { writeLoadReport } from '../../../loaders/load/report-file.js';
import { releaseWriterFor } from '../../../loaders/load/writers.js';
import { loadConfig } from '../../config.js';
import { DeltaRefused } from '../../engine/release-writer.js';
import { type CommandSpec, engineOption, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';
import { stateSuppression } from '../suppression.js';

export const loadSpec: CommandSpec = {
  name: 'load',
  usage:
    'cds load [--data DIR] --people FILE --companies FILE [--strict] [--report FILE] ' +
    '[--engine duckdb|opensearch|elasticsearch] [--full-cards]\n       cds load [--data DIR] --delta --people FILE ' +
    '[--companies FILE] [--deletes FILE] [--strict] [--report FILE] [--engine duckdb|opensearch|elasticsearch] ' +
    '[--full-cards] [--rebuild]',
  summary:
    'Loads source dumps as a new release: JSON Lines (.jsonl, .ndjson, .json), CSV (.csv) or Parquet (.parquet), ' +
    'chosen by file extension; JSON Lines and CSV may be gzip-compressed (.jsonl.gz, .ndjson.gz, .json.gz, .csv.gz). ' +
    'Bad rows are skipped and reported (count, line numbers, reasons; all of them in ' +
    'DIR/releases/<id>.rejects.jsonl); --strict fails the load instead. People on the opt-out list (cds optout) are ' +
    'left out and counted by identifier type. A failed load leaves the previous release serving. With ' +
    'CDS_ENGINE=opensearch or elasticsearch (or --engine) the release is bulk-indexed into new versioned indices and ' +
    'the aliases are swapped in one call. --delta builds the new release from the serving one plus changed people ' +
    'and companies (upserts by source id) and deleted people, re-deriving every denormalized field, with the same ' +
    'indexes, point store and swap: it patches a copy of the serving release, writing only the rows it touches (new ' +
    "people are paged after the serving release's rows until a full load or --rebuild numbers every row in id order " +
    'again); on a search cluster the result is indexed into new versioned indices and the aliases swap, as for a ' +
    'full load. Prints one JSON line (snake_case keys): release_id, contacts, companies, skipped, rejects (the first ' +
    '100), rejects_file, dropped, suppressed (people, by_type), ms, and for --delta the delta block. Exit 0 ok, 1 ' +
    'failed (a missing dump file, a failed build), 2 bad input (arguments, no serving release for a delta, a bad line ' +
    'in the deletes file, a delta the release cannot take).',
  options: {
    data: { type: 'string' },
    people: { type: 'string' },
    companies: { type: 'string' },
    strict: { type: 'boolean' },
    report: { type: 'string' },
    engine: { type: 'string' },
    'full-cards': { type: 'boolean' },
    delta: { type: 'boolean' },
    deletes: { type: 'string' },
    rebuild: { type: 'boolean' },
  },
  help:
    'Options:\n' +
    '  --data DIR         data directory (default ./data)\n' +
    '  --people FILE      people dump: .jsonl, .ndjson, .json (JSON Lines), .csv or .parquet; .gz after .jsonl,\n' +
    '                     .ndjson, .json or .csv reads it gzip-compressed\n' +
    '  --companies FILE   companies dump, in the same formats as --people\n' +
    '  --strict           fail on the first bad row\n' +
    '  --report FILE      also write a machine-readable JSON report (release_id, duration_ms, rows read, loaded and\n' +
    '                     rejected per file, rejected_by_reason, suppressed_by_type, rejects_file)\n' +
    '  --engine NAME      duckdb, opensearch or elasticsearch (default CDS_ENGINE)\n' +
    '  --full-cards       keep every column ready for point reads: enrichment and lookups with columns ["*"] read\n' +
    '                     the point store (about 5x its size) instead of the columns (embedded engine)\n' +
    '  --delta            apply changed records to the serving release: --people (and --companies, optional) hold\n' +
    '                     only new or changed records, which replace those with the same person_id / company_id; a\n' +
    '                     company whose name, domain or public status changes, or that serving contacts named\n' +
    '                     before it existed, needs those contacts restated in --people (exit 2 otherwise)\n' +
    '  --deletes FILE     with --delta: person ids to remove, one per line (per_…) or JSON Lines with a person_id;\n' +
    '                     .gz is read gzip-compressed\n' +
    '  --rebuild          with --delta: build the release from every row (as a full load numbers them, in id order)\n' +
    '                     instead of patching the serving one; slower\n',
};

export async function load(argv: string[]): Promise<void> {
  const { values } = parse(loadSpec, argv);
  if (values.delta === true) return delta(argv, values);
  if (values.deletes !== undefined) throw new UsageError('--deletes goes with --delta (see cds load --help)');
  if (values.rebuild !== undefined) throw new UsageError('--rebuild goes with --delta (see cds load --help)');
  if (typeof values.people !== 'string' || typeof values.companies !== 'string')
    throw new UsageError('--people and --companies are required (see cds load --help)');
  const config = loadConfig(argv);
  const engine = engineOption(values.engine, config.engine);
  const writer = releaseWriterFor({ ...config, engine });
  const report = await loadRelease({
    openWriter: writer.openWriter,
    dataDir: config.dataDir,
    peopleFile: values.people,
    companiesFile: values.companies,
    strict: values.strict === true,
    networkHost: config.networkHost,
    onProgress: progressReporter(),
    suppression: await stateSuppression(config),
    fullCards: values['full-cards'] === true,
  }).finally(() => writer.close());
  if (typeof values.report === 'string') {
    await writeLoadReport(values.report, report, { people: values.people, companies: values.companies });
  }
  printJson(report);
}

/** `cds load --delta`: the serving release plus the changed records and deletions (loaders/load/delta.ts). */
async function delta(argv: string[], values: Record<string, unknown>): Promise<void> {
  if (typeof values.people !== 'string') throw new UsageError('--delta needs --people (see cds load --help)');
  const config = loadConfig(argv);
  const engine = engineOption(values.engine, config.engine);
  const writer = releaseWriterFor({ ...config, engine });
  const companies = typeof values.companies === 'string' ? values.companies : undefined;
  const report = await loadDelta({
    openWriter: writer.openWriter,
    dataDir: config.dataDir,
    peopleFile: values.people,
    ...(companies ? { companiesFile: companies } : {}),
    ...(typeof values.deletes === 'string' ? { deletesFile: values.deletes } : {}),
    strict: values.strict === true,
    onProgress: progressReporter(),
    suppression: await stateSuppression(config),
    fullCards: values['full-cards'] === true,
    rebuild: values.rebuild === true,
  })
    .catch((e: unknown) => {
      throw e instanceof DeltaRefused ? new UsageError(e.message) : e;
    })
    .finally(() => writer.close());
  if (typeof values.report === 'string') {
    await writeLoadReport(values.report, report, { people: values.people, companies: companies ?? null });
  }
  printJson(report);
}
