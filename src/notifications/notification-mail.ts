// The text and HTML of the two notification e-mails: one identified viewer, and the daily digest.
import { type LinkedParagraph, linkMail } from '../mail/link-mail';
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

/** One hub's day in a digest: visits opened, and who gave their address (one line per address). */
export interface HubDigest {
  id: string;
  name: string;
  visits: number;
  visitors: { email: string; name: string | null; company: string | null }[];
}

const MAX_LINES = 10;

/** "12 hub visits, 2 visitors identified": the hubs' part of a digest's subject (and of the Slack digest's headline). */
export function hubTotals(hubs: ReadonlyArray<Pick<HubDigest, 'visits' | 'visitors'>>) {
  const visits = hubs.reduce((n, h) => n + h.visits, 0);
  const identified = hubs.reduce((n, h) => n + h.visitors.length, 0);
  return `${plural(visits, 'hub visit')}${identified > 0 ? `, ${plural(identified, 'visitor')} identified` : ''}`;
}

/** The digest's hub section: per hub, its visits and who identified, with a link to its Visitors card. */
function hubLines(appUrl: string, hubs: readonly HubDigest[]): LinkedParagraph[] {
  const lines = hubs.slice(0, MAX_LINES).map((h) => {
    const who = h.visitors
      .slice(0, MAX_LINES)
      .map((v) => {
        const about = [v.email, ...(v.company ? [v.company] : [])].join(', ');
        return v.name ? `${v.name} (${about})` : about;
      })
      .join('; ');
    const more = h.visitors.length > MAX_LINES ? ` and ${h.visitors.length - MAX_LINES} more` : '';
    const identified = h.visitors.length > 0 ? `, ${plural(h.visitors.length, 'visitor')} identified: ${who}${more}` : '';
    return {
      text: `${quote(h.name)}: ${plural(h.visits, 'visit')}${identified}.`,
      link: { label: 'See the hub’s visitors', url: `${appUrl}/hubs/${h.id}#visitors` },
    };
  });
  if (hubs.length > MAX_LINES) {
    lines.push({ text: `And ${plural(hubs.length - MAX_LINES, 'more hub')}.`, link: { label: 'See all hubs', url: `${appUrl}/hubs` } });
  }
  return lines;
}

/**
 * One day of a workspace in the daily digest: its demos' views (null: none that day) and, where there was
 * any, the activity on the hubs the member's setting covers. One of the two at least.
 */
export function digestMail(
  to: string,
  input: { appUrl: string; workspace: string; day: string; digest: Digest | null; hubs: readonly HubDigest[] },
): Mail {
  const { digest, hubs, day } = input;
  const intro: string[] = [];
  const subject: string[] = [];
  if (digest) {
    intro.push(
      `On ${day} (UTC), your demos in ${input.workspace} had ${plural(digest.views, 'view')}; ${plural(digest.completed, 'viewer')} reached the end.`,
    );
    subject.push(`${plural(digest.views, 'view')}, ${digest.completed} completed`);
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
  } else {
    intro.push(`On ${day} (UTC), your demos in ${input.workspace} had no views; your hubs had visitors.`);
  }
  if (hubs.length > 0) subject.push(hubTotals(hubs));
  return linkMail({
    to,
    subject: `${input.workspace} on ${day}: ${subject.join('; ')}`,
    intro,
    sections: hubs.length > 0 ? [{ title: 'Hubs', items: hubLines(input.appUrl, hubs) }] : [],
    ...(digest ? { action: 'Open analytics', url: `${input.appUrl}/analytics` } : { action: 'Open your hubs', url: `${input.appUrl}/hubs` }),
    outro: why(input.appUrl, input.workspace, 'this digest'),
  });
}
