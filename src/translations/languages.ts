// Language tags: written one way (BCP 47 canonical case), and which of a demo's languages a viewer's preferences pick.

/** Tags as BCP 47 writes them (`fr`, `pt-BR`, `zh-Hant`); null for what is not a well-formed tag. */
export function canonicalLang(tag: string): string | null {
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(tag.trim())) return null;
  try {
    return Intl.getCanonicalLocales(tag.trim())[0] ?? null;
  } catch {
    return null;
  }
}

const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();

/**
 * The language a viewer gets: the first of their preferences (the player's `?lang=`, then the browser's
 * languages) that the demo has, exactly or by its primary subtag (`fr-CA` takes `fr`, `fr` takes `fr-FR`);
 * null when the first such preference is the demo's own language, or none is offered (the original shows).
 *
 * @example
 * pickLanguage(['fr-CA', 'en'], ['de', 'fr'], 'en') // 'fr'
 * pickLanguage(['en-US', 'fr'], ['fr'], 'en') // null: the viewer reads the original first
 */
export function pickLanguage(preferences: readonly string[], available: readonly string[], sourceLang: string): string | null {
  for (const raw of preferences) {
    const wanted = canonicalLang(raw);
    if (!wanted) continue;
    const exact = available.find((a) => a.toLowerCase() === wanted.toLowerCase());
    if (exact) return exact;
    if (primary(wanted) === primary(sourceLang)) return null;
    const close = available.find((a) => primary(a) === primary(wanted));
    if (close) return close;
  }
  return null;
}
