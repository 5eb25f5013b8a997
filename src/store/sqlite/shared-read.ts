/**
 * One read shared by every caller that asked before it ran (docs/architecture.md, Revocation).
 *
 * A caller never gets the result of a read that started before it asked: the read runs in the event loop's check
 * phase (`setImmediate`) after the callers have asked, so whatever was committed before a caller asked, that read
 * sees, exactly as a read of the caller's own would. What it saves: the requests handled in one turn of the loop
 * (those whose bytes one poll of the sockets brought in) share one read instead of one each. Each of them was read
 * from its socket before it asked, hence before the read: a request sent after a commit finds the commit seen.
 */
export class SharedRead<T> {
  readonly #read: () => T | Promise<T>;
  #next: Promise<T> | undefined;

  constructor(read: () => T | Promise<T>) {
    this.#read = read;
  }

  /** The value as a read started after this call sees it. */
  get(): Promise<T> {
    this.#next ??= new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        // A caller asking from now on is given the next read: this one may already be under way for it.
        this.#next = undefined;
        try {
          resolve(this.#read());
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.#next;
  }
}
