/**
 * signals_list given a `type` of another family than its `family`: a mistake that could only match nothing, refused
 * with 422 naming `type` and the family it belongs to, alike on REST, A2A and MCP (and on both stores, by the lane),
 * while a type given with its own family still lists its signals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, callOperation } from './helpers/operation-call.js';
import { freshStore } from './helpers/procurement-store.js';
import { seedSignals } from './helpers/signal-fixture.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  await seedSignals(store);
  t = await startTestApp({ store, dbPath });
});
afterAll(() => t.close());

async function refusal(channel: (typeof CHANNELS)[number], input: Record<string, unknown>) {
  t.clock.advance(61_000);
  const res = await callOperation(t, channel, 'signals_list', input);
  if (res.ok) throw new Error(`${channel} accepted ${JSON.stringify(input)}: ${JSON.stringify(res.json)}`);
  expect(res.kind, JSON.stringify(res.problem)).toBe('validation-error');
  expect(res.problem.status).toBe(422);
  return res.problem;
}

describe.each(CHANNELS)('signals_list with a type of another family on %s', (channel) => {
  it('lists a type given with its own family', async () => {
    t.clock.advance(61_000);
    const res = await callOperation(t, channel, 'signals_list', { family: 'procurement', type: 'tender_open' });
    if (!res.ok) throw new Error(JSON.stringify(res.problem));
    expect(res.json.items.length).toBeGreaterThan(0);
    expect(res.json.items.every((s: any) => s.type === 'tender_open')).toBe(true);
  });

  it('refuses a procurement type with family indicators, naming its family and the family’s types', async () => {
    const problem = await refusal(channel, { family: 'indicators', type: 'tender_open' });
    const message = problem.errors.find((e: any) => e.field === 'type')?.message;
    expect(message).toBe(
      '`tender_open` is a type of the family `procurement`, not of `indicators` (the types of `indicators` are ' +
        'indicator_jump, indicator_record): give family `procurement` or leave `family` out',
    );
    expect(problem.detail).toContain(`type: ${message}.`);
    // The channel's own name for the list of types, after the detail.
    expect(problem.detail).toMatch(/signal_types|\/v1\/signal-types/);
  });

  it('refuses an integrity type with family procurement; integrity’s many types are counted, not listed', async () => {
    const problem = await refusal(channel, { family: 'procurement', type: 'single_bid' });
    const message: string = problem.errors.find((e: any) => e.field === 'type')?.message;
    expect(message).toMatch(/^`single_bid` is a type of the family `integrity`, not of `procurement` \(/);
    expect(message).toContain('tender_open, deadline_closing'); // procurement's types are few: listed
    expect(message).toContain('give family `integrity`');
    const fromIndicators = await refusal(channel, { family: 'integrity', type: 'indicator_jump' });
    expect(fromIndicators.errors[0].message).toMatch(/\(`integrity` has \d+ types\)/);
  });

  it('still refuses a type that does not exist, listing the types', async () => {
    const problem = await refusal(channel, { family: 'procurement', type: 'earthquake' });
    const typeError = problem.errors.find((e: any) => e.field === 'type');
    expect(typeError.message).toContain('tender_open');
  });
});
