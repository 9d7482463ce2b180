// Every text of a demo as translation units with stable ids, and a demo's content with a language's units put in.
import { sha256Hex } from '../core/crypto';
import type { DemoContent } from '../demos/demo-snapshot';
import { sanitizeRichText } from '../demos/rich-text';
import type { UnitKind } from './segments';
import type { StoredUnit } from './translations.tables';

/** One text to translate: its stable id, its kind, its source as stored, and where it shows (a note for translators). */
export interface SourceUnit {
  id: string;
  kind: UnitKind;
  source: string;
  note: string;
}

/** The page texts of the steps' HTML snapshots, by step id, in document order (page-text.ts `pageTexts`). */
export type PageTexts = ReadonlyMap<string, readonly string[]>;

/**
 * The units of a demo, in reading order. Ids: `demo.title`, `demo.cta.label`, `chapter.<id>.title|description`,
 * `step.<id>.title|description`, `hotspot.<id>.label|tooltip`, `step.<id>.button.<button id>.label|description`,
 * `step.<id>.form.submit`, `step.<id>.field.<name>.label|placeholder`, `step.<id>.patch.<n>` (a text page patch),
 * `page.<step id>.<n>` (the n-th text of the step's captured page). Empty texts are left out.
 */
export function unitsOf(content: DemoContent, pages: PageTexts): SourceUnit[] {
  const units: SourceUnit[] = [];
  const add = (id: string, kind: UnitKind, source: string | null | undefined, note: string) => {
    if (source?.trim()) units.push({ id, kind, source, note });
  };
  add('demo.title', 'plain', content.demo.title, 'Demo title');
  const cta = (content.demo.configuration as { call_to_action?: { label?: string } | null }).call_to_action;
  add('demo.cta.label', 'plain', cta?.label, 'Call to action at the end');
  for (const c of [...(content.chapters ?? [])].sort((a, b) => a.position - b.position)) {
    add(`chapter.${c.id}.title`, 'plain', c.title, `Chapter ${c.position}: title`);
    add(`chapter.${c.id}.description`, 'plain', c.description, `Chapter ${c.position}: description`);
  }
  for (const s of [...content.steps].sort((a, b) => a.position - b.position)) {
    const at = `Step ${s.position}`;
    add(`step.${s.id}.title`, 'plain', s.title, `${at}: title`);
    if (s.descriptionHtml) add(`step.${s.id}.description`, 'html', s.descriptionHtml, `${at}: text`);
    else add(`step.${s.id}.description`, 'plain', s.description, `${at}: text`);
    for (const h of content.hotspots.filter((h) => h.stepId === s.id).sort((a, b) => (a.id < b.id ? -1 : 1))) {
      add(`hotspot.${h.id}.label`, 'plain', h.label, `${at}: hotspot label`);
      if (h.tooltipHtml) add(`hotspot.${h.id}.tooltip`, 'html', h.tooltipHtml, `${at}: hotspot tooltip`);
      else add(`hotspot.${h.id}.tooltip`, 'plain', h.tooltip, `${at}: hotspot tooltip`);
    }
    for (const b of s.content.buttons) {
      add(`step.${s.id}.button.${b.id}.label`, 'plain', b.label, `${at}: button “${b.id}”`);
      add(`step.${s.id}.button.${b.id}.description`, 'plain', b.description, `${at}: button “${b.id}” description`);
    }
    const form = s.content.form;
    if (form) {
      add(`step.${s.id}.form.submit`, 'plain', form.submit_label, `${at}: form submit button`);
      for (const f of form.fields) {
        if (f.type === 'hidden') continue;
        add(`step.${s.id}.field.${f.name}.label`, 'plain', f.label, `${at}: form field “${f.name}” ${f.type === 'checkbox' ? 'consent text' : 'label'}`);
        add(`step.${s.id}.field.${f.name}.placeholder`, 'plain', f.placeholder, `${at}: form field “${f.name}” placeholder`);
      }
    }
    s.patches.forEach((p, i) => {
      if (p.op === 'text') add(`step.${s.id}.patch.${i}`, 'plain', p.value, `${at}: edited page text (${p.selector})`);
    });
    for (const [n, text] of (pages.get(s.id) ?? []).entries()) add(`page.${s.id}.${n}`, 'plain', text, `${at}: captured page text`);
  }
  return units;
}

