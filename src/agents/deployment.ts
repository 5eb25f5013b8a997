/**
 * A deployment as the host serves it, built once per revision (and per reference-data version): its file, its
 * places resolved to municipalities, the skills it enables with their input schemas, its A2A card and MCP tool
 * list. Everything a request needs is here, so that a request costs a map lookup, not a rebuild.
 */
import type { TObject } from '@sinclair/typebox';
import { type CardSkill, type CardSpec, Cards } from '../channels/a2a/card.js';
import type { CardSigner } from '../channels/a2a/card-signature.js';
import { plainSchema } from '../core/json-schema.js';
import type { ReferenceData } from '../core/reference.js';
import { fold } from '../lib/text-match.js';
import type { AgentChannel, DeploymentRecord } from '../store/agent-records.js';
import type { MunicipalityRecord } from '../store/records.js';
import { type AgentAddresses, agentAddresses } from './addresses.js';
import { specOf } from './admin.js';
import { type DeploymentSpec, findMunicipality } from './deployment-spec.js';
import type { AnySkill, SkillChannel } from './skill.js';
import { SKILLS } from './skills/index.js';
import { ANSWER_MODES } from './tasks/wire.js';

export type ServiceAreaReason = 'municipality_listed' | 'district_listed' | 'excluded' | 'outside';

export interface ServiceAreaVerdict {
  readonly inside: boolean;
  readonly reason: ServiceAreaReason;
  readonly explanation: string;
}

/** What the host gives every deployment it serves. */
export interface DeploymentHosting {
  /** `{agents_url}`: each deployment answers under `{agents_url}/<slug>`. */
  readonly agentsUrl: string;
  /** The icon its cards name (the service's: a deployment declares none). */
  readonly iconUrl: string;
  readonly signCard: CardSigner;
}

export class Deployment {
  readonly record: DeploymentRecord;
  readonly spec: DeploymentSpec;
  readonly addresses: AgentAddresses;
  /** Enabled skills, in the registry's order. */
  readonly skills: readonly AnySkill[];
  readonly cards: Cards;
  readonly #inputs = new Map<string, TObject>();
  readonly #served: { codes: ReadonlySet<string>; districts: ReadonlySet<string> };
  readonly #excluded: { codes: ReadonlySet<string>; districts: ReadonlySet<string> };
  /** The icon its cards and its MCP server name. */
  readonly iconUrl: string;

  constructor(record: DeploymentRecord, reference: ReferenceData, hosting: DeploymentHosting) {
    this.record = record;
    this.spec = specOf(record);
    this.addresses = agentAddresses(hosting.agentsUrl, record.slug);
    this.iconUrl = hosting.iconUrl;
    this.#served = places(reference, this.spec.service_area);
    this.#excluded = places(reference, this.spec.criteria.excluded_places);
    this.skills = SKILLS.filter(
      (skill) => this.spec.skills.includes(skill.id) && (!skill.procurement || this.spec.procurement_lookups),
    );
    for (const skill of this.skills) this.#inputs.set(skill.id, skill.input(this));
    this.cards = new Cards(
      this.#cardSpec(this.skills.filter((skill) => skill.channels.includes('a2a'))),
      hosting.signCard,
    );
  }

  get id(): number {
    return this.record.id;
  }

  get slug(): string {
    return this.record.slug;
  }

  get live(): boolean {
    return this.record.status === 'live';
  }

  hasChannel(channel: AgentChannel): boolean {
    return this.spec.channels.includes(channel);
  }

  /** A skill this deployment offers on a channel (whether a credential may call it is `callable`'s rule). */
  skill(id: string, channel: SkillChannel): AnySkill | undefined {
    const skill = this.skills.find((s) => s.id === id);
    if (!skill?.channels.includes(channel)) return undefined;
    return skill;
  }

  /** The ids of the skills this deployment offers on a channel. */
  skillIds(channel: SkillChannel): string[] {
    return this.skills.filter((s) => s.channels.includes(channel)).map((s) => s.id);
  }

