export type { Json, LiveServer } from './live-server.js';
export { approvePlan, reviewRun, startLiveServer } from './live-server.js';
