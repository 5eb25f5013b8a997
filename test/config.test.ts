import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has the defaults the README states', () => {
    expect(loadConfig({})).toEqual({
      dbPath: './munidata.db',
      host: '127.0.0.1',
      port: 8080,
      baseUrl: 'http://127.0.0.1:8080',
      logLevel: 'info',
    });
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

  it('refuses bad values with a message that names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ BASE_URL: 'not a url' })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ BASE_URL: 'ftp://x' })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
