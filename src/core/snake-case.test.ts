import { describe, expect, it } from 'vitest';
import { snakeCase } from './snake-case';

describe('snakeCase', () => {
  it('writes each capital as an underscore and its lower case', () => {
    expect(snakeCase('requireIdentification')).toBe('require_identification');
    expect(snakeCase('viewStartedAt')).toBe('view_started_at');
    expect(snakeCase('ctaUrl')).toBe('cta_url');
  });
  it('leaves a name that is already snake_case or a single word as it is', () => {
    expect(snakeCase('demo_id')).toBe('demo_id');
    expect(snakeCase('title')).toBe('title');
  });
});
