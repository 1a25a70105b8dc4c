export { invoicingModule } from './service.js';
