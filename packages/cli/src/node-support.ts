type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const match = /^\s*(?:\^|~|>=|=)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

const below = (a: Version, b: Version): boolean =>
  a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

/** The lowest version an `engines.node` range such as `^22.12.0 || ^24.0.0` accepts; null when unreadable. */
function lowestSupported(engines: string): Version | null {
  const bounds = engines.split('||').map(parseVersion);
  if (bounds.length === 0 || bounds.some((bound) => bound === null)) return null;
  return (bounds as Version[]).reduce((low, bound) => (below(bound, low) ? bound : low));
}

/**
 * One warning line when Node `version` is older than the `engines` range of package.json allows; null
 * when it is recent enough or the range cannot be read.
 * @example nodeSupportWarning('20.19.0', '^22.12.0 || ^24.0.0') // 'warning: Node.js 20.19.0 is not supported…'
 */
export function nodeSupportWarning(version: string, engines: string): string | null {
  const current = parseVersion(version);
  const lowest = lowestSupported(engines);
  if (current === null || lowest === null || !below(current, lowest)) return null;
  return (
    `warning: Node.js ${version} is not supported; gatehouse needs Node.js ${engines} (package.json engines) ` +
    `and may fail on this one. Install Node.js ${lowest[0]} or later (GATEHOUSE_NODE_CHECK=off hides this).`
  );
}
