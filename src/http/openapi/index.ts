export { buildOpenApi, openApiPath, type OpenApiDocument, type OpenApiOperation } from './document.js';
export { errorCodesOf } from './error-codes.js';
export { inputJsonSchema, type JsonSchema } from './input-schema.js';
export { renderDocsPage } from './docs-page.js';
export { openApiRoutes } from './routes.js';
