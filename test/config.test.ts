import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has the defaults the README states', () => {
    expect(loadConfig({})).toEqual({
      dbPath: './munidata.db',
      databaseTimeoutMs: 5_000,
      host: '127.0.0.1',
      port: 8080,
      baseUrl: 'http://127.0.0.1:8080',
      agentsUrl: 'http://127.0.0.1:8080/agents',
      logLevel: 'info',
      ineApiUrl: 'https://www.ine.pt',
      baseDataUrl: 'https://dados.gov.pt/api/1/datasets',
      pipelineIntervalS: 60,
      pipelineSync: [],
      trustProxy: false,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, idleMs: 30_000 },
      webhookAllowLoopback: false,
      consoleOperators: [],
    });
  });

  it('reads CONSOLE_OPERATORS: emails as the console keeps them, and refuses an entry that is none', () => {
    expect(
      loadConfig({ CONSOLE_OPERATORS: ' Ops@Example.pt, rui@example.pt,ops@example.pt ' }).consoleOperators,
    ).toEqual(['ops@example.pt', 'rui@example.pt']);
    expect(() => loadConfig({ CONSOLE_OPERATORS: 'ops@example.pt, ops' })).toThrow(
      'CONSOLE_OPERATORS must be comma-separated emails; got "ops"',
    );
  });

  it('reads WEBHOOK_ALLOW_LOOPBACK: off unless 1 or true, and refuses anything else', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '1' }).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: '0' }).webhookAllowLoopback).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK must be 1 or 0/);
  });

  it('reads TRUST_PROXY: off by default, a hop count, or a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', 'example.com', '10.0.0.1,,10.0.0.2', '11']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads the pipeline interval (0 turns it off) and the syncs it runs', () => {
    expect(loadConfig({ PIPELINE_INTERVAL_S: '0' }).pipelineIntervalS).toBe(0);
    expect(loadConfig({ PIPELINE_INTERVAL_S: '300' }).pipelineIntervalS).toBe(300);
    for (const bad of ['-1', '1.5', '1m', '86401']) {
      expect(() => loadConfig({ PIPELINE_INTERVAL_S: bad }), bad).toThrow(/PIPELINE_INTERVAL_S/);
    }
    expect(loadConfig({ PIPELINE_SYNC: 'base, ine' }).pipelineSync).toEqual(['base', 'ine']);
    expect(() => loadConfig({ PIPELINE_SYNC: 'base,oracle' })).toThrow(/PIPELINE_SYNC .*"oracle"/);
  });

  it('reads the timeouts, in milliseconds, and keeps the headers within the request', () => {
    expect(
      loadConfig({
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '4000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        IDLE_TIMEOUT_MS: '9000',
      }).timeouts,
    ).toEqual({ headersMs: 2000, requestMs: 4000, keepAliveMs: 65_000, idleMs: 9000 });
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5s' })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadConfig({ IDLE_TIMEOUT_MS: '0' })).toThrow(/IDLE_TIMEOUT_MS/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HEADERS_TIMEOUT_MS .* REQUEST_TIMEOUT_MS/);
  });

  it('reads DATABASE_TIMEOUT_MS, how long a served request waits on PostgreSQL: 100 ms to an hour', () => {
    expect(loadConfig({ DATABASE_TIMEOUT_MS: '1500' }).databaseTimeoutMs).toBe(1500);
    for (const bad of ['0', '99', '5s', '1.5', '3600001']) {
      expect(() => loadConfig({ DATABASE_TIMEOUT_MS: bad }), bad).toThrow(/DATABASE_TIMEOUT_MS/);
    }
  });

  it('reads INE_API_URL and BASE_DATA_URL for munidata sync: absolute http(s) URLs, without trailing slash', () => {
    const config = loadConfig({
      INE_API_URL: 'http://127.0.0.1:9000/',
      BASE_DATA_URL: 'http://127.0.0.1:9001/api/1/datasets/',
    });
    expect(config.ineApiUrl).toBe('http://127.0.0.1:9000');
    expect(config.baseDataUrl).toBe('http://127.0.0.1:9001/api/1/datasets');
    expect(() => loadConfig({ INE_API_URL: 'ftp://x' })).toThrow(/INE_API_URL/);
  });

  it('reads AGENTS_URL (default {BASE_URL}/agents): an absolute http(s) URL, without trailing slash', () => {
    expect(loadConfig({ BASE_URL: 'https://api.munidata.pt/' }).agentsUrl).toBe('https://api.munidata.pt/agents');
    expect(loadConfig({ AGENTS_URL: 'https://agents.munidata.pt/' }).agentsUrl).toBe('https://agents.munidata.pt');
    expect(() => loadConfig({ AGENTS_URL: 'agents' })).toThrow(/AGENTS_URL/);
    expect(() => loadConfig({ AGENTS_URL: 'https://x.pt/a?b=1' })).toThrow(/AGENTS_URL/);
  });

  it('reads MUNIDATA_DB, PORT, HOST, BASE_URL and LOG_LEVEL, and freezes the result', () => {
    const config = loadConfig({
      MUNIDATA_DB: '/tmp/x.db',
      PORT: '9000',
      HOST: '0.0.0.0',
      BASE_URL: 'https://api.munidata.pt/',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      dbPath: '/tmp/x.db',
      port: 9000,
      host: '0.0.0.0',
      baseUrl: 'https://api.munidata.pt',
      logLevel: 'warn',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads METRICS_PORT and METRICS_HOST: no listener unless a port, never the public one', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(/METRICS_PORT must be a port .* other/);
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
  });

  it('reads the OTEL_* variables: tracing off unless an OTLP endpoint is named, and off when disabled', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'munidata',
    });
    const traces = loadConfig({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-team=data',
      OTEL_SERVICE_NAME: 'munidata-eu',
    }).tracing;
    expect(traces).toEqual({
      endpoint: 'https://otlp.example/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'data' },
      serviceName: 'munidata-eu',
    });
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).tracing).toBeUndefined();
    expect(loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).tracing).toBeUndefined();
    expect(() => loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(
      /OTEL_EXPORTER_OTLP_HEADERS/,
    );
    // A malformed header value is refused without being quoted: it may be a token.
    expect(() => loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'k=sec%ZZret' })).toThrow(/^(?!.*sec%ZZret)/);
  });

  it('refuses bad values with a message that names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ BASE_URL: 'not a url' })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ BASE_URL: 'ftp://x' })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
