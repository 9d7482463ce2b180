// guide.md: the guide as CommonMark (GFM-friendly), the text a help centre's editor takes as it is.
import type { Guide, GuideBlock, GuideButton, GuideHotspot, GuideLink, GuideStep } from './guide-model';
import { tooltipAdds } from './guide-model';
import { escapeMarkdown, markdownUrl, plainOf, toMarkdown } from './guide-text';

/** Where a hotspot or button leads, as a sentence's end: "goes to step 4 (Send it)". */
export function leadsTo(link: GuideLink | undefined): string | null {
  if (!link) return null;
  switch (link.kind) {
    case 'step':
      return `goes to step ${link.number} (${link.title})`;
    case 'chapter':
      return `goes to “${link.title}”`;
    case 'url':
      return `opens ${link.url}`;
    case 'demo':
      return `opens another demo: ${link.url}`;
    case 'end':
      return 'ends the tour';
    case 'restart':
      return 'starts the tour again';
  }
}

const sentence = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);
const stop = (text: string) => (/[.!?:]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** `[label](url)` for an address, the escaped phrase otherwise. */
function leadsToMarkdown(link: GuideLink | undefined): string | null {
  if (link?.kind === 'url' || link?.kind === 'demo') {
    return `${link.kind === 'demo' ? 'opens another demo' : 'opens'} <${markdownUrl(link.url)}>`;
  }
  const phrase = leadsTo(link);
  return phrase && escapeMarkdown(phrase);
}

/**
 * The whole guide.md: `# title`, the introduction, then chapters as `##` headings with steps as `###`
 * (steps are `##` in a guide without chapters), each step's marked picture, its text, what its marked
 * areas and buttons do, a form's fields; end screens and the demo's call to action as links at the end.
 * `header` goes first as an HTML comment (where the guide came from), invisible once rendered.
 */
export function guideMarkdown(guide: Guide, header: string): string {
  const out: string[] = [`<!-- ${header.replace(/--/g, '—')} -->`, `# ${escapeMarkdown(guide.title)}`];
  if (guide.intro) {
    if (guide.intro.title && guide.intro.title !== guide.title) out.push(`**${escapeMarkdown(guide.intro.title)}**`);
    const text = toMarkdown(guide.intro.description);
    if (text) out.push(text);
    if (guide.intro.links.length > 0) out.push(linkList(guide.intro.links));
  }
  const stepLevel = guide.hasChapters ? '###' : '##';
  for (const block of guide.blocks) out.push(...blockMarkdown(block, stepLevel));
  if (guide.callToAction) out.push('## Next steps', `[${escapeMarkdown(guide.callToAction.label)}](${markdownUrl(guide.callToAction.url)})`);
  return `${out.filter(Boolean).join('\n\n')}\n`;
}

function blockMarkdown(block: GuideBlock, stepLevel: string): string[] {
  switch (block.type) {
    case 'chapter':
      return [`## ${escapeMarkdown(block.title)}`, block.description ? escapeMarkdown(block.description) : ''];
    case 'note':
      return [`**${escapeMarkdown(block.title)}**`, toMarkdown(block.description), block.links.length > 0 ? linkList(block.links) : ''];
    case 'menu':
      return [
        block.title ? `**${escapeMarkdown(block.title)}**` : '',
        toMarkdown(block.description),
        block.choices.length > 0 ? buttonList(block.choices) : '',
      ];
    case 'end':
      return [
        `## ${escapeMarkdown(block.title || 'Next steps')}`,
        toMarkdown(block.description),
        block.links.length > 0 ? linkList(block.links) : '',
      ];
    case 'step':
      return stepMarkdown(block, stepLevel);
  }
}

function stepMarkdown(step: GuideStep, level: string): string[] {
  const out = [`${level} ${step.number}. ${escapeMarkdown(step.title)}`];
  if (step.picture) out.push(`![${escapeMarkdown(altOf(step))}](${step.picture.file})`);
  out.push(toMarkdown(step.description));
  out.push(hotspotsMarkdown(step));
  if (step.form) {
    const fields = step.form.fields.map((f) => {
      const options = f.options && f.options.length > 0 ? `: one of ${f.options.map(escapeMarkdown).join(', ')}` : '';
      return `- **${escapeMarkdown(sentence(f.label))}**${f.required ? ' (required)' : ''}${options}`;
    });
    if (fields.length > 0) out.push('Fill in the form:', fields.join('\n'));
    out.push(`Then select **${escapeMarkdown(step.form.submit)}**.`);
  }
  if (step.buttons.length > 0) out.push(step.buttons.length === 1 ? 'Then select:' : 'Then choose one:', buttonList(step.buttons));
  return out;
}

/** The alt text of a step's picture: what it shows and what is marked on it. */
export function altOf(step: GuideStep): string {
  const marked = step.hotspots.map((h) => h.label).filter(Boolean);
  return `Step ${step.number}: ${step.title}${marked.length > 0 ? ` (marked: ${marked.join(', ')})` : ''}`;
}

function hotspotsMarkdown(step: GuideStep): string {
  const { hotspots } = step;
  if (hotspots.length === 0) return '';
  if (hotspots.length === 1) {
    const h = hotspots[0]!;
    const parts: string[] = [];
    if (tooltipAdds(step, h)) parts.push(toMarkdown(h.tooltip));
    const where = leadsToMarkdown(h.link);
    if (where) parts.push(`${h.label ? `**${escapeMarkdown(h.label)}**` : 'The marked area'} ${where}.`);
    return parts.join('\n\n');
  }
  return hotspots.map((h) => `${h.n}. ${hotspotLine(step, h)}`).join('\n');
}

function hotspotLine(step: GuideStep, h: GuideHotspot): string {
  const name = h.label ? `**${escapeMarkdown(h.label)}**` : `**Marked area ${h.n}**`;
  const tip = tooltipAdds(step, h) ? inline(toMarkdown(h.tooltip)) : '';
  const where = leadsToMarkdown(h.link);
  return [name, tip ? `: ${stop(tip)}` : '', where ? ` ${tip ? sentence(where) : `— ${where}`}.` : ''].join('').replace(/\.\.$/, '.');
}

/** Markdown on one line (inside a list item). */
const inline = (md: string) => md.replace(/\s*\n+\s*/g, ' ').trim();

function buttonList(buttons: GuideButton[]): string {
  return buttons
    .map((b) => {
      const where = b.link?.kind === 'chapter' ? `goes to “${escapeMarkdown(b.link.title)}”` : leadsToMarkdown(b.link);
      const description = b.description ? `: ${escapeMarkdown(stop(b.description))}` : '';
      return `- **${escapeMarkdown(b.label)}**${description}${where ? ` ${description ? sentence(where) : `— ${where}`}.` : ''}`;
    })
    .join('\n');
}

function linkList(buttons: GuideButton[]): string {
  return buttons
    .filter((b) => b.link?.kind === 'url' || b.link?.kind === 'demo')
      .map((b) => `- [${escapeMarkdown(b.label)}](${markdownUrl((b.link as { url: string }).url)})${b.description ? `: ${escapeMarkdown(b.description)}` : ''}`)
    .join('\n');
}

/** The guide's plain title line for the PDF's footer and file names. */
export const plainTitle = (guide: Guide) => plainOf({ html: null, text: guide.title }) || 'Guide';
