import './gates.css';
import { type ViewerApi, ViewerError } from './api';
import type { Brand } from './brand';
import { h, ICONS, icon } from './dom';
import type { ViewerState } from './wire';

/** Called with the link's state once the form passed (or when the link changed under it). */
type OnPassed = (state: ViewerState) => void;

/** A centred card: every screen before the demo itself (gates, errors) is one of these. */
function card(kind: string, glyph: string, title: string, text: string, ...body: (Node | null)[]): HTMLElement {
  const headingId = `ds-${kind}-title`;
  return h(
    'main',
    { class: `ds-screen ds-screen-${kind}`, 'aria-labelledby': headingId },
    h(
      'section',
      { class: 'ds-card' },
      h('div', { class: 'ds-card-icon' }, icon(glyph, 22)),
      h('h1', { id: headingId, class: 'ds-card-title' }, title),
      h('p', { class: 'ds-card-text' }, text),
      ...body,
    ),
  );
}

function field(id: string, label: string, attrs: Record<string, string | boolean>) {
  const input = h('input', { id, name: id.replace(/^ds-/, ''), class: 'ds-input', ...attrs });
  const error = h('p', { id: `${id}-error`, class: 'ds-field-error', hidden: true });
  return {
    input,
    node: h('div', { class: 'ds-field' }, h('label', { for: id, class: 'ds-label' }, label), input, error),
    setError(message: string | null) {
      error.textContent = message ?? '';
      error.hidden = !message;
      if (message) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', error.id);
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    },
  };
}

function submitButton(label: string) {
  return h('button', { type: 'submit', class: 'ds-button ds-button-primary ds-button-block' }, label);
}

function formAlert() {
  return h('div', { class: 'ds-alert', role: 'alert', hidden: true });
}

function showAlert(el: HTMLElement, message: string | null) {
  el.textContent = message && !/[.!?]$/.test(message) ? `${message}.` : (message ?? '');
  el.hidden = !message;
}

const sentence = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
export function waitText(seconds: number): string {
  return seconds < 90 ? plural(Math.ceil(seconds), 'second') : plural(Math.ceil(seconds / 60), 'minute');
}

async function busy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = 'Checking…';
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

type GateState = Pick<ViewerState, 'gate' | 'fields' | 'title'> & { brand: Brand | null };

/** What the card says above the form: who shared, what, and what is asked. */
function gateText(state: GateState, sender: string) {
  const asks = state.fields;
  const password = asks.includes('password');
  const identify = asks.includes('email');
  const text =
    password && identify
      ? `Enter the password you were given, and tell ${sender} who you are.`
      : password
        ? 'Enter the password you were given to view it.'
        : `${sender} asks viewers for their name and work e-mail.`;
  return { heading: state.title ?? `${sender} shared a demo with you`, kicker: state.title ? `${sender} shared a demo with you` : null, text };
}

/**
 * The one gate: every field the link still asks for (password, name, e-mail) in one form and one submit,
 * under the sharing workspace's name. Each refusal lands on its field; the other fields keep their values.
 */
