import type { LeadResult } from './leads';
import { h } from './dom';
import { stepText } from './story-screens';
import { fillText, type Variables } from './variables';
import type { FormField, Step, StoryForm } from './wire';

export type FormValues = Record<string, string | boolean>;

export interface FormOptions {
  step: Step;
  form: StoryForm;
  vars: Variables;
  /** What the viewer is known by (identification, earlier forms), to fill the fields in. */
  known: Record<string, string>;
  /** The page's URL parameters, for hidden fields. */
  params: URLSearchParams;
  started(): void;
  /** Said above the buttons (an offline file's forms send nothing). */
  note?: string;
  submit(values: FormValues): Promise<LeadResult>;
  /** Sent (or kept to resend): go on. */
  done(values: FormValues): void;
  skip(): void;
}

const AUTOCOMPLETE: Record<string, string> = {
  name: 'name',
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  company: 'organization',
  phone: 'tel',
  job_title: 'organization-title',
};
const INPUT_TYPE = { text: 'text', email: 'email', phone: 'tel' } as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{5,30}$/;

/** The viewer's mistakes, said before the server is asked (it checks again). */
function problem(field: FormField, value: string | boolean): string | null {
  if (field.type === 'checkbox') return field.required && value !== true ? 'Tick this box to go on.' : null;
  const text = String(value);
  if (!text) return field.required ? 'Fill in this field.' : null;
  if (field.type === 'email' && !EMAIL.test(text)) return 'Enter an e-mail address such as name@company.com.';
  if (field.type === 'phone' && !PHONE.test(text)) return 'Enter a phone number: digits, spaces, + and - only.';
  return null;
}

/**
 * A lead form: every field labelled (required ones marked, in words for screen readers too), errors under
 * their field, filled in from what is already known, hidden fields from the URL (`param`, else its name).
 */
export function formScreen(o: FormOptions): [HTMLElement, HTMLElement] {
  const { step, form, vars } = o;
  const base = `ds-f${step.number}`;
  const controls = new Map<string, { field: FormField; el: HTMLInputElement | HTMLSelectElement; error: HTMLElement }>();
  const hidden: FormValues = {};
  const rows: HTMLElement[] = [];
  for (const field of form.fields) {
    if (field.type === 'hidden') {
      const value = o.params.get(field.param || field.name);
      if (value) hidden[field.name] = value.slice(0, 500);
      continue;
    }
    const id = `${base}-${field.name}`;
    const error = h('p', { id: `${id}-error`, class: 'ds-field-error', hidden: true });
    const label = fillText(field.label, vars) || field.name.replace(/_/g, ' ');
    const mark = field.required ? h('span', { class: 'ds-required', 'aria-hidden': 'true' }, ' *') : null;
    const common = { id, name: field.name, 'aria-required': field.required ? 'true' : null };
    let el: HTMLInputElement | HTMLSelectElement;
    if (field.type === 'checkbox') {
      el = h('input', { ...common, type: 'checkbox', class: 'ds-check' });
      rows.push(h('div', { class: 'ds-field ds-field-check' }, el, h('label', { for: id, class: 'ds-label' }, label, mark), error));
    } else {
      if (field.type === 'select') {
        el = h(
          'select',
          { ...common, class: 'ds-input' },
          h('option', { value: '' }, field.placeholder || 'Choose…'),
          ...(field.options ?? []).map((option) => h('option', { value: option }, option)),
        );
      } else {
        el = h('input', {
          ...common,
          type: INPUT_TYPE[field.type as keyof typeof INPUT_TYPE] ?? 'text',
          class: 'ds-input',
          placeholder: field.placeholder ? fillText(field.placeholder, vars) : null,
          autocomplete: AUTOCOMPLETE[field.name] ?? 'on',
          maxlength: 500,
        });
      }
      const prefill = o.known[field.name];
      if (prefill) el.value = prefill;
      rows.push(h('div', { class: 'ds-field' }, h('label', { for: id, class: 'ds-label' }, label, mark), el, error));
    }
    controls.set(field.name, { field, el, error });
  }

  const alert = h('div', { class: 'ds-alert', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'ds-button ds-button-primary' }, fillText(form.submit_label || 'Continue', vars));
  const skip = form.skippable && !form.gate ? h('button', { type: 'button', class: 'ds-button', onclick: () => o.skip() }, 'Skip') : null;

  function setError(name: string, message: string | null) {
    const c = controls.get(name);
    if (!c) return;
    c.error.textContent = message ?? '';
    c.error.hidden = !message;
    if (message) {
      c.el.setAttribute('aria-invalid', 'true');
      c.el.setAttribute('aria-describedby', c.error.id);
    } else {
      c.el.removeAttribute('aria-invalid');
      c.el.removeAttribute('aria-describedby');
    }
  }

  const values = (): FormValues => {
    const out: FormValues = { ...hidden };
    for (const [name, { field, el }] of controls) {
      if (field.type === 'checkbox') out[name] = (el as HTMLInputElement).checked;
      else if (el.value.trim()) out[name] = el.value.trim();
    }
    return out;
  };

  let started = false;
  const el = h(
    'form',
    {
      class: 'ds-form',
      novalidate: true,
      'aria-labelledby': 'ds-panel-title',
      oninput: () => {
        if (started) return;
        started = true;
        o.started();
      },
      onsubmit: (event: Event) => {
        event.preventDefault();
        void send();
      },
    },
    ...rows,
    alert,
    o.note ? h('p', { class: 'ds-form-note', id: 'ds-form-note' }, o.note) : null,
    h('div', { class: 'ds-panel-actions' }, submit, skip),
  );

  async function send() {
    if (submit.disabled) return;
    alert.hidden = true;
    const data = values();
    let first: HTMLElement | null = null;
    for (const [name, { field, el: control }] of controls) {
      const message = problem(field, data[name] ?? '');
      setError(name, message);
      if (message && !first) first = control;
    }
    if (first) return first.focus();
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    const result = await o.submit(data).finally(() => {
      submit.disabled = false;
      submit.removeAttribute('aria-busy');
    });
    if (result.status === 'stored' || result.status === 'queued') return o.done(data);
    if (result.status === 'invalid') {
      const unknown: string[] = [];
      for (const [name, message] of Object.entries(result.errors)) {
        if (controls.has(name)) setError(name, message);
        else unknown.push(message);
      }
      const firstBad = [...controls.values()].find((c) => result.errors[c.field.name]);
      alert.textContent = unknown.length ? unknown.join(' ') : 'Please check the fields marked.';
      alert.hidden = false;
      (firstBad?.el ?? alert).focus();
      return;
    }
    alert.textContent = result.message;
    alert.hidden = false;
  }

  const head = h('h2', { class: 'ds-panel-title', id: 'ds-panel-title', tabindex: '-1' }, fillText(step.title, vars) || 'Your details');
  const panel = h(
    'section',
    { class: 'ds-panel ds-form-screen', 'aria-labelledby': 'ds-panel-title' },
    h('div', { class: 'ds-panel-body' }, head, h('div', { class: 'ds-rich' }, stepText(step, vars)), el),
  );
  const firstControl = [...controls.values()].find((c) => !c.el.value)?.el ?? [...controls.values()][0]?.el ?? submit;
  return [panel, firstControl];
}
