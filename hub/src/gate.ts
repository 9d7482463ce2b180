// The hub's one gate form: password, identification or lead form, as the server's `fields` ask.
import { brandLogo, type Brand } from '../../player/src/brand';
import { h, ICONS, icon } from '../../player/src/dom';
import { HubError, type HubState } from './api';

const LABELS: Record<string, { label: string; type: string; autocomplete: string }> = {
  password: { label: 'Password', type: 'password', autocomplete: 'current-password' },
  name: { label: 'Your name', type: 'text', autocomplete: 'name' },
  email: { label: 'Work e-mail', type: 'email', autocomplete: 'email' },
  company: { label: 'Company', type: 'text', autocomplete: 'organization' },
  job_title: { label: 'Job title', type: 'text', autocomplete: 'organization-title' },
  phone: { label: 'Phone', type: 'tel', autocomplete: 'tel' },
};

export function gateView(state: HubState, brand: Brand | null, submit: (form: Record<string, string>) => Promise<void>) {
  const errors = new Map<string, HTMLElement>();
  const inputs = new Map<string, HTMLInputElement>();
  const general = h('p', { class: 'hub-gate-error', role: 'alert', hidden: true });
  const fields = state.fields.map((name) => {
    const spec = LABELS[name] ?? { label: name, type: 'text', autocomplete: 'off' };
    const input = h('input', { id: `f-${name}`, name, type: spec.type, autocomplete: spec.autocomplete, required: true });
    const error = h('span', { class: 'hub-field-error', id: `e-${name}`, hidden: true });
    inputs.set(name, input);
    errors.set(name, error);
    return h('div', { class: 'hub-field' }, h('label', { for: `f-${name}` }, spec.label), input, error);
  });
  const button = h('button', { type: 'submit', class: 'hub-primary' }, 'View demos');
  const form = h('form', { class: 'hub-gate-form', novalidate: true }, ...fields, general, button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const e of errors.values()) e.hidden = true;
    general.hidden = true;
    const values = Object.fromEntries([...inputs].map(([k, input]) => [k, input.value]));
    button.disabled = true;
    try {
      await submit(values);
    } catch (error) {
      button.disabled = false;
      const details = error instanceof HubError ? error.details.filter((d) => d.field !== 'gate') : [];
      let shown = false;
      for (const d of details) {
        const slot = errors.get(d.field);
        if (!slot) continue;
        slot.textContent = d.message;
        slot.hidden = false;
        inputs.get(d.field)?.setAttribute('aria-describedby', slot.id);
        if (!shown) inputs.get(d.field)?.focus();
        shown = true;
      }
      if (!shown) {
        general.textContent = error instanceof Error ? error.message : 'Something went wrong';
        general.hidden = false;
      }
    }
  });
  const lead = state.fields.includes('password') ? 'This hub is protected. Enter the password you were given.' : 'Tell us who you are to see the demos.';
  return h(
    'main',
    { class: 'hub-gate' },
    h(
      'div',
      { class: 'hub-gate-card' },
      brandLogo(brand, 'hub-logo') ?? h('span', { class: 'hub-gate-icon' }, icon(state.fields.includes('password') ? ICONS.lock : ICONS.user, 22)),
      h('h1', {}, state.hub.title),
      state.hub.intro ? h('p', { class: 'hub-intro' }, state.hub.intro) : null,
      h('p', { class: 'hub-gate-lead' }, lead),
      form,
    ),
  );
}
