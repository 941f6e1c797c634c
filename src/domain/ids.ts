import { randomFillSync } from 'node:crypto';

/** Prefixed ids from one table (STYLE: Unkey). */
export const ID_PREFIX = {
  person: 'per',
  company: 'com',
  account: 'acc',
  key: 'key',
  request: 'req',
  export: 'exp',
  collect: 'col',
  alert: 'alr',
  run: 'run',
  feedback: 'fbk',
  hold: 'hld',
  domainList: 'dl',
  upload: 'upl',
  enrichmentRun: 'enr',
  audience: 'aud',
  webhook: 'whk',
  webhookEvent: 'evt',
  webhookDelivery: 'dlv',
} as const;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Random bytes for ids, drawn from the CSPRNG a pool at a time: one CSPRNG call per id took about 6 µs here, and a
 * search page makes two ids (its request and its hold). Each byte is used once. Secrets (API keys, session tokens)
 * do not come from here.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolUsed = POOL_BYTES;

export function randomToken(length: number): string {
  if (length > POOL_BYTES) throw new RangeError(`a token of ${length} characters is longer than the pool`);
  if (poolUsed + length > POOL_BYTES) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pool[poolUsed + i]! % 62];
  poolUsed += length;
  return out;
}

export function newId(kind: keyof typeof ID_PREFIX, length = 16): string {
  return `${ID_PREFIX[kind]}_${randomToken(length)}`;
}
