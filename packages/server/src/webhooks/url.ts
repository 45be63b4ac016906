import { invalidInput } from '../services/gates/gate-input.js';

const MAX_URL = 2048;

/**
 * A webhook URL as stored: absolute http or https, no credentials, no fragment. Admins register
 * them (see docs/webhooks.md on internal addresses): the check is about shape, not reachability.
 */
export function checkWebhookUrl(text: string): string {
  if (text.length > MAX_URL) throw invalidInput('url', `must be at most ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidInput('url', `must be an absolute http:// or https:// URL (got ${JSON.stringify(text)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidInput('url', `must use http or https (got ${url.protocol.replace(/:$/, '')})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidInput(
      'url',
      'must not carry a user name or password; the signature authenticates Gatehouse',
    );
  }
  if (url.hash !== '') throw invalidInput('url', 'must not have a #fragment; it is never sent');
  return url.toString();
}
