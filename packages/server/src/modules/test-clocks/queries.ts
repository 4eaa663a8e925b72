/** What advancing a test clock (use-cases/advance-test-clock.ts) reads and writes of the clock. */
export { findTestClockById, updateAdvancingClock } from './repo.js';
