import type { Action } from 'gatehouse-hitl-core';
import { Revealed } from './Revealed.js';

const COMMAND_KEYS = ['command', 'cmd', 'script'];
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'paths', 'files', 'filePaths'];
const QUERY_KEYS = ['query', 'sql'];

function pathsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

// Past this an argument shows its first lines and opens in full on request.
const PREVIEW_LINES = 6;
const LONG_CHARS = 800;

/** A long argument: its first lines, then the whole value behind "Show all". */
function LongText({ text }: { text: string }) {
  const lines = text.split('\n');
  if (lines.length <= PREVIEW_LINES * 2 && text.length <= LONG_CHARS) {
    return (
      <pre>
        <Revealed text={text} />
      </pre>
    );
  }
  const preview =
    lines.length > PREVIEW_LINES ? lines.slice(0, PREVIEW_LINES).join('\n') : text.slice(0, 400);
  return (
    <details className="long-arg">
      <summary>
        <pre className="long-arg-preview">
          <Revealed text={`${preview}…`} />
        </pre>
        <span className="long-arg-more">
          Show all {lines.length} lines ({text.length.toLocaleString()} characters)
        </span>
      </summary>
      <pre>
        <Revealed text={text} />
      </pre>
    </details>
  );
}

function ArgValue({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    return value.includes('\n') || value.length > 120 ? (
      <LongText text={value} />
    ) : (
      <code>
        <Revealed text={value} />
      </code>
    );
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return <code>{String(value)}</code>;
  }
  return <LongText text={JSON.stringify(value, null, 2)} />;
}

function CodeBlock({ label, text }: { label: string; text: string }) {
  return (
    <div className="action-block">
      <h3>{label}</h3>
      <pre>
        <code>
          <Revealed text={text} />
        </code>
      </pre>
    </div>
  );
}

/**
 * The tool call or operation the gate is about: command in a code block, paths, every argument.
 * `edited` when a person approved it with edited arguments: `action` is then what they approved.
 * `binding` is core's `approvalBinding` of the gate: what an approval binds to, this gate and this action.
 */
export function ProposedAction({
  action,
  binding,
  edited = false,
}: {
  action: Action;
  binding: string | null;
  edited?: boolean;
}) {
  const args = action.args ?? {};
  const keys = Object.keys(args);
  const command = COMMAND_KEYS.find((key) => typeof args[key] === 'string');
  const query = QUERY_KEYS.find((key) => typeof args[key] === 'string');
  const pathKeys = PATH_KEYS.filter((key) => pathsOf(args[key]).length > 0);
  const shown = new Set<string>([...(command ? [command] : []), ...(query ? [query] : []), ...pathKeys]);
  const rest = keys.filter((key) => !shown.has(key));
  return (
    <section className="card" aria-labelledby="action-heading">
      <h2 id="action-heading">{edited ? 'Approved action (edited)' : 'Proposed action'}</h2>
      {edited && (
        <p className="notice info">
          A person edited the agent’s arguments before approving; this is the action the agent runs. The
          changes are under Decision.
        </p>
      )}
      <dl className="gate-facts">
        {action.tool !== undefined && (
          <div className="gate-fact">
            <dt>Tool</dt>
            <dd>
              <code>
                <Revealed text={action.tool} multiline={false} />
              </code>
            </dd>
          </div>
        )}
        {action.operation !== undefined && !action.operation.includes('\n') && (
          <div className="gate-fact">
            <dt>Operation</dt>
            <dd>
              <Revealed text={action.operation} />
            </dd>
          </div>
        )}
      </dl>
      {action.operation?.includes('\n') && <CodeBlock label="Operation" text={action.operation} />}
      {command && <CodeBlock label="Command" text={String(args[command])} />}
      {query && <CodeBlock label="Query" text={String(args[query])} />}
      {pathKeys.length > 0 && (
        <div className="action-block">
          <h3>File paths</h3>
          <ul className="path-list">
            {pathKeys.flatMap((key) =>
              pathsOf(args[key]).map((path) => (
                <li key={`${key}:${path}`}>
                  <code>
                    <Revealed text={path} multiline={false} />
                  </code>
                </li>
              )),
            )}
          </ul>
        </div>
      )}
      {rest.length > 0 && (
        <div className="action-block">
          <h3>{shown.size > 0 ? 'Other arguments' : 'Arguments'}</h3>
          <dl className="gate-facts args">
            {rest.map((key) => (
              <div key={key} className="gate-fact">
                <dt>
                  <code>
                    <Revealed text={key} multiline={false} />
                  </code>
                </dt>
                <dd>
                  <ArgValue value={args[key]} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      {keys.length === 0 && <p className="muted">No arguments.</p>}
      {binding && (
        <p className="muted small approval-binding">
          {edited ? 'The approval binds' : 'An approval binds'} to this gate and this exact action:{' '}
          <code className="hash" title={`SHA-256 of the gate id and the action’s hash: ${binding}`}>
            {binding.slice(0, 16)}…
          </code>
        </p>
      )}
    </section>
  );
}
