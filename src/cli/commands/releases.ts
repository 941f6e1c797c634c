import { type Config, loadConfig } from '../../config.js';
import { pruneReleases } from '../../engine/duckdb/release-store.js';
import { describeReleases, indexRelease, ReleaseRefused, rollbackRelease } from '../../engine/duckdb/releases.js';
import {
  describeClusterReleases,
  pruneClusterReleases,
  rollbackClusterRelease,
} from '../../engine/search-cluster/release-writer/release-admin.js';
import { clusterClient } from '../../services.js';
import { type CommandSpec, parse, UsageError } from '../args.js';
import { printJson } from '../json-out.js';

export const releasesSpec: CommandSpec = {
  name: 'releases',
  usage:
    'cds releases list [--data DIR]\n       cds releases rollback [ID] [--data DIR]\n       cds releases prune ' +
    '--keep N [--data DIR]\n       cds releases index [ID] [--data DIR]',
  summary:
    'Lists the data releases on disk, puts an earlier one back (rollback: the previous one, or the one named), or ' +
    'deletes all but the newest N (never the serving one), or builds the search index of a release loaded without ' +
    'one; one JSON line each. With CDS_ENGINE=opensearch or elasticsearch they act on the releases of the cluster (a rollback ' +
    "swaps both aliases in one call). list prints id, created_at, contacts, companies, source (the load's facts) " +
    'and serving, and on disk kind, parent, bytes, shared_bytes, point_store and index; every key is snake_case. ' +
    'Exit 0 ok, 1 failed, 2 bad input.',
  options: { data: { type: 'string' }, keep: { type: 'string' } },
  help:
    'Options:\n  --data DIR   data directory (default ./data)\n  --keep N     prune: releases to keep (at least 1)\n' +
    'Running servers switch to a rolled-back release within a second; cursors of the other release answer ' +
    'cursor.expired.\nindex: builds the bitmap index of the release named (default the serving one); a load builds it ' +
    'already, so this is for releases loaded by an earlier version. Servers serving it use it within a second.\n',
};

export async function releases(argv: string[]): Promise<void> {
  const { values, positionals } = parse(releasesSpec, argv);
  // The data dir as every command reads it (--data, CDS_DATA, default ./data); nothing else is needed.
  const [action, id] = positionals;
  const config = loadConfig(argv);
  const { dataDir } = config;
  if (config.engine !== 'duckdb') return clusterReleases(config, action, id, values.keep);
  switch (action) {
    case 'list':
      for (const r of await describeReleases(dataDir)) printJson(r);
      return;
    case 'rollback': {
      try {
        const p = await rollbackRelease(dataDir, id);
        printJson({ serving: p.id, contacts: p.contacts, companies: p.companies });
      } catch (e) {
        if (e instanceof ReleaseRefused) throw new UsageError(e.message);
        throw e;
      }
      return;
    }
    case 'prune': {
      const keep = Number(values.keep);
      if (!Number.isInteger(keep) || keep < 1) throw new UsageError('--keep must be a whole number, at least 1');
      printJson({ removed: await pruneReleases(dataDir, keep) });
      return;
    }
    case 'index': {
      try {
        printJson(await indexRelease(dataDir, id));
      } catch (e) {
        if (e instanceof ReleaseRefused) throw new UsageError(e.message);
        throw e;
      }
      return;
    }
    default:
      throw new UsageError(`unknown action ${action ?? '(none)'}; use list, rollback, prune or index`);
  }
}

/** The same actions on the releases of the search cluster (CDS_ENGINE=opensearch or elasticsearch). */
async function clusterReleases(config: Config, action?: string, id?: string, keepText?: unknown): Promise<void> {
  const client = clusterClient(config);
  const out = printJson;
  try {
    switch (action) {
      case 'list':
        for (const r of await describeClusterReleases(client, config.esPrefix)) out(r);
        return;
      case 'rollback': {
        const r = await rollbackClusterRelease(client, config.esPrefix, id).catch((e: Error) => {
          throw /^no /.test(e.message) ? new UsageError(e.message) : e;
        });
        out({ serving: r.id, contacts: r.contacts, companies: r.companies });
        return;
      }
      case 'prune': {
        const keep = Number(keepText);
        if (!Number.isInteger(keep) || keep < 1) throw new UsageError('--keep must be a whole number, at least 1');
        out({ removed: await pruneClusterReleases(client, config.esPrefix, keep) });
        return;
      }
      case 'index':
        throw new UsageError('releases index builds the embedded bitmap index; search-cluster releases need none');
      default:
        throw new UsageError(`unknown action ${action ?? '(none)'}; use list, rollback, prune or index`);
    }
  } finally {
    await client.close();
  }
}
