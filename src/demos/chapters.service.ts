// The chapters of a demo: made, renamed, moved and deleted on the locked demo like its steps (step-edit.ts).
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import * as chapters from './chapters.repo';
import type { ChapterInput } from './chapters.schemas';
import * as repo from './demos.repo';
import { editSteps, type StepEditDeps } from './step-edit';

/**
 * Chapters group steps for a chapter menu; a step joins one by its `chapter_id` (PATCH of the step).
 * Deleting a chapter keeps its steps (they leave it); actions that named it become story problems
 * (story-graph.ts) until they are pointed elsewhere.
 *
 * @example
 * ```ts
 * const chapter = await chapters.create(auth, demoId, { title: 'Invoicing' });
 * await steps.updateStep(auth, demoId, stepId, { chapterId: chapter.chapter.id });
 * ```
 */
export function createChaptersService(deps: StepEditDeps) {
  async function list(auth: AuthContext, demoId: string) {
    const { db } = deps.database;
    const demo = await repo.findDemo(db, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    const [rows, steps] = await Promise.all([chapters.listChapters(db, demoId), repo.listSteps(db, demoId)]);
    return { chapters: rows, steps };
  }

  async function create(auth: AuthContext, demoId: string, input: ChapterInput & { title: string }) {
    return editSteps(deps, auth, demoId, async (tx, demo, now) => {
      const existing = await chapters.listChapters(tx, demo.id);
      const at = Math.min(input.number ?? existing.length + 1, existing.length + 1);
      const [row] = await chapters.insertChapters(tx, [
        {
          id: newId('chapter'),
          demoId: demo.id,
          position: at,
          title: input.title,
          description: input.description ?? '',
          createdAt: now,
          updatedAt: now,
        },
      ]);
      const ordered = [...existing];
      ordered.splice(at - 1, 0, row!);
      await chapters.renumberChapters(tx, ordered, now);
      return { chapter: row!, steps: await repo.listSteps(tx, demo.id) };
    });
  }

  async function update(auth: AuthContext, demoId: string, chapterId: string, input: ChapterInput) {
    return editSteps(deps, auth, demoId, async (tx, demo, now) => {
      const existing = await chapters.listChapters(tx, demo.id);
      const current = existing.find((c) => c.id === chapterId);
      if (!current) throw notFound('Chapter');
      let row = await chapters.updateChapter(tx, chapterId, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        updatedAt: now,
      });
      if (input.number !== undefined) {
        const ordered = existing.filter((c) => c.id !== chapterId);
        ordered.splice(Math.min(input.number, ordered.length + 1) - 1, 0, row);
        await chapters.renumberChapters(tx, ordered, now);
        row = ordered.find((c) => c.id === chapterId)!;
      }
      return { chapter: row, steps: await repo.listSteps(tx, demo.id) };
    });
  }

  async function remove(auth: AuthContext, demoId: string, chapterId: string) {
    await editSteps(deps, auth, demoId, async (tx, demo, now) => {
      const existing = await chapters.listChapters(tx, demo.id);
      if (!existing.some((c) => c.id === chapterId)) throw notFound('Chapter');
      await chapters.deleteChapter(tx, chapterId);
      await chapters.renumberChapters(
        tx,
        existing.filter((c) => c.id !== chapterId),
        now,
      );
    });
  }

  return { list, create, update, remove };
}

export type ChaptersService = ReturnType<typeof createChaptersService>;
