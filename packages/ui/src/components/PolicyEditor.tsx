import { forwardRef, useImperativeHandle, useMemo, useRef, useState } from 'react';

/** Line height of the editor in px; the gutter and the error highlights line up on it. */
const LINE_HEIGHT = 20;

export interface PolicyEditorHandle {
  /** Focuses the editor with the caret at the start of `line` (1-based) and scrolls it into view. */
  goToLine(line: number): void;
  /** Scrolls `line` into view without moving focus. */
  scrollToLine(line: number): void;
}

interface PolicyEditorProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Problems by 1-based line, marked in the gutter and highlighted behind the text. */
  errorLines: ReadonlyMap<number, string[]>;
  /** Id of the element that lists the problems, for `aria-describedby`. */
  errorsId?: string | undefined;
  readOnly?: boolean;
}

function lineStart(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/**
 * A monospace text editor for the policy: a real `<textarea>` (so typing, undo and screen readers
 * work as usual) with a line-number gutter that marks lines with problems.
 */
export const PolicyEditor = forwardRef<PolicyEditorHandle, PolicyEditorProps>(function PolicyEditor(
  { id, label, value, onChange, errorLines, errorsId, readOnly },
  ref,
) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [caretLine, setCaretLine] = useState(1);
  const count = useMemo(() => value.split('\n').length, [value]);
  const caretProblems = errorLines.get(caretLine);

  const scrollTo = (line: number) => {
    const element = area.current;
    if (!element) return;
    element.scrollTop = Math.max(0, (line - 3) * LINE_HEIGHT);
    setScrollTop(element.scrollTop);
  };
  const followCaret = () => {
    const element = area.current;
    if (element) setCaretLine(element.value.slice(0, element.selectionStart).split('\n').length);
  };

  useImperativeHandle(ref, () => ({
    goToLine(line: number) {
      const element = area.current;
      if (!element) return;
      const offset = lineStart(element.value, line);
      element.focus();
      element.setSelectionRange(offset, offset);
      setCaretLine(line);
      scrollTo(line);
    },
    scrollToLine: scrollTo,
  }));

  return (
    <div className="code-editor" style={{ ['--line-height' as string]: `${LINE_HEIGHT}px` }}>
      <label htmlFor={id}>{label}</label>
      <div className="code-editor-frame">
        <div className="code-gutter" aria-hidden="true">
          <div style={{ transform: `translateY(${-scrollTop}px)` }}>
            {Array.from({ length: count }, (_, index) => {
              const line = index + 1;
              const problems = errorLines.get(line);
              return (
                <div
                  key={line}
                  className={problems ? 'gutter-line has-error' : 'gutter-line'}
                  title={problems?.join('\n')}
                >
                  {problems ? <span className="gutter-mark">!</span> : null}
                  {line}
                </div>
              );
            })}
          </div>
        </div>
        <div className="code-area">
          <div className="code-highlights" aria-hidden="true">
            <div style={{ transform: `translateY(${-scrollTop}px)` }}>
              {[...errorLines.keys()].map((line) => (
                <div
                  key={line}
                  className="code-error-line"
                  style={{ top: `calc(var(--pad) + ${(line - 1) * LINE_HEIGHT}px)` }}
                />
              ))}
            </div>
          </div>
          <textarea
            id={id}
            ref={area}
            value={value}
            readOnly={readOnly}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            wrap="off"
            aria-invalid={errorLines.size > 0}
            aria-describedby={errorsId}
            onChange={(event) => onChange(event.target.value)}
            onSelect={followCaret}
            onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
          />
        </div>
      </div>
      <p className="code-line-problem" aria-live="polite">
        {caretProblems ? (
          <>
            <strong>Line {caretLine}:</strong> {caretProblems.join(' · ')}
          </>
        ) : null}
      </p>
    </div>
  );
});
