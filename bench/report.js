// Collects benchmark figures: prints one line each and writes them all to results.json at the end.
import { writeFile } from 'node:fs/promises';

const collected = {};

function format(value) {
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3);
}

/**
 * Prints `name: value unit — baseline value unit — ratio r`; ratio > 1 means better than the baseline.
 * A figure with a `target` ({ at, met }) also prints the target and whether it was met; a figure with
 * no baseline measured in the run (`baseline: null`) prints the target only. A `targetRatio` is a
 * target set as the least ratio to the baseline (0.5: within 2× of it).
 */
export function report(name, { value, unit, baseline, higherIsBetter = false, target: fixed, targetRatio }) {
  const target =
    fixed ??
    (targetRatio === undefined ? undefined : ratioTarget(value, baseline, targetRatio, higherIsBetter));
  const entry = { value: Number(value.toFixed(3)), unit };
  const parts = [`${name}: ${format(value)} ${unit}`];
  if (baseline !== null && baseline !== undefined) {
    const ratio = higherIsBetter ? value / baseline : baseline / value;
    entry.baseline = Number(baseline.toFixed(3));
    entry.ratio = Number(ratio.toFixed(2));
    parts.push(`baseline ${format(baseline)} ${unit}`, `ratio ${ratio.toFixed(2)}`);
  }
  if (target !== undefined) {
    entry.target = target.at;
    entry.met = target.met;
    parts.push(
      `target ${higherIsBetter ? '≥' : '≤'} ${format(target.at)} ${unit} ${target.met ? 'met' : 'MISSED'}`,
    );
  }
  collected[name] = entry;
  console.log(parts.join(' — '));
}

/** The value at which the ratio to `baseline` is `least`, and whether `value` reaches it. */
function ratioTarget(value, baseline, least, higherIsBetter) {
  const at = higherIsBetter ? baseline * least : baseline / least;
  return { at, met: higherIsBetter ? value >= at : value <= at };
}

/** Every figure reported so far, by name. */
export function results() {
  return { ...collected };
}

/** Writes every figure reported so far as JSON. */
export async function writeResults(file) {
  await writeFile(file, `${JSON.stringify(collected, null, 2)}\n`);
}
