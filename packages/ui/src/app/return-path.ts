/**
 * Where signing in returns to: an emailed decision link of this server (`/login#next=…`, put there by
 * the link's "sign in first" page). Nothing else is followed, so the address cannot send anyone to
 * another site. The fragment is never sent to a server, and it is taken out of the history at once.
 */
const RETURN_PATH = /^\/v1\/email-actions\?token=[A-Za-z0-9._~%-]{1,4000}$/;
const NEXT = /^#next=([^&]*)$/;

/** What this page load found in the address (taken out of it the first time). */
let taken: string | null = null;

function allowed(encoded: string): string | null {
  try {
    const path = decodeURIComponent(encoded);
    return RETURN_PATH.test(path) ? path : null;
  } catch {
    return null;
  }
}

/** The return path of this page load, or null when there is none or it is not allowed. */
export function takeReturnPath(): string | null {
  const match = NEXT.exec(window.location.hash);
  if (match) {
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}`);
    taken = allowed(match[1] ?? '');
  }
  return taken;
}
