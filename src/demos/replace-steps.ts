import type { AuthContext } from '../auth/permissions';
import { invalid } from '../core/errors';
import { newId } from '../core/ids';
import type { StepRow } from './demos.repo';
import * as repo from './demos.repo';
import { editSteps, keepsOneStep, type StepEditDeps } from './step-edit';
import type { ReplaceStepsEntry } from './steps.schemas';

/** PUT /v1/demos/:id/steps: the given list becomes the demo's steps, in that order. */
export async function replaceSteps(deps: StepEditDeps, auth: AuthContext, demoId: string, entries: ReplaceStepsEntry[]) {
  await editSteps(deps, auth, demoId, async (tx, demo, now) => {
    const current = await repo.listSteps(tx, demo.id);
    const byId = new Map(current.map((s) => [s.id, s]));
    const seen = new Set<string>();
    const details: { field: string; message: string }[] = [];
    entries.forEach((entry, index) => {
      const id = typeof entry === 'string' ? entry : entry.id;
      if (!id) return;
      if (!byId.has(id)) details.push({ field: `steps.${index}`, message: `${id} is not a step of this demo` });
      else if (seen.has(id)) details.push({ field: `steps.${index}`, message: `${id} is listed twice` });
      seen.add(id);
    });
    if (details.length > 0) throw invalid('The steps list does not match this demo', details);
    keepsOneStep(demo, entries.length);

    await repo.deleteSteps(
      tx,
      demo.id,
      current.filter((s) => !seen.has(s.id)),
    );
    const ordered: StepRow[] = [];
    for (const entry of entries) {
      const fields = typeof entry === 'string' ? {} : entry;
      const existing = fields.id ?? (typeof entry === 'string' ? entry : undefined);
      if (existing) {
        let step = byId.get(existing)!;
        if (fields.title !== undefined || fields.description !== undefined || fields.page_url !== undefined) {
          step = await repo.updateStep(tx, step.id, {
            ...(fields.title !== undefined ? { title: fields.title } : {}),
            ...(fields.description !== undefined ? { description: fields.description } : {}),
            ...(fields.page_url !== undefined ? { pageUrl: fields.page_url } : {}),
            editedAt: now,
            updatedAt: now,
          });
        }
        ordered.push(step);
      } else {
        const [created] = await repo.insertSteps(tx, [
          {
            id: newId('step'),
            demoId: demo.id,
            // Placed past the end for now; renumber gives it its place.
            position: current.length + ordered.length + 1,
            title: fields.title ?? '',
            description: fields.description ?? '',
            pageUrl: fields.page_url ?? null,
            editedAt: now,
            createdAt: now,
            updatedAt: now,
          },
        ]);
        ordered.push(created!);
      }
    }
    await repo.renumber(tx, ordered, now);
  });
}
