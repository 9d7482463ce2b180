/**
 * What snapshot CSS may hold (src/generation/snapshot-css.ts). Allow-lists: a function or at-rule that is
 * not named here is dropped with its declaration or rule, so a function a browser learns later, and
 * that may fetch, stays out until someone reads its definition and adds it here.
 *
 * Names are as the tokenizer decoded them (escapes resolved), lowercased in ASCII only, as CSS compares them.
 */

/** Functions whose single string argument is the address to load. */
export const URL_FUNCTIONS = new Set(['url', 'src']);

/** Functions whose bare string arguments are addresses to load (`image-set("a.png" 1x)`). */
export const STRING_URL_FUNCTIONS = new Set(['image-set', '-webkit-image-set']);

/**
 * Functions that load nothing by themselves. Their arguments are still checked like everything else:
 * a `url()` inside `cross-fade()` or a gradient is judged as any other.
 *
 * Left out on purpose: `attr()` (turns an attribute, which this check never sees as CSS, into a value),
 * `image()` (its strings are addresses; no browser ships it), `element()` / `-moz-element()` and
 * `paint()` (draw an element or a worklet, which a script-less snapshot has neither of), `expression()`,
 * and IE's `progid:` filters.
 */
export const PLAIN_FUNCTIONS = new Set([
  // Images built from the others.
  'cross-fade', '-webkit-cross-fade',
  // Maths and values.
  'calc', '-webkit-calc', '-moz-calc', 'min', 'max', 'clamp', 'round', 'mod', 'rem', 'sin', 'cos', 'tan', 'asin',
  'acos', 'atan', 'atan2', 'pow', 'sqrt', 'hypot', 'log', 'exp', 'abs', 'sign', 'calc-size', 'progress',
  'media-progress', 'container-progress', 'random', 'sibling-index', 'sibling-count', 'var', 'env', 'if', 'style',
  'media', 'supports', 'selector', 'font-format', 'font-tech', 'layer', 'scroll-state', 'type',
  // Colours.
  'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix', 'light-dark',
  'contrast-color', 'device-cmyk', 'alpha',
  // Gradients, prefixed forms and the legacy -webkit-gradient() with its stops.
  'linear-gradient', 'radial-gradient', 'conic-gradient', 'repeating-linear-gradient', 'repeating-radial-gradient',
  'repeating-conic-gradient', '-webkit-linear-gradient', '-webkit-radial-gradient', '-webkit-repeating-linear-gradient',
  '-webkit-repeating-radial-gradient', '-moz-linear-gradient', '-moz-radial-gradient', '-moz-repeating-linear-gradient',
  '-moz-repeating-radial-gradient', '-o-linear-gradient', '-o-radial-gradient', '-o-repeating-linear-gradient',
  '-ms-linear-gradient', '-ms-radial-gradient', '-webkit-gradient', 'color-stop', 'from', 'to',
  // Transforms.
  'matrix', 'matrix3d', 'translate', 'translatex', 'translatey', 'translatez', 'translate3d', 'scale', 'scalex',
  'scaley', 'scalez', 'scale3d', 'rotate', 'rotatex', 'rotatey', 'rotatez', 'rotate3d', 'skew', 'skewx', 'skewy',
  'perspective',
  // Filters (the functions; `filter: url()` is a url and judged as one).
  'blur', 'brightness', 'contrast', 'drop-shadow', 'grayscale', 'hue-rotate', 'invert', 'opacity', 'saturate', 'sepia',
  // Shapes, paths and motion.
  'inset', 'circle', 'ellipse', 'polygon', 'path', 'rect', 'xywh', 'shape', 'ray', 'superellipse',
  // Timing, grid, scroll-driven animation, anchors.
  'cubic-bezier', 'steps', 'linear', 'repeat', 'minmax', 'fit-content', 'scroll', 'view', 'anchor', 'anchor-size',
  // Generated content and fonts.
  'counter', 'counters', 'symbols', 'format', 'tech', 'local', 'stylistic', 'styleset', 'character-variant', 'swash',
  'ornaments', 'annotation',
  // Selectors.
  'not', 'is', 'where', 'has', 'nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type', 'nth-col',
  'nth-last-col', 'lang', 'dir', 'host', 'host-context', 'part', 'slotted', 'cue', 'cue-region', 'state', 'highlight',
  'current', 'past', 'future', 'active-view-transition-type', 'view-transition-group', 'view-transition-image-pair',
  'view-transition-old', 'view-transition-new', '-webkit-any', '-moz-any', 'picker', 'heading',
]);

/**
 * At-rules a snapshot keeps. The rest (`@document`, `@charset`, unknown and future ones) go with their
 * blocks; a browser ignores an at-rule it does not know, so dropping it changes nothing it would show.
 */
export const AT_RULES = new Set([
  'import', 'namespace', 'media', 'supports', 'font-face', 'keyframes', '-webkit-keyframes', '-moz-keyframes',
  '-o-keyframes', 'layer', 'container', 'scope', 'page', 'counter-style', 'font-feature-values', 'swash', 'annotation',
  'ornaments', 'stylistic', 'styleset', 'character-variant', 'historical-forms', 'font-palette-values', 'property',
  'starting-style', 'view-transition', 'position-try',
]);

/** Properties that bind code or components to an element (old IE and Firefox): never kept. */
export const DROPPED_PROPERTIES = new Set(['behavior', '-ms-behavior', '-moz-binding']);

/**
 * `data:` addresses a url may keep: pictures and fonts, which load nothing further. Not `text/css`
 * (an `@import` of one is a stylesheet this check never saw) nor `text/html`.
 */
export const DATA_URL = /^data:(?:image\/(?:png|jpe?g|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)|font\/[a-z0-9.+-]+|application\/(?:font-woff2?|x-font-[a-z0-9]+|font-sfnt|vnd\.ms-fontobject|octet-stream))[;,]/i;
