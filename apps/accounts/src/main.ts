import { runFromEnvironment } from '@billing/runtime';
import { accountsModule } from './service.js';

await runFromEnvironment(accountsModule);
