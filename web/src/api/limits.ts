/**
 * Field limits the API enforces (src/demos/*.schemas.ts), so every form that edits a field stops at the
 * same length and can say so before sending.
 */
export const LIMITS = {
  demoTitle: 200,
  stepTitle: 200,
  stepDescription: 5000,
  url: 2048,
} as const;

/**
 * "ledgerly.com/pricing" → "https://ledgerly.com/pricing": people type addresses without a scheme, and the
 * API needs one. An address that names its scheme is left as typed.
 */
export function withScheme(address: string): string {
  const trimmed = address.trim();
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/+/, '')}`;
}
