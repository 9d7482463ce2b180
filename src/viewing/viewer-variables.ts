// Personalisation on the server's own pages: what the viewer page's title and unfurl tags say, filled before escaping.
import { VARIABLE_PATTERN } from '../demos/story.schemas';
import type { LinkPreview } from './viewer-gates.view';

/**
 * Replaces each `{{name}}` / `{{name|fallback}}` with the value (own properties only), else the trimmed
 * fallback, else ''. The same rule as the player's `fillText` (player/src/variables.ts); the result is text,
 * which the caller escapes for where it goes.
 *
 * @example fillVariables('Invoicing for {{company|your team}}', {}) // 'Invoicing for your team'
 */
export function fillVariables(text: string, vars: Readonly<Record<string, string>>): string {
  if (!text.includes('{{')) return text;
  return text.replace(VARIABLE_PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (typeof value === 'string' && value !== '') return value;
    return fallback?.trim() ?? '';
  });
}

/**
 * A link's unfurl and page title with its variables filled: the link's own values (the owner's, made for
 * the account the link was sent to), else the fallbacks, so no raw `{{…}}` reaches a chat preview. URL
 * parameters are not used here: anyone could put words in a link's unfurl by adding them.
 */
export function personalisePreview(preview: LinkPreview, vars: Readonly<Record<string, string>>): LinkPreview {
  const title = fillVariables(preview.title, vars).trim() || `${preview.siteName} shared a demo with you`;
  return { ...preview, title, description: fillVariables(preview.description, vars) };
}
