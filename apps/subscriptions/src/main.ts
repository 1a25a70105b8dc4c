import { runFromEnvironment } from '@billing/runtime';
import { subscriptionsModule } from './service.js';

await runFromEnvironment(subscriptionsModule);
