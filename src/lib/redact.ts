/**
 * Secrets out of log lines (docs/deploy.md, Logs). Applied to every line as it is written, whatever field holds
 * the text (a URL, a header, an error's message): an API key or agent credential (`sk_live_…`, also
 * percent-encoded), a bearer token, a JSON Web Token, and the value of any query parameter whose name says it
 * holds a credential (`api_key`, OAuth's `access_token`, `client_secret`…).
 */

const REDACTED = '[REDACTED]';

/** `sk_live_` and its body, plain or percent-encoded (`sk%5Flive%5F…`), in any case. */
const KEY_SECRET = /sk(?:_|%5f)live(?:_|%5f)[A-Za-z0-9%]*/gi;
/** `Bearer <token>` in a header value or a message. */
const BEARER = /\b(bearer)(\s+|%20|\+)[^\s"'&,;]+/gi;
/** A JSON Web Token (an OAuth access or id token): three base64url parts, the first a JSON object. */
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** The credential names of CREDENTIAL_PARAMETER, as alternatives of a regular expression. */
const CREDENTIAL_NAMES =
  'api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|id[_-]?token|token|secret|client[_-]?secret|password|passwd|' +
  'code[_-]?verifier|assertion|credential|authorization';
/** `name=value` where the name is that of a credential, in a query string or a form body. */
const CREDENTIAL_PARAMETER = new RegExp(
  String.raw`([?&;"\s]|^)((?:[a-z0-9_.-]*[_.-])?(?:${CREDENTIAL_NAMES}))=([^&\s"#]*)`,
  'gi',
);

/** The text with every secret it holds replaced by `[REDACTED]`; the same text when it holds none. */
export function redactSecrets(text: string): string {
  if (!mayHoldSecret(text)) return text;
  return text
    .replace(KEY_SECRET, `sk_live_${REDACTED}`)
    .replace(BEARER, (_m, word: string, space: string) => `${word}${space}${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(CREDENTIAL_PARAMETER, (_m, before: string, name: string) => `${before}${name}=${REDACTED}`);
}

/** A cheap first look, so that the lines holding nothing of the kind (nearly all) skip the replacements. */
function mayHoldSecret(text: string): boolean {
  return /live|bearer|eyJ|=/i.test(text);
}
