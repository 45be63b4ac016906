import { languageOf, parseSource } from '../languages.js';
import { type ChangedFile, detectLaziness } from '../patterns/index.js';
import type { Finding, LanguageId } from '../types.js';

/** One file's change with both sides parsed, as the pattern detectors receive it. */
export async function changedFile(
  path: string,
  before: string | null,
  after: string | null,
  language: LanguageId = languageOf(path),
): Promise<ChangedFile> {
  return {
    file: { path, before, after },
    context: {
      language,
      before: before === null ? null : await parseSource(language, before),
      after: after === null ? null : await parseSource(language, after),
    },
  };
}

/**
 * The findings of `pattern` alone on one file's change; the language is the path's unless given.
 * @example await findingsOf('lazy.placeholder_body', { path: 'a.ts', before, after })
 */
export async function findingsOf(
  pattern: string,
  change: { path: string; before: string | null; after: string; language?: LanguageId },
): Promise<Finding[]> {
  const { file, context } = await changedFile(change.path, change.before, change.after, change.language);
  return (await detectLaziness(file, context)).filter((finding) => finding.pattern === pattern);
}