export function gateScreen(api: ViewerApi, state: GateState, onPassed: OnPassed): HTMLElement {
  const sender = state.brand?.name || 'Someone';
  const asks = new Set(state.fields);
  const password = asks.has('password')
    ? field('ds-password', 'Password', { type: 'password', autocomplete: 'current-password', required: true, maxlength: '200' })
    : null;
  const name = asks.has('name') ? field('ds-name', 'Your name', { type: 'text', autocomplete: 'name', required: true, maxlength: '100' }) : null;
  const email = asks.has('email')
    ? field('ds-email', 'Work e-mail', { type: 'email', autocomplete: 'email', required: true, maxlength: '254' })
    : null;
  const inputs = { password, name, email };
  const alert = formAlert();
  const button = submitButton('View demo');
  let lockedUntil = 0;
  let countdown: ReturnType<typeof setInterval> | null = null;

  function lockFor(seconds: number) {
    lockedUntil = Date.now() + seconds * 1000;
    button.disabled = true;
    const tick = () => {
      const left = (lockedUntil - Date.now()) / 1000;
      if (left <= 0) {
        if (countdown) clearInterval(countdown);
        countdown = null;
        button.disabled = false;
        showAlert(alert, 'You can try again now.');
        return;
      }
      showAlert(alert, `Too many attempts. Try again in ${waitText(left)}.`);
    };
    tick();
    countdown = setInterval(tick, 1000);
  }

  /** The first field at fault gets the focus; every field at fault gets its message. */
  function mark(errors: Partial<Record<keyof typeof inputs, string>>) {
    let first: HTMLInputElement | null = null;
    for (const key of ['password', 'name', 'email'] as const) {
      const f = inputs[key];
      if (!f) continue;
      f.setError(errors[key] ?? null);
      if (errors[key] && !first) first = f.input as HTMLInputElement;
    }
    if (first) {
      first.focus();
      if (first === inputs.password?.input) first.select();
    }
    return first !== null;
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (Date.now() < lockedUntil) return;
    const values = {
      password: password ? (password.input as HTMLInputElement).value : undefined,
      name: name ? (name.input as HTMLInputElement).value.trim() : undefined,
      email: email ? (email.input as HTMLInputElement).value.trim() : undefined,
    };
    showAlert(alert, null);
    const local = mark({
      password: password && !values.password ? 'Enter the password you were given.' : undefined,
      name: name && !values.name ? 'Enter your name.' : undefined,
      email: !email
        ? undefined
        : !values.email
          ? 'Enter your work e-mail.'
          : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)
            ? undefined
            : 'Enter a valid e-mail address.',
    });
    if (local) return;
    try {
      onPassed(await busy(button, () => api.access(values)));
    } catch (err) {
      const e = err instanceof ViewerError ? err : new ViewerError(0, 'internal_error', 'Something went wrong.');
      const on = (f: string) => e.details.find((d) => d.field === f)?.message;
      if (e.status === 429) return lockFor(e.retryAfter ?? 60);
      if (e.status === 401 && !password) {
        // The password changed while the viewer typed: ask again for what the link needs now.
        return onPassed(await api.state());
      }
      const errors = {
        password: e.status === 401 ? 'That password is not correct. Check it and try again.' : on('password') && sentence(on('password')!),
        name: on('name') && sentence(on('name')!),
        email: e.status === 403 ? 'This address may not view this demo. Ask the person who shared it for access.' : on('email') && sentence(on('email')!),
      };
      if (!mark(errors)) showAlert(alert, e.message);
    }
  }

  const text = gateText(state, sender);
  const form = h(
    'form',
    { class: 'ds-form', novalidate: true, onsubmit: (event: Event) => void submit(event) },
    password?.node ?? null,
    name?.node ?? null,
    email?.node ?? null,
    alert,
    button,
    email ? h('p', { class: 'ds-fineprint' }, `${sender} will see your name and e-mail address.`) : null,
  );
  const headingId = 'ds-gate-title';
  return h(
    'main',
    { class: 'ds-screen ds-screen-gate', 'aria-labelledby': headingId },
    h(
      'section',
      { class: 'ds-card ds-gate' },
      h('div', { class: 'ds-card-icon' }, icon(password ? ICONS.lock : ICONS.user, 22)),
      text.kicker ? h('p', { class: 'ds-gate-kicker' }, text.kicker) : null,
      h('h1', { id: headingId, class: 'ds-card-title' }, text.heading),
      h('p', { class: 'ds-card-text' }, text.text),
      form,
    ),
  );
}

/** Screens for links that cannot be played: expired, revoked or unknown, not published, or a failure. */
export function problemScreen(error: ViewerError, retry: () => void): HTMLElement {
  if (error.status === 410) {
    return card('expired', ICONS.clock, 'This link has expired', 'Ask the person who shared it with you for a new link.');
  }
  const gate = error.details.find((d) => d.field === 'gate')?.message;
  if (error.status === 404 && (gate === 'not_published' || /not published/i.test(error.message))) {
    return card('unpublished', ICONS.eyeOff, 'This demo is not published yet', 'It will play here as soon as its team publishes it. Check back later.');
  }
  if (error.status === 404) {
    return card('not-found', ICONS.search, 'This demo is not available', 'The link may be mistyped, or it was revoked by the team that shared it.');
  }
  const again = h('button', { type: 'button', class: 'ds-button ds-button-primary', onclick: retry }, 'Try again');
  const message = error.status === 429 ? `Too many requests. Try again in ${waitText(error.retryAfter ?? 60)}.` : error.message;
  return card('error', ICONS.alert, 'The demo could not be loaded', message, again);
}
