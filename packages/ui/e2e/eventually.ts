/**
 * Retries `check` until it stops throwing (or returns a value other than false/undefined), or
 * rethrows its last error after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 100, what = 'the condition' } = {},
): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined) return value as Exclude<T, false | undefined>;
      last = new Error(`${what} did not hold`);
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const reason = last instanceof Error ? last.message : String(last);
      throw new Error(`after ${timeoutMs} ms, ${what} still failed: ${reason}`, { cause: last });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
