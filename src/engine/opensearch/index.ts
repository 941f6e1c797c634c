export { opensearchClient, opensearchTransport } from './client.js';
