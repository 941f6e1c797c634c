import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type CommandSpec, parse as parseCommand } from '../../src/cli/args.js';
import { loadConfig, SETTINGS } from '../../src/config.js';
import { clusterConnection } from '../../src/services.js';
import { cliCommands } from '../helpers/cli-commands.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * The scale-out deployment files (Dockerfile, docker-compose.yml), checked as files: no Docker engine runs where the
 * tests run. What is checked is what the files claim about the code: the commands and options they pass exist, the
 * environment they set is real settings with valid values, and the rules the compose file's comments state hold.
 */
const root = repoRoot();
const read = (file: string) => readFileSync(join(root, file), 'utf8');

// ---------- the CLI's commands ----------

/** Why `argv` is not a command line `cds` accepts (null when it is), parsed exactly as the CLI parses it. */
function commandProblem(commands: Map<string, CommandSpec>, argv: readonly string[], where: string): string | null {
  const [name, ...rest] = argv;
  const spec = name === undefined ? undefined : commands.get(name);
  if (!spec) {
    const file = `src/cli/commands/${name}.ts`;
    return (
      `${where}: runs \`cds ${name ?? ''}\`, which is not a cds command ` +
      `(${existsSync(join(root, file)) ? `${file} exists: export ${name}Spec and register it in src/cli/main.ts` : `no ${file} exporting ${name}Spec, registered in src/cli/main.ts`})`
    );
  }
  try {
    parseCommand(spec, [...rest]);
    return null;
  } catch (e) {
    return `${where}: cds ${name} does not accept ${JSON.stringify(rest)}: ${(e as Error).message.split('\n')[0]}`;
  }
}

// ---------- docker-compose.yml ----------

type Dict = Record<string, unknown>;
interface Dependency {
  condition?: string;
  required?: boolean;
}
interface Service {
  image?: string;
  build?: unknown;
  entrypoint?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  volumes?: Array<string | { type?: string; source?: string; target?: string }>;
  ports?: Array<string | number | { target?: number; published?: string | number }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  depends_on?: string[] | Record<string, Dependency>;
  restart?: string;
  profiles?: string[];
  scale?: number | string;
  ulimits?: Record<string, number | { soft?: number; hard?: number }>;
  mem_limit?: string | number;
  network_mode?: string;
}

const compose = parseYaml(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
} & Dict;
const services = Object.entries(compose.services ?? {});

/** The argv a service's `command` passes to the image's entrypoint (compose splits a string like a shell). */
function argvOf(s: Service): string[] {
  if (Array.isArray(s.command)) return s.command.map(String);
  return typeof s.command === 'string' ? s.command.trim().split(/\s+/) : [];
}

/** The service's environment as written (before interpolation). */
function envOf(s: Service): Record<string, string> {
  const env = s.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(
      env.map((line) => {
        const eq = line.indexOf('=');
        return eq < 0 ? [line, ''] : [line.slice(0, eq), line.slice(eq + 1)];
      }),
    );
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

class MissingVariable extends Error {}

/** Compose's interpolation: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+a}, ${VAR+a}. */
function interpolate(text: string, vars: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, colon?: string, op?: string, arg?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const key = (name ?? bare)!;
      const value = vars[key];
      const missing = value === undefined || (colon === ':' && value === '');
      if (op === '-') return missing ? (arg ?? '') : value!;
      if (op === '?') {
        if (missing) throw new MissingVariable(`${key}: ${arg}`);
        return value!;
      }
      if (op === '+') return missing ? '' : (arg ?? '');
      return value ?? '';
    },
  );
}

/** Values for the variables compose must be given (.env): long enough for the settings that need 32+ characters. */
const DOTENV = { CDS_SECRET: 's'.repeat(48), CDS_ADMIN_TOKEN: 'a'.repeat(48) };

function resolvedEnv(s: Service, vars: Record<string, string | undefined> = DOTENV): Record<string, string> {
  return Object.fromEntries(Object.entries(envOf(s)).map(([k, v]) => [k, interpolate(v, vars)]));
}

/** Named-volume mounts as [volume, container path]. */
function mounts(s: Service): Array<[string, string]> {
  return (s.volumes ?? []).flatMap((v): Array<[string, string]> => {
    if (typeof v === 'string') {
      const [source, target] = v.split(':');
      return source && target && !/^[./~]/.test(source) ? [[source, target]] : [];
    }
    return v.type === 'volume' && v.source && v.target ? [[v.source, v.target]] : [];
  });
}

