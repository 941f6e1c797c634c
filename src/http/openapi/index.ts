export { inputJsonSchema, type JsonSchema } from '../../face/json-schema.js';
export { renderDocsPage } from './docs-page.js';
export { buildOpenApi, type OpenApiDocument, type OpenApiOperation, openApiPath } from './document.js';
export { openApiRoutes } from './routes.js';
