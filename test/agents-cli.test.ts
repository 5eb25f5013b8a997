/**
 * `munidata agents …` in-process (the real commander program over a copy of the demo store): deployments from
 * JSON and YAML files, validated with errors naming the path of each bad field; create, update, publish, pause,
 * list; credentials created (secret shown once, stored hashed), listed and revoked.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { hashSecret } from '../src/access/api-keys.js';
import { readDeploymentFile } from '../src/agents/admin.js';
import { ENGINEERING_CONSULTANCY } from '../src/agents/demo/engineering-consultancy.js';
import { DeploymentSpecError, parseDeploymentSpec } from '../src/agents/deployment-spec.js';
import { registerAgentsCommands } from '../src/cli/agents-commands.js';
import { cliContext } from '../src/cli/context.js';
import { loadConfig } from '../src/config.js';
import { ReferenceData } from '../src/core/reference.js';
import { openStoreAt, storeEnv } from './helpers/backend.js';
import { testDir } from './helpers/temp-dir.js';
import { BASE_URL, copyDemoStore } from './helpers/test-app.js';

const dir = testDir('munidata-agents-');
let dbPath: string;
let reference: ReferenceData;
/** Held open for the whole file (on PostgreSQL, closing the copy drops its database); the commands open their own. */
let copy: ReturnType<typeof copyDemoStore>;
beforeAll(async () => {
  copy = copyDemoStore();
  dbPath = copy.dbPath;
  reference = new ReferenceData({
    version: 0,
    municipalities: await copy.store.listMunicipalities(),
    indicators: [],
    betaGates: [],
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await copy.store.close();
});

/** Runs `munidata [--json] agents …`; returns what it printed, or throws what it threw. */
async function run(...args: string[]): Promise<string> {
  const program = new Command('munidata').option('--json', '', false).exitOverride();
  const cli = cliContext(
    loadConfig({ BASE_URL, ...storeEnv(dbPath), LOG_LEVEL: 'silent' }),
    () => program.opts().json === true,
  );
  registerAgentsCommands(program, cli);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'munidata', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const SPEC = { ...ENGINEERING_CONSULTANCY, slug: 'acme-eng', name: 'Acme engineering' };

describe('the deployment file', () => {
  it('reads JSON and YAML to the same thing', () => {
    const json = readDeploymentFile(file('a.json', JSON.stringify(SPEC)));
    const yaml = readDeploymentFile(file('a.yaml', stringify(SPEC)));
    expect(yaml).toEqual(json);
    expect(parseDeploymentSpec(yaml, reference)).toEqual(parseDeploymentSpec(json, reference));
  });

  it('names the path of every bad field', () => {
    const bad = {
      ...SPEC,
      slug: 'Bad Slug',
      channels: ['a2a', 'smtp'],
      service_area: { municipalities: ['Lisboa', 'Atlantis'], districts: ['Nowhere'] },
      criteria: { ...SPEC.criteria, project_types: [{ type: 'x', area_m2: { min: 10, max: 5 } }, { type: 'x' }] },
      actions: [{ ...SPEC.actions[0], pricing: { ...SPEC.actions[0].pricing, vat_rate: 2 } }],
      colour: 'blue',
    };
    const shape = (() => {
      try {
        parseDeploymentSpec(bad, reference);
      } catch (error) {
        return error as DeploymentSpecError;
      }
    })();
    expect(shape).toBeInstanceOf(DeploymentSpecError);
    expect(shape?.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['slug', 'channels[1]', 'actions[0].pricing.vat_rate', 'colour']),
    );
    const places = (() => {
      try {
        const { colour: _, ...rest } = bad;
        parseDeploymentSpec({ ...rest, slug: 'ok', channels: ['a2a'], actions: SPEC.actions }, reference);
      } catch (error) {
        return error as DeploymentSpecError;
      }
    })();
    expect(places?.issues).toEqual(
      expect.arrayContaining([
        { path: 'service_area.municipalities[1]', message: 'unknown municipality "Atlantis"' },
        { path: 'service_area.districts[0]', message: 'unknown district "Nowhere"' },
        { path: 'criteria.project_types[1].type', message: '"x" is used twice' },
        { path: 'criteria.project_types[0].area_m2.min', message: 'must not be above max' },
      ]),
    );
    expect(places?.message).toMatch(/^The deployment file is not valid:\n {2}/);
  });

  it('refuses skills the file cannot back', () => {
    const issues = (() => {
      try {
        parseDeploymentSpec({ ...SPEC, procurement_lookups: false, actions: [], artifacts: [] }, reference);
      } catch (error) {
        return (error as DeploymentSpecError).issues.map((i) => i.message);
      }
    })();
    expect(issues).toEqual(
      expect.arrayContaining([
        'procurement_research_buyer needs procurement_lookups: true',
        'prepare_action needs at least one entry in actions',
        'get_artifact needs at least one released artifact',
      ]),
    );
  });

  it('reports a file that is not JSON or YAML', () => {
    expect(() => readDeploymentFile(file('broken.yaml', 'slug: [unclosed'))).toThrow(/not valid YAML/);
    expect(() => readDeploymentFile(file('broken.json', '{"slug": '))).toThrow(/not valid JSON/);
  });
});

describe('munidata agents', () => {
  it('create (draft), publish, pause, update, list', async () => {
    const path = file('acme.yaml', stringify(SPEC));
    expect(await run('agents', 'create', path)).toMatch(
      new RegExp(
        String.raw`Created deployment "acme-eng" \(Acme engineering\), status draft, revision 1\.\n {2}` +
          String.raw`card http:\/\/munidata\.test\/agents\/acme-eng\/\.well-known\/agent-card\.json`,
      ),
    );
    await expect(run('agents', 'create', path)).rejects.toThrow(/exists already/);
    expect(await run('agents', 'publish', 'acme-eng')).toMatch(/status live, revision 2/);
    expect(await run('agents', 'pause', 'acme-eng')).toMatch(/status paused, revision 3/);
    expect(
      await run('agents', 'update', file('acme2.json', JSON.stringify({ ...SPEC, name: 'Acme engineering 2' }))),
    ).toMatch(/Updated deployment "acme-eng" \(Acme engineering 2\), status paused, revision 4/);
    await expect(
      run('agents', 'update', file('other.json', JSON.stringify({ ...SPEC, slug: 'nobody' }))),
    ).rejects.toThrow(/No deployment with slug "nobody"/);
    const list = JSON.parse(await run('--json', 'agents', 'list'));
    expect(list.find((d: any) => d.slug === 'acme-eng')).toMatchObject({
      status: 'paused',
      name: 'Acme engineering 2',
      channels: ['a2a', 'mcp'],
    });
    await expect(run('agents', 'create', file('bad.json', JSON.stringify({ ...SPEC, slug: 'x y' })))).rejects.toThrow(
      /slug: must match pattern/,
    );
  });

  it('credentials: created once (stored hashed), listed without secrets, revoked', async () => {
    const created = JSON.parse(
      await run(
        '--json',
        'agents',
        'credentials',
        'create',
        '--deployment',
        'acme-eng',
        '--channel',
        'mcp',
        '--licensed',
      ),
    );
    expect(created).toMatchObject({
      channel: 'mcp',
      licensed: true,
      deployment: 'acme-eng',
      secret: expect.stringMatching(/^sk_live_[A-Za-z0-9]{46}$/),
    });
    const human = await run('agents', 'credentials', 'create', '--deployment', 'acme-eng', '--channel', 'a2a');
    expect(human).toMatch(
      /Created a2a credential \d+ for "acme-eng"\.\n\n {2}sk_live_\w{46}\n\nThis secret is shown once/,
    );
    await expect(
      run('agents', 'credentials', 'create', '--deployment', 'acme-eng', '--channel', 'smtp'),
    ).rejects.toThrow(/a2a or mcp/);

    const listed = await run('agents', 'credentials', 'list', '--deployment', 'acme-eng');
    expect(listed).not.toContain(created.secret);
    expect(listed).toMatch(/licensed/);
    const store = openStoreAt(dbPath);
    const deployment = await store.agents.getDeployment('acme-eng');
    const stored = (await store.agents.listAgentCredentials(deployment?.id ?? 0)).find((c) => c.id === created.id);
    expect(stored?.hash).toBe(hashSecret(created.secret));
    await store.close();

    expect(await run('agents', 'credentials', 'revoke', String(created.id))).toBe(
      `Revoked credential ${created.id}.\n`,
    );
    await expect(run('agents', 'credentials', 'revoke', String(created.id))).rejects.toThrow(/revoked already/);
  });
});

describe('the demo agents (what `serve` does on a demo store)', () => {
  it('are created and published once, and fresh credentials are printed at every start', async () => {
    const { ensureDemoAgents, issueDemoAgentCredentials, demoAgentLines, DEMO_DEPLOYMENTS } = await import(
      '../src/agents/demo/demo-agents.js'
    );
    const store = openStoreAt(dbPath);
    const now = new Date();
    const first = await ensureDemoAgents(store, now);
    expect(first.map((d) => [d.slug, d.status])).toEqual(DEMO_DEPLOYMENTS.map((d) => [d.slug, 'live']));
    expect((await ensureDemoAgents(store, now)).map((d) => d.revision)).toEqual(first.map((d) => d.revision));
    const issued = await issueDemoAgentCredentials(store, now);
    const again = await issueDemoAgentCredentials(store, now);
    expect(again[0].a2a.secret).not.toBe(issued[0].a2a.secret);
    const lines = demoAgentLines('http://127.0.0.1:8080/agents', issued).join('\n');
    for (const demo of issued) {
      expect(lines).toContain(`http://127.0.0.1:8080/agents/${demo.slug}/a2a   credential ${demo.a2a.secret}`);
      expect(lines).toContain(`http://127.0.0.1:8080/agents/${demo.slug}/mcp   credential ${demo.mcp.secret}`);
      expect(lines).toContain(demo.licensed.secret);
      expect(demo.licensed.credential.licensed).toBe(true);
    }
    await store.close();
  });
});
