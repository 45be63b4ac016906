import { GatehouseError } from 'gatehouse-hitl-core';
import type { EmbeddingsConfig } from '../../config.js';

/** Texts per `/v1/embeddings` request. */
const BATCH = 64;
const TIMEOUT_MS = 30_000;

/** Turns texts into vectors through an OpenAI-compatible embeddings endpoint. */
export type Embedder = (texts: string[]) => Promise<Float32Array[]>;

function failed(message: string, cause?: unknown): GatehouseError {
  return new GatehouseError('SERVICE_UNAVAILABLE', `embeddings endpoint: ${message}`, {}, cause);
}

function endpointOf(config: EmbeddingsConfig): string {
  return `${config.url.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/embeddings`;
}

async function embedBatch(config: EmbeddingsConfig, input: string[]): Promise<Float32Array[]> {
  let response: Response;
  try {
    response = await fetch(endpointOf(config), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` }),
      },
      body: JSON.stringify({ model: config.model, input }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw failed(`no answer from ${endpointOf(config)} (${(error as Error).message})`, error);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw failed(`${endpointOf(config)} answered ${response.status}${text === '' ? '' : `: ${text}`}`);
  }
  const body = (await response.json().catch(() => null)) as { data?: unknown } | null;
  const data = Array.isArray(body?.data) ? (body.data as { embedding?: unknown; index?: unknown }[]) : null;
  if (data === null || data.length !== input.length) {
    throw failed(`expected ${input.length} embeddings in data[], got ${data?.length ?? 'none'}`);
  }
  const vectors: Float32Array[] = new Array(input.length);
  data.forEach((item, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    if (!Array.isArray(item.embedding) || !item.embedding.every((n) => typeof n === 'number')) {
      throw failed(`data[${position}].embedding is not an array of numbers`);
    }
    vectors[index] = Float32Array.from(item.embedding as number[]);
  });
  return vectors;
}

/** An embedder for `config`: batches of 64, 30 s per request, clear errors naming the endpoint. */
export function createEmbedder(config: EmbeddingsConfig): Embedder {
  return async (texts) => {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      vectors.push(...(await embedBatch(config, texts.slice(start, start + BATCH))));
    }
    return vectors;
  };
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
