import { describe, expect, it } from 'vitest';
import { BlockedUrlError } from '../net/safe-fetch';
import { classifyAnswer, describeSendError } from './answers';

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('classifyAnswer', () => {
  const kinds = (statuses: number[]) => statuses.map((status) => classifyAnswer(status, {}, NOW).kind);
  it('sorts statuses into success, redirect, transient and refused', () => {
    expect(kinds([200, 201, 204, 299])).toEqual(Array(4).fill('success'));
    expect(kinds([301, 302, 307, 308])).toEqual(Array(4).fill('redirect'));
    expect(kinds([408, 429, 500, 502, 503, 504])).toEqual(Array(6).fill('transient'));
    expect(kinds([400, 401, 403, 404, 410, 422])).toEqual(Array(6).fill('refused'));
  });

  it('reads Retry-After on 429 and 503 only', () => {
    const retryAfter = (status: number, value?: string) => classifyAnswer(status, value ? { 'retry-after': value } : {}, NOW).retryAfterMs;
    expect(retryAfter(429, '7')).toBe(7_000);
    expect(retryAfter(503, 'Sat, 21 Nov 2026 10:00:30 GMT')).toBe(30_000);
    expect(retryAfter(429)).toBeNull();
    expect(retryAfter(503, 'later')).toBeNull();
    // Retry-After means nothing on other statuses.
    expect(retryAfter(500, '7')).toBeNull();
    expect(retryAfter(301, '7')).toBeNull();
  });
});

describe('describeSendError', () => {
  it('names the guard’s refusal, a timeout, or the network error’s code', () => {
    const blocked = new BlockedUrlError('it is a private address');
    expect(describeSendError(blocked, 10_000)).toBe(blocked.message);
    expect(describeSendError(new Error('fetch failed', { cause: blocked }), 10_000)).toBe(blocked.message);
    expect(describeSendError(Object.assign(new Error('x'), { name: 'TimeoutError' }), 10_000)).toBe('timed out after 10 s');
    expect(describeSendError(Object.assign(new Error('x'), { name: 'AbortError' }), 2_500)).toBe('timed out after 2.5 s');
    const refused = new Error('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    expect(describeSendError(refused, 10_000)).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
    expect(describeSendError(new Error('socket hang up'), 10_000)).toBe('network error: socket hang up');
  });
});
