export { accountsReadModel, type ReadModelSender } from './accounts-read-model.js';
