import './gates.css';
import { type ViewerApi, ViewerError } from './api';
import { h, ICONS, icon } from './dom';
import type { ViewerState } from './wire';

/** Only the next gate matters to what follows (a closed password gate is known without asking). */
type OnPassed = (state: Pick<ViewerState, 'gate'>) => void;

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

export function passwordScreen(api: ViewerApi, onPassed: OnPassed): HTMLElement {
  const password = field('ds-password', 'Password', { type: 'password', autocomplete: 'current-password', required: true });
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

  const form = h(
    'form',
    {
      class: 'ds-form',
      novalidate: true,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        if (Date.now() < lockedUntil) return;
        const value = password.input.value;
        if (!value) {
          password.setError('Enter the password you were given.');
          password.input.focus();
          return;
        }
        password.setError(null);
        showAlert(alert, null);
        try {
          const state = await busy(button, () => api.unlock(value));
          onPassed(state);
        } catch (err) {
          const e = err instanceof ViewerError ? err : new ViewerError(0, 'internal_error', 'Something went wrong.');
          if (e.status === 401 || e.status === 403) {
            password.setError('That password is not correct. Check it and try again.');
            password.input.select();
            password.input.focus();
          } else if (e.status === 429) {
            lockFor(e.retryAfter ?? 60);
          } else {
            showAlert(alert, e.message);
          }
        }
      },
    },
    password.node,
    alert,
    button,
  );
  return card(
    'password',
    ICONS.lock,
    'This demo is password protected',
    'Enter the password you were given to view it.',
    form,
  );
}

export function identifyScreen(api: ViewerApi, onPassed: OnPassed): HTMLElement {
  const name = field('ds-name', 'Your name', { type: 'text', autocomplete: 'name', required: true, maxlength: '200' });
  const email = field('ds-email', 'Work e-mail', { type: 'email', autocomplete: 'email', required: true, maxlength: '320' });
  const alert = formAlert();
  const button = submitButton('Continue to demo');
  const form = h(
    'form',
    {
      class: 'ds-form',
      novalidate: true,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const nameValue = name.input.value.trim();
        const emailValue = email.input.value.trim();
        name.setError(nameValue ? null : 'Enter your name.');
        email.setError(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(emailValue) ? null : 'Enter a valid e-mail address.');
        showAlert(alert, null);
        if (!nameValue) return name.input.focus();
        if (email.input.hasAttribute('aria-invalid')) return email.input.focus();
        try {
          onPassed(await busy(button, () => api.identify(nameValue, emailValue)));
        } catch (err) {
          const e = err instanceof ViewerError ? err : new ViewerError(0, 'internal_error', 'Something went wrong.');
          // `details` may also name the gate that refused (field "gate"): only name and email are inputs.
          const nameError = e.details.find((d) => d.field === 'name')?.message;
          const emailError = e.details.find((d) => d.field === 'email')?.message;
          if (nameError) name.setError(sentence(nameError));
          if (emailError) email.setError(sentence(emailError));
          if (e.status === 429) showAlert(alert, `Too many attempts. Try again in ${waitText(e.retryAfter ?? 60)}.`);
          else if (e.status === 401) {
            // The password gate closed again (the password changed): start over from the link's state.
            onPassed({ gate: 'password' });
          } else if (!nameError && !emailError) {
            showAlert(alert, e.status === 403 ? e.message || 'This e-mail address is not allowed to view this demo.' : e.message);
          }
        }
      },
    },
    name.node,
    email.node,
    alert,
    button,
    h('p', { class: 'ds-fineprint' }, 'The team that shared this demo will see your name and e-mail address.'),
  );
  return card('identify', ICONS.user, 'Tell us who you are', 'The person who shared this demo asks viewers to identify themselves.', form);
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
