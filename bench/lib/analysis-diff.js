// A unified diff of at least `lines` lines made by real git from corpus changes of every language, so
// the speed figure is about code people wrote rather than generated text.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Changes whose diff stays small, alternating between repositories, in a fixed order. */
function interleaved(changes) {
  const byRepository = new Map();
  for (const change of changes) {
    const list = byRepository.get(change.repository) ?? [];
    list.push(change);
    byRepository.set(change.repository, list);
  }
  const queues = [...byRepository.values()];
  const order = [];
  for (let i = 0; queues.some((queue) => i < queue.length); i++) {
    for (const queue of queues) if (i < queue.length) order.push(queue[i]);
  }
  return order;
}

function writeSide(root, files, side) {
  for (const file of files) {
    const text = file[side];
    const path = side === 'before' ? (file.oldPath ?? file.path) : file.path;
    if (text === null) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** `git diff --no-index` of one change, with the paths as git shows them in a repository. */
function diffOf(change) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-diff-'));
  try {
    mkdirSync(join(dir, 'before'));
    mkdirSync(join(dir, 'after'));
    writeSide(join(dir, 'before'), change.files, 'before');
    writeSide(join(dir, 'after'), change.files, 'after');
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', '-M', 'before', 'after'], { cwd: dir });
      return '';
    } catch (error) {
      // git diff --no-index exits 1 when the trees differ, with the diff on stdout.
      if (error.status !== 1) throw error;
      return error.stdout
        .toString('utf8')
        .replaceAll(' a/before/', ' a/')
        .replaceAll(' b/after/', ' b/')
        .replaceAll('rename from before/', 'rename from ')
        .replaceAll('rename to after/', 'rename to ');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Concatenated diffs of corpus changes (each at most `maxPerChange` lines) until the text has at least
 * `lines` lines; returns the diff and the changes it came from.
 */
export function buildLargeDiff(changes, { lines = 5000, maxPerChange = 600 } = {}) {
  const parts = [];
  const used = [];
  let total = 0;
  for (const change of interleaved(changes)) {
    if (total >= lines) break;
    const diff = diffOf(change);
    const count = diff.split('\n').length - 1;
    if (count === 0 || count > maxPerChange) continue;
    parts.push(diff);
    used.push(change);
    total += count;
  }
  return { diff: parts.join(''), lines: total, changes: used };
}
