import type { Gatehouse, RunEvent } from 'gatehouse-hitl-sdk';
import { type Ask, finish, implementPhase, planPhase } from './phases.js';
import { SAMPLE_PROJECT } from './sample-project.js';
import { type Log, printable, type StepOutcomes, stepper, type WaitingGate } from './steps.js';
import type { Workspace } from './workspace.js';

export type { Log, StepOutcomes } from './steps.js';

/** What the scripted agent works with. */
export interface CodingAgentOptions {
  gate: Gatehouse;
  workspace: Workspace;
  log: Log;
  /** Aborting stops the agent wherever it waits. */
  signal?: AbortSignal;
  /**
   * Puts the sample project on the new run's main before the agent clones it (the in-process
   * server's `seedWorkspace`); without it the agent imports the project on its first branch.
   */
  seed?: ((runId: string, files: Readonly<Record<string, string>>) => Promise<void>) | undefined;
}

function watchInterventions(options: CodingAgentOptions, runId: string, stop: AbortController): () => void {
  return options.gate.onIntervention(
    runId,
    (event: RunEvent) => {
      const instruction = event.instruction ? `: ${printable(event.instruction)}` : '';
      options.log(`    !! intervention ${event.kind}${instruction}`);
      if (event.kind === 'stop') stop.abort(new Error('the run was stopped by a person'));
    },
    { onError: (error) => options.log(`    (interventions unavailable: ${String(error)})`) },
  );
}

/**
 * Runs the scripted job in a clone of its run's repository: the plan pushed on `phase-1-strategic`
 * for its intent approval (Gate 0) and phase review, then on `phase-2-tactical` the edits, tests, a
 * cleanup, a confidence report and the final review — asking Gatehouse before each step and
 * printing every answer.
 */
export async function runCodingAgent(options: CodingAgentOptions): Promise<StepOutcomes> {
  const { gate, workspace, log } = options;
  const outcomes: StepOutcomes = {};
  const step = stepper(log, outcomes);
  const run = await gate.createRun({
    autonomy: 'partial',
    title: 'Add a slugify helper with tests',
    signal: options.signal,
  });
  log(
    `run ${run.id} started (autonomy ${run.autonomy}, approval mode ${run.approvalMode}) in ${workspace.dir}`,
  );
  // The repository is seeded and cloned while the first gates wait for people.
  const workspaceReady = (async () => {
    if (options.seed !== undefined && workspace.git) await options.seed(run.id, SAMPLE_PROJECT);
    return workspace.attach(gate, run.id);
  })();
  workspaceReady.catch(() => undefined);
  const stop = new AbortController();
  const unsubscribe = watchInterventions(options, run.id, stop);
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const ask: Ask = {
    runId: run.id,
    signal,
    onGate: (id: string, g: WaitingGate | null) => step.waiting(id, g),
  };
  try {
    await planPhase(options, step, ask, workspaceReady);
    await implementPhase(options, step, ask);
    await finish(options, step, ask);
    await gate.completeRun(run.id, { signal: ask.signal, onGate: ask.onGate });
    log(`\nrun ${run.id} completed`);
    return outcomes;
  } finally {
    unsubscribe();
    // Nothing of the agent keeps running in its workspace once it is done.
    await workspaceReady.catch(() => undefined);
  }
}
