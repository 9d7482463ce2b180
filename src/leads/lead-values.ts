// A lead form's values checked against the form of the published version: each field by its type, each
// problem named `values.<name>`, and who the values say the viewer is.
import { z } from 'zod';
import type { ErrorDetail } from '../core/errors';
import type { FormField, StoryForm } from '../demos/story.schemas';
import { emailFieldOf } from '../viewing/viewer-gates.form';
import type { LeadValue } from './leads.tables';

/** The longest answer a text, select or hidden field keeps. */
export const MAX_VALUE_LENGTH = 500;
const emailSchema = z.email().max(254);
// Digits, spaces and the usual separators; between 6 and 20 digits (E.164 allows 15, extensions a few more).
const PHONE_CHARS = /^\+?[0-9 ()./-]+$/;

export interface CheckedValues {
  /** The answered fields, trimmed (e-mail lower-cased); a checkbox is always there, ticked or not. */
  values: Record<string, LeadValue>;
  problems: ErrorDetail[];
  /** From the form's e-mail field (viewer-gates.form.ts `emailFieldOf`). */
  email: string | null;
  /** The `name` field, else `first_name` and `last_name`; at most 100 characters as the gate's name. */
  name: string | null;
}

function checkField(field: FormField, raw: unknown, gate: boolean): { value?: LeadValue; problem?: string } {
  if (field.type === 'checkbox') {
    if (raw !== undefined && typeof raw !== 'boolean') return { problem: 'must be true or false' };
    const ticked = raw === true;
    if (field.required && !ticked) return { problem: 'must be ticked' };
    return { value: ticked };
  }
  if (raw !== undefined && typeof raw !== 'string') return { problem: 'must be text' };
  const text = (raw ?? '').trim();
  if (text === '') {
    // A hidden field is filled from the address the viewer came by: nothing they could fix, so never required.
    const required = (field.required && field.type !== 'hidden') || (gate && field.type === 'email');
    return required ? { problem: field.type === 'email' ? 'Enter your e-mail address' : 'is required' } : {};
  }
  if (text.length > MAX_VALUE_LENGTH) return { problem: `must be at most ${MAX_VALUE_LENGTH} characters` };
  switch (field.type) {
    case 'email':
      return emailSchema.safeParse(text).success ? { value: text.toLowerCase() } : { problem: 'must be an e-mail address' };
    case 'phone': {
      const digits = text.replace(/\D/g, '').length;
      return PHONE_CHARS.test(text) && digits >= 6 && digits <= 20 ? { value: text } : { problem: 'must be a phone number' };
    }
    case 'select':
      return field.options?.includes(text) ? { value: text } : { problem: `must be one of: ${(field.options ?? []).join(', ')}` };
    default:
      return { value: text };
  }
}

/**
 * Checks `values` against `form`: every problem at once, as `values.<name>`. With `gate`, the form stands in
 * for the identification gate, so its e-mail field must be answered.
 *
 * @example
 * const { values, problems, email, name } = checkValues(form, { email: 'Jane@Acme.com', consent: true }, false);
 */
export function checkValues(form: StoryForm, given: Record<string, unknown>, gate: boolean): CheckedValues {
  const problems: ErrorDetail[] = [];
  const values: Record<string, LeadValue> = {};
  const known = new Set(form.fields.map((f) => f.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) problems.push({ field: `values.${name}`, message: 'is not a field of this form' });
  }
  const emailField = emailFieldOf(form);
  for (const field of form.fields) {
    const checked = checkField(field, given[field.name], gate && field === emailField);
    if (checked.problem) problems.push({ field: `values.${field.name}`, message: checked.problem });
    else if (checked.value !== undefined) values[field.name] = checked.value;
  }
  const email = emailField && typeof values[emailField.name] === 'string' ? (values[emailField.name] as string) : null;
  const str = (n: string) => (typeof values[n] === 'string' ? (values[n] as string) : '');
  const name = (str('name') || [str('first_name'), str('last_name')].filter(Boolean).join(' ')).slice(0, 100) || null;
  return { values, problems, email, name };
}
