/**
 * How the store's facade (../sql-store.ts) gets the methods that are written elsewhere, without a hand-written
 * method per name that only passes its arguments on: each name is added to the class's prototype once, and its
 * type derived from the function or method it runs, so the signature is written in one place.
 */
import type { SqlPort, SqlPorts } from './port.js';

/** An area's function over a port, as the store method that runs it on one of the store's ports. */
export type OnPort<F> = F extends (port: SqlPort, ...args: infer A) => infer R ? (...args: A) => R : never;
export type OnPorts<T> = { [K in keyof T]: OnPort<T[K]> };

// The argument lists differ per function; each is typed by OnPorts.
type PortFunction = (port: SqlPort, ...args: any[]) => unknown;

/** Adds to `prototype` a method per entry that runs the function on `ports(this)[which]`. */
export function runOnPort(
  prototype: object,
  ports: (self: never) => SqlPorts,
  which: keyof SqlPorts,
  functions: Readonly<Record<string, PortFunction>>,
): void {
  for (const [name, run] of Object.entries(functions)) {
    define(prototype, name, function (this: never, ...args: unknown[]) {
      return run(ports(this)[which], ...args);
    });
  }
}

/** Adds to `prototype` a method per name that calls the method of the same name on `member(this)`. */
export function forwardTo<M extends object>(prototype: object, member: (self: never) => M, names: readonly (keyof M & string)[]): void {
  for (const name of names) {
    define(prototype, name, function (this: never, ...args: unknown[]) {
      const target = member(this);
      return (target[name] as (...args: unknown[]) => unknown).apply(target, args);
    });
  }
}

/** As a class's method: not enumerable, replaceable (a subclass or a test may override it). */
function define(prototype: object, name: string, method: (...args: unknown[]) => unknown): void {
  Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
}
