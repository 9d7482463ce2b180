/**
 * The fonts a workspace may give its player and share pages: named stacks of fonts that ship with common
 * systems, so a demo never waits for (or leaks its viewers to) a font server. The API stores the key, the
 * player maps it to the stack: no CSS from a user reaches a page. Imported by the web app and the player.
 */
export const FONT_STACKS = {
  system: { label: 'System', stack: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
  humanist: {
    label: 'Humanist sans',
    stack: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  },
  geometric: { label: 'Geometric sans', stack: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif" },
  rounded: {
    label: 'Rounded',
    stack: "ui-rounded, 'Hiragino Maru Gothic ProN', Quicksand, Comfortaa, Manjari, 'Arial Rounded MT Bold', Calibri, sans-serif",
  },
  serif: { label: 'Serif', stack: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif" },
  mono: {
    label: 'Monospace',
    stack: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
  },
} as const;

export type FontKey = keyof typeof FONT_STACKS;
export const FONT_KEYS = Object.keys(FONT_STACKS) as [FontKey, ...FontKey[]];

export { WORKSPACE_NAME_MAX } from './workspace-name';
/** A logo is shown at most 40 px high: this is plenty, and keeps every viewer page light. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_MAX_SIDE = 2048;

/** The accent of a workspace without a brand colour, and of the product itself. */
export const DEFAULT_BRAND_COLOR = '#4f46e5';

/** What viewers see of a workspace: on its share pages and in its player. */
export interface Brand {
  name: string;
  /** Null: the product's default accent. */
  color: string | null;
  font: FontKey;
  /** A path on this server (or an address on API_URL); null without a logo. */
  logo_url: string | null;
}

/** The logo's public address: it changes whenever the logo does, so it may be cached for good. */
export const logoPath = (workspaceId: string, sha256: string) => `/v1/workspace-logos/${workspaceId}/${sha256.slice(0, 16)}`;

/** The font stack of a key, or the system stack for a key this build does not know. */
export const fontStack = (key: string) => (FONT_STACKS as Record<string, { stack: string }>)[key]?.stack ?? FONT_STACKS.system.stack;

/** A workspace's stored fields as viewers see them; `origin` goes before the logo's path ('' keeps it a path). */
export function brandOf(
  workspace: { id: string; name: string; brandColor: string | null; font: string; logoSha256: string | null },
  origin: string,
): Brand {
  return {
    name: workspace.name,
    color: workspace.brandColor,
    font: (workspace.font in FONT_STACKS ? workspace.font : 'system') as FontKey,
    logo_url: workspace.logoSha256 ? `${origin}${logoPath(workspace.id, workspace.logoSha256)}` : null,
  };
}

/** White or near-black, whichever reads on `hex` (WCAG relative luminance): the text on a brand colour. */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.45 ? '#101828' : '#ffffff';
}
