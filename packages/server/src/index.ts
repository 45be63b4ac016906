export { buildApp } from './app.js';
export type { ServerConfig } from './config.js';
export { loadConfig } from './config.js';
export type { AppContext, AppDeps } from './context.js';
export type { EventBus } from './events/bus.js';
export { createInProcessBus } from './events/bus.js';
export type { RunningServer, StartServerOptions } from './main.js';
export { startServer } from './main.js';
