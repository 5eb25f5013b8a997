/**
 * The MCP Registry's server.json rules that concern a remote-only server (name, title, description, version, icons,
 * repository, remotes with their variables and headers), as constraints only: the registry's schema
 * (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, generated from the registry's
 * docs/reference/api/openapi.yaml) with its prose and the package definitions left out. Written here so the test
 * runs offline; when the registry publishes a newer schema, compare and update.
 */
export const REGISTRY_SERVER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $ref: '#/definitions/ServerDetail',
  definitions: {
    ServerDetail: {
      properties: {
        $schema: {
          format: 'uri',
          type: 'string',
        },
        _meta: {
          properties: {
            'io.modelcontextprotocol.registry/publisher-provided': {
              additionalProperties: true,
              type: 'object',
            },
          },
          type: 'object',
        },
        icons: {
          items: {
            $ref: '#/definitions/Icon',
          },
          type: 'array',
        },
        name: {
          maxLength: 200,
          minLength: 3,
          pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
          type: 'string',
        },
        remotes: {
          items: {
            $ref: '#/definitions/RemoteTransport',
          },
          type: 'array',
        },
        repository: {
          $ref: '#/definitions/Repository',
        },
        title: {
          maxLength: 100,
          minLength: 1,
          type: 'string',
        },
        version: {
          maxLength: 255,
          type: 'string',
        },
        websiteUrl: {
          format: 'uri',
          type: 'string',
        },
      },
      required: ['name', 'description', 'version'],
      type: 'object',
    },
    RemoteTransport: {
      allOf: [
        {
          anyOf: [
            {
              $ref: '#/definitions/StreamableHttpTransport',
            },
            {
              $ref: '#/definitions/SseTransport',
            },
          ],
        },
        {
          properties: {
            variables: {
              additionalProperties: {
                $ref: '#/definitions/Input',
              },
              type: 'object',
            },
          },
          type: 'object',
        },
      ],
    },
    StreamableHttpTransport: {
      properties: {
        headers: {
          items: {
            $ref: '#/definitions/KeyValueInput',
          },
          type: 'array',
        },
        type: {
          enum: ['streamable-http'],
          type: 'string',
        },
        url: {
          pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$',
          type: 'string',
        },
      },
      required: ['type', 'url'],
      type: 'object',
    },
    SseTransport: {
      properties: {
        headers: {
          items: {
            $ref: '#/definitions/KeyValueInput',
          },
          type: 'array',
        },
        type: {
          enum: ['sse'],
          type: 'string',
        },
        url: {
          pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$',
          type: 'string',
        },
      },
      required: ['type', 'url'],
      type: 'object',
    },
    KeyValueInput: {
      allOf: [
        {
          $ref: '#/definitions/InputWithVariables',
        },
        {
          properties: {
            name: {
              type: 'string',
            },
          },
          required: ['name'],
          type: 'object',
        },
      ],
    },
    InputWithVariables: {
      allOf: [
        {
          $ref: '#/definitions/Input',
        },
        {
          properties: {
            variables: {
              additionalProperties: {
                $ref: '#/definitions/Input',
              },
              type: 'object',
            },
          },
          type: 'object',
        },
      ],
    },
    Input: {
      properties: {
        choices: {
          items: {
            type: 'string',
          },
          type: 'array',
        },
        default: {
          type: 'string',
        },
        format: {
          default: 'string',
          enum: ['string', 'number', 'boolean', 'filepath'],
          type: 'string',
        },
        isRequired: {
          default: false,
          type: 'boolean',
        },
        isSecret: {
          default: false,
          type: 'boolean',
        },
        placeholder: {
          type: 'string',
        },
        value: {
          type: 'string',
        },
      },
      type: 'object',
    },
    Icon: {
      properties: {
        mimeType: {
          enum: ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'],
          type: 'string',
        },
        sizes: {
          items: {
            pattern: '^(\\d+x\\d+|any)$',
            type: 'string',
          },
          type: 'array',
        },
        src: {
          format: 'uri',
          maxLength: 255,
          type: 'string',
        },
        theme: {
          enum: ['light', 'dark'],
          type: 'string',
        },
      },
      required: ['src'],
      type: 'object',
    },
    Repository: {
      properties: {
        id: {
          type: 'string',
        },
        source: {
          type: 'string',
        },
        subfolder: {
          type: 'string',
        },
        url: {
          format: 'uri',
          type: 'string',
        },
      },
      required: ['url', 'source'],
      type: 'object',
    },
  },
};
