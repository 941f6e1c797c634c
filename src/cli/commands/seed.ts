import { progressReporter } from '../../../loaders/load/progress.js';
import { releaseWriterFor } from '../../../loaders/load/writers.js';
import { seedRelease } from '../../../loaders/seed.js';
import { loadConfig } from '../../config.js';
import { type CommandSpec, engineOption, intOption, parse } from '../args.js';
import { printJson } from '../json-out.js';
import { stateSuppression } from '../suppression.js';

export const seedSpec: CommandSpec = {
  name: 'seed',
  usage:
    'cds seed [--data DIR] --contacts N --companies M [--seed S] [--if-empty] [--full-cards] ' +
    '[--engine duckdb|opensearch|elasticsearch]',
  summary:
    'Generates seeded synthetic source dumps into DIR/dumps and loads them as a new release of the configured engine ' +
    '(CDS_ENGINE; the serving release swaps atomically), without the people on the opt-out list. Prints one JSON ' +
    'line (snake_case keys): generate (the dumps written) and load (as cds load prints it); with --if-empty and a ' +
    'serving release, {"skipped":true,"release":…}.',
  options: {
    data: { type: 'string' },
    contacts: { type: 'string' },
    companies: { type: 'string' },
    seed: { type: 'string' },
    'if-empty': { type: 'boolean' },
    'full-cards': { type: 'boolean' },
    engine: { type: 'string' },
  },
  help:
    'Options:\n  --data DIR      data directory (default ./data)\n  --contacts N    people to generate (required)\n ' +
    ' --companies M   companies to generate (required)\n  --seed S        random seed (default 42); the same seed ' +
    "gives the same data\n  --if-empty      do nothing when DIR already serves a release (a deployment's one-shot " +
    'loader, run at every start)\n  --full-cards    keep every column ready for point reads (as cds load --full-cards)\n' +
    '  --engine NAME   duckdb, opensearch or elasticsearch (default CDS_ENGINE): the engine the release is written for\n',
};

export async function seed(argv: string[]): Promise<void> {
  const { values } = parse(seedSpec, argv);
  const contacts = intOption(values.contacts, '--contacts', 1, 100_000_000);
  const companies = intOption(values.companies, '--companies', 1, 10_000_000);
  if (contacts === undefined || companies === undefined)
    throw new Error('--contacts and --companies are required (see cds seed --help)');
  const config = loadConfig(argv);
  // The engine's writer: on a search cluster (opensearch, elasticsearch) the release is indexed into it.
  const writer = releaseWriterFor({ ...config, engine: engineOption(values.engine, config.engine) });
  try {
    const serving = values['if-empty'] ? await writer.serving() : null;
    if (serving) {
      printJson({ skipped: true, release: serving });
      return;
    }
    const result = await seedRelease({
      openWriter: writer.openWriter,
      dataDir: config.dataDir,
      contacts,
      companies,
      seed: intOption(values.seed, '--seed', 0, 2 ** 31 - 1) ?? 42,
      networkHost: config.networkHost,
      onProgress: progressReporter(),
      suppression: await stateSuppression(config),
      fullCards: values['full-cards'] === true,
    });
    printJson(result);
  } finally {
    await writer.close();
  }
}
