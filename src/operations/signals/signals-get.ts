import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { ApiError } from '../../lib/errors.js';
import { indicatorSynthetic, toSignalDetail } from './resources.js';
import { SignalDetail } from './schemas.js';
import { signalContractId } from './signal-contract.js';
import { signalsList } from './signals-list.js';

export const signalsGet = defineOperation({
  name: 'signals_get',
  title: 'Get a signal',
  summary: 'One signal with its English texts, why it matters, the next step and its evidence.',
  description:
    'Returns one signal by the `id` that signals_list (or a case’s linked_signals) gives: every field of the list ' +
    'plus the contract it is about (`contract_id`, for procurement_contract_get), the English summary, why it ' +
    'matters, the suggested next step and the evidence — the records it rests on, ' +
    'each with its source type, link, date, an excerpt and how strongly it supports the signal.',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object(
    { signal_id: Type.Integer({ minimum: 1, description: 'Signal id.', examples: [1] }) },
    { additionalProperties: false },
  ),
  output: SignalDetail,
  rest: { path: '/v1/signals/:signal_id' },
  cache: 'data',
  examples: [{ title: 'Signal 1', input: { signal_id: 1 } }],
  async handler(input, { reference, store }) {
    const signal = await store.getSignal(input.signal_id);
    if (!signal)
      throw new ApiError('not-found', {
        detail: `No signal with id ${input.signal_id}.`,
        see: { operation: signalsList, does: 'lists them' },
      });
    return toSignalDetail(signal, indicatorSynthetic(reference), await signalContractId(store, signal.key));
  },
});
