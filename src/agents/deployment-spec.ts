/**
 * The deployment file a company admin writes (JSON or YAML) and `munidata agents create|update` reads: who the
 * company is, what its agent offers and on which channels, where it works, what it knows, which projects it
 * takes, its released briefs and its priced actions. One TypeBox schema gives the validation (every error names
 * the path of the bad field) and the TypeScript type; `checkDeployment` adds what a schema cannot say (places
 * that exist, ids that are unique, skills that need something the file lacks).
 */
import { type Static, Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ReferenceData } from '../core/reference.js';
import { StringEnum } from '../core/schemas.js';
import { AdminError } from '../lib/admin-error.js';
import { fold } from '../lib/text-match.js';
import type { MunicipalityRecord } from '../store/records.js';
import { SKILL_IDS } from './skills/ids.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Slugs that would shadow a route of the service when the host is mounted at the root of its own address. */
const RESERVED_SLUGS = ['a2a', 'mcp', 'v1', 'docs', 'problems', 'agents', 'well-known'];

const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
const Id = Type.String({
  pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
  description: 'Lowercase letters, digits, `_` and `-`.',
});
const Places = Type.Object(
  {
    municipalities: Type.Array(Text(100), { default: [], description: 'Municipality codes, slugs or names.' }),
    districts: Type.Array(Text(100), { default: [], description: 'District (or autonomous region) names.' }),
  },
  { additionalProperties: false },
);
const AreaBounds = Type.Object(
  { min: Type.Optional(Type.Number({ minimum: 0 })), max: Type.Optional(Type.Number({ exclusiveMinimum: 0 })) },
  { additionalProperties: false },
);
const LeadTime = Type.Integer({ minimum: 0, maximum: 3650, description: 'Days from today to the earliest start.' });

export const DeploymentSpec = Type.Object(
  {
    slug: Type.String({
      pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$',
      description: 'The address: {agents_url}/<slug>/…',
    }),
    name: Text(120, "The agent's name, as its card shows it."),
    description: Text(2000),
    company: Type.Object(
      {
        name: Text(200),
        nif: Type.Optional(Type.String({ pattern: '^[0-9]{9}$' })),
        website: Type.Optional(Type.String({ format: 'uri' })),
        email: Type.Optional(Type.String({ format: 'email' })),
      },
      { additionalProperties: false },
    ),
    channels: Type.Array(StringEnum(['a2a', 'mcp'] as const), { minItems: 1, uniqueItems: true }),
    service_area: Places,
    knowledge: Type.Array(
      Type.Object(
        { id: Id, title: Text(200), body: Text(20_000), tags: Type.Array(Text(50), { default: [] }) },
        { additionalProperties: false },
      ),
      { default: [] },
    ),
    criteria: Type.Object(
      {
        project_types: Type.Array(
          Type.Object(
            {
              type: Id,
              label: Type.Optional(Text(200)),
              area_m2: Type.Optional(AreaBounds),
              lead_time_days: Type.Optional(LeadTime),
            },
            { additionalProperties: false },
          ),
          { minItems: 1 },
        ),
        area_m2: Type.Optional(AreaBounds),
        lead_time_days: Type.Optional(LeadTime),
        excluded_places: Type.Optional(Places),
      },
      { additionalProperties: false },
    ),
    skills: Type.Array(StringEnum(SKILL_IDS), { minItems: 1, uniqueItems: true }),
    procurement_lookups: Type.Boolean({ default: false }),
    artifacts: Type.Array(
      Type.Object(
        {
          id: Id,
          title: Text(200),
          summary: Text(1000),
          media_type: StringEnum(['text/markdown', 'text/plain'] as const, { default: 'text/markdown' }),
          body: Text(100_000),
          released: Type.Boolean({ default: false }),
        },
        { additionalProperties: false },
      ),
      { default: [] },
    ),
    actions: Type.Array(
      Type.Object(
        {
          id: Id,
          title: Text(200),
          description: Text(2000),
          pricing: Type.Object(
            {
              base_eur: Type.Number({ minimum: 0 }),
              per_m2_eur: Type.Number({ minimum: 0, default: 0 }),
              minimum_eur: Type.Number({ minimum: 0, default: 0 }),
              vat_rate: Type.Number({ minimum: 0, maximum: 1, default: 0.23 }),
              urgent_surcharge_rate: Type.Number({ minimum: 0, maximum: 2, default: 0 }),
              outside_area_surcharge_eur: Type.Optional(Type.Number({ minimum: 0 })),
            },
            { additionalProperties: false },
          ),
          quote_valid_days: Type.Integer({ minimum: 1, maximum: 90, default: 14 }),
          terms: Text(4000),
        },
        { additionalProperties: false },
      ),
      { default: [] },
    ),
  },
  { additionalProperties: false },
);

export type DeploymentSpec = Static<typeof DeploymentSpec>;

/** One problem with a deployment file: the path of the field (`criteria.project_types[1].type`) and what is wrong. */
export interface SpecIssue {
  readonly path: string;
  readonly message: string;
}

/** An AdminError: the command line shows it as is (exit code 2). */
export class DeploymentSpecError extends AdminError {
  override name = 'DeploymentSpecError';
  readonly issues: readonly SpecIssue[];

