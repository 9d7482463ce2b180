// The story problems of a demo's draft as loaded (steps, hotspots, chapters, configuration): what GET
// /v1/demos/:id answers as `story_problems` and what publishing refuses.
import type { ChapterRow } from './chapters.repo';
import { resolveConfiguration } from './demo-configuration.schemas';
import type { HotspotRow, StepRow } from './demos.repo';
import { storyProblems } from './story-graph';

export function problemsOfContent(content: {
  demo: { configuration: Record<string, unknown> };
  steps: StepRow[];
  hotspots: HotspotRow[];
  chapters?: ChapterRow[];
}) {
  const { navigation } = resolveConfiguration(content.demo.configuration, null);
  return storyProblems({
    steps: content.steps,
    hotspots: content.hotspots,
    chapters: content.chapters ?? [],
    navigation: navigation.buttons || navigation.keyboard,
  });
}
