// The writes of the synthetic-views seeder (seed-views.ts, `npm run seed:views`) that the ingestion does not make: a demo's shares and viewer sessions.
import { eq } from 'drizzle-orm';
import { randomToken } from '../core/crypto';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { demos } from '../demos/demos.tables';
import { shares } from '../shares/shares.tables';
import { viewerSessions } from './viewing.tables';

export type SeedSession = typeof viewerSessions.$inferInsert;

export async function findDemoWorkspace(db: Executor, demoId: string): Promise<string | undefined> {
  const [demo] = await db.select({ workspaceId: demos.workspaceId }).from(demos).where(eq(demos.id, demoId)).limit(1);
  return demo?.workspaceId;
}

export async function listDemoShareIds(db: Executor, demoId: string): Promise<string[]> {
  const rows = await db.select({ id: shares.id }).from(shares).where(eq(shares.demoId, demoId));
  return rows.map((s) => s.id);
}

export async function insertSeedShare(db: Executor, workspaceId: string, demoId: string, name: string): Promise<string> {
  const id = newId('share');
  await db.insert(shares).values({ id, workspaceId, demoId, token: randomToken(32), name });
  return id;
}

/** In batches of a thousand: one statement's parameters stay well under PostgreSQL's limit of 65535. */
export async function insertViewerSessions(db: Executor, rows: SeedSession[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1_000) await db.insert(viewerSessions).values(rows.slice(i, i + 1_000));
}
