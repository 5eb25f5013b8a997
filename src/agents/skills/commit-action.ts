import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../lib/errors.js';
import { formatEuros } from '../citations.js';
import { defineSkill } from '../skill.js';

export const commitAction = defineSkill({
  id: 'commit_action',
  title: 'Commit a quoted action',
  description:
    'Books the action of a quote from prepare_action (`quote_id`), while the quote is valid. Committing the same ' +
    'quote again returns the same outcome (the same reference): a retry never books twice. An unknown or expired ' +
    'quote is rejected. Answers with a task.',
  tags: ['action'],
  answer: 'task',
  kind: 'action',
  channels: ['a2a'],
  input: () =>
    Type.Object(
      { quote_id: Type.String({ minLength: 1, maxLength: 100, description: 'The quote_id prepare_action gave.' }) },
      { additionalProperties: false },
    ),
  examples: () => [{ quote_id: 'q_…' }],
  async handler(input, { deployment, store, now, credentialId }) {
    const record = await store.agents.getAgentQuote(input.quote_id);
    // A quote is the credential's own: another's is as unknown as a made-up id.
    if (!record || record.deployment_id !== deployment.id || record.credential_id !== credentialId) {
      throw new ApiError('not-found', { detail: `Unknown quote "${input.quote_id}": prepare_action gives quote ids.` });
    }
    const committed = await store.agents.getAgentCommitment(record.id);
    if (!committed && record.valid_until < now.toISOString()) {
      throw new ApiError('not-found', {
        detail: `Quote ${record.id} expired at ${record.valid_until}: ask prepare_action for a new one.`,
      });
    }
    const quote = JSON.parse(record.quote) as {
      title: string;
      total_eur: number;
      municipality: { name: string };
      terms: string;
    };
    const reference = `${deployment.slug.toUpperCase().slice(0, 12)}-${randomBytes(4).toString('hex').toUpperCase()}`;
    const stored =
      committed ??
      (await store.agents.commitAgentQuote({
        quote_id: record.id,
        reference,
        outcome: JSON.stringify({
          status: 'committed',
          reference,
          quote_id: record.id,
          action: record.action,
          title: quote.title,
          municipality: quote.municipality,
          total_eur: quote.total_eur,
          committed_at: now.toISOString(),
          terms: quote.terms,
        }),
        committed_at: now.toISOString(),
      }));
    const outcome = JSON.parse(stored.outcome) as Record<string, unknown>;
    return {
      data: outcome,
      text:
        `Committed: ${quote.title} in ${quote.municipality.name}, ${formatEuros(quote.total_eur)} (VAT included). ` +
        `Reference ${outcome.reference}, committed at ${outcome.committed_at}.`,
    };
  },
});
