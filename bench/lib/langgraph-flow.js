// The human round trip in-process with LangGraph.js: a graph node calls interrupt() for approval and
// the run resumes with Command({ resume }); every step is checkpointed by the SQLite checkpointer.
import { join } from 'node:path';
import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { loadSqliteDriver } from '../../packages/store/dist/testing/index.js';

const State = Annotation.Root({
  tool: Annotation(),
  args: Annotation(),
  outcome: Annotation(),
});

/**
 * A compiled graph whose `ask` node waits for a person, checkpointed to `<dir>/langgraph.db`. The
 * checkpointer runs WAL at synchronous=NORMAL (no fsync per commit) unless `synchronous` names another
 * level; `'FULL'` is Gatehouse's durability class.
 */
export function createApprovalGraph(dir, { synchronous } = {}) {
  // The checkpointer's own `fromConnString` opens the better-sqlite3 it depends on, which aborts on
  // newer Node.js lines; the store's driver is the build that runs on this one.
  const Database = loadSqliteDriver().driver;
  const checkpointer = new SqliteSaver(new Database(join(dir, 'langgraph.db')));
  if (synchronous !== undefined) checkpointer.db.pragma(`synchronous = ${synchronous}`);
  const graph = new StateGraph(State)
    .addNode('ask', (state) => {
      const decision = interrupt({ tool: state.tool, args: state.args });
      return { outcome: decision.option };
    })
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer });
  return { graph, checkpointer };
}

/** One round trip: run until the interrupt, hand the request to the reviewer, resume with the decision. */
export async function roundTrip(graph, threadId, i) {
  const config = { configurable: { thread_id: threadId } };
  const paused = await graph.invoke(
    { tool: 'write_file', args: { path: `src/file-${i}.ts`, content: 'x' } },
    config,
  );
  const request = paused.__interrupt__?.[0]?.value;
  if (request === undefined) throw new Error('the graph did not stop for approval');
  const done = await graph.invoke(new Command({ resume: { option: 'approved' } }), config);
  if (done.outcome !== 'approved') throw new Error(`resumed with ${done.outcome}`);
}
