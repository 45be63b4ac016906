import { useEffect, useSyncExternalStore } from 'react';

const SCREENS: [RegExp, string][] = [
  [/^\/inbox$/, 'Inbox'],
  [/^\/gates\/[^/]+$/, 'Gate'],
  [/^\/runs$/, 'Runs'],
  [/^\/runs\/[^/]+$/, 'Run'],
  [/^\/reviews\/[^/]+$/, 'Review'],
  [/^\/rules$/, 'Rules'],
  [/^\/trust$/, 'Trust'],
  [/^\/policy$/, 'Policy'],
  [/^\/audit$/, 'Audit'],
  [/^\/metrics$/, 'Metrics'],
  [/^\/review-health$/, 'Review health'],
  [/^\/whitelists$/, 'Whitelists'],
  [/^\/notifications$/, 'Notifications'],
  [/^\/admin\/agents$/, 'Agents'],
  [/^\/admin\/users$/, 'Users'],
  [/^\/account$/, 'Account'],
];

/** The name of the screen at `path`, as the navigation calls it. */
export function screenName(path: string): string {
  return SCREENS.find(([pattern]) => pattern.test(path))?.[1] ?? 'Not found';
}

/** "(3) Inbox — Gatehouse": the pending count first, so it shows in a narrow tab. */
export function documentTitle(screen: string, pending: number | null): string {
  const count = pending === null || pending === 0 ? '' : `(${pending}) `;
  return `${count}${screen} — Gatehouse`;
}

let detail: string | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** A detail screen names what it shows (a gate's summary) in the tab title while it is open. */
export function useScreenDetail(text: string | null): void {
  useEffect(() => {
    detail = text;
    for (const listener of listeners) listener();
    return () => {
      detail = null;
      for (const listener of listeners) listener();
    };
  }, [text]);
}

/** What the open screen set with useScreenDetail, or null. */
export function useScreenDetailText(): string | null {
  return useSyncExternalStore(subscribe, () => detail);
}