  /** The skills a credential may call on a channel. */
  callable(channel: SkillChannel, licensed: boolean): AnySkill[] {
    return this.skills.filter((skill) => skill.channels.includes(channel) && (!licensed || skill.kind === 'read'));
  }

  inputSchema(skill: AnySkill): TObject {
    return this.#inputs.get(skill.id) as TObject;
  }

  /** Whether a municipality is inside the declared service area, and why. */
  serviceArea(m: MunicipalityRecord): ServiceAreaVerdict {
    const district = fold(m.district);
    if (this.#excluded.codes.has(m.code) || this.#excluded.districts.has(district)) {
      const what = this.#excluded.codes.has(m.code) ? m.name : `the district of ${m.district}`;
      return {
        inside: false,
        reason: 'excluded',
        explanation: `${m.name} is outside the service area: ${what} is excluded.`,
      };
    }
    if (this.#served.codes.has(m.code)) {
      return {
        inside: true,
        reason: 'municipality_listed',
        explanation: `${m.name} is inside the service area: the municipality is served.`,
      };
    }
    if (this.#served.districts.has(district)) {
      return {
        inside: true,
        reason: 'district_listed',
        explanation: `${m.name} is inside the service area: the district of ${m.district} is served.`,
      };
    }
    return {
      inside: false,
      reason: 'outside',
      explanation:
        `${m.name} (district of ${m.district}) is outside the service area: neither the municipality nor ` +
        `its district is served.`,
    };
  }

  /** The district names (folded) of the service area: listed districts and those of listed municipalities. */
  serviceDistricts(reference: ReferenceData): string[] {
    const districts = new Set(this.#served.districts);
    for (const code of this.#served.codes) {
      const m = reference.municipality(code);
      if (m) districts.add(fold(m.district));
    }
    return [...districts].sort();
  }

  #cardSpec(skills: readonly AnySkill[]): CardSpec {
    const { spec } = this;
    return {
      name: spec.name,
      description:
        `${spec.description} ` +
        'Each skill is one typed request: SendMessage with exactly one data part {"skill": <skill id>, "input": ' +
        '{...}} (mediaType application/json). Skills tagged `task` answer with a task: read it with GetTask until ' +
        'its state is final.',
      url: this.addresses.a2a,
      provider: { organization: spec.company.name, url: spec.company.website ?? this.addresses.base },
      version: String(this.record.revision),
      iconUrl: this.iconUrl,
      credentialDescription:
        `An agent credential (sk_live_…) that ${spec.company.name} created for this deployment ` +
        `and its A2A channel.`,
      skills: skills.map((skill) => this.#cardSkill(skill)),
    };
  }

  #cardSkill(skill: AnySkill): CardSkill {
    return {
      id: skill.id,
      name: skill.title,
      description: skill.description,
      tags: [...skill.tags, skill.answer, skill.kind],
      examples: skill.examples(this).map((input) => JSON.stringify({ skill: skill.id, input })),
      inputSchema: plainSchema(this.inputSchema(skill)),
      outputModes: this.outputModes(skill),
    };
  }

  /** What a skill answers in, preferred first: its typed JSON, its readable text, then its reference's types. */
  outputModes(skill: AnySkill): readonly string[] {
    return [...new Set([...ANSWER_MODES, ...(skill.referenceModes?.(this) ?? [])])];
  }
}

function places(
  reference: ReferenceData,
  listed: { municipalities: string[]; districts: string[] } | undefined,
): { codes: ReadonlySet<string>; districts: ReadonlySet<string> } {
  const codes = new Set<string>();
  for (const ref of listed?.municipalities ?? []) {
    const m = findMunicipality(reference, ref);
    if (m) codes.add(m.code);
  }
  // A district as the spec names it (a region by its short name too: `Madeira`), folded as the data's names are.
  return { codes, districts: new Set((listed?.districts ?? []).map((d) => fold(reference.district(d) ?? d.trim()))) };
}
