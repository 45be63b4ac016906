import type { SearchChunkInput, Store } from 'gatehouse-hitl-store';
import type { ServerConfig } from '../../config.js';
import { listFiles, log, readFile, resolveRef } from '../../workspace/git-ops.js';
import { ensureRepo, reposDirOf } from '../../workspace/repos.js';
import { chunkDocument } from './chunk.js';

/** Files larger than this are not indexed. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 5000;
const MAX_RETROSPECTIVE_COMMITS = 200;

/** What one indexing reads: the branch under review and the checkpoint's retrospective, if any. */
export interface IndexInput {
  runId: string;
  ref: string;
  retrospective?: { phase: number; text: string } | undefined;
}

export interface IndexedDocuments {
  commit: string | null;
  documents: number;
  chunks: SearchChunkInput[];
}

function isRetrospectivePath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return path.startsWith('archive/') || (name.includes('retrospective') && name.endsWith('.md'));
}

async function fileChunks(repo: string, commit: string, ref: string): Promise<SearchChunkInput[][]> {
  const { files } = await listFiles(repo, commit, { limit: MAX_FILES });
  const documents: SearchChunkInput[][] = [];
  for (const file of files) {
    if (file.size > MAX_INDEXED_FILE_BYTES || file.size === 0) continue;
    const content = await readFile(repo, commit, file.path, { maxBytes: MAX_INDEXED_FILE_BYTES });
    if (content === null || content.text === null) continue;
    const source = isRetrospectivePath(file.path) ? 'retrospective' : 'file';
    documents.push(chunkDocument({ path: file.path, source, ref, text: content.text }));
  }
  return documents;
}

// Squash merges carry the phase's retrospective as their message, so main's history holds the earlier ones.
async function mergedRetrospectives(repo: string, ref: string): Promise<SearchChunkInput[][]> {
  const commits = await log(repo, 'main', { limit: MAX_RETROSPECTIVE_COMMITS });
  return commits
    .filter((commit) => commit.body.trim() !== '')
    .map((commit) =>
      chunkDocument({
        path: `retrospective/${commit.commit.slice(0, 12)}`,
        source: 'retrospective',
        ref,
        text: `${commit.subject}\n\n${commit.body}`,
      }),
    );
}

async function todoHistory(store: Store, runId: string, ref: string): Promise<SearchChunkInput[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.read((tx) =>
      tx.listJournalEntries({ runId, kind: 'todos', limit: 500, cursor }),
    );
    for (const entry of page.items) {
      const items = Array.isArray(entry.data.items)
        ? (entry.data.items as { text?: unknown; status?: unknown }[])
        : [];
      lines.push(`Todos at ${new Date(entry.createdAt).toISOString()}:`);
      for (const item of items) lines.push(`- [${String(item.status)}] ${String(item.text)}`);
      lines.push('');
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return lines.length === 0
    ? []
    : chunkDocument({ path: 'todos', source: 'todos', ref, text: lines.join('\n') });
}

/** Reads and chunks everything a run's search index holds. */
export async function collectDocuments(
  deps: { store: Store; config: ServerConfig },
  input: IndexInput,
): Promise<IndexedDocuments> {
  const repo = await ensureRepo(reposDirOf(deps.config), input.runId);
  const commit = await resolveRef(repo, `refs/heads/${input.ref}`);
  const documents: SearchChunkInput[][] = [];
  if (commit !== null) documents.push(...(await fileChunks(repo, commit, input.ref)));
  documents.push(...(await mergedRetrospectives(repo, input.ref)));
  if (input.retrospective !== undefined && input.retrospective.text.trim() !== '') {
    const path = `retrospective/phase-${input.retrospective.phase}`;
    documents.push(
      chunkDocument({ path, source: 'retrospective', ref: input.ref, text: input.retrospective.text }),
    );
  }
  const todos = await todoHistory(deps.store, input.runId, input.ref);
  if (todos.length > 0) documents.push(todos);
  const nonEmpty = documents.filter((chunks) => chunks.length > 0);
  return { commit, documents: nonEmpty.length, chunks: nonEmpty.flat() };
}
