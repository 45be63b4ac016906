import { ApiError } from '../api/client.js';

/** The server asked to confirm who is there: the sign-in is over 5 minutes old. */
export function isReauthRequired(failure: unknown): boolean {
  return failure instanceof ApiError && failure.code === 'REAUTHENTICATION_REQUIRED';
}

/**
 * What to do when a change needs a recent sign-in. A person with a password confirms with it; one
 * without (signed in by a one-time link) has only a fresh link, so this says where to get one.
 */
export function ReauthNeeded({
  hasPassword,
  userName,
  action,
}: {
  hasPassword: boolean;
  userName: string;
  /** What the person was doing, as in "… and {action} within 5 minutes". */
  action: string;
}) {
  return (
    <div className="notice warn" role="alert">
      <p>
        <strong>Your sign-in is more than 5 minutes old.</strong>{' '}
        {hasPassword
          ? `Enter your current password to ${action}, or sign in again and ${action} within 5 minutes.`
          : `You have no password to confirm it with: sign in again with a fresh login link and ${action} within 5 minutes.`}
      </p>
      {hasPassword ? null : (
        <p>
          On the server’s host run <code>gatehouse admin login-link --name {userName}</code>, or ask an admin
          for a link (Users screen, <em>Login link</em>), then open it in this browser.
        </p>
      )}
    </div>
  );
}
