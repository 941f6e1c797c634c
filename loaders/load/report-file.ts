import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { snakeKeys } from '../../src/cli/json-out.js';
import type { LoadReport, Reject } from './types.js';

/**
 * The machine-readable report of a load (`cds load --report FILE`), for a scheduler: the release id, the
 * duration, rows read / loaded / rejected per file, and rejects counted by reason (the reason's field, the part
 * before its first `:`; every reject with its line stays in the rejects file).
 */
export interface LoadReportFile {
  release_id: string;
  duration_ms: number;
  /** `suppressed`: valid rows left out because the suppression list matches them (`suppressed_by_type`). */
  people: { file: string; read: number; loaded: number; rejected: number; suppressed: number };
  companies: { file: string; read: number; loaded: number; rejected: number };
  rejected_by_reason: Record<string, number>;
  dropped: LoadReport['dropped'];
  /** Suppressed people by the first identifier type that matched them (id, email, phone, url, sha256). */
  suppressed_by_type: LoadReport['suppressed']['byType'];
  rejects_file: string;
  /**
   * A delta load: its parent release, whether it patched a copy of it, and the people its deletes file removed or did
   * not find. The `people` and `companies` counts are then the whole new release's (`read`: its rows plus the delta's
   * rejected and suppressed).
   */
  delta?: {
    parent: string;
    patched: boolean;
    people: { replaced: number; added: number };
    companies: { replaced: number; added: number };
    deleted: number;
    not_found: number;
  };
}

export async function writeLoadReport(
  path: string,
  report: LoadReport,
  files: { people: string; companies: string | null },
): Promise<LoadReportFile> {
  const text = await readFile(report.rejectsFile, 'utf8').catch(() => '');
  const byReason: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const reject = JSON.parse(line) as Reject;
    const reason = reject.reason.split(':')[0]!.trim();
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }
  const out: LoadReportFile = {
    release_id: report.releaseId,
    duration_ms: report.ms,
    people: {
      file: basename(files.people),
      read: report.contacts + report.skipped.people + report.suppressed.people,
      loaded: report.contacts,
      rejected: report.skipped.people,
      suppressed: report.suppressed.people,
    },
    companies: {
      file: files.companies === null ? '' : basename(files.companies),
      read: report.companies + report.skipped.companies,
      loaded: report.companies,
      rejected: report.skipped.companies,
    },
    rejected_by_reason: Object.fromEntries(Object.entries(byReason).sort((a, b) => b[1] - a[1])),
    dropped: report.dropped,
    suppressed_by_type: report.suppressed.byType,
    rejects_file: report.rejectsFile,
    ...(report.delta
      ? {
          delta: {
            parent: report.delta.parent,
            patched: report.delta.patched,
            people: report.delta.people,
            companies: report.delta.companies,
            deleted: report.delta.deleted,
            not_found: report.delta.notFound,
          },
        }
      : {}),
  };
  // Every key snake_case at every depth, as the line `cds load` prints (src/cli/json-out.ts).
  await writeFile(path, `${JSON.stringify(snakeKeys(out), null, 2)}\n`);
  return out;
}
