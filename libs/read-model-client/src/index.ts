export { accountsReadModel, type ReadModelSender } from './accounts-read-model.js';
export { readModelHandOver } from './read-model-hand-over.js';
