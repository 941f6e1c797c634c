export { elasticsearchClient, elasticsearchTransport } from './client.js';
