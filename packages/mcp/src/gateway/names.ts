/** What joins an upstream's name to the names of its tools and prompts: `<server>__<tool>`. */
export const NAME_SEPARATOR = '__';

/** What the policy calls an upstream's resource reads and prompts: `<server>__resources/read`, `<server>__prompts/get`. */
export const GATED_METHODS = { readResource: 'resources/read', getPrompt: 'prompts/get' } as const;

/** The scheme of a resource URI that two upstreams both list: `mcp-gateway://<server>/<encoded URI>`. */
export const COLLIDING_URI_PREFIX = 'mcp-gateway://';

/** The name a tool or prompt of `server` has at the gateway. */
export function namespaced(server: string, name: string): string {
  return `${server}${NAME_SEPARATOR}${name}`;
}

/** The upstream and its own name for a gateway name; null when it has no server prefix. */
export function splitName(full: string): { server: string; name: string } | null {
  const at = full.indexOf(NAME_SEPARATOR);
  if (at <= 0) return null;
  const name = full.slice(at + NAME_SEPARATOR.length);
  return name === '' ? null : { server: full.slice(0, at), name };
}

/** The gateway URI of a resource whose URI another upstream also lists. */
export function collidingUri(server: string, uri: string): string {
  return `${COLLIDING_URI_PREFIX}${server}/${encodeURIComponent(uri)}`;
}

/** The upstream and original URI of a `mcp-gateway://` URI; null for any other URI. */
export function splitCollidingUri(uri: string): { server: string; uri: string } | null {
  if (!uri.startsWith(COLLIDING_URI_PREFIX)) return null;
  const rest = uri.slice(COLLIDING_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  try {
    return { server: rest.slice(0, slash), uri: decodeURIComponent(rest.slice(slash + 1)) };
  } catch {
    return null;
  }
}
