export type { Json, LiveServer } from './live-server.js';
export { startLiveServer } from './live-server.js';
