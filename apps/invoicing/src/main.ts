import { runFromEnvironment } from '@billing/runtime';
import { invoicingModule } from './service.js';

await runFromEnvironment(invoicingModule);