/** A short digest of the units' ids and sources: names the text a file was exported from. */
export function sourceDigest(units: readonly SourceUnit[]): string {
  return sha256Hex(JSON.stringify(units.map((u) => [u.id, u.source]))).slice(0, 32);
}

/** The translated texts of a language that still fit the content: a unit whose source changed shows the original. */
export function currentTargets(units: readonly SourceUnit[], stored: Readonly<Record<string, StoredUnit>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const u of units) {
    const found = stored[u.id];
    if (found && found.source === u.source && found.target.trim()) out.set(u.id, found.target);
  }
  return out;
}

/** A captured page's translated texts: by index, with the source each replaces (page-text.ts `translatePage`). */
export type PageTranslation = Array<[index: number, source: string, target: string]>;

/**
 * The content with a language's texts put in (the rows are copied, never changed), and per step the
 * translated texts of its captured page. Rich units set the HTML and the plain text beside it.
 */
export function translateContent<T extends DemoContent>(
  content: T,
  targets: ReadonlyMap<string, string>,
  /** The stored units: a page's texts are checked against its source where the page is parsed (page-text.ts). */
  stored: Readonly<Record<string, StoredUnit>> = {},
): { content: T; pages: Map<string, PageTranslation> } {
  const t = (id: string, original: string) => targets.get(id) ?? original;
  const rich = (id: string, html: string | null, plain: string) => {
    const target = targets.get(id);
    if (target === undefined) return { html, plain };
    if (html === null) return { html, plain: target };
    return { html: target, plain: sanitizeRichText(target).text };
  };
  const configuration = { ...content.demo.configuration } as Record<string, unknown>;
  const cta = configuration.call_to_action as { label: string; url: string } | null | undefined;
  if (cta) configuration.call_to_action = { ...cta, label: t('demo.cta.label', cta.label) };
  const pages = new Map<string, PageTranslation>();
  for (const [id, unit] of Object.entries(stored)) {
    const m = /^page\.(.+)\.(\d+)$/.exec(id);
    if (!m || !unit.target.trim()) continue;
    const list = pages.get(m[1]!) ?? [];
    list.push([Number(m[2]), unit.source, unit.target]);
    pages.set(m[1]!, list);
  }
  return {
    pages,
    content: {
      ...content,
      demo: { ...content.demo, title: t('demo.title', content.demo.title), configuration },
      chapters: content.chapters?.map((c) => ({
        ...c,
        title: t(`chapter.${c.id}.title`, c.title),
        description: t(`chapter.${c.id}.description`, c.description),
      })),
      hotspots: content.hotspots.map((h) => {
        const tip = rich(`hotspot.${h.id}.tooltip`, h.tooltipHtml, h.tooltip);
        return { ...h, label: t(`hotspot.${h.id}.label`, h.label), tooltip: tip.plain, tooltipHtml: tip.html };
      }),
      steps: content.steps.map((s) => {
        const text = rich(`step.${s.id}.description`, s.descriptionHtml, s.description);
        const form = s.content.form;
        return {
          ...s,
          title: t(`step.${s.id}.title`, s.title),
          description: text.plain,
          descriptionHtml: text.html,
          content: {
            ...s.content,
            buttons: s.content.buttons.map((b) => ({
              ...b,
              label: t(`step.${s.id}.button.${b.id}.label`, b.label),
              ...(b.description === undefined ? {} : { description: t(`step.${s.id}.button.${b.id}.description`, b.description) }),
            })),
            ...(form
              ? {
                  form: {
                    ...form,
                    submit_label: t(`step.${s.id}.form.submit`, form.submit_label),
                    fields: form.fields.map((f) => ({
                      ...f,
                      label: t(`step.${s.id}.field.${f.name}.label`, f.label),
                      ...(f.placeholder === undefined ? {} : { placeholder: t(`step.${s.id}.field.${f.name}.placeholder`, f.placeholder) }),
                    })),
                  },
                }
              : {}),
          },
          patches: s.patches.map((p, i) => (p.op === 'text' ? { ...p, value: t(`step.${s.id}.patch.${i}`, p.value ?? '') } : p)),
        };
      }),
    },
  };
}
