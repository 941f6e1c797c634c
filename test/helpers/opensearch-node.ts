import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A local OpenSearch cluster from tools/opensearch/ (Maven Central artifacts, one JVM per node, loopback only).
 * Node k (1..nodes) answers HTTP on the port of `url` plus k-1.
 */
export interface OpenSearchCluster {
  /** http://127.0.0.1:P, node 1. */
  url: string;
  /** The cluster's folder (pid files, node-K/data, node-K/logs/opensearch.log); '' for a shared cluster. */
  dataDir: string;
  nodes: number;
  /** True when this is the run's shared cluster (OPENSEARCH_URL): stop() leaves it running, killNode() rejects. */
  shared: boolean;
  /** The HTTP URL of node k. */
  nodeUrl(k: number): string;
  /** SIGKILLs node k alone and waits for it to exit (fault tests). */
  killNode(k: number): Promise<void>;
  /** Starts node k again (after killNode), as first started; resolves once the cluster has all its nodes again. */
  restartNode(k: number): Promise<void>;
  /** Stops every node (SIGTERM, then SIGKILL after 30 s) and removes the folder. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Nodes, one JVM each (default 1). More than one node: green with every node before it resolves. */
  nodes?: number;
  /** Heap per node, -Xms = -Xmx (default 512m). */
  heap?: string;
  /** OpenSearch version (default tools/opensearch's, 2.19.6; 3.x needs a JDK 21+, found under /usr/lib/jvm). */
  version?: string;
  /** A cluster of the test's own even when OPENSEARCH_URL names a shared one (needed to kill or restart nodes). */
  own?: boolean;
  /** Seconds start.sh waits for the cluster to be ready (default 180). Give beforeAll a longer jest timeout. */
  timeoutSec?: number;
}

/** tools/opensearch, found up from this file (dist/test/helpers or another build folder inside the repository). */
function toolDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'tools', 'opensearch');
    if (existsSync(join(candidate, 'start.sh'))) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error(`tools/opensearch/start.sh not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** True where a cluster can be started here: java, mvn (and the scripts' curl, setsid, flock) on PATH. */
export function openSearchAvailable(): boolean {
  return (
    spawnSync(
      'sh',
      ['-c', 'command -v java && command -v mvn && command -v curl && command -v setsid && command -v flock'],
      {
        stdio: 'ignore',
      },
    ).status === 0
  );
}

function run(script: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(join(toolDir(), script), args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} ${args.join(' ')} failed (${err.message.split('\n')[0]}):\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A base port P with P .. P+count-1 all free, below Linux's ephemeral range (32768+) so no outgoing socket takes one. */
async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20000 + Math.floor(Math.random() * (12000 - count));
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await portFree(p);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

const running = new Set<string>();
let exitHook = false;
/** Nodes run detached (setsid): a worker that exits without stop() still stops its clusters. */
function stopAllOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const dir of running) {
      spawnSync(join(toolDir(), 'stop.sh'), ['--data', dir, '--timeout', '10'], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

async function sharedCluster(url: string): Promise<OpenSearchCluster> {
  const res = await fetch(`${url}/_cluster/health`);
  if (!res.ok) throw new Error(`OPENSEARCH_URL ${url}: /_cluster/health answered ${res.status}`);
  const health = (await res.json()) as { number_of_nodes: number };
  const refuse = () =>
    Promise.reject(new Error("the shared cluster (OPENSEARCH_URL) is not the test's own: pass { own: true }"));
  return {
    url,
    dataDir: '',
    nodes: health.number_of_nodes,
    shared: true,
    nodeUrl: () => url,
    killNode: refuse,
    restartNode: refuse,
    stop: async () => {},
  };
}

/**
 * Starts a cluster of the caller's own on free ports, or, when OPENSEARCH_URL is set and neither `own` nor more than
 * one node is asked for, answers with that shared cluster (the run's global setup starts one; use index names of the
 * test's own there). Resolves once the cluster is ready (green; yellow for one node).
 */
export async function startOpenSearch(options: StartOptions = {}): Promise<OpenSearchCluster> {
  const nodes = options.nodes ?? 1;
  const sharedUrl = process.env.OPENSEARCH_URL;
  if (sharedUrl && !options.own && nodes === 1) return sharedCluster(sharedUrl.replace(/\/+$/, ''));

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const base = await freePortBlock(2 * nodes); // HTTP on base.., transport on base+nodes..
    const dataDir = mkdtempSync(join(tmpdir(), 'cds-opensearch-'));
    const args = ['--http-port', String(base), '--transport-port', String(base + nodes), '--data', dataDir];
    args.push(
      '--nodes',
      String(nodes),
      '--heap',
      options.heap ?? '512m',
      '--timeout',
      String(options.timeoutSec ?? 180),
    );
    if (options.version) args.push('--version', options.version);
    stopAllOnExit();
    running.add(dataDir);
    try {
      const { stdout } = await run('start.sh', args);
      const url = stdout.trim().split('\n').at(-1) ?? '';
      if (!url.startsWith('http://')) throw new Error(`start.sh printed no URL: ${stdout}`);
      return ownCluster(url, base, dataDir, nodes);
    } catch (e) {
      running.delete(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
      lastError = e;
      // Another process took a port between the check and the bind: try other ports. Anything else is final.
      if (!/BindException|Address already in use/.test(String(e))) break;
    }
  }
  throw lastError;
}

function ownCluster(url: string, base: number, dataDir: string, nodes: number): OpenSearchCluster {
  let stopped = false;
  const checkNode = (k: number) => {
    if (!Number.isInteger(k) || k < 1 || k > nodes) throw new Error(`node ${k} is not 1..${nodes}`);
  };
  return {
    url,
    dataDir,
    nodes,
    shared: false,
    nodeUrl: (k) => {
      checkNode(k);
      return `http://127.0.0.1:${base + k - 1}`;
    },
    killNode: async (k) => {
      checkNode(k);
      await run('stop.sh', ['--data', dataDir, '--kill-node', String(k)]);
    },
    restartNode: async (k) => {
      checkNode(k);
      await run('start.sh', ['--data', dataDir, '--restart-node', String(k)]);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await run('stop.sh', ['--data', dataDir]);
      running.delete(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
