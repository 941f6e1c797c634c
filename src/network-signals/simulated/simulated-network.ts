import type { Clock } from '../../domain/clock.js';
import type { SearchEngine } from '../../engine/port.js';
import type { CollectOptions, Engager, EngagerBatch, NetworkSource, SignalTarget } from '../port.js';
import { SourceError } from '../port.js';
import { canonicalTargetUrl } from '../target.js';
import { hash32, normal, pick, poisson, unit } from './random.js';
import { EMPLOYERS, FIRST_NAMES, LAST_NAMES, ROLES } from './vocab.js';

/**
 * The default NetworkSource: a simulated professional network, deterministic from the target, the seed
 * (the data release id) and the time asked about, so tests and demos see stable yet realistic answers.
 *
 * - A profile publishes a post every 1 to 10 days (its own rhythm); each post gathers a Poisson number
 *   of engagements around the profile's popularity (heavy-tailed), arriving over the following days;
 *   6-20 % are comments. About a fifth of engagements come from the profile's fans (who engage again and
 *   again), about 35 % from people in the store (sampled deterministically from the engine's contacts,
 *   so they match by profile slug), the rest from people the store does not hold.
 * - A post target is one such post, published at a fixed point of 2026.
 * - A company page has a heavy-tailed follower count (about one page in ten is below 100) growing a
 *   little every day; followers are listed newest first.
 * Time moves the answers: new posts and followers appear as the clock advances, which is what gives
 * alerts new leads.
 */
export interface SimulatedNetworkOptions {
  host: string;
  clock: Clock;
  engine: SearchEngine;
  /** Pause before each batch, to behave like a real collection (0 in tests). */
  delayMs: number;
  batchSize?: number;
  /** Engine budget of the stored-people sample query. */
  budgetMs?: number;
}

const EPOCH = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LATEST_POSTS = 10;
const STORED_SHARE = 0.35;
const FAN_SHARE = 0.2;
/** Stored people sampled per target: a company page needs more, since each follows it only once. */
const POOL_SIZE = { engagers: 600, followers: 3000 } as const;
/** A prime larger than the pool: stepping through the pool by it visits every stored person once. */
const POOL_STEP = 7919;

interface Person {
  name: string;
  headline: string | null;
  profile_url: string;
}

interface Engagement {
  delayMs: number;
  engagement: 'reaction' | 'comment';
  who: string;
}

export class SimulatedNetwork implements NetworkSource {
  readonly name = 'simulated';
  private readonly pools = new Map<string, Person[]>();
  private readonly batchSize: number;

  constructor(private readonly opts: SimulatedNetworkOptions) {
    this.batchSize = opts.batchSize ?? 100;
  }

  private get seed(): string {
    return this.opts.engine.release()?.id ?? 'no-data';
  }

  async estimate(target: SignalTarget): Promise<number> {
    const now = this.opts.clock.now().getTime();
    switch (target.kind) {
      case 'network_company':
        return companyModel(this.seed, target.slug).followersAt(now);
      case 'network_post': {
        const post = standalonePost(this.seed, target.slug);
        return noisy(visible(post.engagements, post.at, now).length, this.seed, target.slug, 'est');
      }
      case 'network_profile': {
        const m = profileModel(this.seed, target.slug);
        const top = m.latestPost(now);
        let n = 0;
        for (let k = top; k > top - LATEST_POSTS; k--) n += visible(m.engagements(k), m.postAt(k), now).length;
        return noisy(n, this.seed, target.slug, top);
      }
    }
  }

