/**
 * What a refused input says, in plain English on every channel (src/core/validate.ts turns the schema validator's
 * errors into these): a list given a value twice, an empty list, an empty text, a value of neither allowed type, an
 * id out of range with the id's own bounds, and one wording for a range whose ends are the wrong way round.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type Channel, callOperation } from './helpers/operation-call.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The refusal's `errors` and `detail`; it must be a validation error. */
async function refusal(channel: Channel, name: string, input: Record<string, unknown>) {
  t.clock.advance(61_000);
  const res = await callOperation(t, channel, name, input);
  expect(res.ok, `${channel} ${name} ${JSON.stringify(input)}`).toBe(false);
  if (res.ok) throw new Error('accepted');
  expect(res.kind, JSON.stringify(res.problem)).toBe('validation-error');
  return { errors: res.problem.errors, detail: res.problem.detail as string };
}

/** No validator wording reaches the caller. */
function expectPlain(detail: string) {
  expect(detail).not.toMatch(/must NOT|anyOf|##|fewer than|items? \(|must be (string|array|integer|number)\b/);
}

describe.each(CHANNELS)('validation messages on %s', (channel) => {
  it('a value given twice in a list: "group_by: `year` is given twice"', async () => {
    const { errors, detail } = await refusal(channel, 'procurement_aggregate', { group_by: ['year', 'year'] });
    expect(errors).toEqual([{ field: 'group_by', message: '`year` is given twice' }]);
    expect(detail).toBe('group_by: `year` is given twice');
  });

  it('an empty text: "q: must not be empty"', async () => {
    const { errors, detail } = await refusal(channel, 'municipalities_search', { q: '' });
    expect(errors).toEqual([{ field: 'q', message: 'must not be empty' }]);
    expect(detail).toBe('q: must not be empty');
  });

  it('a blank text (spaces alone) is refused as an empty one is: "q: must not be blank"', async () => {
    for (const name of ['municipalities_search', 'procurement_contracts', 'procurement_lookup_entities']) {
      const { errors } = await refusal(channel, name, { q: '   ' });
      expect(errors, name).toEqual([{ field: 'q', message: 'must not be blank' }]);
    }
  });

  it('a value not of the form a pattern asks says the form in words, not the regular expression', async () => {
    const { errors } = await refusal(channel, 'procurement_entity_profile', { nif: '12345678' });
    expect(errors).toEqual([
      {
        field: 'nif',
        message:
          'is not in the expected form: A tax number: Portuguese (NIF/NIPC, 9 digits, no `PT` prefix) or foreign ' +
          'as the portal publishes it (e.g. `ESB82612599`)',
      },
    ]);
    const cpv = await refusal(channel, 'procurement_contracts', { cpv: '4a' });
    expect(cpv.detail).toMatch(/^cpv: is not in the expected form: The first 1 to 8 digits of a CPV code/);
    expectPlain(cpv.detail);
    expect(cpv.detail).not.toMatch(/pattern|\^|\$/);
  });

  it("an id out of range names the id's own bounds", async () => {
    const { errors } = await refusal(channel, 'signals_get', { signal_id: 1e20 });
    expect(errors).toEqual([
      { field: 'signal_id', message: `must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}` },
    ]);
    const limit = await refusal(channel, 'indicators_list', { limit: 2 ** 53 });
    expect(limit.errors).toEqual([{ field: 'limit', message: 'must be an integer from 1 to 200' }]);
  });

  it('a range the wrong way round says "is after" for dates, on series and procurement alike', async () => {
    const range = { from: '2024-02-01', to: '2024-01-01' };
    for (const [name, input] of [
      ['indicators_series', { key: 'population', municipality: 'lisboa', ...range }],
      ['procurement_contracts', range],
      ['procurement_aggregate', range],
    ] as const) {
      const { errors, detail } = await refusal(channel, name, input);
      expect(detail, name).toBe('`from` is after `to`.');
      expect(errors, name).toEqual([{ field: 'from', message: 'must not be after `to`' }]);
    }
    const amounts = await refusal(channel, 'procurement_contracts', { min_amount: 10, max_amount: 5 });
    expect(amounts.detail).toBe('`min_amount` is above `max_amount`.');
  });
});

describe.each(['a2a', 'mcp'] as const)('a choice of one value or a list on %s', (channel) => {
  it('an empty list: "municipality: give at least one"', async () => {
    const { errors, detail } = await refusal(channel, 'indicators_series', { key: 'population', municipality: [] });
    expect(errors).toEqual([{ field: 'municipality', message: 'give at least one' }]);
    expectPlain(detail);
  });

  it('a value of neither type is said once', async () => {
    const { errors, detail } = await refusal(channel, 'indicators_series', { key: 'population', municipality: 5 });
    expect(errors).toEqual([{ field: 'municipality', message: 'must be a string or a list' }]);
    expectPlain(detail);
  });

  it('an empty value in a list, a list too long, a wrong type', async () => {
    const empty = await refusal(channel, 'procurement_contracts', { municipality: ['lisboa', ''] });
    expect(empty.errors).toEqual([{ field: 'municipality', message: 'has an empty value' }]);
    const many = Array.from({ length: 51 }, () => 'lisboa');
    const long = await refusal(channel, 'procurement_contracts', { municipality: many });
    expect(long.errors).toEqual([{ field: 'municipality', message: 'give at most 50' }]);
    const typed = await refusal(channel, 'indicators_list', { limit: 'ten' });
    expect(typed.errors).toEqual([{ field: 'limit', message: 'must be an integer' }]);
    for (const { detail } of [empty, long, typed]) expectPlain(detail);
  });
});
