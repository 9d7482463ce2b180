// A/B tests on share links: an experiment per link at a time, its arms (a demo, or one published version of it, with a weight).
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { members } from '../accounts/accounts.tables';
import { at, createdAt, id } from '../db/columns';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { workspaces } from '../workspaces/workspaces.tables';

export const EXPERIMENT_METRICS = ['completion', 'form_conversion', 'cta_click'] as const;
export type ExperimentMetric = (typeof EXPERIMENT_METRICS)[number];
export const EXPERIMENT_STATUSES = ['running', 'stopped'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/**
 * An A/B test on one share link. While `running`, each viewer session is served one arm (sticky); once
 * `stopped`, every viewer gets the winner (or the link's own demo when none was kept). A link has at most
 * one running experiment; stopped ones stay, with their figures.
 */
export const experiments = pgTable(
  'experiments',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    /** The proportion the significance figure compares between arms. */
    metric: text('metric', { enum: EXPERIMENT_METRICS }).notNull(),
    status: text('status', { enum: EXPERIMENT_STATUSES }).notNull(),
    /** The arm kept when it was stopped: served to every viewer from then on. Null: the link's own demo. */
    winnerArmId: text('winner_arm_id'),
    startedAt: at('started_at').notNull(),
    stoppedAt: at('stopped_at'),
    createdById: text('created_by_id').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('experiments_share_idx').on(t.shareId, t.startedAt),
    // One running experiment per link: two would each claim the link's viewers.
    uniqueIndex('experiments_running_uq').on(t.shareId).where(sql`status = 'running'`),
  ],
);

/**
 * One arm: a demo of the workspace (its newest published version, or the version pinned in `version`)
 * and its weight. A deleted demo leaves the arm with `demo_id` null: its figures stay, it serves nothing.
 */
export const experimentArms = pgTable(
  'experiment_arms',
  {
    id: id(),
    experimentId: text('experiment_id')
      .notNull()
      .references(() => experiments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    demoId: text('demo_id').references(() => demos.id, { onDelete: 'set null' }),
    /** A pinned published version (demo_versions.number); null: the newest published one. */
    version: integer('version'),
    weight: integer('weight').notNull(),
  },
  (t) => [index('experiment_arms_experiment_idx').on(t.experimentId, t.position), index('experiment_arms_demo_idx').on(t.demoId)],
);
