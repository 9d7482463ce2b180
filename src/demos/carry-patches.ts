// Regenerating a demo: the page patches of a replaced step follow to the fresh step of the same page, where they still apply.
import type { GeneratedStep } from '../generation/generation.types';
import type { StepRow } from './demos.repo';
import type { PagePatch } from './story.schemas';

/** Which of `patches` still find an element of `html` they apply to (the document workers' `matchPagePatches`). */
export type MatchPatches = (html: string, patches: PagePatch[]) => Promise<boolean[]>;

export interface CarriedPatches {
  /** Per fresh step (by its index in the generation result), the patches it takes over. */
  byIndex: Map<number, PagePatch[]>;
  /** One line per replaced step that lost some: what the generation's warnings say. */
  warnings: string[];
}

const samePage = (a: string | null, b: string) => !!a && a.replace(/\/+(?=$|[?#])/, '') === b.replace(/\/+(?=$|[?#])/, '');

/**
 * For each replaced step with patches (in order), the first fresh snapshot step of the same page not yet
 * taken: it gets the patches whose selectors still match its capture; the others are dropped and said so.
 * A replaced step whose page has no fresh snapshot loses its patches, said so too. Fresh steps a kept step
 * stands in for (`skip`) take nothing.
 */
export async function carryPatches(
  replaced: Pick<StepRow, 'position' | 'pageUrl' | 'patches'>[],
  fresh: Pick<GeneratedStep, 'pageUrl' | 'html'>[],
  skip: (index: number) => boolean,
  match: MatchPatches,
): Promise<CarriedPatches> {
  const byIndex = new Map<number, PagePatch[]>();
  const warnings: string[] = [];
  const plural = (n: number) => (n === 1 ? '1 page edit' : `${n} page edits`);
  for (const old of replaced) {
    if (old.patches.length === 0) continue;
    const index = fresh.findIndex((step, i) => !skip(i) && !byIndex.has(i) && !!step.html && samePage(old.pageUrl, step.pageUrl));
    const target = fresh[index];
    if (!target?.html) {
      warnings.push(`Step ${old.position}: ${plural(old.patches.length)} dropped (no new capture of ${old.pageUrl ?? 'its page'})`);
      continue;
    }
    const found = await match(target.html, old.patches);
    const keep = old.patches.filter((_, i) => found[i]);
    byIndex.set(index, keep);
    const lost = old.patches.length - keep.length;
    if (lost > 0) warnings.push(`Step ${old.position}: ${plural(lost)} dropped (no longer found on the new capture of ${old.pageUrl})`);
  }
  return { byIndex, warnings };
}
