import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { sweepInBackground } from '../folder-sweep.js';
import {
  RUN_ID,
  UPLOAD_ID,
  uploadRecordFile,
  uploadRunFile,
  uploadRunSheetFile,
  uploadSheetFile,
  uploadSummaryFile,
  uploadsDir,
  uploadTakeoverFile,
} from './files.js';
import { UPLOAD_KEEP_MS } from './payload.js';

/** The sheet an upload holds once the page sent one. */
export interface UploadFileInfo {
  name: string;
  source: 'file' | 'url';
  bytes: number;
  rows: number;
  encoding: string;
  headers: string[];
  uploaded_at: string;
}

/** One upload: made by create_csv_enrichment_upload_link, bound to its account. */
export interface UploadRecord {
  id: string;
  account_id: string;
  created_at: string;
  expires_at: string;
  /** The API key that asked for the link: revoking it closes the page (records from before it have none). */
  key_id?: string;
  file: UploadFileInfo | null;
  /** The run started from it (read from the `.run` marker), or null. */
  run_id: string | null;
  /**
   * The run id of a claim whose run was never created (ORPHANED_CLAIM_MS old, no such job: the start that made it
   * stopped between claiming and creating the run); `run_id` is then null, and the next start creates this run.
   * Set only by a store that can look runs up.
   */
  orphaned_run?: string;
}

/** A start's claim of an upload: the run it creates and the marker's modification time as that start left it. */
export interface Claim {
  runId: string;
  at: number;
}

/** How old a claim without its run must be to be taken for a crashed start's (creating the run takes milliseconds). */
export const ORPHANED_CLAIM_MS = 60_000;

/** Whether a run (a job of that id) exists, for telling a crashed start's claim from one being made. */
export type RunExists = (runId: string) => Promise<boolean>;

/**
 * Upload records as files in the shared files folder (no state-store table: an upload is one account's scratch
 * space for a day; its run is a job in the store). Writes go to a temp file of their own renamed into place; starting
 * a run creates the `.run` marker exclusively (claimRun), and taking a crashed start's claim over creates a takeover
 * file named after that claim exclusively, so two starts of one upload cannot both win, in any process.
 */
export class UploadStore {
  constructor(
    private readonly filesDir: string,
    private readonly runExists?: RunExists,
  ) {}

  async create(rec: Omit<UploadRecord, 'file' | 'run_id'>, now: Date): Promise<UploadRecord> {
    await mkdir(uploadsDir(this.filesDir), { recursive: true });
    // Expired uploads leave in the background (a sweep reads every file's time: not on every link).
    sweepInBackground(uploadsDir(this.filesDir), now, () => UPLOAD_KEEP_MS);
    const full: UploadRecord = { ...rec, file: null, run_id: null };
    await this.write(full);
    return full;
  }

  /** The record, or undefined when unknown or another account's (callers answer 404 for both). */
  async get(id: string, accountId: string | null): Promise<UploadRecord | undefined> {
    if (!UPLOAD_ID.test(id)) return undefined;
    const text = await readFile(uploadRecordFile(this.filesDir, id), 'utf8').catch(() => null);
    if (text === null) return undefined;
    const rec = JSON.parse(text) as UploadRecord;
    if (accountId !== null && rec.account_id !== accountId) return undefined;
    const marker = uploadRunFile(this.filesDir, id);
    const run = await readFile(marker, 'utf8').catch(() => null);
    const runId = run && RUN_ID.test(run.trim()) ? run.trim() : null;
    if (runId && this.runExists) {
      // The marker's age on the file system's clock (the wall clock), as its mtime was written.
      const claimed = await stat(marker).catch(() => null);
      if (claimed && Date.now() - claimed.mtimeMs >= ORPHANED_CLAIM_MS && !(await this.runExists(runId)))
        return { ...rec, run_id: null, orphaned_run: runId };
    }
    return { ...rec, run_id: runId };
  }

  /**
   * Stores the sheet (UTF-8 text, or its UTF-8 bytes) and its description, replacing an earlier one; `summary` (what
   * the page shows of it, tied to `file.uploaded_at` by its caller) is written first, beside it.
   */
  async saveSheet(
    rec: UploadRecord,
    text: string | Uint8Array,
    file: UploadFileInfo,
    summary?: unknown,
  ): Promise<UploadRecord> {
    if (summary !== undefined) await replaceFile(uploadSummaryFile(this.filesDir, rec.id), JSON.stringify(summary));
    await replaceFile(uploadSheetFile(this.filesDir, rec.id), text);
    const next = { ...rec, file };
    await this.write(next);
    return next;
  }

