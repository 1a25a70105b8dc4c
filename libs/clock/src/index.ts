export { type Clock, systemClock, TestClock } from './clock.js';
