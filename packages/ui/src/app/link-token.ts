const LINK_TOKEN = /^#token=(ghl_[A-Za-z0-9_-]{20,100})$/;

/** Takes a one-time login token out of the address, so it never stays in the history. */
export function takeLinkToken(): string | null {
  const match = LINK_TOKEN.exec(window.location.hash);
  if (!match) return null;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  return match[1] ?? null;
}
