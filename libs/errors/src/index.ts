export { AppError, type AppErrorOptions, type FieldViolation, isAppError } from './app-error.js';
export { StatusCode } from './status-code.js';