const flagValue = (argv: readonly string[], flag: string): string | undefined => {
  const i = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  const a = argv[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
};

const isRedis = (s: Service) => (s.image ?? '').startsWith('redis');
const isElasticsearch = (s: Service) => /(^|\/)elasticsearch(\/elasticsearch)?:/.test(s.image ?? '');
const isOpenSearch = (s: Service) => /^opensearchproject\/opensearch:/.test(s.image ?? '');
const isSearch = (s: Service) => isElasticsearch(s) || isOpenSearch(s);
const searchServices = services.filter(([, s]) => isSearch(s));
const appServices = services.filter(([, s]) => !isRedis(s) && !isSearch(s));
const role = (s: Service) => argvOf(s)[0];
const apis = appServices.filter(([, s]) => role(s) === 'serve');
const workers = appServices.filter(([, s]) => role(s) === 'worker');
const loaders = appServices.filter(([, s]) => role(s) === 'seed' || role(s) === 'load');
const settingEnvs = new Set(SETTINGS.map((s) => s.env));
const dependsOn = (s: Service): Record<string, Dependency> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((n) => [n, { condition: 'service_started', required: true }]))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([n, d]) => [n, { required: true, ...d }]));

// ---------- the engine choice: profiles, scale and interpolated settings, as compose reads them ----------

type Vars = Record<string, string | undefined>;

