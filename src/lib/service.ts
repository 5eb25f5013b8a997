/** What the service says of itself wherever it describes its interface (the OpenAPI document, the agent card). */

/** The version of the interface description (docs/api.md, Versioning). */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0';
/** The dated API version, published under the `x-service-api-version` extension (docs/api.md, Versioning). */
export const SERVICE_API_VERSION = '2026-07';

/** The service's icon (an SVG the service serves; `assets/icon.svg`): MCP `serverInfo.icons`, the cards' `iconUrl`. */
export const SERVICE_ICON = Object.freeze({ path: '/icon.svg', mimeType: 'image/svg+xml' });

export function serviceIconUrl(baseUrl: string): string {
  return `${baseUrl}${SERVICE_ICON.path}`;
}
