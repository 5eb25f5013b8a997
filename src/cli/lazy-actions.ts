/**
 * How every command of the CLI runs its work (docs/architecture.md, "The command line"). The command tree — names,
 * descriptions, options, argument readers: all that `--help` prints — is built from light modules only, and what a
 * command does lives in an actions module of its group (src/cli/actions/<group>.ts), imported when one of the
 * group's commands runs. Building the tree loaded the whole service before (the app, the store, the schemas compiled
 * at import, Redis and OpenTelemetry clients): about 1.5 s at every start, `--help` included.
 */

/**
 * The `.action(…)` maker of one group: `lazyActions(() => import('./actions/keys.js'))` gives `run`, and
 * `run((keys, o: Flags) => keys.list(cli, o))` is an action that imports the module, then calls into it with the
 * arguments commander passes.
 */
export function lazyActions<Actions>(load: () => Promise<Actions>) {
  return <Args extends unknown[]>(act: (actions: Actions, ...args: Args) => unknown) =>
    async (...args: Args): Promise<void> => {
      await act(await load(), ...args);
    };
}
