/**
 * The API's messages are precise for programs ("Too big: expected string to have <=200 characters"); the
 * web app says the same to people ("Can be up to 200 characters."). The API keeps its words; only what the
 * app shows is rewritten here, in one place.
 */

/** One field's complaint in an error's `details` (the API's error envelope). */
export interface ErrorDetail {
  field: string;
  message: string;
}

const FIELD_NAMES: Record<string, string> = {
  source_url: 'Page address',
  url: 'Address',
  email: 'E-mail address',
  current_password: 'Current password',
  new_password: 'New password',
  redirect_uris: 'Redirect addresses',
  theme_color: 'Brand colour',
};

const MEDIA_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'application/json': 'JSON',
};

/** "source_url" → "Page address", "steps.2.title" → "Title". */
export function fieldName(field: string): string {
  const last = field.split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? field;
  return FIELD_NAMES[last] ?? sentence(last.replaceAll('_', ' '));
}

const sentence = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);
const stop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One field's problem, as it reads under that field. */
export function humanDetail(message: string): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^Too big: expected string to have <=(\d+) characters?$/, (m) => `Can be up to ${plural(Number(m[1]), 'character', 'characters')}`],
    [/^Too small: expected string to have >=1 characters?$/, () => 'Cannot be empty'],
    [/^Too small: expected string to have >=(\d+) characters?$/, (m) => `Needs at least ${plural(Number(m[1]), 'character', 'characters')}`],
    [/^Too big: expected array to have <=(\d+) items?$/, (m) => `Can have up to ${plural(Number(m[1]), 'entry', 'entries')}`],
    [/^Too small: expected array to have >=(\d+) items?$/, (m) => `Needs at least ${plural(Number(m[1]), 'entry', 'entries')}`],
    [/^Too big: expected number to be <=(-?[\d.]+)$/, (m) => `Can be at most ${m[1]}`],
    [/^Too small: expected number to be >=(-?[\d.]+)$/, (m) => `Must be at least ${m[1]}`],
    [/^Invalid URL$/i, () => 'Enter a full web address, such as https://example.com'],
    [/^Invalid email address$/i, () => 'Enter an e-mail address, such as ann@example.com'],
    [/^Invalid input: expected \w+, received undefined$/, () => 'This is required'],
    [/^Required when .+$/, () => 'This is required'],
    [/^Invalid option: expected one of (.+)$/, (m) => `Choose one of ${m[1]!.replaceAll('"', '').split('|').join(', ')}`],
    [/^Invalid input: expected (\w+), received (\w+)$/, (m) => `Must be a ${m[1]}`],
  ];
  for (const [pattern, say] of rules) {
    const match = pattern.exec(message);
    if (match) return stop(say(match));
  }
  return stop(sentence(message));
}

/** The whole refusal, as one message for a toast or above a form. */
export function humanMessage(status: number, code: string, message: string, details: ErrorDetail[]): string {
  const first = details[0];
  if (code === 'invalid_request' && first && first.field) {
    return `${fieldName(first.field.split(', ')[0]!)}: ${humanDetail(first.message)}`;
  }
  if (code === 'unsupported_media_type') {
    const allowed = /send (.+)$/.exec(message)?.[1];
    const names = allowed
      ?.split(/, | or /)
      .map((type) => MEDIA_NAMES[type.trim()] ?? type.trim())
      // A route that takes files takes JSON too, but nobody picks a JSON file to upload.
      .filter((name, _, all) => name && (name !== 'JSON' || all.length === 1));
    if (names?.length) {
      return `This kind of file cannot be used here. Use ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}.`;
    }
    if (/is not a .* image/.test(message)) return 'This file is not an image we can use. Use a PNG, JPEG or WebP image.';
    return stop(sentence(message));
  }
  if (status === 413) {
    const limit = /the limit is (.+)$/.exec(message)?.[1];
    return limit ? `That is too large: the limit is ${limit}.` : 'That is too large to send.';
  }
  return stop(sentence(message));
}
