/**
 * When work the console asks for happens (docs/console.md, "When it happens"): with the pipeline on
 * (PIPELINE_INTERVAL_S > 0, docs/pipeline.md) within one cycle; with it off, at the operator's next command.
 */
const COMMANDS = {
  match: '`munidata detect` or `munidata alerts match`',
  deliver: '`munidata webhooks deliver`',
} as const;

export function whenItRuns(work: keyof typeof COMMANDS, intervalS: number): string {
  return intervalS > 0
    ? `within one pipeline cycle (every ${intervalS} s)`
    : `when the operator next runs ${COMMANDS[work]} (the pipeline is off on this server)`;
}
