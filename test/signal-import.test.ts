/**
 * `munidata import signals FILE` in process (the command as main.ts registers it, parsed by commander) against
 * a copy of the demo store: good lines written with their defaults, bad lines reported by number and reason,
 * a second import that changes nothing, cases of their own or shared through `case_key`.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliContext } from '../src/cli/context.js';
import { registerDataCommands } from '../src/cli/data-commands.js';
import type { Config } from '../src/config.js';
import type { SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { testDir } from './helpers/temp-dir.js';
import { copyDemoStore } from './helpers/test-app.js';

let store: Store;
const dir = testDir('munidata-signal-import-');
const TODAY = new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Runs `munidata --json ARGS` and returns what it printed, parsed. */
async function run(...args: string[]): Promise<any> {
  const program = new Command('munidata')
    .option('--json', 'JSON', false)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const cli: CliContext = {
    config: {} as Config,
    json: () => program.opts().json === true,
    withStore: (work) => work(store),
  };
  registerDataCommands(program, cli);
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['node', 'munidata', '--json', ...args]);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(printed.join(''));
}

function file(name: string, lines: (object | string)[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return path;
}

const good = {
  source: 'observatorio',
  external_id: 'obs-1',
  type: 'tender_open',
  municipality: 'lisboa',
  title_pt: 'Concurso para a requalificação do Jardim da Estrela',
  title_en: 'Tender for the renovation of Jardim da Estrela',
  summary_pt: 'A Câmara Municipal de Lisboa abriu concurso.',
  stage: 'open',
  amount_eur: 820_000,
  confidence: 0.7,
  deadline_date: inDays(10),
  event_date: TODAY,
  location_text: 'Lisboa, Estrela',
  evidence: [
    {
      source_type: 'document',
      source_url: 'https://example.org/edital.pdf',
      source_title: 'Edital',
      source_date: TODAY,
      excerpt_pt: 'Edital n.º 1',
    },
  ],
  subject: { cpv: ['45233140'], nifs: ['500051070'] },
};
const sibling = {
  source: 'observatorio',
  external_id: 'obs-2',
  type: 'contract_awarded',
  municipality: '1106',
  title_pt: 'Adjudicação da requalificação do Jardim da Estrela',
  confidence: 0.6,
  amount_eur: 790_000,
  stage: 'contracted',
  status: 'active',
  case_key: 'observatorio:jardim-da-estrela',
  case_relationship: 'update',
};
const opener = {
  ...sibling,
  external_id: 'obs-3',
  type: 'tender_open',
  stage: 'open',
  amount_eur: null,
  case_relationship: 'origin',
};

let first: any;
let byKey: Map<string, SignalRecord>;

beforeAll(async () => {
  store = copyDemoStore().store;
  const path = file('signals.jsonl', [
    good,
    '',
    sibling,
    '{"source": "observatorio", "external_id": "broken", ',
    { ...good, external_id: 'obs-4', title_pt: undefined },
    { ...good, external_id: 'obs-5', type: 'rumour' },
    { ...good, external_id: 'obs-6', confidence: 1.5 },
    { ...good, external_id: 'obs-7', deadline_date: '2026-02-30x' },
    { ...good, external_id: 'obs-8', municipality: 'atlantida' },
    { ...good, external_id: 'obs-9', colour: 'blue' },
    { ...good },
    '[1, 2]',
    opener,
  ]);
  first = await run('import', 'signals', path);
  byKey = new Map(
    (await store.getSignalsByKeys(['obs-1', 'obs-2', 'obs-3'].map((id) => `import:observatorio:${id}`))).map((s) => [
      s.key,
      s,
    ]),
  );
});
afterAll(() => store.close());

describe('import signals', () => {
  it('reports every bad line by number and reason, and writes the good ones', () => {
    expect(first.lines).toBe(12);
    expect(first.accepted).toBe(3);
    expect(first.written).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    const reasons = Object.fromEntries(first.rejected.map((r: any) => [r.line, r.reason]));
    expect(Object.keys(reasons).map(Number)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(reasons[4]).toMatch(/^not valid JSON/);
    expect(reasons[5]).toBe('title_pt: is required');
    expect(reasons[6]).toMatch(/^type: must be one of .*tender_open/);
    expect(reasons[7]).toBe('confidence: must be <= 1');
    expect(reasons[8]).toBe('deadline_date: must be a valid date (YYYY-MM-DD)');
    expect(reasons[9]).toBe('municipality: no municipality has the code or slug "atlantida"');
    expect(reasons[10]).toBe('colour: is not a field of the format');
    expect(reasons[11]).toBe('duplicate of line 1 (same source and external_id)');
    expect(reasons[12]).toBe('a line must hold one JSON object');
    expect(first.rejected.find((r: any) => r.line === 6).external_id).toBe('obs-5');
  });

  it('stores the signal as given, with its key, family, defaults and derived fields', async () => {
    const lisboa = (await store.listMunicipalities()).find((m) => m.code === '1106');
    const s = byKey.get('import:observatorio:obs-1') as SignalRecord;
    expect(s).toMatchObject({
      origin: 'import:observatorio',
      type: 'tender_open',
      family: 'procurement',
      municipality_id: lisboa?.id,
      title_pt: good.title_pt,
      title_en: good.title_en,
      summary_en: null,
      stage: 'open',
      status: 'active',
      value_tier: 'large',
      confidence: 0.7,
      amount_eur: 820_000,
      deadline_date: good.deadline_date,
      actionability: 'act_now',
      location_text: 'Lisboa, Estrela',
    });
    expect(s.evidence).toEqual([{ ...good.evidence[0], confidence: null }]);
    expect(s.subject).toEqual({ cpv: ['45233140'], nifs: ['500051070'], indicator: null, indicator_value: null });
    expect(byKey.get('import:observatorio:obs-2')).toMatchObject({
      municipality_id: lisboa?.id,
      value_tier: 'large',
      actionability: 'monitor',
    });
  });

  it('puts a signal without case_key in a case of its own, and signals sharing a case_key in one case', async () => {
    const own = await store.getCase(byKey.get('import:observatorio:obs-1')?.case_id as number);
    expect(own).toMatchObject({
      key: 'import:observatorio:obs-1',
      source_count: 1,
      current_stage: 'open',
      status: 'open',
    });
    expect(own?.linked_signals).toEqual([expect.objectContaining({ relationship: 'origin' })]);
    const shared = await store.getCase(byKey.get('import:observatorio:obs-2')?.case_id as number);
    expect(byKey.get('import:observatorio:obs-3')?.case_id).toBe(shared?.id);
    expect(shared).toMatchObject({
      key: 'observatorio:jardim-da-estrela',
      source_count: 2,
      current_stage: 'contracted',
      previous_stage: 'open',
      title_pt: opener.title_pt,
      amount_eur: 790_000,
    });
    expect(shared?.linked_signals.map((l) => l.relationship).sort()).toEqual(['origin', 'update']);
    expect(first.cases.computed).toBe(2);
  });

  it('imports the same file again without changing anything', async () => {
    const again = await run('import', 'signals', join(dir, 'signals.jsonl'));
    expect(again.written).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(again.cases).toEqual({ computed: 0, events: 0 });
    expect(again.rejected).toHaveLength(9);
  });

  it('updates a signal whose line changed, and its case', async () => {
    const path = file('update.jsonl', [{ ...sibling, amount_eur: 810_000, status: 'expired' }]);
    const report = await run('import', 'signals', path);
    expect(report.written).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const s = (await store.getSignalsByKeys(['import:observatorio:obs-2']))[0];
    expect(s).toMatchObject({ amount_eur: 810_000, status: 'expired', actionability: 'informational' });
    const c = await store.getCase(s.case_id as number);
    expect(c?.amount_eur).toBe(810_000);
    expect(c?.events.at(-1)).toMatchObject({ event_type: 'amount_changed', old_value: '790000', new_value: '810000' });
  });

  it('rejects a line whose text holds a NUL (U+0000), naming the field, and writes the others', async () => {
    const path = file('nul.jsonl', [
      { ...good, external_id: 'obs-nul-1', title_pt: 'Concurso\u0000' },
      { ...good, external_id: 'obs-nul-2', evidence: [{ ...good.evidence[0], excerpt_pt: 'a\u0000b' }] },
      { ...good, external_id: 'obs-nul-3' },
    ]);
    const report = await run('import', 'signals', path);
    expect(report.rejected).toEqual([
      {
        line: 1,
        external_id: 'obs-nul-1',
        reason: 'title_pt: holds a NUL character (U+0000), which no text stored can',
      },
      {
        line: 2,
        external_id: 'obs-nul-2',
        reason: 'evidence.0.excerpt_pt: holds a NUL character (U+0000), which no text stored can',
      },
    ]);
    expect(report.written).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    expect(await store.getSignalsByKeys(['import:observatorio:obs-nul-1', 'import:observatorio:obs-nul-2'])).toEqual(
      [],
    );
  });

  it('refuses a file it cannot read, writing nothing', async () => {
    await expect(run('import', 'signals', join(dir, 'missing.jsonl'))).rejects.toThrow(
      /cannot read .*missing\.jsonl: no such file/,
    );
  });
});
