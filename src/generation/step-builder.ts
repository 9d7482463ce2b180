import type { CapturedPage, GeneratedHotspot, GeneratedStep, PixelBox } from './generation.types';
import type { PlannedStep } from './step-planner';
import type { StepCopy } from './step-writer';

/** Where a hotspot sits when the page has no layout (HTML mode): the player finds it by selector. */
export const DEFAULT_HOTSPOT_BOX = { x: 0.35, y: 0.4, width: 0.3, height: 0.12 } as const;
/** Room around an element inside its hotspot, in pixels. */
export const HOTSPOT_PADDING = 6;

/**
 * A planned step with its words becomes the step the demos module stores: the screenshot that shows
 * its element (the page's top, or the frame further down that holds it), and one hotspot on that
 * element in fractions of the image.
 */
export function buildStep(plan: PlannedStep, copy: StepCopy): GeneratedStep {
  const { page, element } = plan;
  const frame = page.screenshot ? chooseFrame(page, element.box) : null;
  const box = frame && element.box ? fractions(element.box, frame.top, page) : { ...DEFAULT_HOTSPOT_BOX };
  const hotspot: GeneratedHotspot = {
    ...box,
    selector: element.selector || null,
    label: copy.label,
    tooltip: copy.tooltip,
    action: { type: 'next' },
  };
  return {
    title: copy.title,
    description: copy.description,
    pageUrl: page.url,
    ...(frame
      ? { image: { data: frame.screenshot, contentType: 'image/png' as const, width: page.width, height: page.height }, imageTop: frame.top }
      : {}),
    // The snapshot is what HTML mode shows; with a screenshot it would only be stored once per step for nothing.
    ...(!frame && page.html ? { html: page.html } : {}),
    width: page.width,
    height: page.height,
    hotspots: [hotspot],
  };
}

/** The highest frame that shows the whole element, else the one showing most of it (the stale-demo check picks the same). */
export function chooseFrame(page: CapturedPage, box: PixelBox | undefined): { top: number; screenshot: Buffer } {
  const frames = [{ top: 0, screenshot: page.screenshot! }, ...(page.frames ?? [])].sort((a, b) => a.top - b.top);
  if (!box) return frames[0]!;
  const whole = frames.find((f) => box.y >= f.top && box.y + box.height <= f.top + page.height);
  if (whole) return whole;
  const shown = (f: { top: number }) => Math.min(box.y + box.height, f.top + page.height) - Math.max(box.y, f.top);
  return frames.reduce((best, f) => (shown(f) > shown(best) ? f : best));
}

export function fractions(box: PixelBox, top: number, page: CapturedPage): Pick<GeneratedHotspot, 'x' | 'y' | 'width' | 'height'> {
  const left = clamp((box.x - HOTSPOT_PADDING) / page.width);
  const upper = clamp((box.y - top - HOTSPOT_PADDING) / page.height);
  const right = clamp((box.x + box.width + HOTSPOT_PADDING) / page.width);
  const lower = clamp((box.y - top + box.height + HOTSPOT_PADDING) / page.height);
  return { x: round(left), y: round(upper), width: round(Math.max(right - left, 0.01)), height: round(Math.max(lower - upper, 0.01)) };
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number) => Math.round(v * 10_000) / 10_000;