/** The services `docker compose up` starts under these variables: a profile-less or enabled profile, scale 1+. */
function started(vars: Vars): Map<string, Service> {
  const profiles = (vars.COMPOSE_PROFILES ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return new Map(
    services.filter(([, s]) => {
      const enabled = !s.profiles?.length || profiles.includes('*') || s.profiles.some((p) => profiles.includes(p));
      return enabled && scaleOf(s, vars) > 0;
    }),
  );
}

/** A service's number of containers (compose's `scale`, interpolated; 1 when absent). */
function scaleOf(s: Service, vars: Vars): number {
  const text = interpolate(String(s.scale ?? 1), vars);
  if (!/^\d+$/.test(text)) throw new Error(`scale ${JSON.stringify(s.scale)} is ${JSON.stringify(text)}, not a count`);
  return Number(text);
}

/**
 * The `.env` lines the header comment gives for an engine choice: the indented `NAME=value` lines (a trailing
 * `# comment` allowed) of the comment block above `name:`.
 */
const header = read('docker-compose.yml').split(/^name:/m)[0] ?? '';
const headerRecipe: Record<string, string> = Object.fromEntries(
  [...header.matchAll(/^#\s+([A-Z][A-Z0-9_]*)=(\S+)\s*(?:#.*)?$/gm)].map((m): [string, string] => [m[1]!, m[2]!]),
);

interface Choice {
  what: string;
  vars: Vars;
  /** CDS_ENGINE every app process must run with, and the compose service that must serve it. */
  engine: 'elasticsearch' | 'opensearch';
  /** The other search service: does compose still start it (unused)? */
  idle: boolean;
}
const CHOICES: Choice[] = [
  { what: 'the default (no COMPOSE_PROFILES, no CDS_ENGINE)', vars: DOTENV, engine: 'elasticsearch', idle: false },
  {
    what: "OpenSearch, the header's .env lines",
    vars: { ...DOTENV, ...headerRecipe },
    engine: 'opensearch',
    idle: false,
  },
  {
    what: 'OpenSearch without ELASTICSEARCH_SCALE=0',
    vars: { ...DOTENV, ...headerRecipe, ELASTICSEARCH_SCALE: undefined },
    engine: 'opensearch',
    idle: true,
  },
  {
    what: 'Elasticsearch named explicitly',
    vars: { ...DOTENV, CDS_ENGINE: 'elasticsearch' },
    engine: 'elasticsearch',
    idle: false,
  },
];

/**
 * Why this choice does not serve (none when it does): every app service is started, reads its settings (command line
 * and environment, as the process will), reaches its engine at a search service compose starts, and waits for that
 * service to be healthy.
 */
function servingProblems(vars: Vars): string[] {
  const up = started(vars);
  return appServices.flatMap(([name, s]): string[] => {
    if (!up.has(name)) return [`${name}: not started`];
    let url: URL;
    try {
      url = new URL(clusterConnection(loadConfig(argvOf(s), resolvedEnv(s, vars))).url);
    } catch (e) {
      return [`${name}: ${(e as Error).message}`];
    }
    const target = url.hostname;
    const problems: string[] = [];
    if (!up.has(target)) problems.push(`${name}: reaches ${url.host}, which is not started`);
    else if (!isSearch(up.get(target)!)) problems.push(`${name}: reaches ${url.host}, not a search service`);
    if (dependsOn(s)[target]?.condition !== 'service_healthy')
      problems.push(`${name}: does not wait for ${target} to be healthy`);
    return problems;
  });
}

describe('docker-compose.yml', () => {
  it('has Redis, Elasticsearch, OpenSearch, two API processes, a worker and a one-shot loader', () => {
    expect(services.filter(([, s]) => isRedis(s)).map(([n]) => n)).toEqual(['redis']);
    expect(services.filter(([, s]) => isElasticsearch(s)).map(([n]) => n)).toEqual(['elasticsearch']);
    expect(services.filter(([, s]) => isOpenSearch(s)).map(([n]) => n)).toEqual(['opensearch']);
    expect(apis.length).toBeGreaterThanOrEqual(2);
    expect(workers).toHaveLength(1);
    expect(loaders).toHaveLength(1);
    expect(apis.length + workers.length + loaders.length).toBe(appServices.length);
  });

  it('uses only Compose Specification top-level elements (and x- extensions)', () => {
    const known = new Set(['name', 'services', 'volumes', 'networks', 'configs', 'secrets', 'include']);
    expect(Object.keys(compose).filter((k) => !known.has(k) && !k.startsWith('x-'))).toEqual([]);
  });

  it("every app service runs the image's `cds` with a real command and options that command accepts", async () => {
    const commands = cliCommands();
    expect(commands.get('serve')).toBeDefined();
    const problems = appServices.flatMap(([name, s]) => {
      if (s.entrypoint !== undefined) return [`${name}: overrides the entrypoint; command must be cds argv`];
      if (s.build === undefined && s.image === undefined) return [`${name}: neither build nor image`];
      const p = commandProblem(commands, argvOf(s), name);
      return p ? [p] : [];
    });
    expect(problems).toEqual([]);
  });

  it("every environment variable of an app service is a setting of src/config.ts, and the settings' values are valid", () => {
    const unknown = appServices.flatMap(([name, s]) =>
      Object.keys(envOf(s))
        .filter((k) => !settingEnvs.has(k))
        .map((k) => `${name}: ${k}`),
    );
    expect(unknown).toEqual([]);
    // The command line and the environment read together, exactly as each process will read them, under each engine
    // choice; the engine's connection settings included (its URL set, no API key for OpenSearch).
    const invalid = CHOICES.flatMap(({ what, vars }) =>
      appServices.flatMap(([name, s]) => {
        try {
          clusterConnection(loadConfig(argvOf(s), resolvedEnv(s, vars)));
          return [];
        } catch (e) {
          return [`${what}: ${name}: ${(e as Error).message}`];
        }
      }),
    );
    expect(invalid).toEqual([]);
  });

  it('Redis persists every acknowledged write: AOF on, appendfsync always, a named volume, a ping health check', () => {
    const [, redis] = services.find(([, s]) => isRedis(s))!;
    const argv = argvOf(redis);
    expect(argv[0]).toBe('redis-server');
    expect(flagValue(argv, '--appendonly')).toBe('yes');
    expect(flagValue(argv, '--appendfsync')).toBe('always');
    expect(mounts(redis).map(([, target]) => target)).toContain('/data');
    expect(JSON.stringify(redis.healthcheck?.test)).toContain('redis-cli');
  });

  it('the API processes share Redis, only enqueue jobs, and cannot start without CDS_SECRET', () => {
    for (const [name, s] of apis) {
      const env = resolvedEnv(s);
      expect({ name, state: env.CDS_STATE, workers: env.CDS_WORKERS }).toEqual({ name, state: 'redis', workers: '0' });
      expect(new URL(env.REDIS_URL ?? '').hostname).toBe('redis');
      expect(envOf(s).CDS_SECRET).toMatch(/^\$\{CDS_SECRET:?\?[^}]*\}$/);
      expect(() => resolvedEnv(s, { ...DOTENV, CDS_SECRET: undefined })).toThrow(MissingVariable);
    }
    // One secret for all: the same expression everywhere (cursors and signed links cross processes).
    expect(new Set(appServices.map(([, s]) => envOf(s).CDS_SECRET).filter(Boolean)).size).toBe(1);
  });

  it('each API process publishes its own port, on the port it serves and checks its health on', () => {
    const published = apis.map(([name, s]) => {
      const argv = argvOf(s);
      const port = flagValue(argv, '--port') ?? resolvedEnv(s).PORT ?? '8080';
      const ports = (s.ports ?? []).map((p) =>
        typeof p === 'object' ? [String(p.published), String(p.target)] : String(p).split(':').slice(-2),
      );
      expect({ name, targets: ports.map(([, target]) => target) }).toEqual({ name, targets: [port] });
      expect(flagValue(argv, '--host')).toBe('0.0.0.0');
      expect(JSON.stringify(s.healthcheck?.test)).toContain(`127.0.0.1:${port}/health`);
      return ports[0]?.[0];
    });
    expect(new Set(published).size).toBe(apis.length);
  });

  it('Elasticsearch is one node with its heap set, memory locked, a volume and a health check waiting for the cluster', () => {
    const [, es] = services.find(([, s]) => isElasticsearch(s))!;
    const env = envOf(es);
    expect(es.image).toMatch(/:9\.\d+\.\d+$/);
    expect(env['discovery.type']).toBe('single-node');
    expect(env.ES_JAVA_OPTS).toMatch(/-Xms(\d+[gm]) -Xmx\1/);
    expect(env['bootstrap.memory_lock']).toBe('true');
    expect(es.ulimits?.memlock).toEqual({ soft: -1, hard: -1 });
    expect(es.mem_limit).toBeDefined();
    expect(mounts(es).map(([, target]) => target)).toContain('/usr/share/elasticsearch/data');
    expect(JSON.stringify(es.healthcheck?.test)).toMatch(/127\.0\.0\.1:9200\/_cluster\/health\?wait_for_status=yellow/);
  });

  it('OpenSearch 2.19 is one node with its heap set, memory locked, a volume and the same health check', () => {
    const [, os] = services.find(([, s]) => isOpenSearch(s))!;
    const [, es] = services.find(([, s]) => isElasticsearch(s))!;
    const env = envOf(os);
    expect(os.image).toMatch(/^opensearchproject\/opensearch:2\.19\.\d+$/);
    expect(env['discovery.type']).toBe('single-node');
    expect(env.OPENSEARCH_JAVA_OPTS).toMatch(/-Xms(\d+[gm]) -Xmx\1/);
    expect(env['bootstrap.memory_lock']).toBe('true');
    expect(os.ulimits?.memlock).toEqual({ soft: -1, hard: -1 });
    expect(os.mem_limit).toBeDefined();
    expect(mounts(os)).toEqual([['os-data', '/usr/share/opensearch/data']]);
    expect(os.healthcheck?.test).toEqual(es.healthcheck?.test);
    expect(os.healthcheck?.test?.[0]).toBe('CMD-SHELL');
  });

  it('each search node has its own named volume', () => {
    const volumes = searchServices.map(([name, s]) => {
      const named = mounts(s).map(([volume]) => volume);
      expect({ name, volumes: named.length }).toEqual({ name, volumes: 1 });
      return named[0]!;
    });
    expect(new Set(volumes).size).toBe(searchServices.length);
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(volumes));
    // No other service mounts them.
    for (const [name, s] of services.filter(([, x]) => !isSearch(x)))
      expect({ name, mounts: mounts(s).filter(([v]) => volumes.includes(v)) }).toEqual({ name, mounts: [] });
  });

  it('the search nodes run without security on the compose network only: no port published, no host network', () => {
    const [, es] = services.find(([, s]) => isElasticsearch(s))!;
    const [, os] = services.find(([, s]) => isOpenSearch(s))!;
    expect(envOf(es)['xpack.security.enabled']).toBe('false');
    // The security plugin off, and its demo configuration (which needs an admin password since 2.12) not installed.
    expect(envOf(os)).toEqual(
      expect.objectContaining({ DISABLE_SECURITY_PLUGIN: 'true', DISABLE_INSTALL_DEMO_CONFIG: 'true' }),
    );
    for (const [name, s] of searchServices) {
      expect({ name, ports: s.ports ?? [] }).toEqual({ name, ports: [] });
      expect({ name, network_mode: s.network_mode }).toEqual({ name, network_mode: undefined });
    }
    // Only the API processes are reachable from outside.
    expect(services.filter(([, s]) => (s.ports ?? []).length > 0).map(([n]) => n)).toEqual(apis.map(([n]) => n));
  });

  it('a plain `docker compose up` starts Elasticsearch, not OpenSearch; only OpenSearch has a profile', () => {
    expect(services.filter(([, s]) => s.profiles?.length).map(([n, s]) => [n, s.profiles])).toEqual([
      ['opensearch', ['opensearch']],
    ]);
    const up = started(DOTENV);
    expect([...up.keys()].sort()).toEqual(
      services
        .map(([n]) => n)
        .filter((n) => n !== 'opensearch')
        .sort(),
    );
    // Elasticsearch's scale is one container unless set (0 leaves it out); never more (two one-node clusters).
    const [, es] = services.find(([, s]) => isElasticsearch(s))!;
    expect(scaleOf(es, DOTENV)).toBe(1);
    expect(scaleOf(es, { ELASTICSEARCH_SCALE: '0' })).toBe(0);
    for (const [name, s] of services) expect({ name, scale: scaleOf(s, DOTENV) }).toEqual({ name, scale: 1 });
  });

  it("the header's OpenSearch lines enable the opensearch profile, select the engine and leave Elasticsearch out", () => {
    expect(headerRecipe).toEqual({
      COMPOSE_PROFILES: 'opensearch',
      CDS_ENGINE: 'opensearch',
      ELASTICSEARCH_SCALE: '0',
    });
    const up = started({ ...DOTENV, ...headerRecipe });
    expect(up.has('opensearch')).toBe(true);
    expect(up.has('elasticsearch')).toBe(false);
    // CDS_ENGINE is interpolated with elasticsearch as its default: the same expression in every app service.
    for (const [name, s] of appServices)
      expect({ name, engine: envOf(s).CDS_ENGINE }).toEqual({
        name,
        engine: expect.stringMatching(/^\$\{CDS_ENGINE:-elasticsearch\}$/),
      });
  });

  it('under each engine choice, the API processes, the worker and the loader read the release from a started node of that engine, once it is healthy', () => {
    for (const { what, vars, engine, idle } of CHOICES) {
      expect({ what, problems: servingProblems(vars) }).toEqual({ what, problems: [] });
      const up = started(vars);
      for (const [name, s] of appServices) {
        const cfg = loadConfig(argvOf(s), resolvedEnv(s, vars));
        const host = new URL(clusterConnection(cfg).url).hostname;
        expect({ what, name, engine: cfg.engine, host }).toEqual({ what, name, engine, host: engine });
      }
      const other = engine === 'elasticsearch' ? 'opensearch' : 'elasticsearch';
      expect({ what, [other]: up.has(other) }).toEqual({ what, [other]: idle });
    }
    // The documented mistake is caught: CDS_ENGINE=opensearch without the profile leaves the processes no node.
    expect(servingProblems({ ...DOTENV, CDS_ENGINE: 'opensearch' })).not.toEqual([]);
  });

  it('each app service waits for both search services to be healthy, each optional (skipped when not started)', () => {
    for (const [name, s] of appServices)
      for (const [search] of searchServices)
        expect({ name, search, dep: dependsOn(s)[search] }).toEqual({
          name,
          search,
          dep: { condition: 'service_healthy', required: false },
        });
    // Compose refuses a required dependency on a service whose profile is off; under every choice, a started service
    // depends on one that is not started (profile off, or scaled to 0) only optionally.
    for (const { what, vars } of CHOICES) {
      const up = started(vars);
      const required = [...up].flatMap(([name, s]) =>
        Object.entries(dependsOn(s))
          .filter(([dep, d]) => !up.has(dep) && d.required)
          .map(([dep]) => `${what}: ${name} requires ${dep}`),
      );
      expect(required).toEqual([]);
    }
  });

  it('the worker runs the jobs against the same Redis', () => {
    for (const [, s] of workers) {
      const env = resolvedEnv(s);
      expect(env.CDS_STATE).toBe('redis');
      expect(new URL(env.REDIS_URL ?? '').hostname).toBe('redis');
      expect(Number(env.CDS_WORKERS)).toBeGreaterThan(0);
      expect(() => resolvedEnv(s, { ...DOTENV, CDS_SECRET: undefined })).toThrow(MissingVariable);
    }
  });

  it('every app service mounts the one data volume at the data dir it uses', () => {
    const seen = appServices.map(([name, s]) => {
      const dataDir = flagValue(argvOf(s), '--data') ?? resolvedEnv(s).CDS_DATA_DIR ?? 'unset';
      const at = mounts(s).filter(([, target]) => target === dataDir);
      expect({ name, dataDir, mounted: at.length }).toEqual({ name, dataDir, mounted: 1 });
      const env = resolvedEnv(s).CDS_DATA_DIR;
      if (env !== undefined) expect({ name, env }).toEqual({ name, env: dataDir });
      return `${at[0]?.[0]}:${dataDir}`;
    });
    expect(new Set(seen).size).toBe(1);
    const volume = seen[0]!.split(':')[0]!;
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
  });

  it('every service but the loader has a health check; the loader runs once and the app waits for it and Redis', () => {
    for (const [name, s] of services) {
      const on = s.healthcheck?.test !== undefined && s.healthcheck.disable !== true;
      expect({ name, healthcheck: on }).toEqual({ name, healthcheck: !loaders.some(([n]) => n === name) });
    }
    const [loaderName, loader] = loaders[0]!;
    expect(loader.restart).toBe('no');
    expect(dependsOn(loader).redis).toEqual({ condition: 'service_healthy', required: true });
    for (const [name, s] of [...apis, ...workers]) {
      const deps = dependsOn(s);
      expect({ name, redis: deps.redis, loader: deps[loaderName] }).toEqual({
        name,
        redis: { condition: 'service_healthy', required: true },
        loader: { condition: 'service_completed_successfully', required: true },
      });
    }
  });
});

// ---------- Dockerfile ----------

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  image: string;
  name: string;
  body: Instruction[];
}

