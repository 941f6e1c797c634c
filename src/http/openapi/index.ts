export { buildOpenApi, openApiPath, type OpenApiDocument, type OpenApiOperation } from './document.js';
export { inputJsonSchema, type JsonSchema } from '../../face/json-schema.js';
export { renderDocsPage } from './docs-page.js';
export { openApiRoutes } from './routes.js';
