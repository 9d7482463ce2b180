import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { generatorDepsFromConfig } from '../src/generation';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';

describe('generation settings', () => {
  it('has defaults: four further pages, a minute, Chromium where the usual binary is', () => {
    const config = loadConfig({});
    expect(config.GENERATION_MAX_PAGES).toBe(4);
    expect(config.GENERATION_TIMEOUT).toBe(60_000);
    expect(config.AI_TIMEOUT).toBe(20_000);
    expect(config.CHROMIUM_PATH).toBe(existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null);
  });

  it('turns the browser off with CHROMIUM_PATH=none and refuses a path that does not exist', () => {
    expect(loadConfig({ CHROMIUM_PATH: 'none' }).CHROMIUM_PATH).toBeNull();
    expect(() => loadConfig({ CHROMIUM_PATH: '/nowhere/chromium' })).toThrow(/CHROMIUM_PATH: \/nowhere\/chromium does not exist/);
  });

  it('wants all three AI settings or none', () => {
    expect(() => loadConfig({ AI_BASE_URL: 'https://api.example.com/v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ AI_BASE_URL: 'https://api.example.com/v1', AI_MODEL: 'm' })).toThrow(/set all three/);
    const config = loadConfig({ AI_BASE_URL: 'https://api.example.com/v1', AI_API_KEY: 'k', AI_MODEL: 'm', AI_TIMEOUT: '5s' });
    const deps = generatorDepsFromConfig(config, new SafeFetch(new AddressPolicy()));
    expect(deps.ai).toEqual({ baseUrl: 'https://api.example.com/v1', apiKey: 'k', model: 'm', timeoutMs: 5_000 });
  });

  it('explains a bad page count or timeout', () => {
    expect(() => loadConfig({ GENERATION_MAX_PAGES: '50' })).toThrow(/GENERATION_MAX_PAGES: must be 20 or fewer/);
    expect(() => loadConfig({ GENERATION_TIMEOUT: 'soon' })).toThrow(/GENERATION_TIMEOUT: "soon" is not a duration/);
  });
});
