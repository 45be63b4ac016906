import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMENSIONS = 64;
// Words that mean the same thing share a slot, so a paraphrase lands near the original.
const SYNONYMS: Record<string, string> = {
  automobile: 'car',
  vehicle: 'car',
  cars: 'car',
  repair: 'fix',
  mend: 'fix',
  broken: 'fault',
  defect: 'fault',
  bug: 'fault',
};

function slot(word: string): number {
  let hash = 2166136261;
  for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
  return Math.abs(hash) % DIMENSIONS;
}

/** A bag-of-words vector over hashed, synonym-folded words. */
export function standInVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    if (word.length > 2) vector[slot(word)] = (vector[slot(word)] ?? 0) + 1;
  }
  return vector;
}

/** A local OpenAI-compatible `/v1/embeddings` server for tests; `fail` makes it answer 500. */
export async function startEmbeddingsStandIn(): Promise<{
  url: string;
  requests: () => number;
  setFailing: (failing: boolean) => void;
  close: () => Promise<void>;
}> {
  let requests = 0;
  let failing = false;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      requests += 1;
      if (failing || request.url !== '/v1/embeddings') {
        response.writeHead(failing ? 500 : 404).end('unavailable');
        return;
      }
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input.map((text, index) => ({ index, embedding: standInVector(text) }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    setFailing: (value) => {
      failing = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
