/**
 * Long work in steps, one step per turn of the event loop. Reading a whole dataset is seconds of work, and on
 * SQLite every read answers synchronously, so without a break it would hold the loop, and every other request
 * (`/healthz` included), until it ended. `await takeTurn()` before each step resolves in a later turn, after the
 * requests that arrived meanwhile and after the steps of other long work that asked first: however many run at
 * once, one step runs per turn, and no request waits behind more than one (docs/architecture.md, Long work).
 */

/** The turn given last: the next one comes after it. */
let lastTurn: Promise<void> = Promise.resolve();

/** Resolves in a turn of the event loop of its own, after every turn asked for before. */
export function takeTurn(): Promise<void> {
  // An immediate queued while immediates run waits for the next turn, after the loop has polled for I/O.
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn = turn;
  return turn;
}
