// guide.html: the guide as one printable page (title page, contents, chapters, steps), what Chromium turns into the PDF.
import { leadsTo } from './guide-markdown';
import type { Guide, GuideBlock, GuideButton, GuideHotspot, GuideLink, GuideStep } from './guide-model';
import { altOf } from './guide-markdown';
import { tooltipAdds } from './guide-model';
import { escapeHtml as e, plainOf, toHtml } from './guide-text';

export interface GuidePageInfo {
  /** "Draft" or "Published version 3". */
  versionLabel: string;
  /** The day it was exported, as people write it: "29 November 2026". */
  date: string;
}

const sentence = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);

function linkHtml(link: GuideLink | undefined): string | null {
  if (!link) return null;
  switch (link.kind) {
    case 'step':
      return `goes to <a href="#${link.anchor}">step ${link.number} (${e(link.title)})</a>`;
    case 'chapter':
      return `goes to <a href="#${link.anchor}">${e(link.title)}</a>`;
    case 'url':
    case 'demo':
      return `${link.kind === 'demo' ? 'opens another demo: ' : 'opens '}<a href="${e(link.url)}">${e(link.url)}</a>`;
    default:
      return e(leadsTo(link) ?? '');
  }
}

/**
 * The printable guide. Pictures are addressed by their zip names (`images/01-….png`) relative to the page,
 * so the printer serves them from memory; nothing else is loaded (no script, no font, no remote address).
 * Chapters start on a new page; a step keeps its heading, picture and text together where they fit.
 */
export function guideHtml(guide: Guide, info: GuidePageInfo): string {
  const stepTag = guide.hasChapters ? 'h3' : 'h2';
  const count = guide.steps.length;
  const intro = guide.intro;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(guide.title)}</title>
<style>${css(guide.accent)}</style></head>
<body>
<section class="title-page">
  <p class="kicker">Step-by-step guide</p>
  <h1>${e(guide.title)}</h1>
  ${intro?.title && intro.title !== guide.title ? `<p class="lead">${e(intro.title)}</p>` : ''}
  ${intro ? `<div class="intro">${toHtml(intro.description)}${linkList(intro.links)}</div>` : ''}
  <p class="meta">${count} ${count === 1 ? 'step' : 'steps'} · ${e(info.versionLabel)} · ${e(info.date)}</p>
  ${contents(guide)}
</section>
<main>
${guide.blocks.map((b) => blockHtml(b, stepTag)).join('\n')}
${guide.callToAction ? `<section class="end"><h2>Next steps</h2><p><a class="cta" href="${e(guide.callToAction.url)}">${e(guide.callToAction.label)}</a></p></section>` : ''}
</main>
</body></html>`;
}

function contents(guide: Guide): string {
  if (guide.steps.length < 2) return '';
  const items: string[] = [];
  let open = false;
  for (const b of guide.blocks) {
    if (b.type === 'chapter') {
      if (open) items.push('</ol></li>');
      items.push(`<li class="chapter"><a href="#${b.anchor}">${e(b.title)}</a><ol>`);
      open = true;
    } else if (b.type === 'step') {
      items.push(`<li value="${b.number}"><a href="#${b.anchor}">${e(b.title)}</a></li>`);
    }
  }
  if (open) items.push('</ol></li>');
  return `<nav class="contents"><h2>Contents</h2><ol${guide.hasChapters ? ' class="chapters"' : ''}>${items.join('')}</ol></nav>`;
}

function blockHtml(block: GuideBlock, stepTag: string): string {
  switch (block.type) {
    case 'chapter':
      return `<h2 class="chapter" id="${block.anchor}">${e(block.title)}</h2>${block.description ? `<p class="chapter-text">${e(block.description)}</p>` : ''}`;
    case 'note':
      return `<aside class="note"><p class="note-title">${e(block.title)}</p>${toHtml(block.description)}${linkList(block.links)}</aside>`;
    case 'menu':
      return `<aside class="note">${block.title ? `<p class="note-title">${e(block.title)}</p>` : ''}${toHtml(block.description)}${buttonList(block.choices)}</aside>`;
    case 'end':
      return `<section class="end"><h2>${e(block.title || 'Next steps')}</h2>${toHtml(block.description)}${linkList(block.links, 'cta')}</section>`;
    case 'step':
      return stepHtml(block, stepTag);
  }
}

function stepHtml(step: GuideStep, tag: string): string {
  const parts = [`<${tag}><span class="num">${step.number}</span><span class="title">${e(step.title)}</span></${tag}>`];
  if (step.picture) parts.push(`<figure><img src="${e(step.picture.file)}" alt="${e(altOf(step))}"></figure>`);
  parts.push(`<div class="text">${toHtml(step.description)}${hotspotsHtml(step)}`);
  if (step.form) {
    const fields = step.form.fields.map(
      (f) =>
        `<li><b>${e(sentence(f.label))}</b>${f.required ? ' <span class="req">(required)</span>' : ''}${f.options?.length ? `: one of ${f.options.map(e).join(', ')}` : ''}</li>`,
    );
    if (fields.length > 0) parts.push(`<p>Fill in the form:</p><ul class="fields">${fields.join('')}</ul>`);
    parts.push(`<p>Then select <b>${e(step.form.submit)}</b>.</p>`);
  }
  if (step.buttons.length > 0) parts.push(`<p>${step.buttons.length === 1 ? 'Then select:' : 'Then choose one:'}</p>${buttonList(step.buttons)}`);
  parts.push('</div>');
  return `<article class="step" id="${step.anchor}">${parts.join('')}</article>`;
}

function hotspotsHtml(step: GuideStep): string {
  const { hotspots } = step;
  if (hotspots.length === 0) return '';
  if (hotspots.length === 1) {
    const h = hotspots[0]!;
    const tip = tooltipAdds(step, h) ? `<div class="tip">${toHtml(h.tooltip)}</div>` : '';
    const where = linkHtml(h.link);
    return `${tip}${where ? `<p>${h.label ? `<b>${e(h.label)}</b>` : 'The marked area'} ${where}.</p>` : ''}`;
  }
  return `<ol class="marks">${hotspots.map((h) => `<li>${hotspotLine(step, h)}</li>`).join('')}</ol>`;
}

function hotspotLine(step: GuideStep, h: GuideHotspot): string {
  const name = `<b>${e(h.label || `Marked area ${h.n}`)}</b>`;
  const added = tooltipAdds(step, h);
  const tip = added ? toHtml(h.tooltip).replace(/^<p>|<\/p>$/g, '') : '';
  // A sentence ends before the next one starts ("… CSV file. Opens …").
  const end = added && !/[.!?:]$/.test(plainOf(h.tooltip)) ? '.' : '';
  const where = linkHtml(h.link);
  return `${name}${tip ? `: ${tip}${end}` : ''}${where ? ` ${tip ? sentence(where) : `— ${where}`}.` : ''}`;
}

function buttonList(buttons: GuideButton[]): string {
  if (buttons.length === 0) return '';
  const items = buttons.map((b) => {
    const where = linkHtml(b.link);
    const description = b.description ? `: ${e(b.description)}` : '';
    return `<li><b>${e(b.label)}</b>${description}${where ? ` ${description ? sentence(where) : `— ${where}`}.` : ''}</li>`;
  });
  return `<ul class="choices">${items.join('')}</ul>`;
}

function linkList(buttons: GuideButton[], className = ''): string {
  const links = buttons.filter((b) => b.link?.kind === 'url' || b.link?.kind === 'demo');
  if (links.length === 0) return '';
  const items = links.map((b) => `<li><a${className ? ` class="${className}"` : ''} href="${e((b.link as { url: string }).url)}">${e(b.label)}</a>${b.description ? ` ${e(b.description)}` : ''}</li>`);
  return `<ul class="links">${items.join('')}</ul>`;
}

function css(accent: string): string {
  return `
