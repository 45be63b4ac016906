import { describe, expect, it } from 'vitest';
import { redactedUrl } from './log-redaction.js';

describe('request log redaction', () => {
  it('hides an emailed link token wherever it sits in the query, and nothing else', () => {
    expect(redactedUrl('/v1/email-actions?token=abc.def')).toBe('/v1/email-actions?token=[redacted]');
    expect(redactedUrl('/v1/email-actions?x=1&token=abc&y=2')).toBe(
      '/v1/email-actions?x=1&token=[redacted]&y=2',
    );
    expect(redactedUrl('/v1/gates?status=pending')).toBe('/v1/gates?status=pending');
  });
});
