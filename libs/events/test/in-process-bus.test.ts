import { InProcessBus } from '../src/index.js';
import { runEventBusContract } from './support/event-bus-contract.js';

runEventBusContract('InProcessBus', async () => new InProcessBus());
