import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ensureSecret, loadConfig } from '../../config.js';
import { openState, redisClientFor, stateFile } from '../../services.js';
import { closeRedis } from '../../state/redis/client.js';
import {
  backupKind,
  backupRedis,
  backupSqlite,
  optOutReport,
  optOutsOf,
  redisHasKeys,
  restoreRedis,
  restoreSqlite,
  sqliteHasData,
} from '../../state/transfer/backup.js';
import { type CommandSpec, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';

export const backupSpec: CommandSpec = {
  name: 'backup',
  usage: 'cds backup [--data DIR] --out FILE',
  summary:
    'Copies the state store (accounts, keys as hashes, credits and holds, usage, idempotency records, domain lists, ' +
    'opt-outs and their audit, jobs, signals, alerts, sessions, every record that is not a data release) into FILE ' +
    'while servers keep serving: SQLite online backup in the embedded default, a logical export of every key under ' +
    'CDS_REDIS_PREFIX in Redis mode. Prints one JSON line. Exit 0 ok, 1 failed, 2 bad input.',
  options: { data: { type: 'string' }, out: { type: 'string' } },
  help:
    'Options:\n' +
    '  --data DIR   data directory (default ./data); CDS_STATE=redis and REDIS_URL choose Redis mode\n' +
    '  --out FILE   the backup file to write (replaced when it exists; written beside it, then renamed)\n' +
    'Restore it with cds restore; see docs/deployment.md "Backup and restore".\n',
};

export const restoreSpec: CommandSpec = {
  name: 'restore',
  usage: 'cds restore [--data DIR] [--force] FILE',
  summary:
    'Replaces the state store by a backup of cds backup (a SQLite backup into the embedded store, a Redis backup ' +
    'into Redis mode); refuses a store that holds accounts, opt-outs or jobs unless --force. Prints one JSON line: ' +
    'what was restored, the opt-out audit last entries, and any opt-out change of the replaced store that the ' +
    'backup lacks (add those again). Stop the servers first. Exit 0 ok, 1 failed, 2 bad input or refused.',
  options: { data: { type: 'string' }, force: { type: 'boolean' } },
  help:
    'Options:\n' +
    '  --data DIR   data directory (default ./data); CDS_STATE=redis and REDIS_URL choose Redis mode\n' +
    '  --force      replace a store that holds data (its opt-outs newer than the backup are reported)\n' +
    'See docs/deployment.md "Backup and restore".\n',
};

export async function backup(argv: string[]): Promise<void> {
  const { values } = parse(backupSpec, argv);
  if (typeof values.out !== 'string' || !values.out) throw new UsageError('--out FILE is required');
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  const config = loadConfig(argv);
  const secret = ensureSecret(config);
  if (config.state === 'redis') {
    const client = await redisClientFor(config);
    try {
      const { keys } = await backupRedis(client, config.redisPrefix, out);
      printJson({ backup: out, kind: 'redis', prefix: config.redisPrefix, keys });
    } finally {
      await closeRedis(client);
    }
    return;
  }
  // Migrations first (a state file of an older version is brought up to date, as a server would), then the copy.
  const state = await openState(config, secret);
  await state.close();
  const { bytes } = await backupSqlite(stateFile(config.dataDir), out);
  printJson({ backup: out, kind: 'sqlite', bytes });
}

export async function restore(argv: string[]): Promise<void> {
  const { values, positionals } = parse(restoreSpec, argv);
  if (positionals.length !== 1) throw new UsageError('name one backup FILE');
  const file = resolve(positionals[0]!);
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const kind = await backupKind(file);
  if (!kind) throw new UsageError(`${file} is not a backup of cds backup`);
  const config = loadConfig(argv);
  const secret = ensureSecret(config);
  if (kind !== (config.state === 'redis' ? 'redis' : 'sqlite'))
    throw new UsageError(
      `${file} is a ${kind} backup but this installation keeps its state in ${config.state === 'redis' ? 'Redis' : 'SQLite'}; ` +
        'move between the two with cds state export and cds state import',
    );
  const force = values.force === true;
  let restored: { keys?: number; bytes?: number };
  let before: Awaited<ReturnType<typeof optOutsOf>> | null = null;
  if (kind === 'redis') {
    const client = await redisClientFor(config);
    try {
      if (await redisHasKeys(client, config.redisPrefix)) {
        if (!force) throw refusal(`Redis keys under ${config.redisPrefix}`);
        const current = await openState(config, secret);
        before = await optOutsOf(current).finally(() => current.close());
      }
      restored = await restoreRedis(client, config.redisPrefix, file);
    } finally {
      await closeRedis(client);
    }
  } else {
    const target = stateFile(config.dataDir);
    if (sqliteHasData(target)) {
      if (!force) throw refusal(target);
      const current = await openState(config, secret);
      before = await optOutsOf(current).finally(() => current.close());
    }
    mkdirSync(config.dataDir, { recursive: true });
    await restoreSqlite(file, target);
    restored = {};
  }
  // Opening the restored store migrates it to this version.
  const state = await openState(config, secret);
  try {
    const report = await optOutReport(before, state);
    const lost = report.newer_than_backup.length + Object.keys(report.missing_entries).length;
    printJson({
      restored: file,
      kind,
      ...restored,
      accounts: (await state.listAccounts()).length,
      optout_audit_last: report.last,
      optouts_newer_than_backup: report.newer_than_backup,
      optouts_missing_after_restore: report.missing_entries,
    });
    if (lost > 0)
      process.stderr.write(
        'cds restore: WARNING: the replaced store held opt-out changes the backup lacks (optouts_newer_than_backup, ' +
          'optouts_missing_after_restore): add those opt-outs again (cds optout add or import) before serving.\n',
      );
  } finally {
    await state.close();
  }
}

function refusal(what: string): UsageError {
  return new UsageError(
    `refusing to replace ${what}: it holds data (accounts, opt-outs or jobs). Stop the servers and pass --force to ` +
      'replace it; opt-out changes it holds that the backup lacks are then reported',
  );
}
