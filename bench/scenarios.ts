import type { FastifyInstance } from 'fastify';

/**
 * The benchmark's targets, measured in this order in every run. To add one, append a scenario (and, when it
 * needs data, a seed that returns the ids its path uses). `baseline` names the scenario its ratio is taken
 * against, and `target` the smallest acceptable ratio (the run reports MISS below it).
 */
export interface Scenario {
  name: string;
  /** `bare`: the baseline server (no auth, no hooks); `app`: the real application. */
  server: 'app' | 'bare';
  path: (ids: Record<string, string>) => string;
  /** Send the seeded API key as a bearer token. */
  auth?: boolean;
  baseline?: string;
  target?: number;
}

export interface SeedContext {
  app: FastifyInstance;
  key: string;
  ids: Record<string, string>;
}

/** Extra data for scenarios; each returns ids to merge into `ids`. Runs in the server process. */
export const SEEDS: Array<(ctx: SeedContext) => Promise<Record<string, string>>> = [];

export const SCENARIOS: Scenario[] = [
  { name: 'bare: constant', server: 'bare', path: () => '/const' },
  { name: 'bare: one PK SELECT', server: 'bare', path: () => '/select', baseline: 'bare: constant' },
  {
    name: 'GET /v1/team/members (API key)',
    server: 'app',
    path: () => '/v1/team/members',
    auth: true,
    baseline: 'bare: one PK SELECT',
    target: 0.6,
  },
];
