import { useEffect, useId, useState } from 'react';
import type { StandingScopeDocument, TrustProposalDocument } from '../../api/trust.js';

/** The narrower scopes a person may pick: a longer prefix or the exact command, a folder below the glob. */
export function ScopeEditor({
  proposal,
  onChange,
}: {
  proposal: TrustProposalDocument;
  onChange(scope: StandingScopeDocument | undefined): void;
}) {
  const id = useId();
  const scope = proposal.scope;
  const start = scope.kind === 'prefix' ? scope.prefix : scope.kind === 'path' ? scope.glob : '';
  const [kind, setKind] = useState<'proposed' | 'command' | 'prefix' | 'path'>('proposed');
  const [text, setText] = useState(start);
  useEffect(() => {
    if (kind === 'proposed' || text.trim() === '') onChange(undefined);
    else if (kind === 'command') onChange({ kind: 'command', command: text.trim() });
    else if (kind === 'prefix') onChange({ kind: 'prefix', prefix: text.trim() });
    else onChange({ kind: 'path', glob: text.trim() });
  }, [kind, text, onChange]);
  const choices: [typeof kind, string][] =
    scope.kind === 'prefix'
      ? [
          ['proposed', `As proposed: ${proposal.description}`],
          ['command', 'Only this exact command'],
          ['prefix', 'Commands that start with these longer words'],
        ]
      : scope.kind === 'path'
        ? [
            ['proposed', `As proposed: ${proposal.description}`],
            ['path', 'Only files matching a narrower pattern'],
          ]
        : [['proposed', `As proposed: ${proposal.description}`]];
  return (
    <fieldset className="trust-scope">
      <legend>What the rule covers (it can only be narrowed)</legend>
      {choices.map(([value, label]) => (
        <label key={value} className="radio">
          <input
            type="radio"
            name={`${id}-kind`}
            value={value}
            checked={kind === value}
            onChange={() => setKind(value)}
          />{' '}
          {label}
        </label>
      ))}
      {kind !== 'proposed' && (
        <label className="field">
          {kind === 'path'
            ? 'Files matching'
            : kind === 'command'
              ? 'The exact command'
              : 'The command starts with'}
          <input type="text" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      )}
    </fieldset>
  );
}