  constructor(issues: readonly SpecIssue[]) {
    super(
      `The deployment file is not valid:\n${issues.map((i) => `  ${i.path || '(file)'}: ${i.message}`).join('\n')}`,
    );
    this.issues = issues;
  }
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
addFormats(ajv, ['uri', 'email']);
const validate = ajv.compile(DeploymentSpec);

/**
 * A deployment file's content, validated and with its defaults filled in; throws DeploymentSpecError listing
 * every problem. `reference` holds the municipalities places are checked against.
 */
export function parseDeploymentSpec(value: unknown, reference: ReferenceData): DeploymentSpec {
  const copy = structuredClone(value);
  if (!validate(copy)) throw new DeploymentSpecError(dedupe((validate.errors ?? []).map(toIssue)));
  const spec = copy as DeploymentSpec;
  const issues = checkDeployment(spec, reference);
  if (issues.length > 0) throw new DeploymentSpecError(issues);
  return spec;
}

/** What the schema cannot say. */
function checkDeployment(spec: DeploymentSpec, reference: ReferenceData): SpecIssue[] {
  const issues: SpecIssue[] = [];
  if (RESERVED_SLUGS.includes(spec.slug))
    issues.push({ path: 'slug', message: `"${spec.slug}" is reserved; choose another` });
  const checkPlaces = (places: { municipalities: string[]; districts: string[] } | undefined, at: string) => {
    places?.municipalities.forEach((ref, i) => {
      if (!findMunicipality(reference, ref))
        issues.push({ path: `${at}.municipalities[${i}]`, message: `unknown municipality "${ref}"` });
    });
    places?.districts.forEach((name, i) => {
      if (!isDistrict(reference, name))
        issues.push({ path: `${at}.districts[${i}]`, message: `unknown district "${name}"` });
    });
  };
  checkPlaces(spec.service_area, 'service_area');
  checkPlaces(spec.criteria.excluded_places, 'criteria.excluded_places');
  if (spec.service_area.municipalities.length + spec.service_area.districts.length === 0) {
    issues.push({ path: 'service_area', message: 'must name at least one municipality or district' });
  }
  unique(spec.knowledge, 'knowledge', (k) => k.id, issues);
  unique(spec.artifacts, 'artifacts', (a) => a.id, issues);
  unique(spec.actions, 'actions', (a) => a.id, issues);
  unique(spec.criteria.project_types, 'criteria.project_types', (p) => p.type, issues, 'type');
  const bounds = [
    ['criteria.area_m2', spec.criteria.area_m2],
    ...spec.criteria.project_types.map((p, i) => [`criteria.project_types[${i}].area_m2`, p.area_m2] as const),
  ] as const;
  for (const [path, area] of bounds) {
    if (area?.min !== undefined && area.max !== undefined && area.min > area.max)
      issues.push({ path: `${path}.min`, message: 'must not be above max' });
  }
  const needs = (skill: (typeof SKILL_IDS)[number], ok: boolean, message: string) => {
    const i = spec.skills.indexOf(skill);
    if (i >= 0 && !ok) issues.push({ path: `skills[${i}]`, message: `${skill} ${message}` });
  };
  for (const skill of [
    'procurement_research_buyer',
    'procurement_compare_contractsers',
    'procurement_track_opportunities',
  ] as const) {
    needs(skill, spec.procurement_lookups, 'needs procurement_lookups: true');
  }
  needs('prepare_action', spec.actions.length > 0, 'needs at least one entry in actions');
  needs(
    'commit_action',
    spec.skills.includes('prepare_action'),
    'needs prepare_action (a commit takes the id of a quote)',
  );
  needs(
    'get_artifact',
    spec.artifacts.some((a) => a.released),
    'needs at least one released artifact',
  );
  needs('search_knowledge', spec.knowledge.length > 0, 'needs at least one knowledge document');
  return issues;
}

function unique<T>(
  items: readonly T[],
  path: string,
  idOf: (item: T) => string,
  issues: SpecIssue[],
  field = 'id',
): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const id = idOf(item);
    if (seen.has(id)) issues.push({ path: `${path}[${i}].${field}`, message: `"${id}" is used twice` });
    seen.add(id);
  });
}

/** A municipality by code, slug or name (case and accents ignored). */
export function findMunicipality(reference: ReferenceData, ref: string): MunicipalityRecord | undefined {
  const direct = reference.municipality(ref);
  if (direct) return direct;
  const key = fold(ref.trim());
  return reference.municipalities.find((m) => fold(m.name) === key);
}

export function isDistrict(reference: ReferenceData, name: string): boolean {
  return reference.district(name) !== undefined;
}

function toIssue(error: ErrorObject): SpecIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((piece) => (/^\d+$/.test(piece) ? `[${piece}]` : `.${piece.replaceAll('~1', '/').replaceAll('~0', '~')}`))
    .join('')
    .replace(/^\./, '');
  const at = (name: string) => (path ? `${path}.${name}` : name);
  switch (error.keyword) {
    case 'required':
      return { path: at(String(error.params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: at(String(error.params.additionalProperty)), message: 'is not a field of a deployment file here' };
    case 'enum':
      return { path, message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    default:
      return { path, message: error.message ?? 'is invalid' };
  }
}

function dedupe(issues: SpecIssue[]): SpecIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\n${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
