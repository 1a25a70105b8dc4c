export { analyticsModule } from './service.js';
