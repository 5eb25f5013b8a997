/**
 * The console's cookies (docs/console.md): HttpOnly, SameSite=Lax, path `/` (the explorer and OAuth pages share
 * the session). Behind an HTTPS base URL they are `Secure` and carry the `__Host-` prefix (the browser then
 * refuses them from any other origin or path); on a plain-HTTP base URL (a developer's loopback) neither, as
 * browsers accept no `Secure` cookie from a plain-HTTP origin but localhost.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';

export interface ConsoleCookies {
  readonly session: string;
  readonly csrf: string;
  readonly options: CookieSerializeOptions;
}

export function consoleCookies(baseUrl: string): ConsoleCookies {
  const secure = new URL(baseUrl).protocol === 'https:';
  const prefix = secure ? '__Host-' : '';
  return {
    session: `${prefix}munidata_session`,
    csrf: `${prefix}munidata_csrf`,
    options: { path: '/', httpOnly: true, sameSite: 'lax', secure },
  };
}
