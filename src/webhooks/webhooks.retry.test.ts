import { describe, expect, it } from 'vitest';
import { judgeResponse } from './webhooks.retry';
import { secretHint, signatureHeaders, standardWebhooksSecret } from './webhooks.signing';

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('judgeResponse', () => {
  it('classifies answers', () => {
    expect(judgeResponse(204, {}, NOW)).toEqual({ kind: 'succeeded' });
    expect(judgeResponse(410, {}, NOW).kind).toBe('gone');
    expect(judgeResponse(301, { location: 'https://x/' }, NOW)).toMatchObject({ kind: 'retry', reason: expect.stringContaining('redirect') });
    expect(judgeResponse(429, { 'retry-after': '7' }, NOW)).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    // Every other failure is retried too (core/delivery/answers.test.ts: which statuses carry Retry-After).
    expect(judgeResponse(400, {}, NOW)).toMatchObject({ kind: 'retry', reason: 'the receiver answered 400', retryAfterMs: null });
  });
});

describe('signatureHeaders', () => {
  it('matches a known vector and lists both secrets during a rotation', () => {
    const body = Buffer.from('{"a":1}');
    const one = signatureHeaders({ messageId: 'evt_1', eventKind: 'demo.viewed', body, secrets: ['s3cret-key'], sentAt: NOW });
    // printf '{"a":1}' | openssl dgst -sha256 -hmac 's3cret-key' -hex
    expect(one['x-service-signature']).toBe('169d7e505376f878e245391f706b07a7c9de0b2d84cfc526bb64da7aaee88324');
    expect(one['webhook-timestamp']).toBe(String(NOW.getTime() / 1000));
    expect(one['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(one['x-service-signature-previous']).toBeUndefined();
    const two = signatureHeaders({ messageId: 'evt_1', eventKind: 'demo.viewed', body, secrets: ['new-secret', 's3cret-key'], sentAt: NOW });
    expect(two['webhook-signature']!.split(' ')[1]).toBe(one['webhook-signature']);
    expect(two['x-service-signature-previous']).toBe(one['x-service-signature']);
  });

  it('derives the Standard Webhooks key and the hint without revealing the secret', () => {
    expect(standardWebhooksSecret('abc')).toBe('whsec_YWJj');
    expect(secretHint('whsec_abcdefghijklmnop')).toBe('whsec_…mnop');
    expect(secretHint('short')).toBe('…');
    // Whole characters, never half of a surrogate pair (found by the fuzzer: PostgreSQL refused the hint).
    expect(secretHint('𖠓〥ว🗦🛌Ⴅﾊ𛰥⫈𐼥abcdefgh')).toBe('…efgh');
    expect(secretHint('abcdefgh𖠓〥ว🗦🛌Ⴅﾊ𛰥⫈𐼥')).toBe('…ﾊ𛰥⫈𐼥');
    expect(secretHint('𛰥𛰥𛰥𛰥𛰥𛰥𛰥𛰥𛰥𛰥𛰥')).toBe('…');
  });
});
