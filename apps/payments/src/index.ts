export { paymentsModule } from './service.js';
