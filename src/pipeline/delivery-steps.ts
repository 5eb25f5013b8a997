/**
 * The pipeline's last steps: delivering what the matcher and the detectors wrote (issue 31's signed webhooks). Empty
 * until the webhook worker lands; then it holds one step, e.g.
 * `{ name: 'deliver', run: ({ store, now }) => deliverWebhooks(store, { now: now() }) }`, which runs after the
 * matcher in every cycle, under its own lease, as the other steps do.
 */
import type { PipelineStep } from './step.js';

export const DELIVERY_STEPS: readonly PipelineStep[] = [];
