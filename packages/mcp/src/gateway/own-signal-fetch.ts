/**
 * A `fetch` for a long-lived MCP client transport. The SDK's HTTP transport hands every request the
 * transport's one AbortSignal, and Node's fetch keeps an abort listener on that signal per request
 * until the request is garbage collected: an upstream busy with thousands of calls collects
 * thousands of listeners (and a MaxListenersExceededWarning past 1,500). Here each request gets a
 * signal of its own, and the transport's signal one listener in all that aborts every request still
 * in flight. A request leaves that set once it failed or its body was read to the end, cancelled or
 * cut, so a streamed answer stays abortable until then.
 */
export function fetchWithOwnSignal(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const shared = init?.signal;
    if (shared === undefined || shared === null) return base(input, init);
    const { signal, unlink } = linkTo(shared);
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } catch (error) {
      unlink();
      throw error;
    }
    if (response.body === null) {
      unlink();
      return response;
    }
    const rebuilt = withBody(response, untilDone(response.body, unlink));
    // A response dropped unread leaves the set when it is collected, as Node's fetch does.
    dropped.register(rebuilt, unlink);
    return rebuilt;
  };
}

const dropped = new FinalizationRegistry<() => void>((unlink) => unlink());

/** The requests in flight under each shared signal. */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

/** A signal of one request's own that aborts with `shared`, and the way to let go of it. */
function linkTo(shared: AbortSignal): { signal: AbortSignal; unlink(): void } {
  const own = new AbortController();
  if (shared.aborted) {
    own.abort(shared.reason);
    return { signal: own.signal, unlink: () => {} };
  }
  const requests = requestsUnder(shared);
  requests.add(own);
  return { signal: own.signal, unlink: () => requests.delete(own) };
}

/** The set of requests in flight under `shared`; the first call gives `shared` its one listener. */
function requestsUnder(shared: AbortSignal): Set<AbortController> {
  const known = inFlight.get(shared);
  if (known !== undefined) return known;
  const requests = new Set<AbortController>();
  inFlight.set(shared, requests);
  const abortAll = () => {
    for (const request of requests) request.abort(shared.reason);
    requests.clear();
  };
  shared.addEventListener('abort', abortAll, { once: true });
  return requests;
}

/**
 * `response` with another body stream, read by text(), json() and body alike. Its url, type and
 * `redirected` are kept, as a redirect check reads them.
 */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const rebuilt = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  for (const key of ['url', 'type', 'redirected'] as const)
    Object.defineProperty(rebuilt, key, { value: response[key], enumerable: true });
  return rebuilt;
}

/** The same bytes as `body`; `done` runs once it ends, fails or is cancelled. */
function untilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
}
