export {
  ElasticsearchEngine,
  type ElasticsearchEngineOptions,
  openElasticsearchEngine,
} from './elasticsearch-engine.js';
export { indexDefinition, indexMappings, indexSettings } from './mappings.js';
export { aliasName, releaseIndex } from './schema.js';