@page { size: A4; margin: 18mm 18mm 20mm 18mm; }
* { box-sizing: border-box; }
html { font-family: "Liberation Sans", "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; font-size: 10.5pt; color: #1f2937; line-height: 1.5; }
body { margin: 0; }
a { color: ${accent}; text-decoration: none; }
.title-page { break-after: page; padding-top: 45mm; border-top: 6px solid ${accent}; }
.kicker { text-transform: uppercase; letter-spacing: 0.12em; font-size: 9pt; color: ${accent}; font-weight: bold; margin: 0 0 4mm; }
h1 { font-size: 28pt; line-height: 1.15; margin: 0 0 6mm; color: #111827; }
.lead { font-size: 14pt; color: #374151; margin: 0 0 4mm; }
.intro { font-size: 12pt; color: #374151; max-width: 150mm; }
.meta { color: #6b7280; font-size: 9.5pt; margin: 8mm 0 12mm; }
.contents { border-top: 1px solid #e5e7eb; padding-top: 6mm; }
.contents h2 { font-size: 12pt; margin: 0 0 3mm; color: #111827; }
.contents ol { margin: 0; padding-left: 6mm; }
.contents ol.chapters { list-style: none; padding-left: 0; }
.contents li { margin: 1mm 0; }
.contents li.chapter > a { font-weight: bold; color: #111827; }
.contents li.chapter > ol { margin: 1mm 0 3mm; }
.contents a { color: #374151; }
h2.chapter { break-before: page; font-size: 18pt; color: #111827; margin: 0 0 2mm; padding-bottom: 2mm; border-bottom: 2px solid ${accent}; }
main > h2.chapter:first-child { break-before: auto; }
.chapter-text { color: #4b5563; margin: 0 0 6mm; }
.step { break-inside: avoid; margin: 0 0 9mm; }
.step h2, .step h3 { display: flex; align-items: baseline; gap: 3mm; font-size: 13.5pt; color: #111827; margin: 0 0 3mm; break-after: avoid; }
.num { flex: none; display: inline-block; min-width: 7mm; height: 7mm; line-height: 7mm; border-radius: 3.5mm; background: ${accent}; color: #fff; font-size: 10pt; text-align: center; padding: 0 1.5mm; }
figure { margin: 0 0 3mm; break-inside: avoid; }
figure img { display: block; max-width: 100%; max-height: 135mm; border: 1px solid #e5e7eb; border-radius: 2mm; }
.text p { margin: 0 0 2mm; }
.text ul, .text ol { margin: 0 0 2mm; padding-left: 6mm; }
.tip { border-left: 3px solid ${accent}; padding: 1mm 0 1mm 3mm; margin: 0 0 2mm; color: #111827; }
.tip p { margin: 0; }
.req { color: #6b7280; }
.note { break-inside: avoid; background: #f9fafb; border: 1px solid #e5e7eb; border-radius: 2mm; padding: 4mm 5mm; margin: 0 0 8mm; }
.note-title { font-weight: bold; margin: 0 0 2mm; color: #111827; }
.note p { margin: 0 0 2mm; }
.end { break-inside: avoid; margin-top: 10mm; padding-top: 5mm; border-top: 1px solid #e5e7eb; }
.end h2 { font-size: 15pt; margin: 0 0 3mm; color: #111827; }
.links { list-style: none; padding: 0; margin: 3mm 0 0; }
.links li { margin: 0 0 2mm; }
a.cta { display: inline-block; background: ${accent}; color: #fff; padding: 2mm 5mm; border-radius: 1.5mm; font-weight: bold; }
`;
}
