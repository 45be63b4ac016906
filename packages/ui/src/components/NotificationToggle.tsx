import { useState } from 'react';

type Permission = NotificationPermission | 'unsupported';

const current = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** Asks for desktop notifications only when the person presses it, never on load. */
export function NotificationToggle() {
  const [permission, setPermission] = useState<Permission>(current);
  if (permission === 'unsupported') return null;
  if (permission === 'granted') return <span className="muted small">Desktop notifications on</span>;
  if (permission === 'denied') {
    return <span className="muted small">Desktop notifications are blocked in this browser's settings</span>;
  }
  return (
    <button
      type="button"
      className="button-link"
      onClick={() =>
        void Notification.requestPermission().then(setPermission, () => setPermission(current()))
      }
    >
      Turn on desktop notifications
    </button>
  );
}
