export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiInfo,
  type RequestExamples,
} from './build-openapi-document.js';
export { addTokenKeyword, DOCS_PATH, mountApiDocs, SCHEMA_PATH } from './mount-api-docs.js';
export { EXAMPLE_IDS, REQUEST_EXAMPLES } from './request-examples.js';
