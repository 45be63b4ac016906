export { makeGate, RECOVERY_OPTIONS, REVIEW_OPTIONS } from './gates.js';
