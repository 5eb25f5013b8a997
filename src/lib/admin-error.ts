/** A refusal of an administrative command (bad argument, unknown account…): shown to the operator as is. */
export class AdminError extends Error {
  override name = 'AdminError';
}
