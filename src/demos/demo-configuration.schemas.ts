// A demo's configuration (theme, navigation, call to action): its schema, defaults, and how a patch is stored.
import { z } from 'zod';
import { httpUrl, text } from '../core/text';

export const DEFAULT_CONFIGURATION = {
  theme_color: '#4f46e5',
  progress_bar: true,
  navigation: { buttons: true, keyboard: true },
  call_to_action: null as { label: string; url: string } | null,
  branding: { show_badge: true },
  autoplay: { enabled: false, delay_seconds: 5 },
};
export type Configuration = typeof DEFAULT_CONFIGURATION;

const configurationShape = {
  theme_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #4f46e5')
    .meta({
      description:
        "Accent colour of the player (hotspots, buttons, progress bar). Unless the demo sets its own, the workspace's " +
        'brand colour (or #4f46e5 without one).',
    }),
  progress_bar: z.boolean().meta({ description: 'Show a progress bar while playing.' }),
  navigation: z
    .object({
      buttons: z.boolean().meta({ description: 'Show back/next buttons.' }),
      keyboard: z.boolean().meta({ description: 'Arrow keys move between steps.' }),
    })
    .strict(),
  call_to_action: z
    .object({ label: text().trim().min(1).max(60), url: httpUrl })
    .strict()
    .nullable()
    .meta({ description: 'Button shown at the end of the demo, or null for none.' }),
  branding: z
    .object({ show_badge: z.boolean().meta({ description: 'Show the "Made with Demoshare" badge.' }) })
    .strict(),
  autoplay: z
    .object({ enabled: z.boolean(), delay_seconds: z.number().int().min(1).max(60) })
    .strict()
    .meta({ description: 'Advance by itself after `delay_seconds` on each step.' }),
};

export const configurationSchema = z.object(configurationShape).meta({ id: 'DemoConfiguration' });

/** A change to the configuration: top-level keys are optional, nested objects may be partial. */
export const configurationPatch = z
  .object({
    theme_color: configurationShape.theme_color
      .nullable()
      .optional()
      .meta({ description: "The demo's own accent colour, or null to follow the workspace's brand colour." }),
    progress_bar: configurationShape.progress_bar.optional(),
    navigation: configurationShape.navigation.partial().optional(),
    call_to_action: configurationShape.call_to_action.optional(),
    branding: configurationShape.branding.partial().optional(),
    autoplay: configurationShape.autoplay.partial().optional(),
  })
  .strict();
export type ConfigurationPatch = z.infer<typeof configurationPatch>;

/**
 * Stored configuration over the defaults, so demos made before a new option existed still read whole. A
 * demo without a theme colour of its own takes `brandColor`, its workspace's.
 */
export function resolveConfiguration(stored: Record<string, unknown> | null | undefined, brandColor?: string | null): Configuration {
  const base = brandColor ? { ...DEFAULT_CONFIGURATION, theme_color: brandColor } : DEFAULT_CONFIGURATION;
  return mergeConfiguration(base, (stored ?? {}) as ConfigurationPatch);
}

/**
 * The configuration to store after `patch`: whole, except `theme_color`, kept only when the demo has a
 * colour of its own (set now or before, and not reset with null), so that the others follow the brand.
 */
export function storedConfiguration(
  stored: Record<string, unknown> | null | undefined,
  patch: ConfigurationPatch,
): Record<string, unknown> {
  const { theme_color: _, ...rest } = mergeConfiguration(resolveConfiguration(stored), patch);
  const own = patch.theme_color === undefined ? (stored?.theme_color as string | undefined) : patch.theme_color;
  return own ? { ...rest, theme_color: own } : rest;
}

export function mergeConfiguration(base: Configuration, patch: ConfigurationPatch): Configuration {
  return {
    theme_color: patch.theme_color ?? base.theme_color,
    progress_bar: patch.progress_bar ?? base.progress_bar,
    navigation: { ...base.navigation, ...(patch.navigation ?? {}) },
    call_to_action: patch.call_to_action === undefined ? base.call_to_action : patch.call_to_action,
    branding: { ...base.branding, ...(patch.branding ?? {}) },
    autoplay: { ...base.autoplay, ...(patch.autoplay ?? {}) },
  };
}
