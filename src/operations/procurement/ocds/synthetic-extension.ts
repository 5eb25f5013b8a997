/**
 * The `synthetic` OCDS extension (docs/ocds.md, "The synthetic extension"): one boolean on every release, true
 * when the release describes data the demo generator made up. An extension in the OCDS sense — its
 * `extension.json` and a release-schema patch, served by this service and named in every package's `extensions` —
 * so that a release stays valid against the official 1.1.5 schemas (which allow additional fields) and a reader
 * of the extension knows what the field means.
 */

export const SYNTHETIC_EXTENSION_DIR = '/ocds/extensions/synthetic';

export function syntheticExtensionUrl(baseUrl: string): string {
  return `${baseUrl}${SYNTHETIC_EXTENSION_DIR}/extension.json`;
}

export const SYNTHETIC_EXTENSION = {
  name: { en: 'Synthetic data' },
  description: {
    en:
      'Adds a `synthetic` boolean to releases: true when the release describes generated demonstration data, ' +
      'not a real contracting process.',
  },
  compatibility: ['1.1'],
  schemas: ['release-schema.json'],
} as const;

export const SYNTHETIC_RELEASE_SCHEMA_PATCH = {
  properties: {
    synthetic: {
      title: 'Synthetic',
      description:
        'True when this release describes data generated for demonstration ' +
        '(not a real contracting process); false for real data.',
      type: 'boolean',
    },
  },
} as const;
