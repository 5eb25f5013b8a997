/**
 * Tasks survive a restart and never run twice: a process closed while a task is WORKING finishes it and leaves
 * the queued ones to the next process, which resumes them on start; two processes on one store never run the same
 * task; a process that dies while running a task (its lease ends) has the task taken over and completed once.
 * Executions are counted by the runner's hook, in every process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskHooks } from '../src/agents/tasks/runner.js';
import type { AgentTaskRecord } from '../src/store/agent-records.js';
import type { Store } from '../src/store/store.js';
import { type AgentHostApp, startAgentHost } from './helpers/agents.js';
import { openStoreAt } from './helpers/backend.js';

const SLUG = 'atlas-engenharia';
const PROJECT = { project_type: 'structural_assessment', municipality: 'lisboa', area_m2: 800 };

/** Counts runs per task; `holdNext()` makes the next run that starts wait until released. */
function counter() {
  const runs = new Map<string, number>();
  let next: { promise: Promise<void>; taken: boolean } | undefined;
  const hooks: TaskHooks = {
    async beforeRun(task: AgentTaskRecord) {
      runs.set(task.id, (runs.get(task.id) ?? 0) + 1);
      if (next && !next.taken) {
        next.taken = true;
        await next.promise;
      }
    },
  };
  return {
    runs,
    hooks,
    holdNext() {
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      next = { promise, taken: false };
      return release;
    },
  };
}

async function submit(host: AgentHostApp): Promise<string> {
  const res = await host.app.http.inject({
    method: 'POST',
    url: `/agents/${SLUG}/a2a`,
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${host.credentials[SLUG].a2a}`,
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          parts: [{ data: { skill: 'assess_project_fit', input: PROJECT }, mediaType: 'application/json' }],
        },
        configuration: { returnImmediately: true },
      },
    }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.task.id;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const state = async (store: Store, id: string) => (await store.agents.getAgentTask(id))?.state;
/**
 * Closed last first; a copied store is closed after the stores reopened on it (on PostgreSQL closing it drops the
 * database).
 */
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of opened.reverse()) await item.close().catch(() => {});
});

describe('a restart with tasks in flight', () => {
  const closingProcess =
    'the WORKING task finishes in the closing process; the queued ones resume in the next; each runs once';
  it(closingProcess, async () => {
    const count = counter();
    const first = await startAgentHost({ agents: { taskHooks: count.hooks, concurrency: 1 } });
    // `a` is held while running: it is WORKING when the process is told to close.
    const release = count.holdNext();
    const [a, b, c] = [await submit(first), await submit(first), await submit(first)];
    await until('a WORKING', async () => (await state(first.store, a)) === 'WORKING' && count.runs.get(a) === 1);
    expect(await state(first.store, b)).toBe('SUBMITTED');

    const closing = first.app.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await closing;
    expect(await state(first.store, a)).toBe('COMPLETED');
    expect([await state(first.store, b), await state(first.store, c)]).toEqual(['SUBMITTED', 'SUBMITTED']);
    opened.push(first.store);

    const store = openStoreAt(first.dbPath);
    const second = await startAgentHost({
      store,
      dbPath: first.dbPath,
      credentials: first.credentials,
      agents: { taskHooks: count.hooks },
    });
    opened.push(second);
    await until(
      'b and c COMPLETED',
      async () => (await state(store, b)) === 'COMPLETED' && (await state(store, c)) === 'COMPLETED',
    );
    expect(Object.fromEntries(count.runs)).toEqual({ [a]: 1, [b]: 1, [c]: 1 });
    const done = (await store.agents.getAgentTask(b)) as AgentTaskRecord;
    expect(JSON.parse(done.result as string).data.verdict).toBe('fit');
    expect(done.attempts).toBe(1);
  });

  it('two processes on one store never run the same task', async () => {
    const count = counter();
    const first = await startAgentHost({ agents: { taskHooks: count.hooks, sweepMs: 20 } });
    opened.push(first);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await submit(first));
    const second = await startAgentHost({
      store: openStoreAt(first.dbPath),
      dbPath: first.dbPath,
      credentials: first.credentials,
      agents: { taskHooks: count.hooks, sweepMs: 20 },
    });
    opened.push(second);
    for (let i = 0; i < 12; i++) ids.push(await submit(second));
    await until('every task COMPLETED', async () =>
      (await Promise.all(ids.map((id) => state(first.store, id)))).every((s) => s === 'COMPLETED'),
    );
    expect(count.runs.size).toBe(ids.length);
    expect([...count.runs.values()].every((n) => n === 1)).toBe(true);
  });

  const processDiesMidTask =
    'a process that dies while running a task: its lease ends, another process takes it over, it completes once';
  it(processDiesMidTask, async () => {
    const count = counter();
    const dying = await startAgentHost({ agents: { taskHooks: count.hooks, leaseMs: 30_000 } });
    opened.push(dying.store);
    const release = count.holdNext(); // not released before the take-over: the process is as good as dead
    const id = await submit(dying);
    await until(
      'WORKING in the dying process',
      async () => (await state(dying.store, id)) === 'WORKING' && count.runs.get(id) === 1,
    );

    const store = openStoreAt(dying.dbPath);
    const survivor = await startAgentHost({
      store,
      dbPath: dying.dbPath,
      credentials: dying.credentials,
      agents: { taskHooks: count.hooks, sweepMs: 20 },
    });
    opened.push(survivor);
    // While the lease holds, the task stays with its process.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(count.runs.get(id)).toBe(1);
    survivor.clock.advance(31_000);
    await until('COMPLETED by the survivor', async () => (await state(store, id)) === 'COMPLETED');
    const completed = (await store.agents.getAgentTask(id)) as AgentTaskRecord;
    expect(completed.attempts).toBe(2);

    // The dead process wakes up: its outcome is dropped, the task keeps the survivor's.
    release();
    await dying.app.close();
    expect(await store.agents.getAgentTask(id)).toEqual(completed);
  });
});