  async *collect(target: SignalTarget, options: CollectOptions): AsyncIterable<EngagerBatch> {
    const seed = this.seed;
    const now = this.opts.clock.now().getTime();
    const pool = await this.pool(seed, target);
    const it =
      target.kind === 'network_company'
        ? this.followers(seed, target, pool, options, now)
        : this.engagers(seed, target, pool, options, now);
    let items: Engager[] = [];
    let cursor: string | null = options.cursor;
    let taken = 0;
    for (const [engager, next] of it) {
      if (taken >= options.limit) break;
      items.push(engager);
      taken++;
      cursor = next;
      if (items.length === this.batchSize) {
        await this.pause(options.signal);
        yield { items, nextCursor: taken >= options.limit ? null : cursor };
        items = [];
      }
    }
    if (items.length > 0 || taken === 0) {
      await this.pause(options.signal);
      yield { items, nextCursor: null };
    }
  }

  /** Engagers of a profile's 10 latest posts (newest post first) or of one post, in arrival order. */
  private *engagers(
    seed: string,
    target: SignalTarget,
    pool: Person[],
    options: CollectOptions,
    now: number,
  ): Generator<[Engager, string]> {
    if (target.kind === 'network_post') {
      const post = standalonePost(seed, target.slug);
      const start = options.cursor ? cursorNumbers(options.cursor, 1)[0]! : 0;
      const list = visible(post.engagements, post.at, now);
      for (let j = start; j < list.length; j++) {
        yield [this.engager(seed, target.slug, list[j]!, post.at, target.url, pool), `${j + 1}`];
      }
      return;
    }
    const m = profileModel(seed, target.slug);
    // The cursor pins the newest post at the start, so a resumed job reads the same 10 posts.
    const [top, offset, from] = options.cursor ? cursorNumbers(options.cursor, 3) : [m.latestPost(now), 0, 0];
    for (let o = offset!; o < LATEST_POSTS; o++) {
      const k = top! - o;
      const at = m.postAt(k);
      const url = postUrl(this.opts.host, seed, target.slug, k);
      const list = visible(m.engagements(k), at, now);
      for (let j = o === offset ? from! : 0; j < list.length; j++) {
        yield [
          this.engager(seed, target.slug, list[j]!, at, url, pool),
          j + 1 < list.length ? `${top}:${o}:${j + 1}` : `${top}:${o + 1}:0`,
        ];
      }
    }
  }

  /** Followers of a company page, newest first. */
  private *followers(
    seed: string,
    target: SignalTarget,
    pool: Person[],
    options: CollectOptions,
    now: number,
  ): Generator<[Engager, string]> {
    const m = companyModel(seed, target.slug);
    // The cursor pins the follower count at the start, so new followers do not shift a resumed job.
    const [count, done] = options.cursor ? cursorNumbers(options.cursor, 2) : [m.followersAt(now), 0];
    const size = pool.length;
    const offset = hash32(seed, target.slug, 'pool') % Math.max(1, size);
    // One follower in each block of three is a stored person. Stepping through the pool by a prime larger
    // than it gives distinct people to any 3 x pool consecutive followers; only a collection longer than
    // that meets a stored person again (leads count people, so nobody is charged twice).
    for (let n = done!; n < count!; n++) {
      const i = count! - 1 - n;
      const block = Math.floor(i / 3);
      const stored = size > 0 && i % 3 === hash32(seed, target.slug, 'blk', block) % 3;
      const person = stored
        ? pool[((block % size) * POOL_STEP + offset) % size]!
        : this.synthetic(`${target.slug}:f:${i}`);
      yield [
        { ...person, engagement: 'follow', post_url: null, at: new Date(m.followedAt(i)).toISOString() },
        `${count}:${n + 1}`,
      ];
    }
  }

  private engager(seed: string, _source: string, e: Engagement, postAt: number, url: string, pool: Person[]): Engager {
    const person =
      e.who.startsWith('stored:') && pool.length > 0 ? pool[hash32(seed, e.who) % pool.length]! : this.synthetic(e.who);
    return { ...person, engagement: e.engagement, post_url: url, at: new Date(postAt + e.delayMs).toISOString() };
  }

