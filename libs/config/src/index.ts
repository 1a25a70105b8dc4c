export { DEFAULT_METRICS_PORTS, defaultMetricsPort, port, serviceEnv } from './common-env.js';
export { ConfigError, exitOnConfigError, loadConfig } from './load-config.js';
export { openSecret, SEALING_KEY_VARIABLE, SealingKeyError, sealingKey, sealSecret } from './sealed-secret.js';
export { type ServiceProcessConfig, serviceProcessEnv } from './service-process-env.js';
