export { port, serviceEnv } from './common-env.js';
export { ConfigError, exitOnConfigError, loadConfig } from './load-config.js';
export { type ServiceProcessConfig, serviceProcessEnv } from './service-process-env.js';
