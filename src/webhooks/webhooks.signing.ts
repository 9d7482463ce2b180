// Signing a delivery: an HMAC of the body with the current secret, and during a rotation with the previous one too.
import { createHmac } from 'node:crypto';
import { hmacHex } from '../core/crypto';

export const USER_AGENT = 'Demoshare-Webhooks/1.0';

export interface SigningInput {
  /** The `webhook-id`: the event id, the same on every retry and redelivery. */
  messageId: string;
  eventKind: string;
  /** The exact bytes of the request body. */
  body: Buffer;
  /** Current secret first; during a rotation the previous one follows. */
  secrets: string[];
  sentAt: Date;
}

/**
 * The headers of one attempt. Both signatures are keyed with the UTF-8 bytes of the secret as the user
 * gave it (DESIGN.md). X-Service-Signature is the contract's: lowercase hex HMAC-SHA256 of the body. The
 * Standard Webhooks headers sign `${id}.${timestamp}.${body}`, base64, `v1,` prefixed, space-separated,
 * which is how that specification carries several signatures through a rotation.
 */
export function signatureHeaders(input: SigningInput): Record<string, string> {
  const [current, ...previous] = input.secrets;
  if (current === undefined) throw new Error('a webhook always has a secret');
  const timestamp = Math.floor(input.sentAt.getTime() / 1000).toString();
  const signedContent = Buffer.concat([Buffer.from(`${input.messageId}.${timestamp}.`, 'utf8'), input.body]);
  const standard = input.secrets.map(
    (secret) => `v1,${createHmac('sha256', Buffer.from(secret, 'utf8')).update(signedContent).digest('base64')}`,
  );
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': input.eventKind,
    'x-service-signature': hmacHex(Buffer.from(current, 'utf8'), input.body),
    'webhook-id': input.messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': standard.join(' '),
  };
  // A receiver still holding the old secret keeps verifying until the rotation grace ends.
  if (previous.length > 0) {
    headers['x-service-signature-previous'] = previous.map((s) => hmacHex(Buffer.from(s, 'utf8'), input.body)).join(',');
  }
  return headers;
}

/** The secret in the form Standard Webhooks libraries take: `whsec_` + base64 of the key bytes. */
export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
}

/** What a settings page shows to recognise a secret without revealing it. */
export function secretHint(secret: string): string {
  // By characters, not UTF-16 units: the last four units of "…𛰥⫈𐼥" begin with half of 𛰥, a lone surrogate
  // that PostgreSQL refuses to store (the rotation answered 500).
  const characters = Array.from(secret);
  if (characters.length < 12) return '…';
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  return `${prefix}…${characters.slice(-4).join('')}`;
}