  /** A person the store does not hold, the same for the same key. */
  private synthetic(key: string): Person {
    const first = pick(FIRST_NAMES, key, 'first');
    const last = pick(LAST_NAMES, key, 'last');
    const role = pick(ROLES, key, 'role');
    const employer = pick(EMPLOYERS, key, 'employer');
    const slug = `${first}-${last}-${hash32(key, 'slug').toString(16).padStart(8, '0').slice(0, 7)}`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '');
    const headline =
      unit(key, 'headline') < 0.08
        ? null
        : employer === 'self-employed' || employer === 'Freelance'
          ? `${role} | ${employer}`
          : `${role} at ${employer}`;
    return { name: `${first} ${last}`, headline, profile_url: canonicalTargetUrl('person', slug, this.opts.host) };
  }

  /** People in the store who engage with this target: a deterministic slice of contacts with a profile URL. */
  private async pool(seed: string, target: SignalTarget): Promise<Person[]> {
    const key = `${seed}|${target.kind}|${target.slug}`;
    const cached = this.pools.get(key);
    if (cached) return cached;
    const release = this.opts.engine.release();
    let people: Person[] = [];
    if (release && release.contacts > 0) {
      const size = target.kind === 'network_company' ? POOL_SIZE.followers : POOL_SIZE.engagers;
      const span = Math.max(0, release.contacts - size);
      const after = span > 0 ? hash32(seed, target.slug, 'slice') % span : null;
      try {
        const res = await this.opts.engine.query(
          'contact',
          { field: 'network', op: 'exists' },
          {
            page: {
              columns: ['network', 'network_slug', 'name', 'title', 'company'],
              afterSortKey: after,
              limit: size,
              budgetMs: this.opts.budgetMs ?? 10_000,
            },
          },
        );
        // Two contacts may share a profile (a duplicate in the source): the pool holds each person once,
        // so stepping through it never shows one person twice (leads count people).
        const slugs = new Set<string>();
        people = res.rows
          .filter(
            (r) =>
              typeof r.network === 'string' &&
              r.network !== '' &&
              typeof r.network_slug === 'string' &&
              !slugs.has(r.network_slug) &&
              !!slugs.add(r.network_slug),
          )
          .map((r) => ({
            name: typeof r.name === 'string' && r.name ? r.name : 'Network member',
            headline:
              typeof r.title === 'string' && r.title
                ? typeof r.company === 'string' && r.company
                  ? `${r.title} at ${r.company}`
                  : r.title
                : null,
            profile_url: r.network as string,
          }));
      } catch (e) {
        throw new SourceError(
          `The simulated network could not sample stored people (${(e as Error).message}); retry in a minute.`,
          'transient',
        );
      }
    }
    if (this.pools.size >= 200) this.pools.delete(this.pools.keys().next().value!);
    this.pools.set(key, people);
    return people;
  }

  private async pause(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new SourceError('The collection was stopped.', 'transient');
    await new Promise<void>((resolve) =>
      this.opts.delayMs > 0 ? setTimeout(resolve, this.opts.delayMs) : setImmediate(resolve),
    );
  }
}

interface ProfileModel {
  latestPost(now: number): number;
  postAt(k: number): number;
  engagements(k: number): Engagement[];
}

function profileModel(seed: string, slug: string): ProfileModel {
  const intervalMs = (24 + unit(seed, slug, 'interval') * 216) * HOUR;
  const phase = unit(seed, slug, 'phase');
  // Popularity: median about 35 engagements a post, heavy right tail, clamped to a credible range.
  const lambda = Math.min(1500, Math.max(1, Math.exp(Math.log(35) + 1.1 * normal(seed, slug, 'popularity'))));
  const commentShare = 0.06 + unit(seed, slug, 'comments') * 0.14;
  const fans = Math.max(5, Math.round(lambda * 0.6));
  const postAt = (k: number) => EPOCH + (k + phase) * intervalMs + unit(seed, slug, 'jitter', k) * 0.3 * intervalMs;
  return {
    postAt,
    latestPost(now) {
      let k = Math.floor((now - EPOCH) / intervalMs - phase);
      while (postAt(k) > now) k--;
      return k;
    },
    engagements(k) {
      const factor = Math.min(3, Math.max(0.3, Math.exp(0.5 * normal(seed, slug, 'post', k))));
      return engagementsOf(seed, `${slug}:${k}`, lambda * factor, commentShare, fans, slug);
    },
  };
}

