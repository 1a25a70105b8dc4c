export { EMBEDDED_URL, startEmbeddedPostgres } from './embedded-postgres.js';
export { type LocalPlatform, type LocalPlatformOptions, startLocalPlatform } from './local-platform.js';
