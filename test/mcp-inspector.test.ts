/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector` 2.12.0, `--cli`, `--format json`) against the MCP
 * channel listening on a loopback port, with the API key in an `Authorization` header: tools/list, tools/call,
 * a failed call, a missing key, and the resources and prompts in both eras (`--protocol-era legacy` and `modern`).
 * Its CLI has no method for `completion/complete` (test/mcp-resources.test.ts completes through the SDK clients).
 * Inspector 2.x declares Node ≥ 22.19, so it runs through
 * `npx -y -p node@22 -p @modelcontextprotocol/inspector@2.12.0 -- mcp-inspector --cli …` (no browser is started
 * or downloaded in CLI mode).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTOR, listen, NODE_22, npx, type RunResult, unlimitedKey } from './helpers/mcp-tools.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let url: string;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  url = await listen(t);
  key = await unlimitedKey(t, 'inspector');
});
afterAll(() => t.close());

/** The first run downloads Node 22 and the Inspector into the npx cache. */
const TIMEOUT_MS = 300_000;

function inspector(args: string[], withKey = true): Promise<RunResult> {
  return npx(
    [NODE_22, INSPECTOR],
    'mcp-inspector',
    [
      '--cli',
      url,
      '--transport',
      'http',
      '--format',
      'json',
      '--stored-auth-only',
      ...(withKey ? ['--header', `Authorization: Bearer ${key}`] : []),
      ...args,
    ],
    TIMEOUT_MS,
  );
}

/** `--format json` prints one object on stdout: `{"result": …}`. */
function resultOf(run: RunResult): any {
  const report = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
  let out: any;
  try {
    out = JSON.parse(run.stdout);
  } catch {
    throw new Error(`not one JSON object on stdout:\n${report}`);
  }
  expect(out, report).toHaveProperty('result');
  return out.result;
}

describe('MCP Inspector CLI', () => {
  it(
    'lists the tools, with portable schemas',
    async () => {
      const run = await inspector(['--method', 'tools/list', '--strict']);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const { tools } = resultOf(run);
      // --strict: exit 6 on an error-severity portability problem, and every problem in full on stderr (none here)
      const findings = run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm '));
      expect(findings).toEqual([]);
      expect(tools.map((tool: any) => tool.name)).toEqual(t.app.registry.all.map((op) => op.name));
      for (const tool of tools) {
        expect(tool).toMatchObject({
          title: expect.any(String),
          description: expect.any(String),
          inputSchema: { type: 'object' },
        });
        expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      }
    },
    TIMEOUT_MS,
  );

  it(
    'calls indicators_snapshot and gets the REST JSON',
    async () => {
      const args = { key: 'unemployment_rate', limit: 5 };
      const run = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'indicators_snapshot',
        '--tool-args-json',
        JSON.stringify(args),
      ]);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const result = resultOf(run);
      expect(result.isError).toBeFalsy();
      const rest = (await t.get('/v1/indicators/unemployment_rate/snapshot?limit=5')).json;
      expect(result.structuredContent).toEqual(rest);
      expect(JSON.parse(result.content[0].text)).toEqual(rest);
    },
    TIMEOUT_MS,
  );

  it(
    'shows a failed call as an isError result with the problem document',
    async () => {
      const run = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'municipalities_get',
        '--tool-args-json',
        '{"code":"9999"}',
      ]);
      // exit 5 and an error envelope on stderr; the result itself on stdout
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(5);
      expect(run.stderr).toContain('tool_is_error');
      const result = resultOf(run);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        status: 404,
        type: expect.stringMatching(/\/problems\/not-found$/),
      });
    },
    TIMEOUT_MS,
  );

  it.each(['legacy', 'modern'])(
    'lists the resource templates and resources and reads a municipality as REST answers it (%s era)',
    async (era) => {
      const templates = resultOf(await inspector(['--protocol-era', era, '--method', 'resources/templates/list']));
      expect(templates.resourceTemplates.map((r: any) => r.uriTemplate)).toContain('munidata://municipalities/{code}');
      const listed = resultOf(await inspector(['--protocol-era', era, '--method', 'resources/list']));
      expect(listed.resources.map((r: any) => r.uri)).toContain('munidata://municipalities/1106');
      const uri = 'munidata://municipalities/1106';
      const read = resultOf(await inspector(['--protocol-era', era, '--method', 'resources/read', '--uri', uri]));
      expect(read.contents).toEqual([
        { uri, mimeType: 'application/json', text: (await t.get('/v1/municipalities/1106')).body },
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'lists the prompts and gets one with its arguments, the data embedded',
    async () => {
      const { prompts } = resultOf(await inspector(['--method', 'prompts/list']));
      expect(prompts.map((p: any) => p.name)).toContain('compare_municipalities');
      const got = resultOf(
        await inspector([
          '--method',
          'prompts/get',
          '--prompt-name',
          'compare_municipalities',
          '--prompt-args',
          'indicator=population',
          'municipalities=lisboa,porto',
          'language=pt',
        ]),
      );
      expect(got.messages[0].content.text).toContain('Compara os municípios Lisboa e Porto');
      expect(got.messages[1].content.resource).toEqual({
        uri: 'munidata://indicators/population',
        mimeType: 'application/json',
        text: (await t.get('/v1/indicators/population')).body,
      });
    },
    TIMEOUT_MS,
  );

  it(
    'cannot connect without a key (the 401 challenge; no interactive OAuth in CI)',
    async () => {
      const run = await inspector(['--method', 'tools/list'], false);
      // exit 3: auth_required (it saw the 401 challenge on initialize and, with --stored-auth-only, starts no OAuth)
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
      expect(run.stderr).toContain('auth_required');
      expect(run.stderr).toContain('invalid-auth');
    },
    TIMEOUT_MS,
  );
});
