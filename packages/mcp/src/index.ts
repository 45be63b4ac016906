export type { ApiOptions, DecideBody, DecideResult, Me, PolicyView, RunDetail } from './api.js';
export { GatehouseApi } from './api.js';
export type { Elicitor, McpLogger, SessionState, ToolContext } from './context.js';
export { SILENT_LOGGER } from './context.js';
export type { Operator } from './elicit.js';
export { createElicitor, decisionForm, operatorMayDecide, resolveOperator } from './elicit.js';
export type { McpEndpointOptions } from './endpoints.js';
export { mcpEndpoints } from './endpoints.js';
export type { HttpUpstream, StdioUpstream, UpstreamConfig } from './gateway/config.js';
export { GatewayConfigError, parseGatewayConfig, parseUpstream } from './gateway/config.js';
export type { GatewayOptions, GatewayStdioOptions, RunningGateway } from './gateway/gateway.js';
export { GATEWAY_VERSION, serveGatewayStdio } from './gateway/gateway.js';
export type { GatewayHttpOptions, RunningHttpGateway } from './gateway/http.js';
export { serveGatewayHttp } from './gateway/http.js';
export type {
  GatewayHttpCall,
  GatewayHttpHandler,
  GatewayHttpHandlerOptions,
} from './gateway/http-handler.js';
export { createGatewayHttpHandler } from './gateway/http-handler.js';
export { NAME_SEPARATOR } from './gateway/names.js';
export { UpstreamPool } from './gateway/upstreams.js';
export type { McpHttpCall, McpHttpHandler, McpHttpOptions } from './http.js';
export { createMcpHttpHandler } from './http.js';
export type { DecisionOutput } from './schemas.js';
export { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from './schemas.js';
export type { GatehouseMcpOptions } from './server.js';
export { createGatehouseMcpServer, GATEHOUSE_INSTRUCTIONS, MCP_SERVER_VERSION } from './server.js';
export type { StdioOptions, StdioServer } from './stdio.js';
export { serveStdio } from './stdio.js';
export type { ReviewSessionOptions } from './tools-review.js';
export { createReviewMcpServer, REVIEW_INSTRUCTIONS, REVIEW_TOOLS } from './tools-review.js';
