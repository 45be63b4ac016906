import { NOTIFICATION_CHANNELS, type NotificationChannelName } from 'gatehouse-hitl-protocol';
import { type FormEvent, useCallback, useState } from 'react';
import { errorText } from '../api/client.js';
import { type MyNotificationChannelsResponse, myChannels, saveMyChannels } from '../api/notifications.js';
import { useResource } from '../lib/use-resource.js';

type Channel = NotificationChannelName;

/** Keyed by the protocol's channel list, so a channel added there cannot go without its label. */
const CHANNEL_TEXT: Record<Channel, { label: string; hint: string }> = {
  email: { label: 'Email', hint: 'Each option is a link to a confirmation page.' },
  slack: { label: 'Slack', hint: 'Needs your Slack user linked to you.' },
  browser: { label: 'Browser', hint: 'Desktop notifications while Gatehouse is open.' },
};

const CHANNELS = NOTIFICATION_CHANNELS.map((id) => ({ id, ...CHANNEL_TEXT[id] }));

type Notice = { ok: boolean; text: string };

function unavailable(loaded: MyNotificationChannelsResponse, channel: Channel): string | null {
  if (channel === 'slack' && !loaded.slackLinked) return 'your Slack user is not linked yet';
  return null;
}

/**
 * What the form starts from: a person's own choice as saved (a channel set up later reaches them then),
 * or, before they chose, every channel this server delivers on.
 */
function startingChoice(loaded: MyNotificationChannelsResponse): Channel[] {
  return loaded.chosen ? loaded.channels : loaded.channels.filter((channel) => loaded.available[channel]);
}

/** The choices as loaded: its state starts from them, so no box ever shows unchecked before they arrive. */
function ChannelsForm({
  loaded,
  onSaved,
  notice,
  setNotice,
}: {
  loaded: MyNotificationChannelsResponse;
  onSaved(): void;
  notice: Notice | null;
  setNotice(notice: Notice | null): void;
}) {
  const [chosen, setChosen] = useState<Channel[]>(startingChoice(loaded));
  // A channel this server has no configuration for is not offered: nothing would reach the person by it.
  const offered = CHANNELS.filter((channel) => loaded.available[channel.id]);
  const missing = CHANNELS.filter((channel) => !loaded.available[channel.id]);
  const [email, setEmail] = useState(loaded.email ?? '');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    try {
      await saveMyChannels({ channels: chosen, email: email.trim() === '' ? null : email.trim() });
      setNotice({ ok: true, text: 'Your notification choices are saved.' });
      onSaved();
    } catch (caught) {
      setNotice({ ok: false, text: errorText(caught) });
    } finally {
      setBusy(false);
    }
  }

  const toggle = (channel: Channel, on: boolean) =>
    setChosen((current) => (on ? [...new Set([...current, channel])] : current.filter((c) => c !== channel)));

  return (
    <form onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>Channels that reach you</legend>
        {offered.map((channel) => {
          const problem = unavailable(loaded, channel.id);
          return (
            <div key={channel.id} className="field">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(channel.id)}
                  onChange={(event) => toggle(channel.id, event.target.checked)}
                  aria-describedby={`notify-${channel.id}-hint`}
                />
                {channel.label}
              </label>
              <p id={`notify-${channel.id}-hint`} className="muted small">
                {channel.hint}
                {problem ? ` Not delivered now: ${problem}.` : ''}
              </p>
            </div>
          );
        })}
        {missing.length > 0 && (
          <p className="muted small">
            Not set up on this server: {missing.map((channel) => channel.label).join(', ')}. An admin can
            configure {missing.length === 1 ? 'it' : 'them'}.
          </p>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor="notify-email">Email address</label>
        <input
          id="notify-email"
          type="email"
          autoComplete="email"
          value={email}
          maxLength={320}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      {notice && (
        <p className={`notice ${notice.ok ? 'ok' : 'error'}`} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save notification choices'}
      </button>
    </form>
  );
}

/** The Account screen's section where a person picks the channels that reach them and their email address. */
export function NotificationChannels() {
  const { resource, reload } = useResource('my-notification-channels', useCallback(myChannels, []));
  const [notice, setNotice] = useState<Notice | null>(null);
  const loaded = resource.status === 'ready' ? resource.value : null;

  return (
    <section className="card" aria-labelledby="notify-title">
      <h2 id="notify-title">Notifications</h2>
      <p className="muted">
        How Gatehouse tells you that a gate is waiting for you, about to time out, or escalated to you.
      </p>
      {resource.status === 'loading' && <p role="status">Loading…</p>}
      {resource.status === 'error' && (
        <p className="notice error" role="alert">
          {errorText(resource.error)}
        </p>
      )}
      {loaded && (
        // A reload after saving starts the form again from what the server kept.
        <ChannelsForm
          key={JSON.stringify(loaded)}
          loaded={loaded}
          onSaved={reload}
          notice={notice}
          setNotice={setNotice}
        />
      )}
    </section>
  );
}
