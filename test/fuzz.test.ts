/**
 * Property-based fuzzing of every operation of the registry on every channel (fast-check): inputs made from the
 * operation's first example with one or two parameters replaced by a bad value — the wrong type, huge and empty
 * strings, control characters (a NUL among them), lone surrogates, SQL and LIKE metacharacters, prototype names,
 * numbers in every notation, integers that read as Infinity (309 digits, JSON 1e400) or pass any store's range,
 * leap seconds and dates that do not exist, forged cursors, arrays for scalars; half of the time a parameter gets a
 * value of its own class (a date-time one of those dates, an integer one of those numbers, text a NUL). For each input,
 * on REST, A2A and MCP:
 *
 * - no 5xx and no `internal` error; no lookup of a number read as Infinity;
 * - the answer is in the channel's form (a problem document with its request id on REST; a JSON-RPC answer whose
 *   error carries the request id on A2A and MCP);
 * - the same error kind on the three channels, where REST can spell the input the same (docs/api.md, Input values);
 * - usage unchanged by an error, and up by one for a charged success.
 *
 * The seed is fixed (FUZZ_SEED, default below) so CI is reproducible; FUZZ_RUNS sets the inputs per operation (12
 * by default: about 1,000 requests). A failure names the operation and prints the request that reproduces it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import { type JsonSchema, plainSchema } from '../src/core/json-schema.js';
import type { AnyOperation } from '../src/core/operation.js';
import { createRegistry } from '../src/operations/index.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { type CallAnswer, CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const controlCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u007f', '\u0085', '\u009f'),
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const around = (inner: fc.Arbitrary<string>) =>
  fc.tuple(fc.string({ maxLength: 4 }), inner, fc.string({ maxLength: 4 })).map(([a, b, c]) => `${a}${b}${c}`);

/** Dates and date-times: a leap second (valid: read as the next second), and days and times that do not exist. */
function dateClass(): fc.Arbitrary<string> {
  return fc.constantFrom(
    '2016-12-31T23:59:60Z',
    '2017-01-01T00:59:60+01:00',
    '2024-02-30',
    '2023-02-29',
    '2024-13',
    '2024-13-45',
    '2024-00-10',
    '2024-02-30T00:00:00Z',
    '2016-12-31T24:00:00Z',
    '2016-12-31T23:60:00Z',
    '2016-12-31T23:59:61Z',
    '2016-12-31T23:59:59+24:00',
  );
}

/** Integers past what any store holds: 309 digits and JSON `1e400` read as Infinity; huge but finite ones. */
function hugeNumber(): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>(
    '9'.repeat(309),
    `-${'9'.repeat(309)}`,
    `1${'0'.repeat(400)}`,
    '9223372036854775808',
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1e300,
    2 ** 63,
  );
}

/** The bad values of a parameter's own class, so that each class meets the parameters it could slip through. */
function ownClass(property: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const member = property?.anyOf?.find((m) => m.type !== 'array') ?? property;
  const format = member?.format ?? property?.items?.format;
  if (format === 'date' || format === 'date-time') return dateClass();
  const type = member?.type === 'array' ? member.items?.type : member?.type;
  if (type === 'integer' || type === 'number') return hugeNumber();
  return around(fc.constant('\u0000'));
}

/**
 * Inputs tried first, whatever the seed: each parameter of the operation given the telling values of its own class
 * (a leap second, a day that does not exist, 309 digits, JSON 1e400, a NUL), on the first example's other values.
 */
function classExamples(op: AnyOperation, properties: Record<string, JsonSchema>): [Record<string, unknown>][] {
  const base = op.examples[0]?.input ?? {};
  return Object.entries(properties).flatMap(([name, property]) => {
    const member = property.anyOf?.find((m) => m.type !== 'array') ?? property;
    const format = member.format ?? property.items?.format;
    const type = member.type === 'array' ? member.items?.type : member.type;
    const values: unknown[] =
      format === 'date-time'
        ? ['2016-12-31T23:59:60Z', '2016-12-31T23:59:61Z']
        : format === 'date'
          ? ['2024-02-30']
          : type === 'integer' || type === 'number'
            ? ['9'.repeat(309), Number.POSITIVE_INFINITY]
            : ['a\u0000b'];
    return values.map((value): [Record<string, unknown>] => [{ ...base, [name]: value }]);
  });
}

