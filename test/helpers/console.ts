/**
 * A browser-like client of the account console over `inject`: it keeps the cookies the server sets, and fills
 * each form's CSRF token and one-use token (`_once`, of the forms sent once) from the last page it read, as a
 * browser posting that page's form would.
 */
import { setPassword } from '../../src/admin/users.js';
import type { UserRole } from '../../src/store/console/console-records.js';
import type { TestApp } from './test-app.js';

export interface ConsoleResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** Set-Cookie headers of this response, as sent. */
  setCookies: string[];
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page read (its forms' `_csrf`). */
  csrf = '';
  /** The one-use token of the last page read that had one (its form sent once), or '' (none sent). */
  once = '';
  readonly #t: TestApp;
  readonly #address: string;

  constructor(t: TestApp, address = '127.0.0.1') {
    this.#t = t;
    this.#address = address;
  }

  async get(url: string): Promise<ConsoleResponse> {
    return this.#send('GET', url);
  }

  /**
   * Posts a form; `_csrf` (and `_once`, when the last page had one) are the last page's tokens unless the form sets
   * them (or sets them to null: none sent).
   */
  async post(url: string, form: Record<string, string | string[] | null> = {}): Promise<ConsoleResponse> {
    const fields = { _csrf: this.csrf, ...(this.once && { _once: this.once }), ...form };
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) {
      if (value === null) continue;
      for (const v of ([] as string[]).concat(value)) body.append(name, v);
    }
    return this.#send('POST', url, body.toString());
  }

  async signIn(email: string, password: string): Promise<ConsoleResponse> {
    await this.get('/console/sign-in');
    return this.post('/console/sign-in', { email, password });
  }

  async #send(method: 'GET' | 'POST', url: string, body?: string): Promise<ConsoleResponse> {
    const res = await this.#t.app.http.inject({
      method,
      url,
      remoteAddress: this.#address,
      headers: {
        ...(this.cookies.size > 0 && { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }),
        ...(body !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body !== undefined && { payload: body }),
    });
    const setCookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (token) this.csrf = token[1];
    const once = /name="_once" value="([^"]+)"/.exec(res.body);
    if (once) this.once = once[1];
    return { status: res.statusCode, headers: res.headers, body: res.body, setCookies };
  }
}

/** A console user with a password, in `accountId`. */
export async function consoleUser(
  t: Pick<TestApp, 'store' | 'clock'>,
  o: { accountId: number; email: string; role: UserRole; password?: string },
): Promise<{ id: number; email: string; password: string }> {
  const password = o.password ?? 'correct horse battery';
  const user = await t.store.console.createUser({
    account_id: o.accountId,
    email: o.email,
    display_name: o.email.split('@')[0],
    role: o.role,
    now: new Date(t.clock.now).toISOString(),
  });
  if (!user) throw new Error(`user ${o.email} exists`);
  await setPassword(t.store, user.id, password);
  return { id: user.id, email: user.email, password };
}
