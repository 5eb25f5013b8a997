import { Type } from '@sinclair/typebox';
import { fold, queryTokens } from '../../lib/text-match.js';
import { defineSkill } from '../skill.js';

const EXCERPT = 240;

export const searchKnowledge = defineSkill({
  id: 'search_knowledge',
  title: "Search the company's knowledge",
  description:
    "Finds the company's documents (services, prices, process, warranties…) whose title, tags or text contain every " +
    'word of `q` (case and accents ignored); best first: words in the title count most, then tags, then the text. ' +
    'Each hit carries its whole text. Answers at once.',
  tags: ['knowledge'],
  answer: 'message',
  kind: 'read',
  channels: ['a2a', 'mcp'],
  input: () =>
    Type.Object(
      {
        q: Type.String({ minLength: 1, maxLength: 200, description: 'Words to find.' }),
        tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Only documents with this tag.' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
      },
      { additionalProperties: false },
    ),
  examples: (deployment) => [{ q: deployment.spec.knowledge[0]?.title.split(/\s+/)[0] ?? 'price' }],
  async handler(input, { deployment }) {
    const tokens = queryTokens(input.q);
    const tag = input.tag === undefined ? undefined : fold(input.tag);
    const hits = deployment.spec.knowledge
      .filter((doc) => tag === undefined || doc.tags.some((t) => fold(t) === tag))
      .map((doc) => {
        const title = fold(doc.title);
        const tags = fold(doc.tags.join(' '));
        const body = fold(doc.body);
        let score = 0;
        for (const token of tokens) {
          const weight =
            (title.includes(token) ? 3 : 0) + (tags.includes(token) ? 2 : 0) + (body.includes(token) ? 1 : 0);
          if (weight === 0) return undefined;
          score += weight;
        }
        const at = Math.max(0, body.indexOf(tokens[0] ?? '') - 40);
        const excerpt = doc.body.slice(at, at + EXCERPT).trim();
        return { id: doc.id, title: doc.title, tags: doc.tags, score, excerpt, body: doc.body };
      })
      .filter((hit) => hit !== undefined)
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    const items = hits.slice(0, input.limit ?? 5);
    return {
      data: { q: input.q, total: hits.length, items },
      text:
        items.length === 0
          ? `No document matches "${input.q}".`
          : [
              `${hits.length} document(s) match "${input.q}":`,
              ...items.map((hit) => `- ${hit.title}: ${hit.excerpt}`),
            ].join('\n'),
    };
  },
});