function standalonePost(seed: string, slug: string): { at: number; engagements: Engagement[] } {
  const at = EPOCH + unit(seed, slug, 'published') * 300 * DAY;
  const lambda = Math.min(2500, Math.max(1, Math.exp(Math.log(60) + 1.2 * normal(seed, slug, 'popularity'))));
  return {
    at,
    engagements: engagementsOf(
      seed,
      slug,
      lambda,
      0.06 + unit(seed, slug, 'comments') * 0.14,
      Math.max(3, Math.round(lambda * 0.1)),
      slug,
    ),
  };
}

/** The engagements a post will gather, in arrival order (a later `now` sees a longer prefix). */
function engagementsOf(
  seed: string,
  postKey: string,
  lambda: number,
  commentShare: number,
  fans: number,
  fanKey: string,
): Engagement[] {
  const n = poisson(lambda, seed, postKey, 'count');
  const out: Engagement[] = [];
  for (let j = 0; j < n; j++) {
    // Most engagement comes in the first day; the tail runs to about two weeks.
    const delayMs = Math.min(14 * DAY, -Math.log(1 - unit(seed, postKey, j, 'delay')) * 10 * HOUR);
    const u = unit(seed, postKey, j, 'who');
    const who =
      u < STORED_SHARE
        ? `stored:${postKey}:${j}`
        : u < STORED_SHARE + FAN_SHARE
          ? `${fanKey}:fan:${hash32(seed, postKey, j, 'fan') % fans}`
          : `${postKey}:${j}`;
    out.push({ delayMs, engagement: unit(seed, postKey, j, 'kind') < commentShare ? 'comment' : 'reaction', who });
  }
  return out.sort((a, b) => a.delayMs - b.delayMs);
}

function visible(list: Engagement[], postAt: number, now: number): Engagement[] {
  if (postAt > now) return [];
  let end = 0;
  while (end < list.length && postAt + list[end]!.delayMs <= now) end++;
  return list.slice(0, end);
}

function companyModel(seed: string, slug: string): { followersAt(now: number): number; followedAt(i: number): number } {
  // Log-uniform between 40 and 500,000 followers: about one page in ten sits below the 100 minimum.
  const base = Math.floor(Math.exp(Math.log(40) + unit(seed, slug, 'followers') * Math.log(12_500)));
  const growth = base * (0.0005 + unit(seed, slug, 'growth') * 0.0025); // followers a day
  return {
    followersAt: (now) => base + Math.floor(Math.max(0, (now - EPOCH) / DAY) * growth),
    followedAt: (i) =>
      i < base ? EPOCH - (base - i) * ((3 * 365 * DAY) / base) : EPOCH + ((i - base + 1) / growth) * DAY,
  };
}

/** Estimates shown by the network are rounded and a little off, like the counters of a real one. */
function noisy(n: number, ...parts: (string | number)[]): number {
  return n === 0 ? 0 : Math.max(1, Math.round(n * (0.9 + unit(...parts, 'noise') * 0.2)));
}

function postUrl(host: string, seed: string, slug: string, k: number): string {
  const id = `7${String(hash32(seed, slug, k, 'a')).padStart(10, '0')}${String(hash32(seed, slug, k, 'b') % 100_000_000).padStart(8, '0')}`;
  return canonicalTargetUrl('activity', id, host);
}

function cursorNumbers(cursor: string, n: number): number[] {
  const parts = cursor.split(':').map(Number);
  if (parts.length !== n || parts.some((p) => !Number.isSafeInteger(p)))
    throw new SourceError(
      `The saved cursor ${JSON.stringify(cursor)} is not one of this source; start a new collect.`,
      'malformed',
    );
  return parts;
}
