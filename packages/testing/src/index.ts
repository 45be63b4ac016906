export type { ApiCall } from './api.js';
export type { ReviewScript, ScriptedDecision, ScriptedReviewer } from './scripted-reviewer.js';
export type { TestAgent, TestGatehouse, TestGatehouseOptions, TestPerson } from './test-gatehouse.js';
export { startTestGatehouse } from './test-gatehouse.js';