  /** The summary saveSheet stored, or undefined (none: an upload from before summaries, or unreadable). */
  async readSummary(id: string): Promise<unknown> {
    const text = await readFile(uploadSummaryFile(this.filesDir, id), 'utf8').catch(() => null);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  async readSheet(id: string): Promise<string> {
    return readFile(uploadSheetFile(this.filesDir, id), 'utf8');
  }

  /**
   * Copies the sheet for the run a start just claimed, and returns it: the run reads this copy (readRunSheet), so a
   * file uploaded while the start was under way (its check came before the claim) does not change a started run.
   */
  async snapshotSheet(id: string): Promise<string> {
    const text = await this.readSheet(id);
    await replaceFile(uploadRunSheetFile(this.filesDir, id), text);
    return text;
  }

  /** The sheet a run reads: its start's copy, or the upload's sheet for a run started before copies were made. */
  async readRunSheet(id: string): Promise<string> {
    const copy = await readFile(uploadRunSheetFile(this.filesDir, id), 'utf8').catch(() => null);
    return copy ?? this.readSheet(id);
  }

  /**
   * Claims the upload for a run: the claim for the one caller that created the marker, null for the others. The
   * marker is written whole beside it and linked into place (`link` fails when it exists), so it is never seen empty;
   * on a file system without hard links it is created exclusively (`wx`) and written.
   */
  async claimRun(id: string, runId: string): Promise<Claim | null> {
    const marker = uploadRunFile(this.filesDir, id);
    const tmp = `${marker}.${randomUUID()}.tmp`;
    await writeFile(tmp, runId, 'utf8');
    try {
      try {
        await link(tmp, marker);
      } catch (e) {
        if (!NO_HARD_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
        await writeFile(marker, runId, { flag: 'wx' });
        return { runId, at: (await stat(marker)).mtimeMs };
      }
      // The temp file and the marker are one file now.
      return { runId, at: (await stat(tmp)).mtimeMs };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
      throw e;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /**
   * Takes over the crashed start's claim of `runId` (UploadStore.get: orphaned_run): the claim for the one caller that
   * creates the takeover file named after the claim's modification time, which then dates the claim now, so that it
   * reads as a start under way again. Null when the claim is gone, is another run's, or is no longer an orphan's
   * (a start took it over already).
   */
  async takeOverClaim(id: string, runId: string): Promise<Claim | null> {
    const marker = uploadRunFile(this.filesDir, id);
    const [text, claimed] = await Promise.all([
      readFile(marker, 'utf8').catch(() => null),
      stat(marker).catch(() => null),
    ]);
    if (text?.trim() !== runId || !claimed || Date.now() - claimed.mtimeMs < ORPHANED_CLAIM_MS) return null;
    try {
      await writeFile(uploadTakeoverFile(this.filesDir, id, claimed.mtimeMs), runId, { flag: 'wx' });
      const now = new Date();
      await utimes(marker, now, now);
    } catch (e) {
      // EEXIST: another start took it over; ENOENT: its claim was given back meanwhile.
      if (['EEXIST', 'ENOENT'].includes((e as NodeJS.ErrnoException).code ?? '')) return null;
      throw e;
    }
    return this.claimOf(marker, runId).catch(() => null);
  }

  /**
   * Gives a claim back (the run could not start: no credits, a failure), only while the marker is still this claim's:
   * a start that stalled past ORPHANED_CLAIM_MS may find its claim taken over by another start, which keeps it.
   */
  async releaseRun(id: string, claim: Claim): Promise<void> {
    const marker = uploadRunFile(this.filesDir, id);
    const now = await this.claimOf(marker, claim.runId).catch(() => null);
    if (now?.at === claim.at) await rm(marker, { force: true });
  }

  /** The marker as a claim of `runId`: its modification time, read back (it tells one start's claim from another's). */
  private async claimOf(marker: string, runId: string): Promise<Claim | null> {
    const [text, info] = await Promise.all([readFile(marker, 'utf8'), stat(marker)]);
    return text.trim() === runId ? { runId, at: info.mtimeMs } : null;
  }

  private async write(rec: UploadRecord): Promise<void> {
    const { run_id: _run, orphaned_run: _orphaned, ...stored } = rec;
    await replaceFile(uploadRecordFile(this.filesDir, rec.id), JSON.stringify(stored));
  }
}

/** What `link` answers on a file system without hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Writes `path` whole through a temp file of this write's own (two writers of one path never share a temp file). */
async function replaceFile(path: string, text: string | Uint8Array): Promise<void> {
  const tmp = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
