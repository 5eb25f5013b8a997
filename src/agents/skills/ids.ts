/** The ids of every skill the host offers (the registry in ./index.ts holds their descriptors, in this order). */
export const SKILL_IDS = [
  'check_service_area',
  'assess_project_fit',
  'search_knowledge',
  'procurement_research_buyer',
  'procurement_compare_contractsers',
  'procurement_track_opportunities',
  'prepare_action',
  'commit_action',
  'get_artifact',
] as const;

export type SkillId = (typeof SKILL_IDS)[number];
