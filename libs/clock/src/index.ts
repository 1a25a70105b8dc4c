export { type Clock, systemClock, TestClock } from './clock.js';
export { endOfLocalDay, isValidTimeZone, startOfLocalDay } from './local-day.js';
