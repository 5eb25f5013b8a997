/** What `beta list`, `beta add` and `beta remove` do (registered in admin-commands.ts). */
import { AdminError } from '../../lib/admin-error.js';
import { DOMAIN_NAMES, isDomain } from '../../lib/domains.js';
import { createRegistry } from '../../operations/index.js';
import type { CliContext } from '../context.js';
import { print } from '../output.js';

export function list(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const gates = await store.listBetaGates();
    print(cli.json(), gates, () => (gates.length ? gates.join('\n') : '(none)'));
  });
}

/** `beta add` (`on`) or `beta remove`: a target to gate must be an operation or a domain. */
export function setGate(cli: CliContext, target: string, on: boolean): Promise<void> {
  return cli.withStore(async (store) => {
    if (on && !createRegistry().get(target) && !isDomain(target)) {
      throw new AdminError(`"${target}" is neither an operation nor a domain (${DOMAIN_NAMES.join(', ')}).`);
    }
    await store.setBetaGate(target, on);
    print(cli.json(), { target, beta: on }, () => `${target}: ${on ? 'beta only' : 'open'}.`);
  });
}
