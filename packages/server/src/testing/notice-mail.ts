import type { ReceivedMail } from './smtp-inbox.js';
import { bearer, type TestApp } from './test-app.js';

/** Server settings that send notices to the test's SMTP inbox at once. */
export function emailNotifications(inboxUrl: string): Record<string, unknown> {
  return {
    notifications: {
      smtpUrl: inboxUrl,
      smtpFrom: 'Gatehouse <gatehouse@example.test>',
      emailLinkTtlMs: 30 * 60_000,
      emailSessionRole: 'tech_lead',
      pollIntervalMs: 25,
      maxAttempts: 2,
      backoffBaseMs: 1,
    },
  };
}

/** The tech lead chooses email; the answer's status, for the test to assert. */
export async function techLeadChoosesEmail(test: TestApp<{ now(): number }>): Promise<number> {
  const response = await test.app.inject({
    method: 'PUT',
    url: '/v1/me/notification-channels',
    headers: bearer(test.tokens.techLead),
    payload: { channels: ['email'], email: 'lead@example.test' },
  });
  return response.statusCode;
}

/** Waits up to 10 s for a mail whose subject (unfolded) matches. */
export async function mailAbout(inbox: { messages: ReceivedMail[] }, subject: RegExp): Promise<ReceivedMail> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    // A long subject arrives folded over several lines.
    const found = inbox.messages.find((mail) =>
      subject.test((mail.headers.subject ?? '').replace(/\s+/g, ' ')),
    );
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail with subject ${subject}`);
}
