import { useEffect, useState } from 'react';
import { errorText } from '../api/client.js';
import { getPolicyVersion, type PolicyVersion, type PolicyVersionSummary } from '../api/policy.js';
import { Field } from './Field.js';
import { LineDiff } from './LineDiff.js';
import { formatDateTime } from './time-format.js';

type Compared =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; from: PolicyVersion; to: PolicyVersion };

/** Picks one of the stored versions by number. */
function VersionSelect({
  id,
  label,
  versions,
  value,
  onChange,
}: {
  id: string;
  label: string;
  versions: readonly PolicyVersionSummary[];
  value: number | null;
  onChange(version: number): void;
}) {
  return (
    <Field id={id} label={label}>
      {(wiring) => (
        <select {...wiring} value={value ?? ''} onChange={(event) => onChange(Number(event.target.value))}>
          {versions.map((version) => (
            <option key={version.version} value={version.version}>
              {version.version}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Every stored version, newest first, and a line diff between any two of them. */
export function PolicyHistory({
  versions,
  activeVersion,
  nameOf,
  onLoad,
}: {
  versions: readonly PolicyVersionSummary[];
  activeVersion: number | null;
  nameOf: (actor: string) => string;
  /** Puts a version's text into the editor. */
  onLoad: (version: PolicyVersion) => void;
}) {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const latest = newestFirst[0]?.version ?? null;
  const previous = newestFirst[1]?.version ?? latest;
  const [from, setFrom] = useState<number | null>(previous);
  const [to, setTo] = useState<number | null>(latest);
  const [compared, setCompared] = useState<Compared>({ status: 'idle' });
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    setFrom(previous);
    setTo(latest);
  }, [previous, latest]);

  async function compare() {
    if (from === null || to === null) return;
    setCompared({ status: 'loading' });
    try {
      const [a, b] = await Promise.all([getPolicyVersion(from), getPolicyVersion(to)]);
      setCompared({ status: 'ready', from: a, to: b });
    } catch (error) {
      setCompared({ status: 'error', message: errorText(error) });
    }
  }

  async function load(version: number) {
    setLoadError(null);
    try {
      onLoad(await getPolicyVersion(version));
    } catch (error) {
      setLoadError(errorText(error));
    }
  }

  if (versions.length === 0) return <p className="muted">No versions stored yet.</p>;
  return (
    <>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Policy versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved by</th>
              <th scope="col">When</th>
              <th scope="col">Format</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((version) => (
              <tr key={version.version}>
                <td>
                  {version.version}
                  {version.version === activeVersion ? (
                    <span className="badge active-badge">active</span>
                  ) : null}
                </td>
                <td>{version.createdBy === 'system' ? 'built-in default' : nameOf(version.createdBy)}</td>
                <td>{formatDateTime(version.createdAt)}</td>
                <td>{version.format.toUpperCase()}</td>
                <td>
                  <button type="button" onClick={() => void load(version.version)}>
                    Load<span className="visually-hidden"> version {version.version} into the editor</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {loadError ? (
        <p className="notice error" role="alert">
          {loadError}
        </p>
      ) : null}
      <form
        className="row compare-form"
        onSubmit={(event) => {
          event.preventDefault();
          void compare();
        }}
      >
        <VersionSelect
          id="diff-from"
          label="From version"
          versions={newestFirst}
          value={from}
          onChange={setFrom}
        />
        <VersionSelect id="diff-to" label="To version" versions={newestFirst} value={to} onChange={setTo} />
        <button type="submit" disabled={compared.status === 'loading'}>
          Compare versions
        </button>
      </form>
      {compared.status === 'loading' ? <p role="status">Loading both versions…</p> : null}
      {compared.status === 'error' ? (
        <p className="notice error" role="alert">
          {compared.message}
        </p>
      ) : null}
      {compared.status === 'ready' ? (
        <LineDiff
          before={compared.from.source}
          after={compared.to.source}
          label={`Changes from version ${compared.from.version} to version ${compared.to.version}`}
        />
      ) : null}
    </>
  );
}
