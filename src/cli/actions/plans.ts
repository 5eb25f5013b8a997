/** What `plans list`, `plans create` and `plans update` do (registered in admin-commands.ts). */
import { type PlanChanges, savePlan } from '../../admin/plans.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

export function list(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const rows = await store.listPlans();
    print(cli.json(), rows, () =>
      table(rows as never, [
        'code',
        'api_access',
        'domains',
        'raw_values',
        'judge',
        'requests_per_minute',
        'requests_per_month',
        'history_years',
        'alerts_history_days',
      ]),
    );
  });
}

/** `plans create` (`mode` create) or `plans update`, with the options as commander names them. */
export function save(cli: CliContext, mode: 'create' | 'update', o: Record<string, unknown>): Promise<void> {
  return cli.withStore(async (store) => {
    const changes: PlanChanges = {
      name: o.name as string | undefined,
      api_access: o.api as boolean | undefined,
      domains: o.domains as string[] | undefined,
      raw_values: o.rawValues as boolean | undefined,
      judge: o.judge as boolean | undefined,
      requests_per_minute: o.rpm as number | undefined,
      requests_per_month: o.monthly as number | undefined,
      history_years: o.historyYears as number | undefined,
      alerts_history_days: o.alertsDays as number | undefined,
    };
    const plan = await savePlan(store, o.code as string, changes, mode);
    print(cli.json(), plan, () => `${mode === 'create' ? 'Created' : 'Updated'} plan ${plan.code}.`);
  });
}
