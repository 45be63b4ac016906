// Collects benchmark figures: prints one line each and writes them all to results.json at the end.
import { writeFile } from 'node:fs/promises';

const collected = {};

function format(value) {
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(3);
}

/** Prints `name: value unit — baseline value unit — ratio r`; ratio > 1 means better than the baseline. */
export function report(name, { value, unit, baseline, higherIsBetter = false }) {
  const ratio = higherIsBetter ? value / baseline : baseline / value;
  collected[name] = {
    value: Number(value.toFixed(3)),
    unit,
    baseline: Number(baseline.toFixed(3)),
    ratio: Number(ratio.toFixed(2)),
  };
  console.log(
    `${name}: ${format(value)} ${unit} — baseline ${format(baseline)} ${unit} — ratio ${ratio.toFixed(2)}`,
  );
}

/** Every figure reported so far, by name. */
export function results() {
  return { ...collected };
}

/** Writes every figure reported so far as JSON. */
export async function writeResults(file) {
  await writeFile(file, `${JSON.stringify(collected, null, 2)}\n`);
}
