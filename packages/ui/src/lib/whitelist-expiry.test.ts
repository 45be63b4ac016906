import { describe, expect, it } from 'vitest';
import { daysLeft, rateText, whitelistState } from './whitelist-expiry.js';

const DAY = 86_400_000;
const now = 1_000 * DAY;

describe('whitelistState', () => {
  it.each([
    [{ status: 'active' as const, expiresAt: now + 60 * DAY }, 'active'],
    [{ status: 'active' as const, expiresAt: now + 14 * DAY }, 'expiring'],
    [{ status: 'active' as const, expiresAt: now + 1 }, 'expiring'],
    [{ status: 'active' as const, expiresAt: now }, 'expired'],
    [{ status: 'expired' as const, expiresAt: now + 60 * DAY }, 'expired'],
  ])('reads %o as %s', (entry, state) => {
    expect(whitelistState(entry, now)).toBe(state);
  });
});

describe('daysLeft and rateText', () => {
  it('counts whole days left, never below zero', () => {
    expect(daysLeft(now + 1.5 * DAY, now)).toBe(2);
    expect(daysLeft(now - DAY, now)).toBe(0);
  });

  it('shows a rate as a percentage with one decimal', () => {
    expect(rateText(0.15)).toBe('15 %');
    expect(rateText(1 / 3)).toBe('33.3 %');
    expect(rateText(null)).toBe('—');
  });
});
