export type { CodingAgentOptions, Log, StepOutcomes } from './agent.js';
export { runCodingAgent } from './agent.js';
export type { DemoAgent, DemoAgentOptions } from './demo-agent.js';
export { startDemoAgent } from './demo-agent.js';
export type { CommandResult, Workspace } from './workspace.js';
export { createWorkspace } from './workspace.js';
