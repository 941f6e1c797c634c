import { readFileSync } from 'node:fs';

/** The build version, read once from package.json. */
export const BUILD_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