/** Instructions with continuation lines joined and comments dropped, split into stages at FROM. */
function dockerfileStages(text: string): { args: Record<string, string>; stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') && pending === '') continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    if (pending || line) logical.push(`${pending}${line}`.trim());
    pending = '';
  }
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical.filter(Boolean)) {
    const m = /^(\S+)\s*(.*)$/s.exec(line)!;
    const op = m[1]!.toUpperCase();
    const rest = m[2]!;
    if (op === 'FROM') {
      const [image = '', as, name] = rest.split(/\s+/);
      const resolved = image.replace(/\$\{?(\w+)\}?/g, (_, v: string) => args[v] ?? '');
      stages.push({
        image: resolved,
        name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length),
        body: [],
      });
    } else if (stages.length === 0 && op === 'ARG') {
      const [k, v = ''] = rest.split('=');
      args[k!] = v;
    } else stages.at(-1)?.body.push({ op, args: rest });
  }
  return { args, stages };
}

const dockerfile = dockerfileStages(read('Dockerfile'));
const stages = dockerfile.stages;
const final = stages.at(-1)!;
const stageNamed = (name: string) => stages.find((s) => s.name === name);
const runs = (s: Stage) => s.body.filter((i) => i.op === 'RUN').map((i) => i.args);
const json = (i: Instruction | undefined): unknown => (i ? JSON.parse(i.args) : undefined);

