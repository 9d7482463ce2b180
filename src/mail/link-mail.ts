import { escapeHtml } from '../core/html';
import type { Mail } from './mailer';

/** A paragraph with a link of its own (one line of a list: a hub and its Visitors card). */
export interface LinkedParagraph {
  text: string;
  link: { label: string; url: string };
}

/** A titled list between the intro and the button. */
export interface MailSection {
  title: string;
  items: LinkedParagraph[];
}

export interface LinkMailInput {
  to: string;
  subject: string;
  /** Paragraphs before the button. */
  intro: string[];
  /** Titled lists after the intro, each item with its own link. */
  sections?: MailSection[];
  action: string;
  url: string;
  /** Paragraphs after it: how long the link lives, what to do if this was not you. */
  outro: string[];
}

/** A message whose point is one link, in plain text and HTML (the same words in both). */
export function linkMail(input: LinkMailInput): Mail {
  const sections = input.sections ?? [];
  const text = [
    ...input.intro,
    ...sections.flatMap((s) => ['', s.title, ...s.items.flatMap((i) => [i.text, `${i.link.label}: ${i.link.url}`])]),
    '',
    `${input.action}: ${input.url}`,
    '',
    ...input.outro,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2430;line-height:1.5">
${input.intro.map((p) => `<p>${e(p)}</p>`).join('\n')}
${sections
  .map(
    (s) =>
      `<h3 style="font-size:16px;margin:20px 0 4px">${e(s.title)}</h3>\n${s.items
        .map((i) => `<p>${e(i.text)}<br><a href="${e(i.link.url)}">${e(i.link.label)}</a></p>`)
        .join('\n')}`,
  )
  .join('\n')}
<p><a href="${e(input.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${e(input.action)}</a></p>
<p style="color:#5b6275;font-size:14px">Or open this address: <a href="${e(input.url)}">${e(input.url)}</a></p>
${input.outro.map((p) => `<p style="color:#5b6275;font-size:14px">${e(p)}</p>`).join('\n')}
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}

/** A notice without a link (an address was changed): plain text and HTML. */
export function noticeMail(to: string, subject: string, paragraphs: string[]): Mail {
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2430;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body></html>`;
  return { to, subject, text: `${paragraphs.join('\n\n')}\n`, html };
}
