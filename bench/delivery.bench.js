// Notice delivery under mixed load: a real node on 127.0.0.1 (SQLite; Postgres too when
// GATEHOUSE_TEST_DATABASE_URL names one) takes allowed calls, opens gates and has them decided while
// 20 tech leads hear of every gate by email through a local SMTP stand-in. Reports the delivery lag
// p99 (gate change answered → mail received) against a bare nodemailer send to the same stand-in and
// the 5 s target, and the pending notice rows when the load stops (target ≈ 0: one gate change's
// notices at most).
// GATEHOUSE_BENCH_DELIVERY_SECONDS shortens the run (default 600).
import nodemailer from 'nodemailer';
import { bearer, decideCall, gatedCall, startGatehouse } from './lib/gatehouse.js';
import { createHttpClient } from './lib/http.js';
import { startSmtpInbox } from './lib/smtp-inbox.js';
import { percentile, sleep } from './lib/stats.js';
import { report } from './report.js';

const SECONDS = Number(process.env.GATEHOUSE_BENCH_DELIVERY_SECONDS ?? 600);
const PEOPLE = 20;
const AGENTS = 10;
const ALLOWED_PER_SECOND = 100;
const GATES_PER_SECOND = 1;
const DECIDE_AFTER_MS = 2000;
const PROGRESS_EVERY_MS = Math.min(30_000, (SECONDS * 1000) / 4);
const DRAIN_MS = 60_000;
const LAG_TARGET_MS = 5000;

if (!(SECONDS > 0 && SECONDS <= 3600)) throw new Error('GATEHOUSE_BENCH_DELIVERY_SECONDS must be 1…3600');

/** Runs `step(i)` at `perSecond` on `lanes` concurrent lanes until `deadline` (performance.now()). */
async function paced(perSecond, lanes, deadline, step) {
  const interval = (1000 * lanes) / perSecond;
  const lane = async (l) => {
    const start = performance.now() + (interval * l) / lanes;
    for (let k = 0; ; k += 1) {
      const due = start + k * interval;
      if (due >= deadline) return;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      await step(k * lanes + l, l);
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, l) => lane(l)));
}

function lagFigures(mails, gates) {
  const lags = [];
  let unmatched = 0;
  for (const mail of mails) {
    const gate = gates.get(mail.gateId);
    const since = mail.kind === 'opened' ? gate?.openedAt : gate?.decidedAt;
    if (since === undefined) unmatched += 1;
    else lags.push(Math.max(0, mail.at - since));
  }
  lags.sort((a, b) => a - b);
  return { lags, unmatched, p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? 0 };
}

