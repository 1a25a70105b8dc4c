import { runFromEnvironment } from '@billing/runtime';
import { analyticsModule } from './service.js';

await runFromEnvironment(analyticsModule);
