/**
 * Signs a person in at the test provider the way a browser would, with plain HTTP: it follows the
 * provider's redirects, fills its login form and confirms its consent form, and stops at the first
 * redirect that leaves the provider (the relying party's callback with `code` and `state`).
 */
export interface ProviderBrowser {
  /** Walks from `url` (an authorization request) to the URL the provider sends the person back to. */
  signIn(url: string, login: string): Promise<URL>;
  /** Follows an end-session URL, confirms the sign-out, and returns where the provider sends the person. */
  signOut(url: string): Promise<URL>;
}

const MAX_STEPS = 20;

function formAction(html: string, page: URL): URL {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form on the provider's page ${page.href}:\n${html}`);
  return new URL(action.replaceAll('&amp;', '&'), page);
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) {
    const [, name = '', value = ''] = match;
    fields[name] = value;
  }
  return fields;
}

/** A cookie jar for one provider origin and a form-filling walk over its pages. */
export function createProviderBrowser(issuer: string): ProviderBrowser {
  const origin = new URL(issuer).origin;
  const cookies = new Map<string, string>();

  function keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '';
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  async function request(url: URL, body?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(body ? { body: new URLSearchParams(body).toString() } : {}),
    });
    keep(response);
    return response;
  }

  async function walk(start: string, fill: (html: string) => Record<string, string>): Promise<URL> {
    let next: { url: URL; body?: Record<string, string> } = { url: new URL(start) };
    for (let step = 0; step < MAX_STEPS; step++) {
      if (next.url.origin !== origin) return next.url;
      const response = await request(next.url, next.body);
      const location = response.headers.get('location');
      if (location !== null) {
        next = { url: new URL(location, next.url) };
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}:\n${html}`);
      next = { url: formAction(html, next.url), body: fill(html) };
    }
    throw new Error(`the provider did not send the person back within ${MAX_STEPS} steps`);
  }

  return {
    signIn: (url, login) =>
      walk(url, (html) =>
        html.includes('name="login"')
          ? { prompt: 'login', login, password: 'any password' }
          : { ...hiddenFields(html) },
      ),
    signOut: (url) => walk(url, (html) => ({ ...hiddenFields(html), logout: 'yes' })),
  };
}
