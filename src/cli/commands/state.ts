import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ensureSecret, loadConfig } from '../../config.js';
import { openState, redisClientFor, stateFile } from '../../services.js';
import { closeRedis } from '../../state/redis/client.js';
import {
  readRecords,
  redisHasState,
  redisImport,
  redisRecords,
  sqliteHasState,
  sqliteImport,
  sqliteRecords,
  TransferRefused,
  writeRecords,
} from '../../state/transfer/state-records.js';
import { type CommandSpec, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';

export const stateSpec: CommandSpec = {
  name: 'state',
  usage:
    'cds state export [--data DIR] [--state sqlite|redis] --out FILE | cds state import [--data DIR] [--state sqlite|redis] [--force] FILE',
  summary:
    'Moves an installation between the SQLite and Redis state stores: export writes every durable record (accounts, ' +
    'keys as hashes, credits and settled holds, jobs, alerts, signals, webhooks, OAuth records, audiences, opt-outs ' +
    'with their audit, the request log, unexpired idempotency records and sessions) as JSON lines; import writes ' +
    'them into the store of --state (refuses a store holding data unless --force). Stop the servers first: a held ' +
    'credit hold refuses the export. Prints one JSON line. Exit 0 ok, 1 failed, 2 bad input or refused.',
  options: { data: { type: 'string' }, state: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } },
  help:
    'Options:\n' +
    '  --data DIR      data directory (default ./data)\n' +
    '  --state KIND    sqlite or redis (default CDS_STATE); Redis mode reads REDIS_URL and CDS_REDIS_PREFIX\n' +
    '  --out FILE      export: the file to write (JSON lines, one {"entity": ...} record per line)\n' +
    '  --force         import: replace a store that holds data\n' +
    'Not moved: expired idempotency records, sessions and OAuth records. Job files stay in DATA/files (keep them).\n' +
    'See docs/deployment.md "Moving between SQLite and Redis".\n',
};

export async function state(argv: string[]): Promise<void> {
  const { values, positionals } = parse(stateSpec, argv);
  const [action, ...rest] = positionals;
  if (action !== 'export' && action !== 'import') throw new UsageError('cds state export or cds state import');
  const kind = values.state;
  if (kind !== undefined && kind !== 'sqlite' && kind !== 'redis') throw new UsageError('--state is sqlite or redis');
  const config = loadConfig(argv, kind ? { ...process.env, CDS_STATE: kind } : process.env);
  const secret = ensureSecret(config);
  if (action === 'export' && config.state === 'sqlite' && !existsSync(stateFile(config.dataDir)))
    throw new UsageError(`no state store to export: ${stateFile(config.dataDir)} does not exist`);
  // Opening the store creates or migrates it (SQLite) and checks Redis answers.
  await (await openState(config, secret)).close();
  try {
    if (action === 'export') {
      if (rest.length > 0) throw new UsageError('cds state export takes no FILE: name it with --out');
      if (typeof values.out !== 'string' || !values.out) throw new UsageError('--out FILE is required');
      const out = resolve(values.out);
      mkdirSync(dirname(out), { recursive: true });
      if (config.state === 'redis') {
        const client = await redisClientFor(config);
        try {
          const records = await writeRecords(redisRecords(client, config.redisPrefix), out);
          printJson({ exported: out, from: 'redis', prefix: config.redisPrefix, records });
        } finally {
          await closeRedis(client);
        }
      } else {
        const skipped: Record<string, number> = {};
        const records = await writeRecords(sqliteRecords(stateFile(config.dataDir), skipped), out);
        printJson({ exported: out, from: 'sqlite', records, not_exported: skipped });
      }
      return;
    }
    if (rest.length !== 1) throw new UsageError('name one FILE of cds state export');
    const file = resolve(rest[0]!);
    if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const force = values.force === true;
    if (config.state === 'redis') {
      const client = await redisClientFor(config);
      try {
        if (!force && (await redisHasState(client, config.redisPrefix)))
          throw new UsageError(
            `refusing to import into Redis keys under ${config.redisPrefix}: it holds data; pass --force to replace them`,
          );
        const records = await redisImport(client, config.redisPrefix, readRecords(file), force);
        printJson({ imported: file, into: 'redis', prefix: config.redisPrefix, records });
      } finally {
        await closeRedis(client);
      }
    } else {
      const target = stateFile(config.dataDir);
      if (!force && sqliteHasState(target))
        throw new UsageError(`refusing to import into ${target}: it holds data; pass --force to replace it`);
      const records = await sqliteImport(target, readRecords(file), force);
      printJson({ imported: file, into: 'sqlite', records });
    }
  } catch (e) {
    if (e instanceof TransferRefused) throw new UsageError(e.message);
    throw e;
  }
}
