import { useEffect, useState } from 'react';
import { personLabel, rememberPersonName, resolvePersonNames } from '../api/person-names.js';
import { useSession } from '../app/session.js';

/**
 * Resolves person ids (deciders, approvers, assignees) to names in the background and returns a
 * labeller; until a name arrives the id itself is shown.
 */
export function usePersonNames(ids: readonly string[]): (id: string) => string {
  const session = useSession();
  const canList = session.can('admin');
  const me = session.state.status === 'signed-in' ? session.state.user : null;
  const [, setResolved] = useState(0);
  const key = [...new Set(ids)].sort().join(' ');

  useEffect(() => {
    if (me) rememberPersonName(me.id, me.name);
    let live = true;
    const wanted = key.split(' ').filter(Boolean);
    void resolvePersonNames(wanted, canList).then(() => {
      if (live) setResolved((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [key, canList, me]);

  return personLabel;
}
