import { randomBytes } from 'node:crypto';

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
} as const;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 62];
  return out;
}

export function newId(kind: keyof typeof ID_PREFIX, length = 16): string {
  return `${ID_PREFIX[kind]}_${randomToken(length)}`;
}