interface Copy {
  from: string | undefined;
  sources: string[];
  dest: string;
}
function copies(s: Stage): Copy[] {
  return s.body
    .filter((i) => i.op === 'COPY')
    .map((i) => {
      const words = i.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
    });
}

/** `ENV A=1 B=2` instructions of a stage, merged. */
function envs(s: Stage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of s.body.filter((x) => x.op === 'ENV'))
    for (const [, k, v] of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[k!] = v!.replace(/^"|"$/g, '');
  return out;
}

describe('Dockerfile', () => {
  it('is multi-stage on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.image).toBe('node:20-bookworm-slim');
  });

  it('the runtime stage runs as a user that is not root', () => {
    const user = final.body
      .filter((i) => i.op === 'USER')
      .at(-1)
      ?.args.split(':')[0];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
  });

  it('the runtime gets production dependencies only, built in another stage; no compiler in it', () => {
    const nodeModules = copies(final).find((c) => c.sources.some((p) => /(^|\/)node_modules\/?$/.test(p)));
    const source = nodeModules?.from === undefined ? final : stageNamed(nodeModules.from);
    expect(source).toBeDefined();
    expect(runs(source!).some((r) => /\bnpm ci\b/.test(r) && /--omit=dev\b/.test(r))).toBe(true);
    // Every dependency whose install script package.json allows (better-sqlite3) is built where node_modules is.
    const allowed = Object.entries(
      (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {},
    )
      .filter(([, yes]) => yes)
      .map(([pkg]) => pkg);
    for (const pkg of allowed) expect(runs(source!).some((r) => r.includes(`npm rebuild ${pkg}`))).toBe(true);
    expect(runs(final).join('\n')).not.toMatch(/\bg\+\+|node-gyp|npm (ci|install|rebuild)\b/);
  });

  it("no `npm ci` runs the root package's prepare (tsc) before the sources are there", () => {
    for (const s of stages)
      for (const r of runs(s).filter((x) => /\bnpm ci\b/.test(x))) expect(r).toMatch(/--ignore-scripts\b/);
  });

  it('dist/ comes from a stage that compiles it, and bin/cds.js runs it', () => {
    const dist = copies(final).find((c) => c.sources.some((p) => /(^|\/)dist\/?$/.test(p)));
    expect(dist?.from).toBeDefined();
    const build = stageNamed(dist!.from!);
    expect(runs(build!).some((r) => /\btsc\b.*-p tsconfig\.json|npm run build/.test(r))).toBe(true);
    expect(read('bin/cds.js')).toMatch(/'dist'/);
    expect(json(final.body.filter((i) => i.op === 'ENTRYPOINT').at(-1))).toEqual(['node', 'bin/cds.js']);
  });

  it('every file it copies from the build context exists and is not excluded by .dockerignore', () => {
    const ignored = new Set(
      read('.dockerignore')
        .split('\n')
        .map((l) => l.trim().replace(/\/$/, ''))
        .filter((l) => l && !l.startsWith('#')),
    );
    for (const name of ['node_modules', 'dist', 'data', '.git']) expect(ignored.has(name)).toBe(true);
    for (const s of stages)
      for (const c of copies(s).filter((x) => x.from === undefined))
        for (const src of c.sources) {
          expect({ src, exists: existsSync(join(root, src)) }).toEqual({ src, exists: true });
          expect({ src, ignored: ignored.has(src.replace(/\/$/, '')) }).toEqual({ src, ignored: false });
        }
    for (const c of stages.flatMap(copies).filter((x) => x.from !== undefined))
      expect({ from: c.from, known: stageNamed(c.from!) !== undefined }).toEqual({ from: c.from, known: true });
    // Runtime files beside dist/: the version is read from package.json; Elasticsearch mappings when they exist.
    const runtimeSources = copies(final).flatMap((c) => c.sources);
    expect(runtimeSources).toEqual(expect.arrayContaining(['package.json', 'bin']));
    if (existsSync(join(root, 'index-mappings'))) expect(runtimeSources).toContain('index-mappings');
    // The web console's front end is served from web/ beside dist/.
    expect(runtimeSources).toContain('web');
  });

  it('serves by default on the data volume, with a health check that needs no curl', async () => {
    const env = envs(final);
    expect(env.NODE_ENV).toBe('production');
    expect(env.CDS_DATA_DIR).toBe('/data');
    expect(Object.keys(env).filter((k) => k !== 'NODE_ENV' && !settingEnvs.has(k))).toEqual([]);
    expect(final.body.some((i) => i.op === 'VOLUME' && i.args.includes(env.CDS_DATA_DIR!))).toBe(true);
    expect(final.body.find((i) => i.op === 'EXPOSE')?.args).toBe(SETTINGS.find((s) => s.env === 'PORT')!.default);
    const cmd = json(final.body.filter((i) => i.op === 'CMD').at(-1)) as string[];
    expect(commandProblem(cliCommands(), cmd, 'Dockerfile CMD')).toBeNull();
    expect(flagValue(cmd, '--host')).toBe('0.0.0.0');
    const health = final.body.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    expect(health).toMatch(/CMD \["node", "-e", .*\/health/);
    expect(health).not.toMatch(/curl|wget/);
  });
});
