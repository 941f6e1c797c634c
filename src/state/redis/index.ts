export { openRedisStore, type RedisStoreOptions } from './redis-store.js';
