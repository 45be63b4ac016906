export type { Json, LiveServer } from './live-server.js';
export { reviewRun, startLiveServer } from './live-server.js';
