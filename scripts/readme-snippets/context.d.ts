// Names the README and docs snippets leave to the reader: the client they already made, their own
// functions and values. Each is declared only as precisely as the snippets need.
import type { LanguageModel } from 'ai';
import type { Gatehouse } from 'gatehouse-hitl-sdk';

declare global {
  /** A client made as in the SDK README's first example. */
  const gatehouse: Gatehouse;
  const runId: string;
  const signal: AbortSignal;
  /** The AI SDK model an agent runs on. */
  const model: LanguageModel;
  function runTests(): void;
  function followInstead(instructions: string | null): void;
  function explain(reason: string | null): void;
  function replan(instruction: string | null): void;
  function readFile(input: { path: string }): Promise<string>;
  function deleteFile(path: string): Promise<void>;
  function removePath(input: { path: string }): Promise<string>;
  function alreadySeen(eventId: string): Promise<boolean>;
  function enqueue(event: unknown): Promise<void>;
}
