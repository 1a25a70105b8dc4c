import { runFromEnvironment } from '@billing/runtime';
import { paymentsModule } from './service.js';

await runFromEnvironment(paymentsModule);
