#!/usr/bin/env node
// DuckDB and better-sqlite3 work on libuv's thread pool; size it before anything uses it.
process.env.UV_THREADPOOL_SIZE ||= '16';
const { main } = await import('../dist/src/cli/main.js');
// Exit explicitly: native engine threads must not keep a finished command alive (stdout to a pipe is synchronous on Linux).
process.exit(await main(process.argv.slice(2)));
