export { subscriptionsModule } from './service.js';
