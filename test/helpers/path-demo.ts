import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DemoSnapshot } from '../../src/demos/demo-snapshot';
import { demoVersions } from '../../src/demos/demos.tables';
import { viewerClient } from './shares';
import type { TestApp } from './test-app';

export const CHAPTER_A = 'chp_01jd8x3k5m7n9p2q4r6s8t0v1a';
export const CHAPTER_B = 'chp_01jd8x3k5m7n9p2q4r6s8t0v1b';

/**
 * Turns the published version of a 4-step demo (demoWithSteps) into a story as the contract stores it:
 * step 1 a chapter menu (buttons pick-a, pick-b), chapter Invoicing = steps 2-3 (step 2's hotspot goes to
 * step 3, step 3 a lead form), chapter Reports = step 4 with a "Book a call" call to action. Written in the
 * version's snapshot, so analytics names things from it whatever the editor's API offers yet.
 */
export async function storyVersion(t: Pick<TestApp, 'ctx'>, demoId: string) {
  const { db } = t.ctx.database;
  const [version] = await db.select().from(demoVersions).where(eq(demoVersions.demoId, demoId));
  const snapshot = version!.snapshot as unknown as DemoSnapshot;
  const steps = [...snapshot.steps].sort((a, b) => a.position - b.position);
  snapshot.chapters = [
    { id: CHAPTER_A, position: 0, title: 'Invoicing', description: '' },
    { id: CHAPTER_B, position: 1, title: 'Reports', description: '' },
  ];
  steps[0]!.kind = 'chapter_menu';
  steps[0]!.content = {
    buttons: [
      { id: 'pick-a', label: 'Invoicing', style: 'primary', action: { type: 'chapter', target: CHAPTER_A } },
      { id: 'pick-b', label: 'Reports', style: 'primary', action: { type: 'chapter', target: CHAPTER_B } },
    ],
  };
  steps[1]!.chapter_id = CHAPTER_A;
  steps[1]!.hotspots[0]!.action_type = 'goto';
  steps[1]!.hotspots[0]!.action_target = steps[2]!.id;
  steps[2]!.chapter_id = CHAPTER_A;
  steps[2]!.kind = 'form';
  steps[2]!.content = {
    buttons: [],
    form: { fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }], submit_label: 'Send', gate: false, skippable: false },
  };
  steps[3]!.chapter_id = CHAPTER_B;
  steps[3]!.content = {
    buttons: [{ id: 'book-call', label: 'Book a call', style: 'primary', cta: 'book_meeting', action: { type: 'url', target: 'https://example.com/book' } }],
  };
  await db
    .update(demoVersions)
    .set({ snapshot: snapshot as never })
    .where(eq(demoVersions.demoId, demoId));
  return { hotspot2: steps[1]!.hotspots[0]!.id };
}

const ev = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });

/**
 * Three views through the viewer API: one takes Invoicing (hotspot, form sent), then Reports (the call to
 * action twice) and completes; one takes Invoicing twice (in two requests) and is shown the form; one only
 * opens. Answers the first view's batch, for retrying it.
 */
export async function playPathViews(t: TestApp, token: string, hotspot2: string) {
  const one = viewerClient(t, token, '203.0.113.21');
  await one.call('GET', '');
  const batch = {
    events: [
      ev('view_started'),
      ev('action_taken', { step_number: 1, element_id: 'pick-a', action_type: 'chapter' }),
      ev('chapter_selected', { step_number: 1, chapter_id: CHAPTER_A }),
      ev('step_reached', { step_number: 2, seconds_on_previous: 2 }),
      ev('action_taken', { step_number: 2, element_id: hotspot2, action_type: 'goto', target_step: 3 }),
      ev('step_reached', { step_number: 3, seconds_on_previous: 2 }),
      ev('form_shown', { step_number: 3 }),
      ev('form_started', { step_number: 3 }),
      ev('form_submitted', { step_number: 3 }),
      ev('chapter_selected', { step_number: 1, chapter_id: CHAPTER_B }),
      ev('step_reached', { step_number: 4, seconds_on_previous: 2 }),
      ev('cta_clicked', { step_number: 4, element_id: 'book-call' }),
      ev('cta_clicked', { step_number: 4, element_id: 'book-call' }),
      ev('completed', { seconds_on_previous: 1 }),
    ],
  };
  const first = await one.call('POST', '/events', batch);

  const two = viewerClient(t, token, '203.0.113.22');
  await two.call('GET', '');
  await two.call('POST', '/events', { events: [ev('view_started'), ev('chapter_selected', { step_number: 1, chapter_id: CHAPTER_A }), ev('step_reached', { step_number: 2 })] });
  // In a later request: the view's chapter and marks come back from the database.
  await two.call('POST', '/events', {
    events: [ev('chapter_selected', { step_number: 1, chapter_id: CHAPTER_A }), ev('form_shown', { step_number: 3 }), ev('form_shown', { step_number: 3 })],
  });

  const three = viewerClient(t, token, '203.0.113.23');
  await three.call('GET', '');
  await three.call('POST', '/events', { events: [ev('view_started')] });
  return { first, retry: () => one.call('POST', '/events', batch) };
}
