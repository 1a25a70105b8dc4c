export { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from './build-openapi-document.js';
export { DOCS_PATH, mountApiDocs, SCHEMA_PATH } from './mount-api-docs.js';
