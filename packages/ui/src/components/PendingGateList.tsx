import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ListedGate as Gate } from '../api/gates.js';
import { InboxRow } from './InboxRow.js';

export interface PendingGateListProps {
  /** The gates to show, in order. */
  gates: readonly Gate[];
  agentName(agentId: string): string | null;
  runTitle(runId: string): string | null;
  /** Runs that are paused now; their rows say so. */
  pausedRuns: ReadonlySet<string>;
  userId: string;
  /** Null when the person cannot decide: no checkboxes. */
  selection: { selected: ReadonlySet<string>; onToggle(id: string): void } | null;
}

const ESTIMATED_ROW_PX = 84;
const ignore = () => {};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The inbox list, virtualised against the window's scroll: only the rows on screen (and a few
 * around them) are in the page, so thousands of gates scroll smoothly. `j`/`k` move between rows,
 * `x` selects the focused row, Enter opens it.
 */
export function PendingGateList({
  gates,
  agentName,
  runTitle,
  pausedRuns,
  userId,
  selection,
}: PendingGateListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  // The list's distance from the top of the page moves when the notices, filters or batch bar above
  // it change size; they all live in the list's parent, so watching the parent is enough.
  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = list?.parentElement;
    if (!list || !parent) return;
    const update = () => setScrollMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: gates.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 8,
    scrollMargin,
    // Render after the scroll event rather than inside it, so scrolling never waits for React.
    useFlushSync: false,
    getItemKey: (index) => gates[index]?.id ?? index,
  });

  const onToggle = selection?.onToggle ?? ignore;
  const focusRow = useRef<number | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key !== 'j' && event.key !== 'k' && event.key !== 'x') return;
      const row = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-index]');
      const current = row && listRef.current?.contains(row) ? Number(row.dataset.index) : -1;
      if (event.key === 'x') {
        const gate = gates[current];
        if (gate && selection) selection.onToggle(gate.id);
        return;
      }
      const next = Math.max(0, Math.min(gates.length - 1, current + (event.key === 'j' ? 1 : -1)));
      if (gates.length === 0 || next === current) return;
      event.preventDefault();
      focusRow.current = next;
      virtualizer.scrollToIndex(next, { align: 'auto' });
      tryFocus(0);
    };
    // The row may render a frame or two after scrolling to it.
    const tryFocus = (attempt: number) => {
      const index = focusRow.current;
      if (index === null) return;
      const link = listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] .inbox-row-link`);
      if (link) {
        focusRow.current = null;
        link.focus();
      } else if (attempt < 10) requestAnimationFrame(() => tryFocus(attempt + 1));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [gates, selection, virtualizer]);

  const items = virtualizer.getVirtualItems();
  return (
    <ul
      ref={listRef}
      className="inbox-list"
      aria-label="Pending gates"
      style={{ height: `${virtualizer.getTotalSize()}px` }}
    >
      {items.map((item) => {
        const gate = gates[item.index];
        if (!gate) return null;
        return (
          <li
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            aria-setsize={gates.length}
            aria-posinset={item.index + 1}
            className="inbox-row"
            style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
          >
            <InboxRow
              gate={gate}
              agentName={gate.agentId ? agentName(gate.agentId) : null}
              runTitle={gate.runId ? runTitle(gate.runId) : null}
              runPaused={gate.runId !== null && pausedRuns.has(gate.runId)}
              assignedToMe={gate.assignees.includes(userId)}
              selected={selection ? selection.selected.has(gate.id) : null}
              onToggle={onToggle}
            />
          </li>
        );
      })}
    </ul>
  );
}
