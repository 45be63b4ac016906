import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * `transport` with its messages written one at a time, each after the one before it was taken. The
 * SDK's stdio transports add a `drain` listener per message written while the pipe is full, so a
 * burst of calls to a busy peer printed a MaxListenersExceededWarning; in turn, at most one waits.
 * Messages keep their order; a send that fails does not hold back the next.
 */
export function oneSendAtATime<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  let previous: Promise<unknown> = Promise.resolve();
  transport.send = (message, options) => {
    const sent = previous.then(() => send(message, options));
    previous = sent.catch(() => undefined);
    return sent;
  };
  return transport;
}
