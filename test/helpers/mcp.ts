import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** The tools both transports list, in order. */
export const TOOL_NAMES = [
  'list_demos',
  'get_demo',
  'create_demo_from_url',
  'get_generation_status',
  'publish_demo',
  'list_share_links',
  'create_share_link',
  'get_analytics_overview',
  'get_demo_analytics',
  'get_demo_paths',
  'list_views',
  'start_ab_test',
  'list_ab_tests',
  'get_ab_test_results',
  'stop_ab_test',
];

export const newClient = () => new Client({ name: 'demoshare-test', version: '1.0.0' });

/** Calls a tool and returns its JSON answer; fails the test on a tool error. */
export async function callJson<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  return JSON.parse(text) as T;
}

/** Calls a tool that must fail and returns its `{code, message, details?}`. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, `${name} should have failed: ${text}`).toBe(true);
  return (JSON.parse(text) as { error: { code: string; message: string; details?: unknown } }).error;
}

/** A REST call's JSON, to hold a tool's answer against the route it mirrors. */
export async function rest(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: unknown; error?: { code: string; message: string } } };
}
