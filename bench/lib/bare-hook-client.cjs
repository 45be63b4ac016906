// The least a Node command hook can do for an allowed call, as a floor for the command hook's figure:
// read Claude Code's hook input, send the POST /v1/gates the hook sends over one plain HTTP/1.1
// connection, print Claude Code's answer, exit. Nothing else: no budget, no backstop timer, no ledger,
// no validation of the input or the answer. With `connect-only` it connects and exits without a request.
// CommonJS, node:net and node:fs only, so Node loads nothing it does not need.
'use strict';

const net = require('node:net');
const fs = require('node:fs');

const url = new URL(process.env.GATEHOUSE_URL);
const socket = net.connect({ host: url.hostname, port: Number(url.port) });

if (process.argv[2] === 'connect-only') {
  socket.on('connect', () => process.exit(0));
} else {
  const input = JSON.parse(fs.readFileSync(0, 'utf8'));
  const body = JSON.stringify({
    tool: input.tool_name,
    args: input.tool_input,
    context: { claudeCode: { sessionId: input.session_id, cwd: input.cwd } },
  });
  socket.write(
    `POST /v1/gates HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${process.env.GATEHOUSE_TOKEN}\r\n` +
      `Content-Type: application/json\r\nIdempotency-Key: bare-${input.tool_use_id}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk) => {
    response += chunk;
    const split = response.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: *(\d+)/i.exec(response.slice(0, split))?.[1];
    if (split < 0 || length === undefined || Buffer.byteLength(response.slice(split + 4)) < Number(length))
      return;
    const answer = JSON.parse(response.slice(split + 4));
    const decision = answer.outcome === 'allowed' ? 'allow' : 'deny';
    fs.writeSync(
      1,
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: answer.reason } })}\n`,
    );
    process.exit(0);
  });
}
