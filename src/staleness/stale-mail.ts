// The e-mail a demo's owner gets when a scheduled check finds their demo no longer matches its pages.
import { linkMail } from '../mail/link-mail';
import type { Mail } from '../mail/mailer';
import type { StepResult } from './staleness.tables';

const REASON_WORDS: Record<string, string> = {
  text_changed: 'its text changed',
  box_moved: 'it moved',
  image_changed: 'it looks different',
  target_missing: 'its target is gone',
  login_required: 'the page asks for a sign-in',
  not_found: 'the page is gone',
  http_error: 'the page answers with an error',
  blocked: 'the address is refused',
  timeout: 'the page took too long',
  unreachable: 'the page could not be reached',
};
const LISTED = 10;

/** A plain message: which steps, why, and a link to the demo in the editor. */
export function staleMail(to: string, input: { appUrl: string; demo: { id: string; title: string }; stale: StepResult[] }): Mail {
  const lines = input.stale.slice(0, LISTED).map((r) => `Step ${r.number}: ${r.reasons.map((x) => REASON_WORDS[x] ?? x).join(', ')}.`);
  if (input.stale.length > LISTED) lines.push(`And ${input.stale.length - LISTED} more.`);
  return linkMail({
    to,
    subject: `“${input.demo.title}” no longer matches its pages`,
    intro: [
      `The scheduled check of “${input.demo.title}” found ${input.stale.length} step${input.stale.length === 1 ? '' : 's'} that no longer match the pages ${input.stale.length === 1 ? 'it was' : 'they were'} made from:`,
      ...lines,
    ],
    action: 'Open the demo',
    url: `${input.appUrl}/demos/${input.demo.id}`,
    outro: ['In the editor, stale steps are marked; each can be replaced with the new capture, keeping its text and patches.'],
  });
}