/** Every kind of bad value the issue names. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  // wrong types
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, {}, { a: 1 }, [], [1, 2], ['a'], [null]),
  // huge and empty strings
  fc.constantFrom('', ' ', 'x'.repeat(5_000), 'é'.repeat(300)),
  fc.string({ minLength: 101, maxLength: 400 }),
  // control characters and lone surrogates
  around(controlCharacter),
  around(loneSurrogate),
  fc.string({ unit: 'binary', maxLength: 12 }),
  // SQL and LIKE metacharacters
  fc.constantFrom(
    '%',
    '_',
    '%%',
    'a%b_c',
    '\\',
    '\\%',
    "'",
    "' OR '1'='1",
    "'; DROP TABLE contracts; --",
    '"',
    '*',
    '[a-z]',
    '(',
    'NULL',
  ),
  // numbers in every notation, as text and as JSON numbers
  fc.constantFrom(
    '0x10',
    '1e1',
    '1E3',
    ' 5 ',
    '+5',
    '05',
    '5.0',
    '.5',
    '5.',
    'Infinity',
    '-Infinity',
    'NaN',
    '1_000',
    '０',
    '٣',
    '-0',
  ),
  fc.constantFrom('99999999999999999999', '9007199254740993', '-1', '0', '201', '1e-7', '0.0000001'),
  fc.constantFrom<unknown>(0, -0, 0.1, 201, 1e21, 2 ** 53, -(2 ** 53), 1e308, 5e-324),
  // the classes of issue 27: a NUL anywhere, leap seconds and impossible dates, integers that read as Infinity
  around(fc.constant('\u0000')),
  dateClass(),
  hugeNumber(),
  // forged and malformed cursors
  fc.constantFrom('Zm9yZ2Vk', 'a.b', '.', 'eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA', '!!!', 'x'.repeat(3_000)),
  fc.base64String({ maxLength: 40 }),
  // arrays for scalars
  fc.array(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 3 }),
);

/** A bad input for `op`: its first example with one or two parameters (or prototype names) given bad values. */
function badInput(op: AnyOperation, properties: Record<string, JsonSchema>): fc.Arbitrary<Record<string, unknown>> {
  const names = [...Object.keys(properties), ...PROTOTYPE_NAMES, 'unknown_parameter'];
  const base = op.examples[0]?.input ?? {};
  const change = fc
    .constantFrom(...names)
    .chain((name) =>
      fc.tuple(
        fc.constant(name),
        fc.oneof(badValue, ownClass(Object.hasOwn(properties, name) ? properties[name] : undefined)),
      ),
    );
  return fc.array(change, { minLength: 1, maxLength: 2 }).map((changes) => {
    const input: Record<string, unknown> = { ...base };
    // Defined as own properties (`__proto__` included), as JSON.parse and the query string parser give them.
    for (const [name, value] of changes)
      Object.defineProperty(input, name, { value, enumerable: true, writable: true, configurable: true });
    return input;
  });
}

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Whether REST reads the input's REST spelling as this very JSON value (then the three channels must agree). */
function restSpellsTheSame(
  input: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  op: AnyOperation,
): boolean {
  return Object.entries(input).every(([name, value]) => {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    // another route
    if (op.rest.path.includes(`:${name}`) && (value === '' || value === '.' || value === '..')) return false;
    if (property === undefined) return true; // an unknown parameter, whatever its value
    if (property.type === 'array')
      return Array.isArray(value) && value.length > 0 && value.every((item) => sameScalar(property.items ?? {}, item));
    return sameScalar(property, value);
  });
}

function sameScalar(property: JsonSchema, value: unknown): boolean {
  switch (property.type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' && DECIMAL.test(JSON.stringify(value));
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}

function describeAnswer(answer: CallAnswer): string {
  return `${answer.channel}: ${answer.request}\n  → ${answer.status} ${answer.body.slice(0, 400)}`;
}

const usage = () => t.app.counters.usage(t.accounts.premium, monthlyPeriod(new Date(t.clock.now)).key);

describe.each(createRegistry().all.map((op) => [op.name, op] as const))('fuzzing %s', (_name, op) => {
  const properties = plainSchema(op.input).properties ?? {};

  const badInputAlikeOnEveryChannel =
    'answers every bad input in the channel’s form, alike on every channel, charging nothing for an error';
  it(badInputAlikeOnEveryChannel, async () => {
    await fc.assert(
      fc.asyncProperty(badInput(op, properties), async (input) => {
        t.clock.advance(61_000); // clear of the per-minute limit
        const answers: CallAnswer[] = [];
        for (const channel of CHANNEL_NAMES) {
          const before = await usage();
          const answer = await callOn(t, channel, op, input, t.keys.premium);
          if (answer === undefined) continue; // no REST spelling (an object, null)
          const after = await usage();
          answers.push(answer);
          if (answer.status >= 500 || answer.kind === 'internal') throw new Error(`a fault\n${describeAnswer(answer)}`);
          if (answer.formProblem) throw new Error(`${answer.formProblem}\n${describeAnswer(answer)}`);
          // A number read as Infinity names nothing: it is refused as input, never looked up.
          if (answer.kind === 'not-found' && answer.body.includes('Infinity'))
            throw new Error(`a lookup of Infinity\n${describeAnswer(answer)}`);
          const charged = answer.kind === undefined && !op.free ? 1 : 0;
          if (after !== before + charged)
            throw new Error(`usage went from ${before} to ${after}\n${describeAnswer(answer)}`);
        }
        const compared = restSpellsTheSame(input, properties, op)
          ? answers
          : answers.filter((a) => a.channel !== 'rest');
        const kinds = new Set(compared.map((a) => a.kind ?? 'success'));
        if (kinds.size > 1)
          throw new Error(
            `the channels disagree: ${[...kinds].join(' / ')}\n${compared.map(describeAnswer).join('\n')}`,
          );
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true, examples: classExamples(op, properties) },
    );
  });
});
