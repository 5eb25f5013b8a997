/** What a user checks on every REST answer, written once for all test files. */
import { expect } from 'vitest';
import { BASE_URL, type TestResponse } from './test-app.js';

/** An `updated_at`: a UTC instant to the millisecond (docs/api.md, "Syncing"). */
export const anUpdatedAt = () => expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** An RFC 9457 problem of this kind, carrying the request's id. */
export function expectProblem(res: TestResponse, status: number, kind: string): void {
  expect(res.status, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(res.json.type).toBe(`${BASE_URL}/problems/${kind}`);
  expect(res.json.status).toBe(status);
  expect(res.json.title).toEqual(expect.any(String));
  expect(res.json.request_id).toBe(res.headers['request-id']);
}

/** A 422 that names `field` among its errors. */
export function expectValidation(res: TestResponse, field: string): void {
  expectProblem(res, 422, 'validation-error');
  expect(Array.isArray(res.json.errors), res.body).toBe(true);
  expect(res.json.errors.map((e: { field: string }) => e.field)).toContain(field);
}

/** A 200 JSON answer with the caching headers a client relies on. */
export function expectJsonHeaders(res: TestResponse): void {
  expect(res.status, res.body).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.headers.etag).toEqual(expect.any(String));
  expect(String(res.headers.etag).length).toBeGreaterThan(2);
  expect(String(res.headers['cache-control'])).toMatch(/\bprivate\b/);
}
