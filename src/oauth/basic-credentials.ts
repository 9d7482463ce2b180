// Client credentials sent as HTTP Basic (RFC 6749 §2.3.1), parsed strictly: a mangled header is an OAuth error, never a 500.
import { OAuthError } from './oauth-error';
import { tokenForm } from './oauth.schemas';

/** The authentication scheme is case-insensitive (RFC 9110 §11.1); `Basic` alone carries nothing. */
const BASIC = /^basic(?:[ \t]+(.*))?$/is;
/** Strict base64 (RFC 4648 §4): Node's decoder skips what it does not know, which would hide a mangled value. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

// The form's own field schemas: the same lengths, and no NUL or lone surrogate (which PostgreSQL refuses,
// so either reached a query as a 500).
const clientIdField = tokenForm.shape.client_id.unwrap();
const clientSecretField = tokenForm.shape.client_secret.unwrap();

const malformed = (why: string) => new OAuthError('invalid_client', `Malformed HTTP Basic credentials: ${why}`);

function formDecoded(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw malformed(`the ${what} is not valid percent-encoding`);
  }
}

/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 §2.3.1: each form-urlencoded, then
 * joined by a colon and base64-encoded), or null when the header is not Basic. Anything that is not such a
 * pair is `invalid_client`, a 401 whose WWW-Authenticate names Basic, as RFC 6749 §5.2 asks when the client
 * tried Basic.
 */
export function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = header === undefined ? null : BASIC.exec(header);
  if (!match) return null;
  const encoded = (match[1] ?? '').trim();
  if (encoded === '' || !BASE64.test(encoded)) throw malformed('not base64');
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    throw malformed('not UTF-8');
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw malformed('no colon between client id and secret');
  const clientId = formDecoded(decoded.slice(0, colon), 'client id');
  const clientSecret = formDecoded(decoded.slice(colon + 1), 'client secret');
  if (!clientIdField.safeParse(clientId).success) throw malformed('the client id is not a client id');
  if (!clientSecretField.safeParse(clientSecret).success) throw malformed('the client secret is not a client secret');
  return { clientId, clientSecret };
}
