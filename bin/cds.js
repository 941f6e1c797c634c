#!/usr/bin/env node
// DuckDB and better-sqlite3 work on libuv's thread pool; size it before anything uses it.
process.env.UV_THREADPOOL_SIZE ||= '16';
// CDS_DIST names another build folder inside the repo (parallel builds, tests of a build); default dist/.
const dist = process.env.CDS_DIST || 'dist';
const { main } = await import(new URL(`../${dist}/src/cli/main.js`, import.meta.url).href);
// Exit explicitly: native engine threads must not keep a finished command alive (stdout to a pipe is synchronous on
// Linux).
process.exit(await main(process.argv.slice(2)));
