/**
 * The registry of skills the host offers: one file per skill. A deployment's card, its MCP tools and what its
 * credentials may call are all derived from this list and the deployment's file. Adding a skill = one file, its
 * id in ./ids.ts and one line here.
 */
import type { AnySkill } from '../skill.js';
import { assessProjectFit } from './assess-project-fit.js';
import { checkServiceArea } from './check-service-area.js';
import { commitAction } from './commit-action.js';
import { getArtifact } from './get-artifact.js';
import { SKILL_IDS } from './ids.js';
import { prepareAction } from './prepare-action.js';
import { procurementCompareContractsers } from './procurement-compare-contractsers.js';
import { procurementResearchBuyer } from './procurement-research-buyer.js';
import { procurementTrackOpportunities } from './procurement-track-opportunities.js';
import { searchKnowledge } from './search-knowledge.js';

export const SKILLS: readonly AnySkill[] = [
  checkServiceArea,
  assessProjectFit,
  searchKnowledge,
  procurementResearchBuyer,
  procurementCompareContractsers,
  procurementTrackOpportunities,
  prepareAction,
  commitAction,
  getArtifact,
];

if (SKILLS.map((s) => s.id).join() !== SKILL_IDS.join()) throw new Error('skills/index.ts and skills/ids.ts disagree');