async function measure(dialect) {
  const mails = [];
  const probes = [];
  const probeStarts = new Map();
  const inbox = await startSmtpInbox(({ at, to, subject, gateId }) => {
    if (to.includes('probe@example.test')) {
      const started = probeStarts.get(subject);
      if (started !== undefined) probes.push(at - started);
      return;
    }
    const kind = subject.includes('waiting for you')
      ? 'opened'
      : subject.includes('decided')
        ? 'decided'
        : 'other';
    mails.push({ at, kind, gateId });
  });
  const node = await startGatehouse({
    dialect,
    agents: AGENTS + 1,
    people: PEOPLE,
    env: { GATEHOUSE_SMTP_URL: inbox.url },
  });
  const client = createHttpClient(node.url, { maxSockets: AGENTS + 20 });
  const probeTransport = nodemailer.createTransport(inbox.url);
  const gates = new Map();
  const counts = { allowed: 0, opened: 0, decided: 0, errors: 0 };
  let firstError = null;
  const failed = (what, error) => {
    counts.errors += 1;
    firstError ??= `${what}: ${error}`;
  };
  try {
    // Only the 20 tech leads hear by email; the seeded admin and developer choose no channel.
    for (const token of [node.tokens.admin, node.tokens.developer]) {
      const answer = await client.send({
        method: 'PUT',
        path: '/v1/me/notification-channels',
        headers: bearer(token),
        body: { channels: [], email: null },
      });
      if (answer.status !== 200) throw new Error(`channels: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    for (const [i, person] of node.tokens.people.entries()) {
      const answer = await client.send({
        method: 'PUT',
        path: '/v1/me/notification-channels',
        headers: bearer(person.token),
        body: { channels: ['email'], email: `lead${i}@example.test` },
      });
      if (answer.status !== 200) throw new Error(`channels: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const decisions = [];
    const progress = setInterval(async () => {
      const backlog = await node.child.call('notificationBacklog').catch(() => null);
      const { p99 } = lagFigures(mails, gates);
      console.error(
        `delivery.${dialect} ${Math.round((performance.now() - started) / 1000)} s: ${counts.allowed} allowed, ` +
          `${counts.opened} gates opened, ${counts.decided} decided, ${mails.length} mails, lag p99 ` +
          `${Math.round(p99)} ms, pending ${backlog?.pending ?? '?'}${backlog?.queued ? ' (+ changes to route)' : ''}`,
      );
    }, PROGRESS_EVERY_MS);
    const allowed = paced(ALLOWED_PER_SECOND, AGENTS, deadline, async (i, lane) => {
      const call = {
        method: 'POST',
        path: '/v1/gates',
        headers: bearer(node.tokens.agents[lane].token),
        body: { tool: 'read_file', args: { path: `src/file-${i}.ts` } },
      };
      const answer = await client.send(call).catch((error) => ({ status: 0, body: String(error) }));
      if (answer.status === 200 && answer.body.outcome === 'allowed') counts.allowed += 1;
      else failed('allowed call', `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    });
    const gated = paced(GATES_PER_SECOND, 1, deadline, async (i) => {
      const answer = await client
        .send(gatedCall(node.tokens.agents[AGENTS].token, i))
        .catch((error) => ({ status: 0, body: String(error) }));
      if (answer.status !== 200 || answer.body.outcome !== 'gated') {
        failed('gate', `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        return;
      }
      const gate = { openedAt: performance.now(), decidedAt: undefined };
      gates.set(answer.body.gateId, gate);
      counts.opened += 1;
      const decider = node.tokens.people[i % PEOPLE].token;
      decisions.push(
        sleep(DECIDE_AFTER_MS).then(async () => {
          const decided = await client
            .send(decideCall(decider, answer.body.gateId))
            .catch((error) => ({ status: 0, body: String(error) }));
          if (decided.status !== 200) failed('decide', `${decided.status} ${JSON.stringify(decided.body)}`);
          else {
            gate.decidedAt = performance.now();
            counts.decided += 1;
          }
        }),
      );
    });
    const probing = paced(1, 1, deadline, async (i) => {
      const subject = `probe ${i}`;
      probeStarts.set(subject, performance.now());
      await probeTransport
        .sendMail({ from: 'probe@example.test', to: 'probe@example.test', subject, text: 'probe' })
        .catch((error) => failed('probe', error));
    });
    await Promise.all([allowed, gated, probing]);
    await Promise.all(decisions);
    clearInterval(progress);
    const atEnd = await node.child.call('notificationBacklog');
    console.error(
      `delivery.${dialect} load stopped after ${Math.round((performance.now() - started) / 1000)} s: ` +
        `${counts.allowed} allowed calls, ${counts.opened} gates opened and ${counts.decided} decided, ` +
        `${counts.errors} errors${firstError ? ` (first: ${firstError})` : ''}; ${atEnd.pending} notices pending, ` +
        `${atEnd.sent} sent, ${atEnd.failed} failed${atEnd.queued ? ', gate changes still to route' : ''}`,
    );
    const drainStart = performance.now();
    let drained = atEnd;
    while ((drained.pending > 0 || drained.queued) && performance.now() - drainStart < DRAIN_MS) {
      await sleep(250);
      drained = await node.child.call('notificationBacklog');
    }
    const lag = lagFigures(mails, gates);
    const openedMailed = new Set(mails.filter((m) => m.kind === 'opened').map((m) => m.gateId));
    console.error(
      `delivery.${dialect} drained in ${Math.round(performance.now() - drainStart)} ms (pending ${drained.pending}); ` +
        `${mails.length} mails (${lag.unmatched} unmatched), lag p50 ${Math.round(lag.p50)} ms, max ` +
        `${Math.round(lag.max)} ms; ${counts.opened - openedMailed.size} opened gates nobody was mailed about`,
    );
    if (counts.errors > 0) throw new Error(`${counts.errors} failed requests, first: ${firstError}`);
    const sortedProbes = probes.sort((a, b) => a - b);
    return { lag, atEnd, probeP99: percentile(sortedProbes, 99) };
  } finally {
    probeTransport.close();
    client.close();
    await node.stop();
    await inbox.close();
  }
}

/** Delivery lag p99 and pending notices at the end of the run, on SQLite (and Postgres when named). */
export async function run() {
  const dialects = process.env.GATEHOUSE_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const dialect of dialects) {
    const { lag, atEnd, probeP99 } = await measure(dialect);
    report(`delivery.${dialect}.lag-p99`, {
      value: lag.p99,
      unit: 'ms',
      baseline: probeP99,
      target: { at: LAG_TARGET_MS, met: lag.p99 <= LAG_TARGET_MS },
    });
    report(`delivery.${dialect}.pending-at-end`, {
      value: atEnd.pending,
      unit: 'rows',
      baseline: null,
      // ≈ 0: at most one gate change's notices still on their way when the load stops (a change still to
      // route, the last decision say, is in the progress line and not counted).
      target: { at: PEOPLE, met: atEnd.pending <= PEOPLE },
    });
  }
}
