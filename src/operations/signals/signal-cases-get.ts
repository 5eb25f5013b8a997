import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { ApiError } from '../../lib/errors.js';
import { indicatorSynthetic, toCaseDetail } from './resources.js';
import { SignalCaseDetail } from './schemas.js';
import { signalCasesList } from './signal-cases-list.js';

export const signalCasesGet = defineOperation({
  name: 'signal_cases_get',
  title: 'Get a signal case',
  summary: 'One case with its stages, its append-only history and the signals linked to it.',
  description:
    'Returns one case by the `id` that signal_cases_list gives: every field of the list plus the previous stage, ' +
    'place and event date, its history oldest first (`events`: created, stage_changed, signal_linked, ' +
    'amount_changed, deadline_changed, closed, each with the old and new value and the reason) and its ' +
    '`linked_signals` (signal id, relationship, title, confidence: read each with signals_get).',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object(
    { case_id: Type.Integer({ minimum: 1, description: 'Case id.', examples: [1] }) },
    { additionalProperties: false },
  ),
  output: SignalCaseDetail,
  rest: { path: '/v1/signal-cases/:case_id' },
  cache: 'data',
  examples: [{ title: 'Case 1', input: { case_id: 1 } }],
  async handler(input, { reference, store }) {
    const found = await store.getCase(input.case_id);
    if (!found)
      throw new ApiError('not-found', {
        detail: `No case with id ${input.case_id}.`,
        see: { operation: signalCasesList, does: 'lists them' },
      });
    return toCaseDetail(found, indicatorSynthetic(reference));
  },
});
