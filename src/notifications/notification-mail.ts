// The text and HTML of the two notification e-mails: one identified viewer, and the daily digest.
import { linkMail } from '../mail/link-mail';
import type { Mail } from '../mail/mailer';

const quote = (text: string) => `“${text}”`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function why(appUrl: string, workspace: string, what: string) {
  return [`You get ${what} because you asked for them in ${workspace}. Change or stop them at ${appUrl}/account#notifications.`];
}

/** Who opened the demo, as the viewer e-mail names them. */
export interface IdentifiedViewer {
  email: string;
  name: string | null;
  at: Date;
}

/** "Someone opened your demo": one identified viewer on one link. */
export function viewerMail(
  to: string,
  input: { appUrl: string; workspace: string; viewer: IdentifiedViewer; demo: { id: string; title: string }; link: string },
): Mail {
  const who = input.viewer.name ? `${input.viewer.name} (${input.viewer.email})` : input.viewer.email;
  const time = input.viewer.at.toISOString().slice(11, 16);
  const through = input.link ? ` through the link ${quote(input.link)}` : '';
  return linkMail({
    to,
    subject: `${input.viewer.name || input.viewer.email} opened ${quote(input.demo.title)}`,
    intro: [`${who} opened ${quote(input.demo.title)}${through} at ${time} UTC.`],
    action: 'See how far they get',
    url: `${input.appUrl}/demos/${input.demo.id}/analytics`,
    outro: why(input.appUrl, input.workspace, 'these e-mails'),
  });
}

/** One day of a workspace's views, as the digest e-mail tells it. */
export interface Digest {
  day: string;
  views: number;
  completed: number;
  demos: { title: string; views: number; completed: number }[];
  newCompanies: { domain: string; viewers: number }[];
  viewers: { email: string; name: string | null; demo: string; completed: boolean }[];
}

const MAX_LINES = 10;

/** One day of viewers in a workspace, as the daily digest tells it. */
export function digestMail(to: string, input: { appUrl: string; workspace: string; digest: Digest }): Mail {
  const { digest } = input;
  const intro = [
    `On ${digest.day} (UTC), your demos in ${input.workspace} had ${plural(digest.views, 'view')}; ${plural(digest.completed, 'viewer')} reached the end.`,
  ];
  if (digest.newCompanies.length > 0) {
    const list = digest.newCompanies
      .slice(0, MAX_LINES)
      .map((c) => `${c.domain} (${plural(c.viewers, 'viewer')})`)
      .join(', ');
    const more = digest.newCompanies.length > MAX_LINES ? ` and ${digest.newCompanies.length - MAX_LINES} more` : '';
    intro.push(`New companies: ${list}${more}.`);
  }
  intro.push(
    `By demo: ${digest.demos
      .slice(0, MAX_LINES)
      .map((d) => `${quote(d.title)} ${plural(d.views, 'view')}, ${d.completed} completed`)
      .join('; ')}.`,
  );
  if (digest.viewers.length > 0) {
    const names = digest.viewers
      .slice(0, MAX_LINES)
      .map((v) => `${v.name ? `${v.name} (${v.email})` : v.email} on ${quote(v.demo)}${v.completed ? ', to the end' : ''}`);
    const more = digest.viewers.length > MAX_LINES ? ` and ${digest.viewers.length - MAX_LINES} more` : '';
    intro.push(`Who: ${names.join('; ')}${more}.`);
  }
  return linkMail({
    to,
    subject: `${input.workspace} on ${digest.day}: ${plural(digest.views, 'view')}, ${digest.completed} completed`,
    intro,
    action: 'Open analytics',
    url: `${input.appUrl}/analytics`,
    outro: why(input.appUrl, input.workspace, 'this digest'),
  });
}
