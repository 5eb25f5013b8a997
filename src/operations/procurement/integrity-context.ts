/**
 * What the integrity checks read beyond a contract (integrity/check.ts), for one answer: the store, the corpus
 * statistics, a memo of the reads the answer's checks share, and the regions (a buyer's legal regime), built once
 * per data version from the municipalities the reference data hold.
 */
import type { ReferenceData } from '../../core/reference.js';
import type { CheckContext } from '../../integrity/check.js';
import { integrityCorpus } from '../../integrity/corpus.js';
import { Regions } from '../../lib/regions.js';
import type { Store } from '../../store/store.js';

export async function integrityContext(store: Store, reference: ReferenceData): Promise<CheckContext> {
  const regions = await reference.memo('integrity:regions', async () => new Regions(reference.municipalities));
  return { store, corpus: integrityCorpus(store), memo: new Map(), regions };
}
