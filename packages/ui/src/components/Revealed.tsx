import { HIDDEN_CHARACTER_MARKER, revealText } from 'gatehouse-hitl-protocol';

const MARKERS = new RegExp(`(${HIDDEN_CHARACTER_MARKER.source})`);

/**
 * Text from agents with each hidden character shown as a highlighted `⟨U+202E⟩` marker, so a reviewer
 * reads what will run rather than what the characters make it look like.
 */
export function Revealed({ text, multiline = true }: { text: string; multiline?: boolean }) {
  const parts = revealText(text, { multiline }).split(MARKERS);
  if (parts.length === 1) return <>{parts[0]}</>;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
          <mark key={index} className="hidden-char" title="A hidden character, shown by its code">
            {part}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}
